# RUN: %python %s > %t.mlir
# RUN: filecheck %s --input-file=%t.mlir
# RUN: mytriton-opt --split-input-file %t.mlir -o %t.opt.mlir
# RUN: filecheck %s --input-file=%t.opt.mlir
# RUN: %{same_ir} %t.mlir %t.opt.mlir
# ruff: noqa: N803  (kernels keep Triton's parameter names)
"""The seed's sigmoid_kernel: 1 / (1 + exp(-v)) as 0 - v (Triton's negation), exp, add, div on f32 blocks."""

import sys

import numpy as np

import mytriton as triton
import mytriton.language as tl
from mytriton.backends.stages import strip_locations


@triton.jit
def sigmoid_kernel(x, out, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    v = tl.load(x + offsets, mask=mask, other=0.0)
    tl.store(out + offsets, 1.0 / (1.0 + tl.exp(-v)), mask=mask)


a = np.zeros(1000, np.float32)
compiled = sigmoid_kernel.warmup(a, a, 1000, grid=(4,), BLOCK=256)
print(strip_locations(compiled.asm[sys.argv[1] if len(sys.argv) > 1 else "tt-opt"]))

# CHECK-LABEL: func.func @sigmoid_kernel(
# CHECK:         %v = tt.load %{{.*}}, %mask, %{{.*}} : tensor<256x!tt.ptr<f32>>
# CHECK:         %[[NEG:.*]] = tt.sub %{{.*}}, %v : tensor<256xf32>
# CHECK-NEXT:    %[[E:.*]] = tt.exp %[[NEG]] : tensor<256xf32>
# CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
# CHECK-NEXT:    %[[ONES:.*]] = tt.splat %[[ONE]] : f32 -> tensor<256xf32>
# CHECK-NEXT:    %[[DEN:.*]] = tt.add %[[ONES]], %[[E]] : tensor<256xf32>
# CHECK-NEXT:    %[[R:.*]] = tt.div %[[ONES]], %[[DEN]] : tensor<256xf32>
# CHECK-NEXT:    tt.store %{{.*}}, %[[R]], %mask : tensor<256x!tt.ptr<f32>>
