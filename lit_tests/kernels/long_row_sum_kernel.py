# RUN: %python %s > %t.mlir
# RUN: filecheck %s --input-file=%t.mlir
# RUN: mytriton-opt --split-input-file %t.mlir -o %t.opt.mlir
# RUN: filecheck %s --input-file=%t.opt.mlir
# RUN: %{same_ir} %t.mlir %t.opt.mlir
# ruff: noqa: N803  (kernels keep Triton's parameter names)
"""The seed's long_row_sum_kernel: tl.static_range unrolls CHUNKS block-sized loads into one
partial block, then one tt.reduce. No loop reaches the IR; the row's base pointers and the
`idx < N` bound are shared by every chunk."""

import sys

import numpy as np

import mytriton as triton
import mytriton.language as tl
from mytriton.backends.stages import strip_locations


@triton.jit
def long_row_sum_kernel(x, out, N, BLOCK: tl.constexpr, CHUNKS: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    partial = tl.zeros((BLOCK,), tl.float32)
    for c in tl.static_range(0, CHUNKS):
        idx = c * BLOCK + cols
        partial += tl.load(x + row * N + idx, mask=idx < N, other=0.0)
    tl.store(out + row, tl.sum(partial, axis=0))


a = np.zeros(4 * 1000, np.float32)
compiled = long_row_sum_kernel.warmup(a, a, 1000, grid=(4,), BLOCK=256, CHUNKS=4)
print(strip_locations(compiled.asm[sys.argv[1] if len(sys.argv) > 1 else "tt-opt"]))

# CHECK-LABEL: func.func @long_row_sum_kernel(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %N: i32) {
# CHECK-NOT:     scf.for
# CHECK:         %partial = tt.zeros : tensor<256xf32>
# CHECK:         %[[BASES:.*]] = tt.splat %{{.*}} : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
# CHECK:         %[[NS:.*]] = tt.splat %N : i32 -> tensor<256xi32>
# Chunk 0: idx is cols itself (0 * BLOCK + cols folds away).
# CHECK:         %[[L0:.*]] = tt.load %{{.*}}, %{{.*}}, %[[ZEROS:.*]] : tensor<256x!tt.ptr<f32>>
# CHECK-NEXT:    %partial_1 = tt.add %partial, %[[L0]] : tensor<256xf32>
# CHECK:         arith.constant 256 : i32
# CHECK:         %idx = tt.add %{{.*}}, %cols : tensor<256xi32>
# CHECK-NEXT:    tt.addptr %[[BASES]], %idx : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
# CHECK-NEXT:    tt.cmp lt, %idx, %[[NS]] : tensor<256xi32>
# CHECK:         %partial_2 = tt.add %partial_1, %{{.*}} : tensor<256xf32>
# CHECK:         arith.constant 512 : i32
# CHECK:         %partial_3 = tt.add %partial_2, %{{.*}} : tensor<256xf32>
# CHECK:         arith.constant 768 : i32
# CHECK:         tt.load %{{.*}}, %{{.*}}, %[[ZEROS]] : tensor<256x!tt.ptr<f32>>
# CHECK-NEXT:    %partial_4 = tt.add %partial_3, %{{.*}} : tensor<256xf32>
# CHECK-NOT:     tt.load
# CHECK:         %[[S:.*]] = tt.reduce %partial_4 {axis = 0 : i32} : tensor<256xf32> -> f32 {
# CHECK-NEXT:         ^bb0(%{{.*}}: f32, %{{.*}}: f32):
# CHECK-NEXT:           %{{.*}} = tt.add %{{.*}}, %{{.*}} : f32
# CHECK-NEXT:           tt.reduce.return %{{.*}} : f32
# CHECK-NEXT:         }
# CHECK-NEXT:    tt.store %{{.*}}, %[[S]] : !tt.ptr<f32>
