# RUN: %python %s > %t.mlir
# RUN: filecheck %s --input-file=%t.mlir
# RUN: mytriton-opt --split-input-file %t.mlir -o %t.opt.mlir
# RUN: filecheck %s --input-file=%t.opt.mlir
# RUN: %{same_ir} %t.mlir %t.opt.mlir
# RUN: %python %s tt | filecheck %s --check-prefix=TT
# ruff: noqa: N803  (FileCheck lines are long; kernels keep Triton's names)
"""The seed's runtime loops: scf.for with iter_args for loop-carried scalars and blocks, yield of
the updated values, nested loops, and loop-invariant code hoisted out of the body by LICM."""

import sys

import numpy as np

import mytriton as triton
import mytriton.language as tl
from mytriton.backends.stages import strip_locations


@triton.jit
def runtime_sum_kernel(x, out, K):
    accumulator = 0.0
    for k in range(K):
        accumulator += tl.load(x + k)
    tl.store(out, accumulator)


@triton.jit
def runtime_block_sum_kernel(x, out, N, BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK,), tl.float32)
    ptrs = x + cols
    for start in range(0, N, BLOCK):
        acc += tl.load(ptrs, mask=start + cols < N, other=0.0)
        ptrs += BLOCK
    tl.store(out + cols, acc)


@triton.jit
def nested_loop_kernel(x, out, M, N):
    total = 0.0
    for i in range(M):
        row = 0.0
        for j in range(N):
            row += tl.load(x + i * N + j)
        total += row * row
    tl.store(out, total)


a = np.zeros(1000, np.float32)
stage = sys.argv[1] if len(sys.argv) > 1 else "tt-opt"
print(
    "\n// -----\n".join(
        [
            strip_locations(runtime_sum_kernel.warmup(a, a, 10, grid=(1,)).asm[stage]),
            strip_locations(
                runtime_block_sum_kernel.warmup(a, a, 1000, grid=(1,), BLOCK=64).asm[stage]
            ),
            strip_locations(nested_loop_kernel.warmup(a, a, 4, 5, grid=(1,)).asm[stage]),
        ]
    )
)

# CHECK-LABEL: func.func @runtime_sum_kernel(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %K: i32) {
# `accumulator = 0.0` makes the f32 constant where it is assigned (Triton's rule)
# CHECK-NEXT:    %[[INIT:.*]] = arith.constant 0.000000e+00 : f32
# CHECK-NEXT:    %[[LB:.*]] = arith.constant 0 : i32
# CHECK-NEXT:    %[[STEP:.*]] = arith.constant 1 : i32
# CHECK-NEXT:    %accumulator = scf.for %k = %[[LB]] to %K step %[[STEP]] iter_args(%[[ACC:.*]] = %[[INIT]]) -> (f32) : i32 {
# CHECK-NEXT:      %[[P:.*]] = tt.addptr %x, %k : !tt.ptr<f32>, i32
# CHECK-NEXT:      %[[V:.*]] = tt.load %[[P]] : !tt.ptr<f32>
# CHECK-NEXT:      %[[NEXT:.*]] = tt.add %[[ACC]], %[[V]] : f32
# CHECK-NEXT:      scf.yield %[[NEXT]] : f32
# CHECK-NEXT:    }
# CHECK-NEXT:    tt.store %out, %accumulator : !tt.ptr<f32>

# A block and a block of pointers carried together; the mask's splat of N, the `other` block
# and the pointer increment are loop invariants hoisted above the loop.
# CHECK-LABEL: func.func @runtime_block_sum_kernel(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %N: i32) {
# CHECK:         %acc = tt.zeros : tensor<64xf32>
# CHECK:         %ptrs = tt.addptr %{{.*}}, %cols : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
# CHECK:         %[[STEP:.*]] = arith.constant 64 : i32
# CHECK:         %[[NS:.*]] = tt.splat %N : i32 -> tensor<64xi32>
# CHECK-NEXT:    %[[OTHER:.*]] = tt.splat %{{.*}} : f32 -> tensor<64xf32>
# CHECK-NEXT:    %[[INC:.*]] = tt.splat %[[STEP]] : i32 -> tensor<64xi32>
# CHECK-NEXT:    %[[ACCR:.*]], %{{.*}} = scf.for %start = %{{.*}} to %N step %[[STEP]] iter_args(%[[ACC:.*]] = %acc, %[[PTRS:.*]] = %ptrs) -> (tensor<64xf32>, tensor<64x!tt.ptr<f32>>) : i32 {
# CHECK-NOT:       tt.splat %N
# CHECK:           %[[M:.*]] = tt.cmp lt, %{{.*}}, %[[NS]] : tensor<64xi32>
# CHECK-NEXT:      %[[V:.*]] = tt.load %[[PTRS]], %[[M]], %[[OTHER]] : tensor<64x!tt.ptr<f32>>
# CHECK-NEXT:      %[[ACC2:.*]] = tt.add %[[ACC]], %[[V]] : tensor<64xf32>
# CHECK-NEXT:      %[[PTRS2:.*]] = tt.addptr %[[PTRS]], %[[INC]] : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
# CHECK-NEXT:      scf.yield %[[ACC2]], %[[PTRS2]] : tensor<64xf32>, tensor<64x!tt.ptr<f32>>
# CHECK-NEXT:    }
# CHECK:         tt.store %{{.*}}, %[[ACCR]] : tensor<64x!tt.ptr<f32>>

# The inner loop's row pointer `x + i * N` is computed once per outer iteration.
# CHECK-LABEL: func.func @nested_loop_kernel(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %M: i32, %N: i32) {
# CHECK:         %total = scf.for %i = %[[ZERO:.*]] to %M step %[[ONE:.*]] iter_args(%[[T:.*]] = %[[F0:.*]]) -> (f32) : i32 {
# CHECK-NEXT:      %[[OFF:.*]] = tt.mul %i, %N : i32
# CHECK-NEXT:      %[[ROWP:.*]] = tt.addptr %x, %[[OFF]] : !tt.ptr<f32>, i32
# CHECK-NEXT:      %row = scf.for %j = %[[ZERO]] to %N step %[[ONE]] iter_args(%[[R:.*]] = %[[F0]]) -> (f32) : i32 {
# CHECK-NEXT:        %[[P:.*]] = tt.addptr %[[ROWP]], %j : !tt.ptr<f32>, i32
# CHECK-NEXT:        %[[V:.*]] = tt.load %[[P]] : !tt.ptr<f32>
# CHECK-NEXT:        %[[R2:.*]] = tt.add %[[R]], %[[V]] : f32
# CHECK-NEXT:        scf.yield %[[R2]] : f32
# CHECK-NEXT:      }
# CHECK-NEXT:      %[[SQ:.*]] = tt.mul %row, %row : f32
# CHECK-NEXT:      %[[T2:.*]] = tt.add %[[T]], %[[SQ]] : f32
# CHECK-NEXT:      scf.yield %[[T2]] : f32
# CHECK-NEXT:    }
# CHECK-NEXT:    tt.store %out, %total : !tt.ptr<f32>

# Before LICM the invariants are still inside the loop body.
# TT-LABEL: func.func @runtime_block_sum_kernel(
# TT:         scf.for %start
# TT:           tt.splat %N : i32 -> tensor<64xi32>
# TT:           scf.yield
# TT-LABEL: func.func @nested_loop_kernel(
# TT:         scf.for %i
# TT:           scf.for %j
# TT-NEXT:        tt.mul %i, %N : i32
