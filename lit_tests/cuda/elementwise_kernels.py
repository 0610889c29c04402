# RUN: env MYTRITON_BACKEND=cuda %python %s | filecheck %s

"""CUDA C++ of the seed's elementwise kernels: add (BLOCK=256 over 128 threads: two registers,
masked loads as if/else with `other`, masked stores), relu (Triton's maximum: fmaxf), leaky relu
(select) and sigmoid (Triton's exp: the product by log2(e) and PTX ex2.approx.f32, and its
division: div.full.f32, both as inline asm)."""

import numpy as np
from common import show

from tests import kernels

x = np.zeros(1024, np.float32)
show(
    kernels.add_kernel.warmup(x, x, x, 1000, grid=(4,), BLOCK=256),
    kernels.relu_kernel.warmup(x, x, 1000, grid=(8,), BLOCK=128),
    kernels.leaky_relu_kernel.warmup(x, x, 1000, 0.1, grid=(8,), BLOCK=128),
    kernels.sigmoid_kernel.warmup(x, x, 1000, grid=(8,), BLOCK=128),
)

# CHECK-LABEL: extern "C" __global__ void __launch_bounds__(128) add_kernel(float* x, float* y, float* out, int n) {
# CHECK:         long long [[TID:v[0-9]+]] = threadIdx.x;
# CHECK:         long long [[BID:v[0-9]+]] = blockIdx.x;
# CHECK:         int [[OFF0:offsets_[0-9]+]] = (int)((unsigned int){{v[0-9]+}} + (unsigned int){{v[0-9]+}});
# CHECK-NEXT:    int [[OFF1:offsets_[0-9]+]] = (int)((unsigned int){{v[0-9]+}} + (unsigned int){{v[0-9]+}});
# CHECK:         float* [[PX0:v[0-9]+]] = x + [[OFF0]];
# CHECK:         bool [[M0:mask_[0-9]+]] = [[OFF0]] < n;
# CHECK-NEXT:    bool [[M1:mask_[0-9]+]] = [[OFF1]] < n;
# CHECK-NEXT:    float [[XV0:x_values_[0-9]+]];
# CHECK-NEXT:    if ([[M0]]) {
# CHECK-NEXT:        float [[L:v[0-9]+]] = *[[PX0]];
# CHECK-NEXT:        [[XV0]] = [[L]];
# CHECK-NEXT:    } else {
# CHECK-NEXT:        [[XV0]] = 0.0f;
# CHECK-NEXT:    }
# CHECK:         float [[SUM0:v[0-9]+]] = [[XV0]] + {{y_values_[0-9]+}};
# CHECK:         float* [[PO0:v[0-9]+]] = out + [[OFF0]];
# CHECK:         if ([[M0]]) {
# CHECK-NEXT:        *[[PO0]] = [[SUM0]];
# CHECK-NEXT:    }
# CHECK:         return;
# CHECK-NEXT:  }

# relu: tl.maximum(v, 0.0) is arith.maxnumf: fmaxf (PTX max.f32) ignores a NaN operand, as Triton.
# CHECK-LABEL: relu_kernel(float* x, float* out, int n) {
# CHECK:         float {{v[0-9]+}} = fmaxf({{v_[0-9]+}}, 0.0f);

# CHECK-LABEL: leaky_relu_kernel(float* x, float* out, int n, float alpha) {
# CHECK:         float [[SCALED:v[0-9]+]] = [[V:v_[0-9]+]] * alpha;
# CHECK:         float {{v[0-9]+}} = {{v[0-9]+}} ? [[V]] : [[SCALED]];

# CHECK-LABEL: sigmoid_kernel(float* x, float* out, int n) {
# CHECK:         float [[NEG:v[0-9]+]] = {{.*}}[[V:v_[0-9]+]];
# CHECK-NEXT:    float [[X:v[0-9]+]] = [[NEG]] * 1.442695f;
# CHECK-NEXT:    float [[E:v[0-9]+]];
# CHECK-NEXT:    asm("ex2.approx.f32 %0, %1;" : "=f"([[E]]) : "f"([[X]]));
# CHECK-NEXT:    float [[D:v[0-9]+]] = 1.0f + [[E]];
# CHECK-NEXT:    float [[Q:v[0-9]+]];
# CHECK-NEXT:    asm("div.full.f32 %0, %1, %2;" : "=f"([[Q]]) : "f"(1.0f), "f"([[D]]));
