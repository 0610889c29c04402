# RUN: env MYTRITON_BACKEND=cuda %python %s ttg | filecheck %s --check-prefix=TTG
# RUN: env MYTRITON_BACKEND=cuda %python %s gpu | filecheck %s --check-prefix=GPU

"""tests/kernels.py's layer_norm_no_sqrt_kernel (BLOCK=1024, 8 warps: 4 registers per thread):
two sums over one row, the second over values computed from the first; each reduction has
its own 8-float buffer for the 8 warps' partials."""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
from tests.kernels import layer_norm_no_sqrt_kernel

a = np.zeros(1000 * 10, np.float32)
k = layer_norm_no_sqrt_kernel.warmup(a, a, 1000, 1e-5, grid=(10,), BLOCK=1024, num_warps=8)
print(k.asm[sys.argv[1]])

# TTG:       #blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
# TTG-LABEL: func.func @layer_norm_no_sqrt_kernel(
# TTG:         %v = tt.load %{{.*}}, %mask, %{{.*}} : tensor<1024x!tt.ptr<f32>, #blocked>
# TTG-NEXT:    %[[S1:.*]] = tt.reduce %v {axis = 0 : i32} : tensor<1024xf32, #blocked> -> f32 {
# TTG-NEXT:    ^bb0({{.*}}):
# TTG-NEXT:      %{{.*}} = tt.add %{{.*}}, %{{.*}} : f32
# TTG-NEXT:      tt.reduce.return %{{.*}} : f32
# TTG-NEXT:    }
# TTG:         %mean = tt.div %[[S1]], %{{.*}} : f32
# TTG:         %d = tt.select %mask, %{{.*}}, %{{.*}} : tensor<1024xf32, #blocked>
# TTG-NEXT:    %[[SQ:.*]] = tt.mul %d, %d : tensor<1024xf32, #blocked>
# TTG-NEXT:    %[[S2:.*]] = tt.reduce %[[SQ]] {axis = 0 : i32} : tensor<1024xf32, #blocked> -> f32 {
# TTG-NEXT:    ^bb0({{.*}}):
# TTG-NEXT:      %{{.*}} = tt.add %{{.*}}, %{{.*}} : f32
# TTG-NEXT:      tt.reduce.return %{{.*}} : f32
# TTG-NEXT:    }
# TTG-NEXT:    %var = tt.div %[[S2]], %{{.*}} : f32
# TTG-NOT:     ttg.convert_layout

# GPU:         "memref.global"() <{sym_name = "smem_0", type = memref<8xf32, 3 : i64>, {{.*}}}>
# GPU-NEXT:    "memref.global"() <{sym_name = "smem_1", type = memref<8xf32, 3 : i64>, {{.*}}}>
# GPU-LABEL: "gpu.func"() <{function_type = (!llvm.ptr<1>, !llvm.ptr<1>, i32, f32) -> ()}>
# GPU:         "memref.get_global"() <{name = @smem_0}>
# GPU:         "gpu.barrier"
# GPU-COUNT-1: "memref.load"
# GPU-COUNT-3: "gpu.shuffle"
# GPU:         "gpu.barrier"
# GPU:         %mean = "llvm.call_intrinsic"
# GPU-NEXT:    %[[D0:.*]] = "arith.subf"(%v, %mean)
# GPU-NEXT:    %[[D1:.*]] = "arith.subf"(%v_1, %mean)
# GPU-NEXT:    %[[D2:.*]] = "arith.subf"(%v_2, %mean)
# GPU-NEXT:    %[[D3:.*]] = "arith.subf"(%v_3, %mean)
# GPU-NEXT:    %d = "arith.select"(%mask, %[[D0]], %{{.*}}) : (i1, f32, f32) -> f32
# GPU-NEXT:    %d_1 = "arith.select"(%mask_1, %[[D1]], %{{.*}}) : (i1, f32, f32) -> f32
# GPU-NEXT:    %d_2 = "arith.select"(%mask_2, %[[D2]], %{{.*}}) : (i1, f32, f32) -> f32
# GPU-NEXT:    %d_3 = "arith.select"(%mask_3, %[[D3]], %{{.*}}) : (i1, f32, f32) -> f32
# GPU:         "memref.get_global"() <{name = @smem_1}>
# GPU:         "gpu.barrier"
# GPU-COUNT-1: "memref.load"
# GPU-COUNT-3: "gpu.shuffle"
# GPU:         "gpu.barrier"
# GPU-NEXT:    %var = "llvm.call_intrinsic"
# GPU:         %[[DEN:.*]] = "arith.addf"(%var, %eps)
# GPU-NEXT:    "llvm.call_intrinsic"(%d, %[[DEN]]) <{intrin = "llvm.nvvm.div.full"
# GPU:         }) {sym_name = "layer_norm_no_sqrt_kernel", gpu.kernel, known_block_size = array<i32: 256, 1, 1>, mytriton.pointee_types = [f32, f32]}
