# RUN: %python %s > %t.mlir
# RUN: filecheck %s --input-file=%t.mlir
# RUN: mytriton-opt --split-input-file %t.mlir -o %t.opt.mlir
# RUN: filecheck %s --input-file=%t.opt.mlir
# RUN: %{same_ir} %t.mlir %t.opt.mlir
# ruff: noqa: N803  (kernels keep Triton's names; FileCheck lines are long)
"""The seed's copy_kernel: a load without `other` gets a zero `other` of the pointee type."""

import sys

import numpy as np

import mytriton as triton
import mytriton.language as tl
from mytriton.backends.stages import strip_locations


@triton.jit
def copy_kernel(x, out, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(out + offsets, tl.load(x + offsets, mask=mask), mask=mask)


a = np.zeros(1000, np.float32)
compiled = copy_kernel.warmup(a, a, 1000, grid=(4,), BLOCK=256)
print(strip_locations(compiled.asm[sys.argv[1] if len(sys.argv) > 1 else "tt-opt"]))

# CHECK-LABEL: func.func @copy_kernel(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
# CHECK:         %offsets = tt.add %{{.*}}, %{{.*}} : tensor<256xi32>
# CHECK:         %mask = tt.cmp lt, %offsets, %{{.*}} : tensor<256xi32>
# CHECK:         %[[OUTP:.*]] = tt.addptr %{{.*}}, %offsets : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
# CHECK:         %[[XP:.*]] = tt.addptr %{{.*}}, %offsets : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
# CHECK:         %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
# CHECK-NEXT:    %[[ZEROS:.*]] = tt.splat %[[ZERO]] : f32 -> tensor<256xf32>
# CHECK-NEXT:    %[[V:.*]] = tt.load %[[XP]], %mask, %[[ZEROS]] : tensor<256x!tt.ptr<f32>>
# CHECK-NEXT:    tt.store %[[OUTP]], %[[V]], %mask : tensor<256x!tt.ptr<f32>>
# CHECK-NEXT:    func.return
