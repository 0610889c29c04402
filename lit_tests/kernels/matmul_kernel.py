# RUN: %python %s > %t.mlir
# RUN: filecheck %s --input-file=%t.mlir
# RUN: mytriton-opt --split-input-file %t.mlir -o %t.opt.mlir
# RUN: filecheck %s --input-file=%t.opt.mlir
# RUN: %{same_ir} %t.mlir %t.opt.mlir
# ruff: noqa: N803  (kernels keep Triton's names; FileCheck lines are long)
"""The seed's matrix multiplications: the naive rank-1 version (compile-time K, unrolled), the
tiled tl.dot version with a compile-time K (unrolled: one tt.dot per K tile) and with a runtime
K (one tt.dot in an scf.for carrying the [BM, BN] accumulator)."""

import sys

import numpy as np

import mytriton as triton
import mytriton.language as tl
from mytriton.backends.stages import strip_locations


@triton.jit
def naive_matmul_kernel(a, b, c, M, N, K: tl.constexpr, BN: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BN)
    acc = tl.zeros((BN,), tl.float32)
    for k in range(K):
        acc += tl.load(a + row * K + k) * tl.load(b + k * N + cols, mask=cols < N, other=0.0)
    tl.store(c + row * N + cols, acc, mask=cols < N)


@triton.jit
def tiled_matmul_kernel(
    a, b, c, M, N, K: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr
):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rows = pid_m * BM + tl.arange(0, BM)
    cols = pid_n * BN + tl.arange(0, BN)
    ks = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), tl.float32)
    for k0 in range(0, K, BK):
        a_rows = rows[:, None]
        a_cols = (k0 + ks)[None, :]
        a_values = tl.load(a + a_rows * K + a_cols, mask=(a_rows < M) & (a_cols < K), other=0.0)
        b_rows = (k0 + ks)[:, None]
        b_cols = cols[None, :]
        b_values = tl.load(b + b_rows * N + b_cols, mask=(b_rows < K) & (b_cols < N), other=0.0)
        acc = acc + tl.dot(a_values, b_values)
    c_mask = (rows[:, None] < M) & (cols[None, :] < N)
    tl.store(c + rows[:, None] * N + cols[None, :], acc, mask=c_mask)


@triton.jit
def tiled_matmul_runtime_k_kernel(
    a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr
):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rows = pid_m * BM + tl.arange(0, BM)
    cols = pid_n * BN + tl.arange(0, BN)
    ks = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), tl.float32)
    for k0 in range(0, K, BK):
        a_rows = rows[:, None]
        a_cols = (k0 + ks)[None, :]
        a_values = tl.load(a + a_rows * K + a_cols, mask=(a_rows < M) & (a_cols < K), other=0.0)
        b_rows = (k0 + ks)[:, None]
        b_cols = cols[None, :]
        b_values = tl.load(b + b_rows * N + b_cols, mask=(b_rows < K) & (b_cols < N), other=0.0)
        acc = acc + tl.dot(a_values, b_values)
    c_mask = (rows[:, None] < M) & (cols[None, :] < N)
    tl.store(c + rows[:, None] * N + cols[None, :], acc, mask=c_mask)


x = np.zeros(64 * 64, np.float32)
stage = sys.argv[1] if len(sys.argv) > 1 else "tt-opt"
modules = [
    naive_matmul_kernel.warmup(x, x, x, 4, 8, grid=(4,), K=4, BN=8),
    tiled_matmul_kernel.warmup(x, x, x, 32, 32, grid=(2, 2), K=64, BM=16, BN=32, BK=32),
    tiled_matmul_runtime_k_kernel.warmup(x, x, x, 32, 32, 64, grid=(2, 2), BM=16, BN=32, BK=16),
]
print("\n// -----\n".join(strip_locations(m.asm[stage]) for m in modules))

# K=4 is unrolled: four scalar loads of A, four masked row loads of B, four multiply-adds.
# CHECK-LABEL: func.func @naive_matmul_kernel(%a: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %M: i32, %N: i32) {
# CHECK-NOT:     scf.for
# CHECK:         %acc = tt.zeros : tensor<8xf32>
# CHECK:         %[[A0:.*]] = tt.load %{{.*}} : !tt.ptr<f32>
# CHECK:         %[[BMASK:.*]] = tt.cmp lt, %cols, %{{.*}} : tensor<8xi32>
# CHECK:         %[[B0:.*]] = tt.load %{{.*}}, %[[BMASK]], %{{.*}} : tensor<8x!tt.ptr<f32>>
# CHECK-NEXT:    %[[A0S:.*]] = tt.splat %[[A0]] : f32 -> tensor<8xf32>
# CHECK-NEXT:    %[[P0:.*]] = tt.mul %[[A0S]], %[[B0]] : tensor<8xf32>
# CHECK-NEXT:    %acc_1 = tt.add %acc, %[[P0]] : tensor<8xf32>
# CHECK:         %acc_2 = tt.add %acc_1, %{{.*}} : tensor<8xf32>
# CHECK:         %acc_3 = tt.add %acc_2, %{{.*}} : tensor<8xf32>
# CHECK:         %acc_4 = tt.add %acc_3, %{{.*}} : tensor<8xf32>
# CHECK:         tt.store %{{.*}}, %acc_4, %[[BMASK]] : tensor<8x!tt.ptr<f32>>

# K=64, BK=32: two [16, 32] x [32, 32] dots, no loop; `acc + tl.dot(a, b)` folds into the
# dot's accumulator, so the second dot accumulates onto the first (no separate adds).
# CHECK-LABEL: func.func @tiled_matmul_kernel(%a: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %M: i32 {tt.divisibility = 16 : i32}, %N: i32 {tt.divisibility = 16 : i32}) {
# CHECK-NOT:     scf.for
# CHECK:         %acc = tt.zeros : tensor<16x32xf32>
# CHECK:         %a_values = tt.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x32x!tt.ptr<f32>>
# CHECK:         %b_values = tt.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<32x32x!tt.ptr<f32>>
# CHECK:         %[[D0:.*]] = tt.dot %a_values, %b_values, %acc {input_precision = "tf32"} : tensor<16x32xf32> * tensor<32x32xf32> -> tensor<16x32xf32>
# CHECK:         %a_values_1 = tt.load
# CHECK:         %b_values_1 = tt.load
# CHECK:         %acc_2 = tt.dot %a_values_1, %b_values_1, %acc_1 {input_precision = "tf32"} : tensor<16x32xf32> * tensor<32x32xf32> -> tensor<16x32xf32>
# CHECK-NOT:     tt.dot
# CHECK:         tt.store %{{.*}}, %acc_2, %{{.*}} : tensor<16x32x!tt.ptr<f32>>

# Runtime K: the pointer bases, the row mask and the `other` blocks are hoisted; the body
# computes the K-dependent columns/rows, loads both tiles and accumulates one dot.
# CHECK-LABEL: func.func @tiled_matmul_runtime_k_kernel(%a: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %M: i32 {tt.divisibility = 16 : i32}, %N: i32 {tt.divisibility = 16 : i32}, %K: i32 {tt.divisibility = 16 : i32}) {
# CHECK:         %[[STEP:.*]] = arith.constant 16 : i32
# CHECK:         %[[ZACC:.*]] = tt.zeros : tensor<16x32xf32>
# CHECK:         %a_rows = tt.expand_dims %rows {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
# CHECK:         %[[ROWMASK:.*]] = tt.cmp lt, %a_rows, %{{.*}} : tensor<16x1xi32>
# CHECK:         %b_cols = tt.expand_dims %cols {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
# CHECK:         %[[ACCR:.*]] = scf.for %k0 = %{{.*}} to %K step %[[STEP]] iter_args(%[[ACC:.*]] = %[[ZACC]]) -> (tensor<16x32xf32>) : i32 {
# CHECK-NOT:       tt.expand_dims %rows
# CHECK:           %a_cols = tt.expand_dims %{{.*}} {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
# CHECK:           %a_values = tt.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x16x!tt.ptr<f32>>
# CHECK:           %b_rows = tt.expand_dims %{{.*}} {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
# CHECK:           %b_values = tt.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x32x!tt.ptr<f32>>
# CHECK-NEXT:      %[[ACC2:.*]] = tt.dot %a_values, %b_values, %[[ACC]] {input_precision = "tf32"} : tensor<16x16xf32> * tensor<16x32xf32> -> tensor<16x32xf32>
# CHECK-NEXT:      scf.yield %[[ACC2]] : tensor<16x32xf32>
# CHECK-NEXT:    }
# CHECK:         tt.store %{{.*}}, %[[ACCR]], %{{.*}} : tensor<16x32x!tt.ptr<f32>>
