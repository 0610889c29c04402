# RUN: env MYTRITON_BACKEND=cuda %python %s ttg | filecheck %s --check-prefix=TTG
# RUN: env MYTRITON_BACKEND=cuda %python %s gpu | filecheck %s --check-prefix=GPU

"""The elementwise family (tests/kernels.py: add_kernel, leaky_relu_kernel, sigmoid_kernel)
through the CUDA backend's stages: one layout for every block (BLOCK=256, 4 warps: 2 registers
per thread), then masked loads as scf.if, the math per register, masked stores."""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
from tests.kernels import add_kernel, leaky_relu_kernel, sigmoid_kernel

stage = sys.argv[1]
a = np.zeros(1000, np.float32)
add = add_kernel.warmup(a, a, a, 1000, grid=(4,), BLOCK=256)
leaky = leaky_relu_kernel.warmup(a, a, 1000, 0.1, grid=(4,), BLOCK=256)
print(add.asm[stage])
print(leaky.asm[stage])
print(sigmoid_kernel.warmup(a, a, 1000, grid=(4,), BLOCK=256).asm[stage])

# TTG:       #blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
# TTG-LABEL: func.func @add_kernel(
# TTG:         %offsets = tt.add %{{.*}}, %{{.*}} : tensor<256xi32, #blocked>
# TTG:         %mask = tt.cmp lt, %offsets, %{{.*}} : tensor<256xi32, #blocked>
# TTG:         %x_values = tt.load %{{.*}}, %mask, %{{.*}} : tensor<256x!tt.ptr<f32>, #blocked>
# TTG:         %y_values = tt.load %{{.*}}, %mask, %{{.*}} : tensor<256x!tt.ptr<f32>, #blocked>
# TTG-NEXT:    %[[SUM:.*]] = tt.add %x_values, %y_values : tensor<256xf32, #blocked>
# TTG:         tt.store %{{.*}}, %[[SUM]], %mask : tensor<256x!tt.ptr<f32>, #blocked>
# TTG-LABEL: func.func @leaky_relu_kernel(
# TTG:         %v = tt.load %{{.*}}, %mask, %{{.*}} : tensor<256x!tt.ptr<f32>, #blocked>
# TTG-NEXT:    %[[POS:.*]] = tt.cmp gt, %v, %{{.*}} : tensor<256xf32, #blocked>
# TTG-NEXT:    %[[ALPHA:.*]] = tt.splat %alpha : f32 -> tensor<256xf32, #blocked>
# TTG-NEXT:    %[[NEG:.*]] = tt.mul %v, %[[ALPHA]] : tensor<256xf32, #blocked>
# TTG-NEXT:    %[[RES:.*]] = tt.select %[[POS]], %v, %[[NEG]] : tensor<256xf32, #blocked>
# TTG:         tt.store %{{.*}}, %[[RES]], %mask : tensor<256x!tt.ptr<f32>, #blocked>

# Two registers per thread: elements base and base + 128 of the block, base = warp * 32 + lane.
# GPU-LABEL: "gpu.func"() <{function_type = (!llvm.ptr<1>, !llvm.ptr<1>, !llvm.ptr<1>, i32) -> ()}>
# GPU:         %[[BASE:.*]] = "arith.addi"(%{{.*}}, %{{.*}}) {{.*}} : (i32, i32) -> i32
# GPU-NEXT:    %[[C128:.*]] = "arith.constant"() <{value = 128 : i32}> : () -> i32
# GPU-NEXT:    %[[BASE1:.*]] = "arith.addi"(%[[BASE]], %[[C128]]) {{.*}} : (i32, i32) -> i32
# GPU:         %[[START:.*]] = "arith.muli"(%{{.*}}, %{{.*}}) {{.*}} : (i32, i32) -> i32
# GPU-NEXT:    %offsets = "arith.addi"(%[[START]], %[[BASE]]) {{.*}} : (i32, i32) -> i32
# GPU-NEXT:    %offsets_1 = "arith.addi"(%[[START]], %[[BASE1]]) {{.*}} : (i32, i32) -> i32
# GPU:         %mask = "arith.cmpi"(%offsets, %n) <{predicate = 2 : i64}> : (i32, i32) -> i1 loc("{{.*}}kernels.py":{{[0-9]+}}:{{[0-9]+}})
# GPU-NEXT:    %mask_1 = "arith.cmpi"(%offsets_1, %n) <{predicate = 2 : i64}> : (i32, i32) -> i1
# GPU-NEXT:    %x_values = "scf.if"(%mask) ({
# GPU-NEXT:      "llvm.load"
# GPU:         %x_values_1 = "scf.if"(%mask_1) ({
# GPU:         %y_values_1 = "scf.if"(%mask_1) ({
# GPU:         %[[S0:.*]] = "arith.addf"(%x_values, %y_values) {{.*}} : (f32, f32) -> f32
# GPU-NEXT:    %[[S1:.*]] = "arith.addf"(%x_values_1, %y_values_1) {{.*}} : (f32, f32) -> f32
# GPU:         "scf.if"(%mask) ({
# GPU-NEXT:      "llvm.store"(%[[S0]], %{{.*}}) <{ordering = 0 : i64}> : (f32, !llvm.ptr<1>) -> ()
# GPU:         "scf.if"(%mask_1) ({
# GPU-NEXT:      "llvm.store"(%[[S1]], %{{.*}}) <{ordering = 0 : i64}> : (f32, !llvm.ptr<1>) -> ()
# GPU:         "gpu.return"() : () -> ()
# GPU-NEXT:  }) {sym_name = "add_kernel", gpu.kernel, known_block_size = array<i32: 128, 1, 1>, mytriton.pointee_types = [f32, f32, f32]} : () -> ()
# GPU-LABEL: "gpu.func"() <{function_type = (!llvm.ptr<1>, !llvm.ptr<1>, i32, f32) -> ()}>
# GPU:         %[[POS:.*]] = "arith.cmpf"(%v, %{{.*}}) <{predicate = 2 : i64, fastmath = #arith.fastmath<none>}> : (f32, f32) -> i1
# GPU:         %[[NEG:.*]] = "arith.mulf"(%v, %alpha) {{.*}} : (f32, f32) -> f32
# GPU:         %[[RES:.*]] = "arith.select"(%[[POS]], %v, %[[NEG]]) : (i1, f32, f32) -> f32
# GPU:         "llvm.store"(%[[RES]], %{{.*}})
# sigmoid: 1 / (1 + exp(-v)), per register; exp(x) is ex2.approx.f32(x * log2(e)), as Triton.
# GPU-LABEL: "gpu.func"() <{function_type = (!llvm.ptr<1>, !llvm.ptr<1>, i32) -> ()}>
# GPU:         %[[LOG2E:.*]] = "arith.constant"() <{value = 1.44269502 : f32}> : () -> f32
# GPU-NEXT:    %[[ONE:.*]] = "arith.constant"() <{value = 1.000000e+00 : f32}> : () -> f32
# GPU:         %[[N0:.*]] = "arith.subf"(%{{.*}}, %v) {{.*}} : (f32, f32) -> f32
# GPU-NEXT:    %[[N1:.*]] = "arith.subf"(%{{.*}}, %v_1) {{.*}} : (f32, f32) -> f32
# GPU-NEXT:    %[[X0:.*]] = "arith.mulf"(%[[N0]], %[[LOG2E]]) {{.*}} : (f32, f32) -> f32
# GPU-NEXT:    %[[E0:.*]] = "llvm.call_intrinsic"(%[[X0]]) <{intrin = "llvm.nvvm.ex2.approx.f32"{{.*}} : (f32) -> f32
# GPU-NEXT:    %[[X1:.*]] = "arith.mulf"(%[[N1]], %[[LOG2E]]) {{.*}} : (f32, f32) -> f32
# GPU-NEXT:    %[[E1:.*]] = "llvm.call_intrinsic"(%[[X1]]) <{intrin = "llvm.nvvm.ex2.approx.f32"{{.*}} : (f32) -> f32
# GPU-NEXT:    %[[D0:.*]] = "arith.addf"(%[[ONE]], %[[E0]]) {{.*}} : (f32, f32) -> f32
# GPU-NEXT:    %[[D1:.*]] = "arith.addf"(%[[ONE]], %[[E1]]) {{.*}} : (f32, f32) -> f32
# GPU-NEXT:    "llvm.call_intrinsic"(%[[ONE]], %[[D0]]) <{intrin = "llvm.nvvm.div.full"{{.*}} : (f32, f32) -> f32
# GPU-NEXT:    "llvm.call_intrinsic"(%[[ONE]], %[[D1]]) <{intrin = "llvm.nvvm.div.full"{{.*}} : (f32, f32) -> f32
