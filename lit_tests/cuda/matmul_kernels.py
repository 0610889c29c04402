# RUN: env MYTRITON_BACKEND=cuda TRITON_F32_DEFAULT=ieee %python %s | filecheck %s

"""CUDA C++ of the tutorial matmul (64x64x16 tiles, 4 warps, runtime K): the K loop carries
the pointer registers and the 4x8 register tile of accumulators; each iteration stages A
(padded, M contiguous) and B (as loaded, with float4 stores) in 16-byte aligned __shared__
arrays, synchronizes, runs the FMA
loop over the 16 staged k, and synchronizes again before the buffers are rewritten."""

import numpy as np
from common import show

from tests import kernels

x = np.zeros(256 * 256, np.float32)
show(
    kernels.tutorial_matmul_kernel.warmup(
        x,
        x,
        x,
        256,
        256,
        256,
        256,
        1,
        256,
        1,
        256,
        1,
        grid=(16,),
        BLOCK_SIZE_M=64,
        BLOCK_SIZE_N=64,
        BLOCK_SIZE_K=16,
        GROUP_SIZE_M=8,
    )
)

# One staging array: A [64, 16] with a row stride of 64 + 4 (1088), then B [16, 64] densely.
# CHECK:       __shared__ __align__(16) float smem_0[2112];
# CHECK-NOT:   __shared__
# The unit strides (integer arguments equal to 1) are compiled in, as Triton does.
# CHECK-LABEL: tutorial_matmul_kernel(float* a_ptr, float* b_ptr, float* c_ptr, int M, int N, int K, int stride_am, int stride_bk, int stride_cm) {
# CHECK:         for (int [[K:v[0-9]+]] = 0; [[K]] < {{v[0-9]+}}; [[K]] += 1) {
# CHECK-COUNT-8:   smem_0[{{v[0-9]+}}] = {{a_[0-9]+}};
# B is staged as loaded (4 consecutive floats per thread): two float4 stores per thread.
# CHECK-COUNT-2:   *(float4*)&smem_0[{{v[0-9]+}}] = {{v[0-9]+}};
# CHECK-NEXT:      __syncthreads();
# CHECK:           for (int [[KK:v[0-9]+]] = 0; [[KK]] < 16; [[KK]] += 1) {
# CHECK-NEXT:          int [[ROWBASE:v[0-9]+]] = (int)((unsigned int)[[KK]] * (unsigned int)68);
# CHECK-NEXT:          int [[COLBASE:v[0-9]+]] = (int)((unsigned int)[[KK]] * (unsigned int)64);
# CHECK-COUNT-4:       float {{v[0-9]+}} = smem_0[{{v[0-9]+}}];
# CHECK-COUNT-8:       float {{v[0-9]+}} = smem_0[{{v[0-9]+}}];
# CHECK-COUNT-32:      float {{v[0-9]+}} = fmaf({{v[0-9]+}}, {{v[0-9]+}}, {{.*}});
# CHECK:           }
# CHECK-NEXT:      __syncthreads();
# CHECK:         }
# The 32 accumulator registers are stored under their masks, 4 at a time: each thread's row
# of the register tile is contiguous and 16-byte aligned (N is a multiple of 16).
# CHECK-COUNT-8: *(float4*){{c_ptrs_[0-9]+}} = {{v[0-9]+}};
