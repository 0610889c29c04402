# RUN: %python %s | filecheck %s
"""A block pointer is no IR type: `tl.make_block_ptr` records its scalars (shape, strides and
offsets widened to i64), `tl.load` with boundary_check expands into base + sum(offs_d *
stride_d) and a mask of the checked dims only, `tl.advance` adds to the offsets, and a runtime
loop carries only the scalars it changes (here one offset)."""

# ruff: noqa: N803  (kernels keep Triton's names)
import numpy as np

import mytriton as triton
import mytriton.language as tl
from mytriton.backends.stages import strip_locations


@triton.jit
def row_block_sum_kernel(x, out, M, K, BM: tl.constexpr, BK: tl.constexpr):
    p = tl.make_block_ptr(x, (M, K), (K, 1), (0, 0), (BM, BK), (1, 0))
    acc = tl.zeros((BM, BK), tl.float32)
    for _ in range(0, K, BK):
        acc += tl.load(p, boundary_check=(1,), padding_option="nan")
        p = tl.advance(p, (0, BK))
    tl.store(out + tl.arange(0, BK), tl.sum(acc, axis=0))


a = np.zeros(64, np.float32)
print(strip_locations(row_block_sum_kernel.warmup(a, a, 4, 40, BM=4, BK=8, grid=(1,)).asm["tt"]))

# CHECK-LABEL: func.func @row_block_sum_kernel(
# CHECK-NEXT:    %p_shape0 = tt.cast %M : i32 -> i64
# CHECK-NEXT:    %p_shape1 = tt.cast %K : i32 -> i64
# CHECK-NEXT:    %p_stride0 = tt.cast %K : i32 -> i64
# CHECK-NEXT:    %p_stride1 = arith.constant 1 : i64
# CHECK-NEXT:    %p_off0 = arith.constant 0 : i64
# CHECK-NEXT:    %[[O1:.*]] = arith.constant 0 : i64
# only the column offset changes in the loop: the rest of the pointer is not carried
# CHECK:         %acc_1, %p_off1 = scf.for %_ = %{{.*}} to %K step %{{.*}} iter_args(%acc_2 = %acc, %[[OFF1:.*]] = %[[O1]]) -> (tensor<4x8xf32>, i64)
# dimension 0: offsets times stride, no mask (not in boundary_check)
# CHECK-NEXT:      %[[R0:.*]] = tt.make_range {start = 0 : i32, end = 4 : i32}
# CHECK-NEXT:      %[[W0:.*]] = tt.cast %[[R0]] : tensor<4xi32> -> tensor<4xi64>
# CHECK-NEXT:      %[[B0:.*]] = tt.splat %p_off0 : i64 -> tensor<4xi64>
# CHECK-NEXT:      %[[ROWS:.*]] = tt.add %[[B0]], %[[W0]] : tensor<4xi64>
# CHECK-NEXT:      %[[ROWS2:.*]] = tt.expand_dims %[[ROWS]] {axis = 1 : i32} : tensor<4xi64> -> tensor<4x1xi64>
# CHECK-NEXT:      %[[ST0:.*]] = tt.splat %p_stride0 : i64 -> tensor<4x1xi64>
# CHECK-NEXT:      %[[T0:.*]] = tt.mul %[[ROWS2]], %[[ST0]] : tensor<4x1xi64>
# dimension 1: offsets times stride, and 0 <= offs < shape
# CHECK-NEXT:      %[[R1:.*]] = tt.make_range {start = 0 : i32, end = 8 : i32}
# CHECK-NEXT:      %[[W1:.*]] = tt.cast %[[R1]] : tensor<8xi32> -> tensor<8xi64>
# CHECK-NEXT:      %[[B1:.*]] = tt.splat %[[OFF1]] : i64 -> tensor<8xi64>
# CHECK-NEXT:      %[[COLS:.*]] = tt.add %[[B1]], %[[W1]] : tensor<8xi64>
# CHECK-NEXT:      %[[COLS2:.*]] = tt.expand_dims %[[COLS]] {axis = 0 : i32} : tensor<8xi64> -> tensor<1x8xi64>
# CHECK-NEXT:      %[[ST1:.*]] = tt.splat %p_stride1 : i64 -> tensor<1x8xi64>
# CHECK-NEXT:      %[[T1:.*]] = tt.mul %[[COLS2]], %[[ST1]] : tensor<1x8xi64>
# CHECK-NEXT:      %[[T0B:.*]] = tt.broadcast %[[T0]] : tensor<4x1xi64> -> tensor<4x8xi64>
# CHECK-NEXT:      %[[T1B:.*]] = tt.broadcast %[[T1]] : tensor<1x8xi64> -> tensor<4x8xi64>
# CHECK-NEXT:      %[[OFFS:.*]] = tt.add %[[T0B]], %[[T1B]] : tensor<4x8xi64>
# CHECK-NEXT:      %[[ZERO:.*]] = arith.constant 0 : i64
# CHECK-NEXT:      %[[ZEROS:.*]] = tt.splat %[[ZERO]] : i64 -> tensor<1x8xi64>
# CHECK-NEXT:      %[[GE:.*]] = tt.cmp ge, %[[COLS2]], %[[ZEROS]] : tensor<1x8xi64>
# CHECK-NEXT:      %[[LIM:.*]] = tt.splat %p_shape1 : i64 -> tensor<1x8xi64>
# CHECK-NEXT:      %[[LT:.*]] = tt.cmp lt, %[[COLS2]], %[[LIM]] : tensor<1x8xi64>
# CHECK-NEXT:      %[[IN:.*]] = tt.and %[[GE]], %[[LT]] : tensor<1x8xi1>
# the pointers and the load, padded with NaN
# CHECK-NEXT:      %[[PB:.*]] = tt.splat %x : !tt.ptr<f32> -> tensor<4x8x!tt.ptr<f32>>
# CHECK-NEXT:      %[[PTRS:.*]] = tt.addptr %[[PB]], %[[OFFS]] : tensor<4x8x!tt.ptr<f32>>, tensor<4x8xi64>
# CHECK-NEXT:      %[[MASK:.*]] = tt.broadcast %[[IN]] : tensor<1x8xi1> -> tensor<4x8xi1>
# CHECK-NEXT:      %[[NAN:.*]] = arith.constant 0x7fc00000 : f32
# CHECK-NEXT:      %[[PAD:.*]] = tt.splat %[[NAN]] : f32 -> tensor<4x8xf32>
# CHECK-NEXT:      %[[V:.*]] = tt.load %[[PTRS]], %[[MASK]], %[[PAD]] : tensor<4x8x!tt.ptr<f32>>
# CHECK-NEXT:      %acc_3 = tt.add %acc_2, %[[V]] : tensor<4x8xf32>
# tl.advance: the offset grows (in i64: no int32 wrap); a constant 0 leaves it as it is
# CHECK-NEXT:      %[[D1:.*]] = arith.constant 8 : i64
# CHECK-NEXT:      %[[N1:.*]] = tt.add %[[OFF1]], %[[D1]] : i64
# CHECK-NEXT:      scf.yield %acc_3, %[[N1]] : tensor<4x8xf32>, i64
# CHECK-NEXT:    }
