# RUN: env MYTRITON_BACKEND=cuda %python %s ttg | filecheck %s --check-prefix=TTG
# RUN: env MYTRITON_BACKEND=cuda %python %s gpu | filecheck %s --check-prefix=GPU

"""The row-reduction family (tests/kernels.py: row_sum_kernel, row_max_kernel, row_min_kernel),
4 warps: a row of 512 (4 registers per thread, 4 warps of partials), of 128 (1 register, 4
warps) and of 32 (one warp holds the row, the other warps replicate it: no shared memory)."""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
from tests.kernels import row_max_kernel, row_min_kernel, row_sum_kernel

stage = sys.argv[1]
a = np.zeros(1000, np.float32)
print(row_sum_kernel.warmup(a, a, 100, grid=(10,), BLOCK=512).asm[stage])
print(row_max_kernel.warmup(a, a, 100, grid=(10,), BLOCK=128).asm[stage])
print(row_min_kernel.warmup(a, a, 30, grid=(10,), BLOCK=32).asm[stage])

# TTG:       #blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
# TTG-LABEL: func.func @row_sum_kernel(
# TTG:         %v = tt.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<512x!tt.ptr<f32>, #blocked>
# TTG:         %[[S:.*]] = tt.reduce %v {axis = 0 : i32} : tensor<512xf32, #blocked> -> f32 {
# TTG-NEXT:         ^bb0({{.*}}):
# TTG-NEXT:           %{{.*}} = tt.add %{{.*}}, %{{.*}} : f32
# TTG-NEXT:           tt.reduce.return %{{.*}} : f32
# TTG-NEXT:         }
# TTG-NEXT:    tt.store %{{.*}}, %[[S]] : !tt.ptr<f32>
# TTG-LABEL: func.func @row_max_kernel(
# TTG:         tt.reduce %v {axis = 0 : i32} : tensor<128xf32, #blocked> -> f32 {
# TTG-NEXT:         ^bb0({{.*}}):
# TTG-NEXT:           %{{.*}} = tt.maximum %{{.*}}, %{{.*}} : f32
# TTG-NEXT:           tt.reduce.return %{{.*}} : f32
# TTG-NEXT:         }
# TTG-LABEL: func.func @row_min_kernel(
# TTG:         tt.reduce %v {axis = 0 : i32} : tensor<32xf32, #blocked> -> f32 {
# TTG-NEXT:         ^bb0({{.*}}):
# TTG-NEXT:           %{{.*}} = tt.minimum %{{.*}}, %{{.*}} : f32
# TTG-NEXT:           tt.reduce.return %{{.*}} : f32
# TTG-NEXT:         }

# row_sum: 4 registers per thread (masked loads), summed in the thread, 5 shuffles, then the
# 4 warps' partials through a 4-float buffer between two barriers: lane l reads partial l % 4,
# two shuffles combine them.
# GPU:         "memref.global"() <{sym_name = "smem_0", type = memref<4xf32, 3 : i64>, {{.*}}}>
# GPU-LABEL: "gpu.func"
# GPU:         %v = "scf.if"
# GPU:         %v_1 = "scf.if"
# GPU:         %v_2 = "scf.if"
# GPU:         %v_3 = "scf.if"
# GPU:         %[[A:.*]] = "arith.addf"(%v, %v_1)
# GPU-NEXT:    %[[B:.*]] = "arith.addf"(%[[A]], %v_2)
# GPU-NEXT:    %[[C:.*]] = "arith.addf"(%[[B]], %v_3)
# GPU-NEXT:    "gpu.shuffle"(%[[C]], %{{.*}}, %{{.*}}) <{mode = #gpu<shuffle_mode xor>}>
# GPU-COUNT-4: "gpu.shuffle"
# GPU:         %[[BUF:.*]] = "memref.get_global"() <{name = @smem_0}> : () -> memref<4xf32, 3 : i64>
# GPU:         "memref.store"(%{{.*}}, %[[BUF]], %{{.*}}) : (f32, memref<4xf32, 3 : i64>, index) -> ()
# GPU-NEXT:    "gpu.barrier"() : () -> ()
# GPU-NEXT:    "arith.andi"
# GPU-NEXT:    "arith.index_cast"
# GPU-NEXT:    %[[P:.*]] = "memref.load"(%[[BUF]], %{{.*}}) : (memref<4xf32, 3 : i64>, index) -> f32
# GPU-NEXT:    %[[Y1:.*]], %{{.*}} = "gpu.shuffle"(%[[P]], %{{.*}}, %{{.*}}) <{mode = #gpu<shuffle_mode xor>}>
# GPU-NEXT:    %[[B1:.*]] = "arith.addf"(%[[P]], %[[Y1]])
# GPU-NEXT:    %[[Y2:.*]], %{{.*}} = "gpu.shuffle"(%[[B1]], %{{.*}}, %{{.*}}) <{mode = #gpu<shuffle_mode xor>}>
# GPU-NEXT:    %[[SUM:.*]] = "arith.addf"(%[[B1]], %[[Y2]])
# GPU-NEXT:    "gpu.barrier"() : () -> ()
# GPU-NEXT:    "scf.if"(%owner) ({
# GPU-NEXT:      "llvm.store"(%[[SUM]], %{{.*}}) <{ordering = 0 : i64}> : (f32, !llvm.ptr<1>) -> ()
# GPU-NEXT:      "scf.yield"() : () -> ()
# GPU-NEXT:    }, {
# GPU-NEXT:    }) : (i1) -> ()
# GPU-NEXT:    "gpu.return"
# GPU-NEXT:  }) {sym_name = "row_sum_kernel", gpu.kernel, known_block_size = array<i32: 128, 1, 1>, mytriton.pointee_types = [f32, f32]}

# row_max: Triton's NaN-ignoring maximum (arith.maxnumf) after every shuffle and between the
# partials.
# GPU:         "memref.global"() <{sym_name = "smem_0", type = memref<4xf32, 3 : i64>, {{.*}}}>
# GPU-LABEL: "gpu.func"
# GPU:         %[[X:.*]], %{{.*}} = "gpu.shuffle"(%v, %{{.*}}, %{{.*}}) <{mode = #gpu<shuffle_mode xor>}>
# GPU-NEXT:    "arith.maxnumf"(%v, %[[X]]) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
# GPU-COUNT-4: "gpu.shuffle"
# GPU:         "gpu.barrier"
# GPU-COUNT-1: "memref.load"
# GPU-COUNT-2: "gpu.shuffle"
# GPU:         "gpu.barrier"
# GPU-NEXT:    "scf.if"(%owner) ({
# GPU-NEXT:      "llvm.store"
# GPU:         "gpu.return"
# GPU-NEXT:  }) {sym_name = "row_max_kernel"

# row_min: arith.minnumf; the 32 elements are within one warp, so no shared memory at all.
# GPU-NOT:     "memref.global"
# GPU-LABEL: "gpu.func"
# GPU:         %[[X:.*]], %{{.*}} = "gpu.shuffle"(%v, %{{.*}}, %{{.*}}) <{mode = #gpu<shuffle_mode xor>}>
# GPU-NEXT:    "arith.minnumf"(%v, %[[X]]) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
# GPU-COUNT-4: "gpu.shuffle"
# GPU-NOT:     "gpu.barrier"
# GPU:         "scf.if"(%owner) ({
# GPU-NEXT:      "llvm.store"
# GPU:         "gpu.return"
# GPU-NEXT:  }) {sym_name = "row_min_kernel"
