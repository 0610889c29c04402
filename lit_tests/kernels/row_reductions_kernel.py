# RUN: %python %s > %t.mlir
# RUN: filecheck %s --input-file=%t.mlir
# RUN: mytriton-opt --split-input-file %t.mlir -o %t.opt.mlir
# RUN: filecheck %s --input-file=%t.opt.mlir
# RUN: %{same_ir} %t.mlir %t.opt.mlir
# ruff: noqa: N803  (kernels keep Triton's names; FileCheck lines are long)
"""The seed's row-wise reductions: one row per program, tl.sum/max/min(axis=0) of a rank-1
block to an f32 scalar, stored through a scalar pointer. max/min load with -inf/+inf."""

import sys

import numpy as np

import mytriton as triton
import mytriton.language as tl
from mytriton.backends.stages import strip_locations


@triton.jit
def row_sum_kernel(x, out, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    v = tl.load(x + row * N + cols, mask=cols < N, other=0.0)
    tl.store(out + row, tl.sum(v, axis=0))


@triton.jit
def row_max_kernel(x, out, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    v = tl.load(x + row * N + cols, mask=cols < N, other=-float("inf"))
    tl.store(out + row, tl.max(v, axis=0))


@triton.jit
def row_min_kernel(x, out, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    v = tl.load(x + row * N + cols, mask=cols < N, other=float("inf"))
    tl.store(out + row, tl.min(v, axis=0))


a = np.zeros(100 * 100, np.float32)
stage = sys.argv[1] if len(sys.argv) > 1 else "tt-opt"
kernels = (row_sum_kernel, row_max_kernel, row_min_kernel)
print(
    "\n// -----\n".join(
        strip_locations(k.warmup(a, a, 100, grid=(100,), BLOCK=128).asm[stage]) for k in kernels
    )
)

# CHECK-LABEL: func.func @row_sum_kernel(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %N: i32) {
# CHECK:         %row = tt.get_program_id x : i32
# CHECK-NEXT:    %cols = tt.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
# The row's base pointer is computed on scalars, then splatted once.
# CHECK-NEXT:    %[[OFF:.*]] = tt.mul %row, %N : i32
# CHECK-NEXT:    %[[BASE:.*]] = tt.addptr %x, %[[OFF]] : !tt.ptr<f32>, i32
# CHECK-NEXT:    %[[BASES:.*]] = tt.splat %[[BASE]] : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
# CHECK-NEXT:    %[[PTRS:.*]] = tt.addptr %[[BASES]], %cols : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
# CHECK:         %[[M:.*]] = tt.cmp lt, %cols, %{{.*}} : tensor<128xi32>
# CHECK:         arith.constant 0.000000e+00 : f32
# CHECK:         %v = tt.load %[[PTRS]], %[[M]], %{{.*}} : tensor<128x!tt.ptr<f32>>
# CHECK-NEXT:    %[[OUT:.*]] = tt.addptr %out, %row : !tt.ptr<f32>, i32
# CHECK-NEXT:    %[[S:.*]] = tt.reduce %v {axis = 0 : i32} : tensor<128xf32> -> f32 {
# CHECK-NEXT:    ^bb0(%{{.*}}: f32, %{{.*}}: f32):
# CHECK-NEXT:      %{{.*}} = tt.add %{{.*}}, %{{.*}} : f32
# CHECK-NEXT:      tt.reduce.return %{{.*}} : f32
# CHECK-NEXT:    }
# CHECK-NEXT:    tt.store %[[OUT]], %[[S]] : !tt.ptr<f32>

# CHECK-LABEL: func.func @row_max_kernel(
# CHECK:         arith.constant 0xff800000 : f32
# CHECK:         %[[R:.*]] = tt.reduce %v {axis = 0 : i32} : tensor<128xf32> -> f32 {
# CHECK-NEXT:         ^bb0(%{{.*}}: f32, %{{.*}}: f32):
# CHECK-NEXT:           %{{.*}} = tt.maximum %{{.*}}, %{{.*}} : f32
# CHECK-NEXT:           tt.reduce.return %{{.*}} : f32
# CHECK-NEXT:         }
# CHECK-NEXT:    tt.store %{{.*}}, %[[R]] : !tt.ptr<f32>

# CHECK-LABEL: func.func @row_min_kernel(
# CHECK:         arith.constant 0x7f800000 : f32
# CHECK:         %[[R:.*]] = tt.reduce %v {axis = 0 : i32} : tensor<128xf32> -> f32 {
# CHECK-NEXT:         ^bb0(%{{.*}}: f32, %{{.*}}: f32):
# CHECK-NEXT:           %{{.*}} = tt.minimum %{{.*}}, %{{.*}} : f32
# CHECK-NEXT:           tt.reduce.return %{{.*}} : f32
# CHECK-NEXT:         }
# CHECK-NEXT:    tt.store %{{.*}}, %[[R]] : !tt.ptr<f32>
