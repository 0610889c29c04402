# RUN: %python %s > %t.mlir
# RUN: filecheck %s --input-file=%t.mlir
# RUN: mytriton-opt --split-input-file %t.mlir -o %t.opt.mlir
# RUN: filecheck %s --input-file=%t.opt.mlir
# RUN: %{same_ir} %t.mlir %t.opt.mlir
# ruff: noqa: N803  (kernels keep Triton's parameter names)
"""The seed's relu_kernel: tl.maximum(v, 0.0) shares the splat of 0.0 with the load's `other`."""

import sys

import numpy as np

import mytriton as triton
import mytriton.language as tl
from mytriton.backends.stages import strip_locations


@triton.jit
def relu_kernel(x, out, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    v = tl.load(x + offsets, mask=mask, other=0.0)
    tl.store(out + offsets, tl.maximum(v, 0.0), mask=mask)


a = np.zeros(1000, np.float32)
compiled = relu_kernel.warmup(a, a, 1000, grid=(4,), BLOCK=256)
print(strip_locations(compiled.asm[sys.argv[1] if len(sys.argv) > 1 else "tt-opt"]))

# CHECK-LABEL: func.func @relu_kernel(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
# CHECK:         %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
# CHECK-NEXT:    %[[ZEROS:.*]] = tt.splat %[[ZERO]] : f32 -> tensor<256xf32>
# CHECK-NEXT:    %v = tt.load %{{.*}}, %mask, %[[ZEROS]] : tensor<256x!tt.ptr<f32>>
# CHECK-NOT:     arith.constant
# CHECK:         %[[R:.*]] = tt.maximum %v, %[[ZEROS]] : tensor<256xf32>
# CHECK-NEXT:    tt.store %{{.*}}, %[[R]], %mask : tensor<256x!tt.ptr<f32>>
