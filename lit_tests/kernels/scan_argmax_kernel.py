# RUN: %python %s > %t.mlir
# RUN: filecheck %s --input-file=%t.mlir
# RUN: mytriton-opt --split-input-file %t.mlir -o %t.opt.mlir
# RUN: filecheck %s --input-file=%t.opt.mlir
# RUN: %{same_ir} %t.mlir %t.opt.mlir
# ruff: noqa: N803  (kernels keep Triton's names; FileCheck lines are long)
"""Region reductions and scans from the frontend: tl.cumsum is a tt.scan whose region adds;
tl.argmax a tt.reduce over (value, index) pairs whose region is Triton's argmax combine
function inlined (compare, tie break on the index, two selects); tl.reduce with a user @jit
combine function of a 2-tuple inlines its body."""

import sys

import numpy as np

import mytriton as triton
import mytriton.language as tl
from mytriton.backends.stages import strip_locations


@triton.jit
def cumsum_kernel(x, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out + offs, tl.cumsum(tl.load(x + offs), 0, reverse=True))


@triton.jit
def argmax_kernel(x, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out, tl.argmax(tl.load(x + offs), 0))


@triton.jit
def _min_and_count(m1, c1, m2, c2):
    return tl.minimum(m1, m2), c1 + c2


@triton.jit
def pair_kernel(x, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    v = tl.load(x + offs)
    m, c = tl.reduce((v, (v > 0).to(tl.int32)), 0, _min_and_count)
    tl.store(out, m + c)


a = np.zeros(64, np.float32)
i = np.zeros(64, np.int32)
stage = sys.argv[1] if len(sys.argv) > 1 else "tt-opt"
compiled = (
    cumsum_kernel.warmup(i, i, grid=(1,), BLOCK=64),
    argmax_kernel.warmup(a, i, grid=(1,), BLOCK=64),
    pair_kernel.warmup(a, a, grid=(1,), BLOCK=64),
)
print("\n// -----\n".join(strip_locations(k.asm[stage]) for k in compiled))

# CHECK-LABEL: func.func @cumsum_kernel(
# CHECK:         %[[V:.*]] = tt.load %{{.*}} : tensor<64x!tt.ptr<i32>>
# CHECK-NEXT:    %[[C:.*]] = tt.scan %[[V]] {axis = 0 : i32, reverse = true} : tensor<64xi32> -> tensor<64xi32> {
# CHECK-NEXT:    ^bb0(%[[A:.*]]: i32, %[[B:.*]]: i32):
# CHECK-NEXT:      %[[S:.*]] = tt.add %[[A]], %[[B]] : i32
# CHECK-NEXT:      tt.scan.return %[[S]] : i32
# CHECK-NEXT:    }
# CHECK-NEXT:    tt.store %{{.*}}, %[[C]] : tensor<64x!tt.ptr<i32>>

# CHECK-LABEL: func.func @argmax_kernel(
# CHECK:         %[[IDX:.*]] = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
# CHECK:         %{{.*}}, %[[K:.*]] = tt.reduce %{{.*}}, %[[IDX]] {axis = 0 : i32} : tensor<64xf32>, tensor<64xi32> -> f32, i32 {
# CHECK-NEXT:    ^bb0(%[[V1:.*]]: f32, %[[I1:.*]]: i32, %[[V2:.*]]: f32, %[[I2:.*]]: i32):
# CHECK-NEXT:      %[[EQ:.*]] = tt.cmp eq, %[[V1]], %[[V2]] : f32
# CHECK-NEXT:      %[[LT:.*]] = tt.cmp lt, %[[I1]], %[[I2]] : i32
# CHECK-NEXT:      %[[TIE:.*]] = tt.and %[[EQ]], %[[LT]] : i1
# CHECK-NEXT:      %[[GT:.*]] = tt.cmp gt, %[[V1]], %[[V2]] : f32
# CHECK-NEXT:      %[[PICK:.*]] = tt.or %[[GT]], %[[TIE]] : i1
# CHECK-NEXT:      %[[VR:.*]] = tt.select %[[PICK]], %[[V1]], %[[V2]] : f32
# CHECK-NEXT:      %[[IR:.*]] = tt.select %[[PICK]], %[[I1]], %[[I2]] : i32
# CHECK-NEXT:      tt.reduce.return %[[VR]], %[[IR]] : f32, i32
# CHECK-NEXT:    }
# CHECK-NEXT:    tt.store %out, %[[K]] : !tt.ptr<i32>

# CHECK-LABEL: func.func @pair_kernel(
# CHECK:         %m, %c = tt.reduce %v, %{{.*}} {axis = 0 : i32} : tensor<64xf32>, tensor<64xi32> -> f32, i32 {
# CHECK-NEXT:    ^bb0(%{{.*}}: f32, %{{.*}}: i32, %{{.*}}: f32, %{{.*}}: i32):
# CHECK-NEXT:      %{{.*}} = tt.minimum %{{.*}}, %{{.*}} : f32
# CHECK-NEXT:      %{{.*}} = tt.add %{{.*}}, %{{.*}} : i32
# CHECK-NEXT:      tt.reduce.return %{{.*}}, %{{.*}} : f32, i32
# CHECK-NEXT:    }
