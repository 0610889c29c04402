# RUN: env MYTRITON_BACKEND=cuda %python %s ttg | filecheck %s --check-prefix=TTG
# RUN: env MYTRITON_BACKEND=cuda %python %s gpu | filecheck %s --check-prefix=GPU

"""The softmax family (tests/kernels.py: softmax_kernel, and Triton tutorial 02's
fused_softmax_kernel), BLOCK=256 over 4 warps: two reductions over the row, each with its own
shared buffer; the scalar results are used directly by every thread (no broadcast code)."""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
from tests.kernels import fused_softmax_kernel, softmax_kernel

stage = sys.argv[1]
a = np.zeros(200 * 200, np.float32)
print(softmax_kernel.warmup(a, a, 200, grid=(200,), BLOCK=256).asm[stage])
print(fused_softmax_kernel.warmup(a, a, 200, 200, 200, 200, grid=(200,), BLOCK_SIZE=256).asm[stage])

# TTG:       #blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
# TTG-LABEL: func.func @softmax_kernel(
# TTG:         %v = tt.load %{{.*}}, %mask, %{{.*}} : tensor<256x!tt.ptr<f32>, #blocked>
# TTG-NEXT:    %[[MAX:.*]] = tt.reduce %v {axis = 0 : i32} : tensor<256xf32, #blocked> -> f32 {
# TTG-NEXT:    ^bb0({{.*}}):
# TTG-NEXT:      %{{.*}} = tt.maximum %{{.*}}, %{{.*}} : f32
# TTG-NEXT:      tt.reduce.return %{{.*}} : f32
# TTG-NEXT:    }
# TTG-NEXT:    %[[MAXS:.*]] = tt.splat %[[MAX]] : f32 -> tensor<256xf32, #blocked>
# TTG-NEXT:    %[[SH:.*]] = tt.sub %v, %[[MAXS]] : tensor<256xf32, #blocked>
# TTG-NEXT:    %num = tt.exp %[[SH]] : tensor<256xf32, #blocked>
# TTG-NEXT:    %den = tt.reduce %num {axis = 0 : i32} : tensor<256xf32, #blocked> -> f32 {
# TTG-NEXT:    ^bb0({{.*}}):
# TTG-NEXT:      %{{.*}} = tt.add %{{.*}}, %{{.*}} : f32
# TTG-NEXT:      tt.reduce.return %{{.*}} : f32
# TTG-NEXT:    }
# TTG:         %[[DENS:.*]] = tt.splat %den : f32 -> tensor<256xf32, #blocked>
# TTG-NEXT:    %[[Y:.*]] = tt.div %num, %[[DENS]] : tensor<256xf32, #blocked>
# TTG:         tt.store %{{.*}}, %[[Y]], %mask : tensor<256x!tt.ptr<f32>, #blocked>
# TTG-LABEL: func.func @fused_softmax_kernel(
# TTG:         %row = tt.load %input_ptrs, %mask, %{{.*}} : tensor<256x!tt.ptr<f32>, #blocked>
# TTG:         %numerator = tt.exp %row_minus_max : tensor<256xf32, #blocked>
# TTG-NEXT:    %denominator = tt.reduce %numerator {axis = 0 : i32} : tensor<256xf32, #blocked> -> f32 {
# TTG-NEXT:    ^bb0({{.*}}):
# TTG-NEXT:      %{{.*}} = tt.add %{{.*}}, %{{.*}} : f32
# TTG-NEXT:      tt.reduce.return %{{.*}} : f32
# TTG-NEXT:    }
# TTG:         tt.store %output_ptrs, %softmax_output, %mask : tensor<256x!tt.ptr<f32>, #blocked>

# GPU:         "memref.global"() <{sym_name = "smem_0", type = memref<4xf32, 3 : i64>, {{.*}}}>
# GPU-NEXT:    "memref.global"() <{sym_name = "smem_1", type = memref<4xf32, 3 : i64>, {{.*}}}>
# GPU-LABEL: "gpu.func"
# GPU:         "memref.get_global"() <{name = @smem_0}>
# GPU:         "gpu.barrier"
# GPU-COUNT-1: "memref.load"
# GPU-COUNT-2: "gpu.shuffle"
# GPU:         "gpu.barrier"
# The max is a scalar in every thread: subtracted from each of its 2 registers.
# GPU-NEXT:    %[[D0:.*]] = "arith.subf"(%v, %[[MAX:.*]]) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
# GPU-NEXT:    %[[D1:.*]] = "arith.subf"(%v_1, %[[MAX]])
# exp(x) is Triton's ex2.approx.f32(x * log2(e)).
# GPU-NEXT:    %[[X0:.*]] = "arith.mulf"(%[[D0]], %[[LOG2E:.*]]) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
# GPU-NEXT:    %num = "llvm.call_intrinsic"(%[[X0]]) <{intrin = "llvm.nvvm.ex2.approx.f32"{{.*}} : (f32) -> f32
# GPU-NEXT:    %[[X1:.*]] = "arith.mulf"(%[[D1]], %[[LOG2E]]) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
# GPU-NEXT:    %num_1 = "llvm.call_intrinsic"(%[[X1]]) <{intrin = "llvm.nvvm.ex2.approx.f32"{{.*}} : (f32) -> f32
# GPU-NEXT:    "arith.addf"(%num, %num_1)
# GPU:         "memref.get_global"() <{name = @smem_1}>
# GPU:         %den = "arith.addf"
# GPU-NEXT:    "gpu.barrier"
# GPU:         "llvm.call_intrinsic"(%num, %den) <{intrin = "llvm.nvvm.div.full"
# GPU-NEXT:    "llvm.call_intrinsic"(%num_1, %den) <{intrin = "llvm.nvvm.div.full"
# GPU:         }) {sym_name = "softmax_kernel", gpu.kernel, known_block_size = array<i32: 128, 1, 1>
# GPU:         "memref.global"() <{sym_name = "smem_0", type = memref<4xf32, 3 : i64>, {{.*}}}>
# GPU-NEXT:    "memref.global"() <{sym_name = "smem_1", type = memref<4xf32, 3 : i64>, {{.*}}}>
# GPU-LABEL: "gpu.func"
# GPU:         %numerator = "llvm.call_intrinsic"({{.*}}) <{intrin = "llvm.nvvm.ex2.approx.f32"
# GPU:         %denominator = "arith.addf"
# GPU-NEXT:    "gpu.barrier"
# GPU:         %softmax_output = "llvm.call_intrinsic"(%numerator, %denominator) <{intrin = "llvm.nvvm.div.full"
# GPU:         }) {sym_name = "fused_softmax_kernel", gpu.kernel
