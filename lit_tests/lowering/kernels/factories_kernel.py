# RUN: env MYTRITON_BACKEND=cuda %python %s ttg | filecheck %s --check-prefix=TTG
# RUN: env MYTRITON_BACKEND=cuda %python %s gpu | filecheck %s --check-prefix=GPU

"""tests/kernels.py's factories_kernel (BLOCK=64, 4 warps: 128 threads for 64 elements, so
each thread holds 1 register, its coordinate wrapped modulo 64): tl.zeros and tl.full are
constants or the scalar itself in every register."""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
from mytriton.backends.stages import strip_locations
from tests.kernels import factories_kernel

a = np.zeros(64, np.float32)
text = factories_kernel.warmup(a, 1.5, grid=(1,), BLOCK=64).asm[sys.argv[1]]
print(strip_locations(text) if sys.argv[1] == "ttg" else text)

# tl.full((BLOCK,), 2.5) * tl.full([BLOCK], fill) was folded to a scalar product, splat.
# TTG:       #blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
# TTG-LABEL: func.func @factories_kernel(%out: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %fill: f32) {
# TTG:         %[[C:.*]] = arith.constant 2.500000e+00 : f32
# TTG-NEXT:    %[[FG:.*]] = tt.mul %[[C]], %fill : f32
# TTG:         %z = tt.zeros : tensor<64xf32, #blocked>
# TTG-NEXT:    %[[FGS:.*]] = tt.splat %[[FG]] : f32 -> tensor<64xf32, #blocked>
# TTG-NEXT:    %[[SUM:.*]] = tt.add %z, %[[FGS]] : tensor<64xf32, #blocked>
# TTG-NEXT:    tt.store %{{.*}}, %[[SUM]] : tensor<64x!tt.ptr<f32>, #blocked>

# GPU:         "gpu.func"() <{function_type = (!llvm.ptr<1>, f32) -> ()}>
# GPU:         %[[C:.*]] = "arith.constant"() <{value = 2.500000e+00 : f32}> : () -> f32
# GPU:         %[[BASE:.*]] = "arith.addi"(%{{.*}}, %{{.*}}) {{.*}} : (i32, i32) -> i32
# GPU-NEXT:    %[[C63:.*]] = "arith.constant"() <{value = 63 : i32}> : () -> i32
# GPU-NEXT:    %offsets = "arith.andi"(%[[BASE]], %[[C63]]) : (i32, i32) -> i32
# GPU-NEXT:    %z = "arith.constant"() <{value = 0.000000e+00 : f32}> : () -> f32
# 64 elements over 128 threads: warps 2-3 replicate warps 0-1 and do not store (bit 6 = 64).
# GPU-NEXT:    %[[BIT6:.*]] = "arith.constant"() <{value = 64 : i32}> : () -> i32
# GPU-NEXT:    %[[REPLICA:.*]] = "arith.andi"(%{{.*}}, %[[BIT6]]) : (i32, i32) -> i32
# GPU-NEXT:    %[[ZERO:.*]] = "arith.constant"() <{value = 0 : i32}> : () -> i32
# GPU-NEXT:    %owner = "arith.cmpi"(%[[REPLICA]], %[[ZERO]]) <{predicate = 0 : i64}> : (i32, i32) -> i1
# GPU-NEXT:    %[[FG:.*]] = "arith.mulf"(%[[C]], %fill) {{.*}} : (f32, f32) -> f32
# GPU-NEXT:    %[[P:.*]] = "llvm.getelementptr"(%out, %offsets)
# GPU-NEXT:    %[[SUM:.*]] = "arith.addf"(%z, %[[FG]]) {{.*}} : (f32, f32) -> f32
# GPU-NEXT:    "scf.if"(%owner) ({
# GPU-NEXT:      "llvm.store"(%[[SUM]], %[[P]]) <{ordering = 0 : i64}> : (f32, !llvm.ptr<1>) -> ()
# GPU-NEXT:      "scf.yield"() : () -> ()
# GPU-NEXT:    }, {
# GPU-NEXT:    }) : (i1) -> ()
# GPU-NEXT:    "gpu.return"
# GPU-NEXT:  }) {sym_name = "factories_kernel", gpu.kernel, known_block_size = array<i32: 128, 1, 1>, mytriton.pointee_types = [f32]}
