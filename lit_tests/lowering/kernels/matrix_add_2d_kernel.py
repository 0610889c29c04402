# RUN: env MYTRITON_BACKEND=cuda %python %s ttg | filecheck %s --check-prefix=TTG
# RUN: env MYTRITON_BACKEND=cuda %python %s gpu | filecheck %s --check-prefix=GPU

"""tests/kernels.py's matrix_add_2d_kernel (16x64 tiles, a 2-D grid, 4 warps): the rows and
columns are ranges in the two slices of the tile's layout, expanded (no data movement) and
broadcast; every thread owns 8 rows (2 warps down the rows) of one column."""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
from tests.kernels import matrix_add_2d_kernel

a = np.zeros(100 * 100, np.float32)
k = matrix_add_2d_kernel.warmup(a, a, a, 100, 100, grid=(7, 2), BM=16, BN=64)
print(k.asm[sys.argv[1]])

# TTG:       #blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
# TTG-NEXT:  #slice = #ttg.slice<{dim = 1, parent = #blocked}>
# TTG-NEXT:  #slice1 = #ttg.slice<{dim = 0, parent = #blocked}>
# TTG:         %pid_m = tt.get_program_id x : i32
# TTG-NEXT:    %pid_n = tt.get_program_id y : i32
# TTG:         %[[R:.*]] = tt.make_range {start = 0 : i32, end = 16 : i32} : tensor<16xi32, #slice>
# TTG-NEXT:    %{{.*}} = tt.expand_dims %[[R]] {axis = 1 : i32} : tensor<16xi32, #slice> -> tensor<16x1xi32, #blocked>
# TTG:         %[[C:.*]] = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #slice1>
# TTG-NEXT:    %{{.*}} = tt.expand_dims %[[C]] {axis = 0 : i32} : tensor<64xi32, #slice1> -> tensor<1x64xi32, #blocked>
# TTG:         %mask = tt.and %{{.*}}, %{{.*}} : tensor<16x64xi1, #blocked>
# TTG:         %lhs = tt.load %{{.*}}, %mask, %{{.*}} : tensor<16x64x!tt.ptr<f32>, #blocked>
# TTG:         %rhs = tt.load %{{.*}}, %mask, %{{.*}} : tensor<16x64x!tt.ptr<f32>, #blocked>
# TTG:         tt.store %{{.*}}, %{{.*}}, %mask : tensor<16x64x!tt.ptr<f32>, #blocked>

# No shared memory: nothing moves between threads.
# GPU-NOT:     memref.global
# The thread's row: warp bit 1 (thread id bit 6), then rows +2, +4, ... +14; its column:
# (warp bit 0) * 32 + lane.
# GPU:         %[[T:.*]] = "arith.index_cast"(%{{.*}}) : (index) -> i32
# GPU-NEXT:    %[[C6:.*]] = "arith.constant"() <{value = 6 : i32}> : () -> i32
# GPU-NEXT:    %[[SH6:.*]] = "arith.shrui"(%[[T]], %[[C6]]) : (i32, i32) -> i32
# GPU-NEXT:    %[[C1:.*]] = "arith.constant"() <{value = 1 : i32}> : () -> i32
# GPU-NEXT:    %[[ROW:.*]] = "arith.andi"(%[[SH6]], %[[C1]]) : (i32, i32) -> i32
# GPU-NEXT:    %[[C2:.*]] = "arith.constant"() <{value = 2 : i32}> : () -> i32
# GPU-NEXT:    %[[ROW1:.*]] = "arith.addi"(%[[ROW]], %[[C2]]) {{.*}} : (i32, i32) -> i32
# GPU:         %[[C14:.*]] = "arith.constant"() <{value = 14 : i32}> : () -> i32
# GPU-NEXT:    %[[ROW7:.*]] = "arith.addi"(%[[ROW]], %[[C14]]) {{.*}} : (i32, i32) -> i32
# GPU-NEXT:    %[[C31:.*]] = "arith.constant"() <{value = 31 : i32}> : () -> i32
# GPU-NEXT:    %[[LANE:.*]] = "arith.andi"(%[[T]], %[[C31]]) : (i32, i32) -> i32
# GPU-NEXT:    %[[C5:.*]] = "arith.constant"() <{value = 5 : i32}> : () -> i32
# GPU-NEXT:    %[[SH5:.*]] = "arith.shrui"(%[[T]], %[[C5]]) : (i32, i32) -> i32
# GPU-NEXT:    %[[WN:.*]] = "arith.andi"(%[[SH5]], %[[C1]]) : (i32, i32) -> i32
# GPU-NEXT:    %[[C32:.*]] = "arith.constant"() <{value = 32 : i32}> : () -> i32
# GPU-NEXT:    %[[WN32:.*]] = "arith.muli"(%[[WN]], %[[C32]]) {{.*}} : (i32, i32) -> i32
# GPU-NEXT:    %[[COL:.*]] = "arith.addi"(%[[WN32]], %[[LANE]]) {{.*}} : (i32, i32) -> i32
# Program ids on both grid axes.
# GPU-NEXT:    %[[BX:.*]] = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
# GPU-NEXT:    %pid_m = "arith.index_cast"(%[[BX]]) : (index) -> i32
# GPU-NEXT:    %[[BY:.*]] = "gpu.block_id"() <{dimension = #gpu<dim y>}> : () -> index
# GPU-NEXT:    %pid_n = "arith.index_cast"(%[[BY]]) : (index) -> i32
# GPU-NEXT:    %[[M0:.*]] = "arith.muli"(%pid_m, %{{.*}}) {{.*}} : (i32, i32) -> i32
# GPU-NEXT:    %[[N0:.*]] = "arith.muli"(%pid_n, %{{.*}}) {{.*}} : (i32, i32) -> i32
# GPU-NEXT:    %offs_m = "arith.addi"(%[[M0]], %[[ROW]]) {{.*}} : (i32, i32) -> i32
# GPU-NEXT:    %offs_m_1 = "arith.addi"(%[[M0]], %[[ROW1]]) {{.*}} : (i32, i32) -> i32
# GPU:         %offs_m_7 = "arith.addi"(%[[M0]], %[[ROW7]]) {{.*}} : (i32, i32) -> i32
# GPU:         %offs_n = "arith.addi"(%[[N0]], %[[COL]]) {{.*}} : (i32, i32) -> i32
# GPU-NEXT:    %offsets = "arith.addi"(%{{.*}}, %offs_n) {{.*}} : (i32, i32) -> i32
# 8 masked loads per operand, 8 masked stores.
# GPU-COUNT-16: "scf.if"(%mask{{(_[0-9])?}}) ({
# GPU-COUNT-8:  "llvm.store"
# GPU:         }) {sym_name = "matrix_add_2d_kernel", gpu.kernel, known_block_size = array<i32: 128, 1, 1>, mytriton.pointee_types = [f32, f32, f32]}
