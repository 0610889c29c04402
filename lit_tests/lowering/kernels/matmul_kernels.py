# RUN: env MYTRITON_BACKEND=cuda TRITON_F32_DEFAULT=ieee %python %s ttg | filecheck %s --check-prefix=TTG
# RUN: env MYTRITON_BACKEND=cuda TRITON_F32_DEFAULT=ieee %python %s gpu | filecheck %s --check-prefix=GPU

"""The matmul family (tests/kernels.py): tutorial_matmul_kernel (Triton tutorial 03: strides,
pointer increments, a runtime K loop) with 32x32x16 tiles over 4 warps, and
tiled_matmul_runtime_k_kernel with 16x16x16 tiles: the accumulator gets the dot's register-tile
layout (2x4 and 1x2 per thread) and is carried through the K loop in registers; both operands
are staged in shared memory (one buffer, A then B) each iteration."""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
from tests.kernels import tiled_matmul_runtime_k_kernel, tutorial_matmul_kernel

stage = sys.argv[1]
a = np.zeros(64 * 64, np.float32)
sizes_strides = (64, 64, 64, 64, 1, 64, 1, 64, 1)  # M, N, K, then row-major strides
tiles = {"BLOCK_SIZE_M": 32, "BLOCK_SIZE_N": 32, "BLOCK_SIZE_K": 16, "GROUP_SIZE_M": 2}
tutorial = tutorial_matmul_kernel.warmup(a, a, a, *sizes_strides, grid=(4,), **tiles)
tiled = tiled_matmul_runtime_k_kernel.warmup(a, a, a, 64, 64, 64, grid=(4, 4), BM=16, BN=16, BK=16)
print(tutorial.asm[stage])
print(tiled.asm[stage])

# tutorial_matmul_kernel: the accumulator (32x32 over 128 threads: 2x4 per thread) is created,
# carried and stored in the register-tile layout; the A and B pointers (advanced by themselves
# each iteration) take the layouts of the loads through them: 4 consecutive f32 per thread.
# TTG:       #blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
# TTG-NEXT:  #blocked1 = #ttg.blocked<{sizePerThread = [2, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
# TTG-NEXT:  #blocked2 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
# TTG-LABEL: func.func @tutorial_matmul_kernel(
# TTG:         %accumulator = tt.zeros : tensor<32x32xf32, #blocked1>
# TTG:         %a_ptrs_1, %accumulator_1, %b_ptrs_1 = scf.for %k = {{.*}} iter_args(%a_ptrs_2 = %a_ptrs, %accumulator_2 = %accumulator, %b_ptrs_2 = %b_ptrs) -> (tensor<32x16x!tt.ptr<f32>, #blocked>, tensor<32x32xf32, #blocked1>, tensor<16x32x!tt.ptr<f32>, #blocked2>) : i32 {
# TTG:           %a = tt.load %a_ptrs_2, %{{.*}}, %{{.*}} : tensor<32x16x!tt.ptr<f32>, #blocked>
# TTG:           %b = tt.load %b_ptrs_2, %{{.*}}, %{{.*}} : tensor<16x32x!tt.ptr<f32>, #blocked2>
# TTG-NEXT:      %accumulator_3 = tt.dot %a, %b, %accumulator_2 {input_precision = "ieee", ttg.lhs_shared = #ttg.shared<{order = [0, 1], pad = 4}>, ttg.rhs_shared = #ttg.shared<{order = [1, 0], pad = 0}>} : tensor<32x16xf32, #blocked> * tensor<16x32xf32, #blocked2> -> tensor<32x32xf32, #blocked1>
# TTG:           scf.yield %a_ptrs_3, %accumulator_3, %b_ptrs_3 : tensor<32x16x!tt.ptr<f32>, #blocked>, tensor<32x32xf32, #blocked1>, tensor<16x32x!tt.ptr<f32>, #blocked2>
# TTG:         tt.store %c_ptrs, %accumulator_1, %c_mask : tensor<32x32x!tt.ptr<f32>, #blocked1>
# tiled_matmul_runtime_k_kernel (acc = acc + tl.dot(a, b), folded into the dot's accumulator):
# 16x16 over 128 threads, 1x2 each.
# TTG:       #blocked = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
# TTG-LABEL: func.func @tiled_matmul_runtime_k_kernel(
# TTG:         %acc_1 = scf.for %k0 = {{.*}} iter_args(%acc_2 = %acc) -> (tensor<16x16xf32, #blocked>) : i32 {
# TTG:           %acc_3 = tt.dot %a_values, %b_values, %acc_2 {{.*}} -> tensor<16x16xf32, #blocked>
# TTG-NOT:     ttg.convert_layout
# TTG:         tt.store %{{.*}}, %acc_1, %{{.*}} : tensor<16x16x!tt.ptr<f32>, #blocked>

# One staging buffer: A (32 + 4) * 16 = 576 floats, then B 16 * 32 = 512.
# GPU:         "memref.global"() <{sym_name = "smem_0", type = memref<1088xf32, 3 : i64>, {{.*}}}>
# GPU-NOT:     "memref.global"
# GPU-LABEL: "gpu.func"
# The K loop carries 4 + 4 pointers (A and B: 4 registers each) and the 8 accumulator registers.
# GPU:         = "scf.for"(%{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %a_ptrs, %a_ptrs_1, %a_ptrs_2, %a_ptrs_3, %accumulator, %accumulator, %accumulator, %accumulator, %accumulator, %accumulator, %accumulator, %accumulator, %b_ptrs, %b_ptrs_1, %b_ptrs_2, %b_ptrs_3) ({
# GPU:           %[[SA:.*]] = "memref.get_global"() <{name = @smem_0}> : () -> memref<1088xf32, 3 : i64>
# GPU-COUNT-4:   "memref.store"(%a{{(_[0-9])?}}, %[[SA]], %{{.*}}) : (f32, memref<1088xf32, 3 : i64>, index) -> ()
# B is staged row-major like its layout: each thread's 4 consecutive values, one vector store.
# GPU-COUNT-3:   "vector.insert"
# GPU-NEXT:      "vector.store"(%{{[0-9]+}}, %[[SA]], %{{.*}}) {alignment = 16 : i64} : (vector<4xf32>, memref<1088xf32, 3 : i64>, index) -> ()
# GPU-NEXT:      "gpu.barrier"() : () -> ()
# GPU-NEXT:      "scf.for"
# 2 rows x 4 columns of the tile: 2 A values, 4 B values, 8 FMAs per k.
# GPU-COUNT-2:     "memref.load"(%[[SA]], %{{.*}}) : (memref<1088xf32, 3 : i64>, index) -> f32
# GPU-COUNT-4:     "memref.load"(%[[SA]], %{{.*}}) : (memref<1088xf32, 3 : i64>, index) -> f32
# GPU-COUNT-8:     "math.fma"
# GPU-NEXT:        "scf.yield"
# GPU-NEXT:      }) : (i32, i32, i32, f32, f32, f32, f32, f32, f32, f32, f32) -> (f32, f32, f32, f32, f32, f32, f32, f32)
# GPU-NEXT:      "gpu.barrier"() : () -> ()
# GPU:           "scf.yield"(%a_ptrs_{{[0-9]+}}, {{.*}}) : (!llvm.ptr<1>, !llvm.ptr<1>, !llvm.ptr<1>, !llvm.ptr<1>, f32, f32, f32, f32, f32, f32, f32, f32, !llvm.ptr<1>, !llvm.ptr<1>, !llvm.ptr<1>, !llvm.ptr<1>) -> ()
# The masked store of the 8 accumulator registers: each thread's 4 consecutive columns of a row
# are contiguous and 16-byte aligned (unit column stride, N a multiple of 16), so 2 vector stores.
# GPU-COUNT-2:   "llvm.store"(%{{[0-9]+}}, %c_ptrs{{(_[0-9]+)?}}) <{ordering = 0 : i64, alignment = 16 : i64}> : (vector<4xf32>, !llvm.ptr<1>) -> ()
# GPU-NOT:       "llvm.store"(%accumulator
# GPU:         sym_name = "tutorial_matmul_kernel"
# GPU:         "memref.global"() <{sym_name = "smem_0", type = memref<576xf32, 3 : i64>, {{.*}}}>
# GPU-LABEL: "gpu.func"
# GPU:         %acc_1, %acc_2 = "scf.for"(%{{.*}}, %K, %{{.*}}, %acc, %acc) ({
# GPU:           "gpu.barrier"
# The accumulator registers enter the dot's FMA loop directly (acc + dot folded into the dot).
# GPU-NEXT:      %[[D0:.*]], %[[D1:.*]] = "scf.for"(%{{.*}}, %{{.*}}, %{{.*}}, %{{[0-9]+}}, %{{[0-9]+}})
# GPU-COUNT-2:     "math.fma"
# GPU:           "gpu.barrier"
# GPU-NOT:       "arith.addf"
# GPU-NEXT:      "scf.yield"(%[[D0]], %[[D1]]) : (f32, f32) -> ()
# GPU:         sym_name = "tiled_matmul_runtime_k_kernel"
