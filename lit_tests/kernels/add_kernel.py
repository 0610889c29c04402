# RUN: %python %s > %t.mlir
# RUN: filecheck %s --input-file=%t.mlir
# RUN: %python %s tt | filecheck %s --check-prefix=TT
# RUN: mytriton-opt --split-input-file %t.mlir -o %t.opt.mlir
# RUN: filecheck %s --input-file=%t.opt.mlir
# RUN: %{same_ir} %t.mlir %t.opt.mlir
# ruff: noqa: N803  (FileCheck lines are long; kernels keep Triton's names)
"""The seed's add_kernel: offsets and mask computed once and shared (CSE joins the two `other`
constants the frontend emits)."""

import sys

import numpy as np

import mytriton as triton
import mytriton.language as tl
from mytriton.backends.stages import strip_locations


@triton.jit
def add_kernel(x, y, out, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x_values = tl.load(x + offsets, mask=mask, other=0.0)
    y_values = tl.load(y + offsets, mask=mask, other=0.0)
    tl.store(out + offsets, x_values + y_values, mask=mask)


a = np.zeros(1000, np.float32)
compiled = add_kernel.warmup(a, a, a, 1000, grid=(4,), BLOCK=256)
print(strip_locations(compiled.asm[sys.argv[1] if len(sys.argv) > 1 else "tt-opt"]))

# CHECK-LABEL: func.func @add_kernel(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
# CHECK-NEXT:    %[[PID:.*]] = tt.get_program_id x : i32
# CHECK-NEXT:    %[[BLOCK:.*]] = arith.constant 256 : i32
# CHECK-NEXT:    %[[START:.*]] = tt.mul %[[PID]], %[[BLOCK]] : i32
# CHECK-NEXT:    %[[RANGE:.*]] = tt.make_range {start = 0 : i32, end = 256 : i32} : tensor<256xi32>
# CHECK-NEXT:    %[[STARTS:.*]] = tt.splat %[[START]] : i32 -> tensor<256xi32>
# CHECK-NEXT:    %offsets = tt.add %[[STARTS]], %[[RANGE]] : tensor<256xi32>
# CHECK-NEXT:    %[[N:.*]] = tt.splat %n : i32 -> tensor<256xi32>
# CHECK-NEXT:    %mask = tt.cmp lt, %offsets, %[[N]] : tensor<256xi32>
# CHECK-NEXT:    %[[XS:.*]] = tt.splat %x : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
# CHECK-NEXT:    %[[XP:.*]] = tt.addptr %[[XS]], %offsets : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
# CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
# CHECK-NEXT:    %[[ZEROS:.*]] = tt.splat %[[ZERO]] : f32 -> tensor<256xf32>
# CHECK-NEXT:    %x_values = tt.load %[[XP]], %mask, %[[ZEROS]] : tensor<256x!tt.ptr<f32>>
# CHECK-NOT:     arith.constant
# CHECK:         %y_values = tt.load %{{.*}}, %mask, %[[ZEROS]] : tensor<256x!tt.ptr<f32>>
# CHECK:         %[[OP:.*]] = tt.addptr %{{.*}}, %offsets : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
# CHECK-NEXT:    %[[SUM:.*]] = tt.add %x_values, %y_values : tensor<256xf32>
# CHECK-NEXT:    tt.store %[[OP]], %[[SUM]], %mask : tensor<256x!tt.ptr<f32>>
# CHECK-NEXT:    func.return

# Before the passes, each load has its own `other` constant.
# TT-LABEL: func.func @add_kernel(
# TT:         arith.constant 0.000000e+00 : f32
# TT:         %x_values = tt.load
# TT:         arith.constant 0.000000e+00 : f32
# TT:         %y_values = tt.load
