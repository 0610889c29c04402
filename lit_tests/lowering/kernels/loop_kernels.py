# RUN: env MYTRITON_BACKEND=cuda %python %s ttg | filecheck %s --check-prefix=TTG
# RUN: env MYTRITON_BACKEND=cuda %python %s gpu | filecheck %s --check-prefix=GPU

"""The loop family (tests/kernels.py): runtime_block_sum_kernel carries a block and its pointers
through a runtime loop (BLOCK=256, 4 warps: 2 registers each), runtime_sum_kernel and
nested_loop_kernel carry scalars, long_row_sum_kernel's static_range is unrolled (no loop)."""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
from tests.kernels import (
    long_row_sum_kernel,
    nested_loop_kernel,
    runtime_block_sum_kernel,
    runtime_sum_kernel,
)

stage = sys.argv[1]
a = np.zeros(1000, np.float32)
print(runtime_block_sum_kernel.warmup(a, a, 1000, grid=(1,), BLOCK=256).asm[stage])
print(runtime_sum_kernel.warmup(a, a, 1000, grid=(1,)).asm[stage])
print(nested_loop_kernel.warmup(a, a, 10, 100, grid=(1,)).asm[stage])
print(long_row_sum_kernel.warmup(a, a, 500, grid=(2,), BLOCK=128, CHUNKS=2).asm[stage])

# TTG:       #blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
# TTG-LABEL: func.func @runtime_block_sum_kernel(
# TTG:         %acc = tt.zeros : tensor<256xf32, #blocked>
# TTG:         %ptrs = tt.addptr %{{.*}}, %cols : tensor<256x!tt.ptr<f32>, #blocked>, tensor<256xi32, #blocked>
# TTG:         %acc_1, %ptrs_1 = scf.for %start = %{{.*}} to %N step %{{.*}} iter_args(%acc_2 = %acc, %ptrs_2 = %ptrs) -> (tensor<256xf32, #blocked>, tensor<256x!tt.ptr<f32>, #blocked>) : i32 {
# TTG:           %[[V:.*]] = tt.load %ptrs_2, %{{.*}}, %{{.*}} : tensor<256x!tt.ptr<f32>, #blocked>
# TTG-NEXT:      %acc_3 = tt.add %acc_2, %[[V]] : tensor<256xf32, #blocked>
# TTG-NEXT:      %ptrs_3 = tt.addptr %ptrs_2, %{{.*}} : tensor<256x!tt.ptr<f32>, #blocked>, tensor<256xi32, #blocked>
# TTG-NEXT:      scf.yield %acc_3, %ptrs_3 : tensor<256xf32, #blocked>, tensor<256x!tt.ptr<f32>, #blocked>
# TTG:         tt.store %{{.*}}, %acc_1 : tensor<256x!tt.ptr<f32>, #blocked>
# Scalar loops have no layouts.
# TTG-LABEL: func.func @runtime_sum_kernel(
# TTG:         %accumulator = scf.for %k = %{{.*}} to %K step %{{.*}} iter_args(%accumulator_1 = %{{.*}}) -> (f32) : i32 {
# TTG-LABEL: func.func @nested_loop_kernel(
# TTG:         %total = scf.for %i = %{{.*}} to %M step %{{.*}} iter_args(%total_1 = %{{.*}}) -> (f32) : i32 {
# TTG:           %row = scf.for %j = %{{.*}} to %N step %{{.*}} iter_args(%row_1 = %{{.*}}) -> (f32) : i32 {
# TTG-LABEL: func.func @long_row_sum_kernel(
# TTG-NOT:     scf.for
# TTG:         %partial_1 = tt.add %partial, %{{.*}} : tensor<128xf32, #blocked>
# TTG:         %partial_2 = tt.add %partial_1, %{{.*}} : tensor<128xf32, #blocked>
# TTG:         %[[S:.*]] = tt.reduce %partial_2 {axis = 0 : i32} : tensor<128xf32, #blocked> -> f32 {
# TTG-NEXT:         ^bb0({{.*}}):
# TTG-NEXT:           %{{.*}} = tt.add %{{.*}}, %{{.*}} : f32
# TTG-NEXT:           tt.reduce.return %{{.*}} : f32
# TTG-NEXT:         }

# runtime_block_sum: 2 registers of the accumulator and 2 pointers are carried.
# GPU-LABEL: "gpu.func"() <{function_type = (!llvm.ptr<1>, !llvm.ptr<1>, i32) -> ()}>
# GPU:         %acc_1, %acc_2, %ptrs_2, %ptrs_3 = "scf.for"(%{{.*}}, %N, %{{.*}}, %acc, %acc, %ptrs, %ptrs_1) ({
# GPU-NEXT:    ^bb0(%[[I:.*]]: i32 {{.*}}, %[[A0:.*]]: f32 {{.*}}, %[[A1:.*]]: f32 {{.*}}, %[[P0:.*]]: !llvm.ptr<1> {{.*}}, %[[P1:.*]]: !llvm.ptr<1> {{.*}}):
# GPU:           "llvm.load"(%[[P0]])
# GPU:           "llvm.load"(%[[P1]])
# GPU:           %acc_3 = "arith.addf"(%[[A0]], %{{.*}})
# GPU-NEXT:      %acc_4 = "arith.addf"(%[[A1]], %{{.*}})
# GPU-NEXT:      %ptrs_4 = "llvm.getelementptr"(%[[P0]], %{{.*}})
# GPU-NEXT:      %ptrs_5 = "llvm.getelementptr"(%[[P1]], %{{.*}})
# GPU-NEXT:      "scf.yield"(%acc_3, %acc_4, %ptrs_4, %ptrs_5) : (f32, f32, !llvm.ptr<1>, !llvm.ptr<1>) -> ()
# GPU-NEXT:    }) : (i32, i32, i32, f32, f32, !llvm.ptr<1>, !llvm.ptr<1>) -> (f32, f32, !llvm.ptr<1>, !llvm.ptr<1>)
# GPU:         "llvm.store"(%acc_1,
# GPU-NEXT:    "llvm.store"(%acc_2,
# GPU:         sym_name = "runtime_block_sum_kernel"
# GPU-LABEL: "gpu.func"() <{function_type = (!llvm.ptr<1>, !llvm.ptr<1>, i32) -> ()}>
# GPU:         %accumulator = "scf.for"(%{{.*}}, %K, %{{.*}}, %{{.*}}) ({
# GPU:         }) : (i32, i32, i32, f32) -> f32
# GPU-NEXT:    "scf.if"(%owner) ({
# GPU-NEXT:      "llvm.store"(%accumulator, %out)
# GPU:         sym_name = "runtime_sum_kernel"
# GPU-LABEL: "gpu.func"() <{function_type = (!llvm.ptr<1>, !llvm.ptr<1>, i32, i32) -> ()}>
# GPU:         %total = "scf.for"(%{{.*}}, %M, %{{.*}}, %{{.*}}) ({
# GPU:           %row = "scf.for"(%{{.*}}, %N, %{{.*}}, %{{.*}}) ({
# GPU:           %[[SQ:.*]] = "arith.mulf"(%row, %row)
# GPU:         sym_name = "nested_loop_kernel"
# GPU-LABEL: "gpu.func"() <{function_type = (!llvm.ptr<1>, !llvm.ptr<1>, i32) -> ()}>
# GPU-NOT:     "scf.for"
# GPU:         %partial_2 = "arith.addf"(%partial_1, %{{.*}})
# GPU:         "gpu.shuffle"(%partial_2,
# GPU:         sym_name = "long_row_sum_kernel"
