# RUN: %python %s > %t.mlir
# RUN: filecheck %s --input-file=%t.mlir
# RUN: mytriton-opt --split-input-file %t.mlir -o %t.opt.mlir
# RUN: filecheck %s --input-file=%t.opt.mlir
# RUN: %{same_ir} %t.mlir %t.opt.mlir
# ruff: noqa: N803  (kernels keep Triton's names; FileCheck lines are long)
"""Triton tutorial 03's matmul (f32, no autotune): grouped program ordering with tl.cdiv, `//`,
`%` and min() on i32 scalars, strided pointer blocks advanced in the loop, and
tl.dot(a, b, accumulator) carried through an scf.for over cdiv(K, BLOCK_SIZE_K) iterations."""

import sys

import numpy as np

import mytriton as triton
import mytriton.language as tl
from mytriton.backends.stages import strip_locations


@triton.jit
def matmul_kernel(
    a_ptr,
    b_ptr,
    c_ptr,
    M,
    N,
    K,
    stride_am,
    stride_ak,
    stride_bk,
    stride_bn,
    stride_cm,
    stride_cn,
    BLOCK_SIZE_M: tl.constexpr,
    BLOCK_SIZE_N: tl.constexpr,
    BLOCK_SIZE_K: tl.constexpr,
    GROUP_SIZE_M: tl.constexpr,
):
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    offs_am = (pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)) % M
    offs_bn = (pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)) % N
    offs_k = tl.arange(0, BLOCK_SIZE_K)
    a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)
    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_SIZE_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_SIZE_K, other=0.0)
        accumulator = tl.dot(a, b, accumulator)
        a_ptrs += BLOCK_SIZE_K * stride_ak
        b_ptrs += BLOCK_SIZE_K * stride_bk
    offs_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptrs, accumulator, mask=c_mask)


x = np.zeros(128 * 128, np.float32)
compiled = matmul_kernel.warmup(
    x, x, x, 128, 128, 128, 128, 1, 128, 1, 128, 1,
    grid=(16,),
    BLOCK_SIZE_M=32, BLOCK_SIZE_N=64, BLOCK_SIZE_K=16, GROUP_SIZE_M=8,
)  # fmt: skip
print(strip_locations(compiled.asm[sys.argv[1] if len(sys.argv) > 1 else "tt-opt"]))

# CHECK-LABEL: func.func @matmul_kernel(%a_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %b_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %c_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %M: i32 {tt.divisibility = 16 : i32}, %N: i32 {tt.divisibility = 16 : i32}, %K: i32 {tt.divisibility = 16 : i32}, %stride_am: i32 {tt.divisibility = 16 : i32}, %stride_bk: i32 {tt.divisibility = 16 : i32}, %stride_cm: i32 {tt.divisibility = 16 : i32}) {
# CHECK:         %pid = tt.get_program_id x : i32
# tl.cdiv(M, 32) is (M + 32 - 1) // 32 on i32
# CHECK:         %[[C32:.*]] = arith.constant 32 : i32
# CHECK-NEXT:    %[[T0:.*]] = tt.add %M, %[[C32]] : i32
# CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1 : i32
# CHECK-NEXT:    %[[T1:.*]] = tt.sub %[[T0]], %[[ONE]] : i32
# CHECK-NEXT:    %num_pid_m = tt.div %[[T1]], %[[C32]] : i32
# CHECK:         %num_pid_n = tt.div %{{.*}}, %{{.*}} : i32
# CHECK:         %group_id = tt.div %pid, %num_pid_in_group : i32
# CHECK:         %group_size_m = tt.minimum %{{.*}}, %{{.*}} : i32
# CHECK:         %[[PIDMOD:.*]] = tt.rem %pid, %num_pid_in_group : i32
# CHECK:         %pid_n = tt.div %[[PIDMOD]], %group_size_m : i32
# CHECK:         %offs_am = tt.rem %{{.*}}, %{{.*}} : tensor<32xi32>
# CHECK:         %offs_bn = tt.rem %{{.*}}, %{{.*}} : tensor<64xi32>
# CHECK:         %offs_k = tt.make_range {start = 0 : i32, end = 16 : i32} : tensor<16xi32>
# CHECK:         %a_ptrs = tt.addptr %{{.*}}, %{{.*}} : tensor<32x16x!tt.ptr<f32>>, tensor<32x16xi32>
# CHECK:         %b_ptrs = tt.addptr %{{.*}}, %{{.*}} : tensor<16x64x!tt.ptr<f32>>, tensor<16x64xi32>
# CHECK:         %accumulator = tt.zeros : tensor<32x64xf32>
# The trip count cdiv(K, 16) and the pointer increments 16 * stride are loop invariants; the
# unit stride_ak (an integer argument equal to 1, compiled in like Triton does) folds to 16.
# CHECK:         %[[C16:.*]] = arith.constant 16 : i32
# CHECK:         %[[TRIPS:.*]] = tt.div %{{.*}}, %[[C16]] : i32
# CHECK:         %[[AINCS:.*]] = tt.splat %[[C16]] : i32 -> tensor<32x16xi32>
# CHECK-NEXT:    %[[BINC:.*]] = tt.mul %[[C16]], %stride_bk : i32
# CHECK-NEXT:    %[[BINCS:.*]] = tt.splat %[[BINC]] : i32 -> tensor<16x64xi32>
# CHECK-NEXT:    %{{.*}}, %[[ACCR:.*]], %{{.*}} = scf.for %k = %{{.*}} to %[[TRIPS]] step %[[ONE]] iter_args(%[[AP:.*]] = %a_ptrs, %[[ACC:.*]] = %accumulator, %[[BP:.*]] = %b_ptrs) -> (tensor<32x16x!tt.ptr<f32>>, tensor<32x64xf32>, tensor<16x64x!tt.ptr<f32>>) : i32 {
# CHECK:           %a = tt.load %[[AP]], %{{.*}}, %{{.*}} : tensor<32x16x!tt.ptr<f32>>
# CHECK:           %b = tt.load %[[BP]], %{{.*}}, %{{.*}} : tensor<16x64x!tt.ptr<f32>>
# CHECK-NEXT:      %[[ACC2:.*]] = tt.dot %a, %b, %[[ACC]] {input_precision = "tf32"} : tensor<32x16xf32> * tensor<16x64xf32> -> tensor<32x64xf32>
# CHECK-NEXT:      %[[AP2:.*]] = tt.addptr %[[AP]], %[[AINCS]] : tensor<32x16x!tt.ptr<f32>>, tensor<32x16xi32>
# CHECK-NEXT:      %[[BP2:.*]] = tt.addptr %[[BP]], %[[BINCS]] : tensor<16x64x!tt.ptr<f32>>, tensor<16x64xi32>
# CHECK-NEXT:      scf.yield %[[AP2]], %[[ACC2]], %[[BP2]] : tensor<32x16x!tt.ptr<f32>>, tensor<32x64xf32>, tensor<16x64x!tt.ptr<f32>>
# CHECK-NEXT:    }
# CHECK:         %c_mask = tt.and %{{.*}}, %{{.*}} : tensor<32x64xi1>
# CHECK-NEXT:    tt.store %c_ptrs, %[[ACCR]], %c_mask : tensor<32x64x!tt.ptr<f32>>
