# RUN: %python %s > %t.mlir
# RUN: filecheck %s --input-file=%t.mlir
# RUN: mytriton-opt --split-input-file %t.mlir -o %t.opt.mlir
# RUN: filecheck %s --input-file=%t.opt.mlir
# RUN: %{same_ir} %t.mlir %t.opt.mlir
# ruff: noqa: N803  (kernels keep Triton's names; FileCheck lines are long)
"""The seed's leaky_relu_kernel: tl.where is tt.select on an f32 comparison; alpha is an f32
runtime scalar splatted once."""

import sys

import numpy as np

import mytriton as triton
import mytriton.language as tl
from mytriton.backends.stages import strip_locations


@triton.jit
def leaky_relu_kernel(x, out, n, alpha, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    v = tl.load(x + offsets, mask=mask, other=0.0)
    tl.store(out + offsets, tl.where(v > 0, v, v * alpha), mask=mask)


a = np.zeros(1000, np.float32)
compiled = leaky_relu_kernel.warmup(a, a, 1000, 0.01, grid=(4,), BLOCK=256)
print(strip_locations(compiled.asm[sys.argv[1] if len(sys.argv) > 1 else "tt-opt"]))

# CHECK-LABEL: func.func @leaky_relu_kernel(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32, %alpha: f32) {
# CHECK:         %[[ZEROS:.*]] = tt.splat %{{.*}} : f32 -> tensor<256xf32>
# CHECK-NEXT:    %v = tt.load %{{.*}}, %mask, %[[ZEROS]] : tensor<256x!tt.ptr<f32>>
# CHECK:         %[[POS:.*]] = tt.cmp gt, %v, %[[ZEROS]] : tensor<256xf32>
# CHECK-NEXT:    %[[A:.*]] = tt.splat %alpha : f32 -> tensor<256xf32>
# CHECK-NEXT:    %[[NEG:.*]] = tt.mul %v, %[[A]] : tensor<256xf32>
# CHECK-NEXT:    %[[R:.*]] = tt.select %[[POS]], %v, %[[NEG]] : tensor<256xf32>
# CHECK-NEXT:    tt.store %{{.*}}, %[[R]], %mask : tensor<256x!tt.ptr<f32>>
