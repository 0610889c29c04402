# RUN: env MYTRITON_BACKEND=cuda %python %s | filecheck %s

"""CUDA C++ of the seed's row reductions and softmax: each thread folds its registers, a
__shfl_xor_sync butterfly (1, 2, 4, 8, 16) combines the warp, and with 4 warps splitting the
row the partials meet in a __shared__ array between two __syncthreads()."""

import numpy as np
from common import show

from tests import kernels

x = np.zeros(8 * 512, np.float32)
show(
    kernels.row_sum_kernel.warmup(x, x, 500, grid=(8,), BLOCK=512),
    kernels.row_max_kernel.warmup(x, x, 500, grid=(8,), BLOCK=32, num_warps=1),
    kernels.softmax_kernel.warmup(x, x, 500, grid=(8,), BLOCK=512),
)

# CHECK-LABEL: row_sum_kernel(float* x, float* out, int N) {
# CHECK:         float [[S1:v[0-9]+]] = {{v_[0-9]+}} + {{v_[0-9]+}};
# CHECK-NEXT:    float [[S2:v[0-9]+]] = [[S1]] + {{v_[0-9]+}};
# CHECK-NEXT:    float [[S3:v[0-9]+]] = [[S2]] + {{v_[0-9]+}};
# CHECK-NEXT:    float [[X1:v[0-9]+]] = __shfl_xor_sync(0xffffffffu, [[S3]], 1, 32);
# CHECK-NEXT:    float [[A1:v[0-9]+]] = [[S3]] + [[X1]];
# CHECK-NEXT:    float [[X2:v[0-9]+]] = __shfl_xor_sync(0xffffffffu, [[A1]], 2, 32);
# CHECK:         __shfl_xor_sync(0xffffffffu, {{v[0-9]+}}, 4, 32);
# CHECK:         __shfl_xor_sync(0xffffffffu, {{v[0-9]+}}, 8, 32);
# CHECK:         float [[X16:v[0-9]+]] = __shfl_xor_sync(0xffffffffu, [[A8:v[0-9]+]], 16, 32);
# CHECK-NEXT:    float [[WARP:v[0-9]+]] = [[A8]] + [[X16]];
# CHECK:         smem_0[{{v[0-9]+}}] = [[WARP]];
# CHECK-NEXT:    __syncthreads();
# Lane l reads warp l % 4's partial; two shuffles combine the 4.
# CHECK:         float [[P:v[0-9]+]] = smem_0[{{.*}}];
# CHECK-NOT:     smem_0[
# CHECK-NEXT:    float [[Y1:v[0-9]+]] = __shfl_xor_sync(0xffffffffu, [[P]], 1, 32);
# CHECK-NEXT:    float [[B1:v[0-9]+]] = [[P]] + [[Y1]];
# CHECK-NEXT:    float [[Y2:v[0-9]+]] = __shfl_xor_sync(0xffffffffu, [[B1]], 2, 32);
# CHECK-NEXT:    float [[TOTAL:v[0-9]+]] = [[B1]] + [[Y2]];
# CHECK-NEXT:    __syncthreads();
# CHECK:         *{{v[0-9]+}} = [[TOTAL]];

# One warp: the butterfly alone, no shared memory and no barrier; max ignores NaN (fmaxf).
# CHECK-LABEL: row_max_kernel(float* x, float* out, int N) {
# CHECK-NOT:     __shared__
# CHECK-NOT:     __syncthreads
# CHECK:         float [[X16:v[0-9]+]] = __shfl_xor_sync(0xffffffffu, [[M8:v[0-9]+]], 16, 32);
# CHECK-NEXT:    float {{v[0-9]+}} = fmaxf([[M8]], [[X16]]);
# CHECK-NOT:     __syncthreads
# CHECK:         return;

# Two reductions, two shared arrays; the max is subtracted and exponentiated per register.
# CHECK:       __shared__ __align__(16) float smem_0[4];
# CHECK-NEXT:  __shared__ __align__(16) float smem_1[4];
# CHECK-LABEL: softmax_kernel(float* x, float* out, int N) {
# CHECK-COUNT-2: __syncthreads();
# CHECK:         float [[SHIFTED:v_[0-9]+]] = {{v_[0-9]+}} - [[MAX:v[0-9]+]];
# CHECK:         float [[X:v[0-9]+]] = [[SHIFTED]] * 1.442695f;
# CHECK-NEXT:    float {{num_[0-9]+}};
# CHECK-NEXT:    asm("ex2.approx.f32 %0, %1;" : "=f"({{num_[0-9]+}}) : "f"([[X]]));
# CHECK:         smem_1[
# CHECK-COUNT-2: __syncthreads();
# CHECK:         asm("div.full.f32 %0, %1, %2;" : "=f"({{v[0-9]+}}) : "f"({{num_[0-9]+}}), "f"([[DEN:den_[0-9]+]]));
# CHECK-COUNT-3: asm("div.full.f32 %0, %1, %2;" : "=f"({{v[0-9]+}}) : "f"({{num_[0-9]+}}), "f"([[DEN]]));
