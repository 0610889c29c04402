# RUN: %python %s > %t.mlir
# RUN: filecheck %s --input-file=%t.mlir
# RUN: mytriton-opt %t.mlir -o %t.opt.mlir
# RUN: %{same_ir} %t.mlir %t.opt.mlir
# ruff: noqa: N803  (kernels keep Triton's parameter names)
"""A runtime `if/elif/else` on a scalar: the variables the branches assign (a block and a
scalar) become the results of nested scf.if ops; a Python float assigned in one branch is
materialized in that branch."""

import numpy as np

import mytriton as triton
import mytriton.language as tl
from mytriton.backends.stages import strip_locations


@triton.jit
def branchy_kernel(x, out, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(x + offs, mask=offs < n, other=0.0)
    scale = 1.0
    if pid % 3 == 0:
        v = v * 2.0
        scale = 3.0
    elif pid % 3 == 1:
        v = v + 1.0
    else:
        scale = 0.5
    tl.store(out + offs, v * scale, mask=offs < n)


x = np.zeros(1024, np.float32)
print(strip_locations(branchy_kernel.warmup(x, x, 1000, grid=(8,), BLOCK=128).asm["tt-opt"]))

# CHECK-LABEL: func.func @branchy_kernel(
# CHECK:         %v = tt.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<128x!tt.ptr<f32>>
# CHECK:         %[[C0:.*]] = tt.cmp eq, %{{.*}}, %{{.*}} : i32
# CHECK-NEXT:    %scale, %v_1 = scf.if %[[C0]] -> (f32, tensor<128xf32>) {
# CHECK:           %v_2 = tt.mul %v, %{{.*}} : tensor<128xf32>
# CHECK:           scf.yield %{{.*}}, %v_2 : f32, tensor<128xf32>
# CHECK-NEXT:    } else {
# CHECK:           %scale_1, %v_3 = scf.if %{{.*}} -> (f32, tensor<128xf32>) {
# CHECK:             %v_4 = tt.add %v, %{{.*}} : tensor<128xf32>
# CHECK:             scf.yield %{{.*}}, %v_4 : f32, tensor<128xf32>
# CHECK-NEXT:      } else {
# CHECK:             scf.yield %{{.*}}, %v : f32, tensor<128xf32>
# CHECK-NEXT:      }
# CHECK-NEXT:      scf.yield %scale_1, %v_3 : f32, tensor<128xf32>
# CHECK-NEXT:    }
# CHECK:         %[[SC:.*]] = tt.splat %scale : f32 -> tensor<128xf32>
# CHECK-NEXT:    %[[P:.*]] = tt.mul %v_1, %[[SC]] : tensor<128xf32>
# CHECK-NEXT:    tt.store %{{.*}}, %[[P]], %{{.*}} : tensor<128x!tt.ptr<f32>>
