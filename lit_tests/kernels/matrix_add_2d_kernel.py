# RUN: %python %s > %t.mlir
# RUN: filecheck %s --input-file=%t.mlir
# RUN: mytriton-opt --split-input-file %t.mlir -o %t.opt.mlir
# RUN: filecheck %s --input-file=%t.opt.mlir
# RUN: %{same_ir} %t.mlir %t.opt.mlir
# ruff: noqa: N803  (kernels keep Triton's names; FileCheck lines are long)
"""The seed's matrix_add_2d_kernel: x[:, None] / x[None, :] expansion, broadcast offsets and a
broadcast 2-D mask."""

import sys

import numpy as np

import mytriton as triton
import mytriton.language as tl
from mytriton.backends.stages import strip_locations


@triton.jit
def matrix_add_2d_kernel(x, y, out, M, N, BM: tl.constexpr, BN: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BM + tl.arange(0, BM)[:, None]
    offs_n = pid_n * BN + tl.arange(0, BN)[None, :]
    offsets = offs_m * N + offs_n
    mask = (offs_m < M) & (offs_n < N)
    lhs = tl.load(x + offsets, mask=mask, other=0.0)
    rhs = tl.load(y + offsets, mask=mask, other=0.0)
    tl.store(out + offsets, lhs + rhs, mask=mask)


a = np.zeros(100 * 100, np.float32)
compiled = matrix_add_2d_kernel.warmup(a, a, a, 100, 100, grid=(7, 4), BM=16, BN=32)
print(strip_locations(compiled.asm[sys.argv[1] if len(sys.argv) > 1 else "tt-opt"]))

# CHECK-LABEL: func.func @matrix_add_2d_kernel(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %M: i32, %N: i32) {
# CHECK:         %pid_m = tt.get_program_id x : i32
# CHECK-NEXT:    %pid_n = tt.get_program_id y : i32
# CHECK:         %[[RM:.*]] = tt.make_range {start = 0 : i32, end = 16 : i32} : tensor<16xi32>
# CHECK-NEXT:    %[[COL:.*]] = tt.expand_dims %[[RM]] {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
# CHECK:         %offs_m = tt.add %{{.*}}, %[[COL]] : tensor<16x1xi32>
# CHECK:         %[[RN:.*]] = tt.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32>
# CHECK-NEXT:    %[[ROW:.*]] = tt.expand_dims %[[RN]] {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
# CHECK:         %offs_n = tt.add %{{.*}}, %[[ROW]] : tensor<1x32xi32>
# CHECK:         %[[MN:.*]] = tt.mul %offs_m, %{{.*}} : tensor<16x1xi32>
# CHECK-NEXT:    %[[B1:.*]] = tt.broadcast %[[MN]] : tensor<16x1xi32> -> tensor<16x32xi32>
# CHECK-NEXT:    %[[B2:.*]] = tt.broadcast %offs_n : tensor<1x32xi32> -> tensor<16x32xi32>
# CHECK-NEXT:    %offsets = tt.add %[[B1]], %[[B2]] : tensor<16x32xi32>
# CHECK:         %[[CM:.*]] = tt.cmp lt, %offs_m, %{{.*}} : tensor<16x1xi32>
# CHECK:         %[[CN:.*]] = tt.cmp lt, %offs_n, %{{.*}} : tensor<1x32xi32>
# CHECK-NEXT:    %[[BM:.*]] = tt.broadcast %[[CM]] : tensor<16x1xi1> -> tensor<16x32xi1>
# CHECK-NEXT:    %[[BN:.*]] = tt.broadcast %[[CN]] : tensor<1x32xi1> -> tensor<16x32xi1>
# CHECK-NEXT:    %mask = tt.and %[[BM]], %[[BN]] : tensor<16x32xi1>
# CHECK:         %lhs = tt.load %{{.*}}, %mask, %[[Z:.*]] : tensor<16x32x!tt.ptr<f32>>
# CHECK:         %rhs = tt.load %{{.*}}, %mask, %[[Z]] : tensor<16x32x!tt.ptr<f32>>
# CHECK:         %[[S:.*]] = tt.add %lhs, %rhs : tensor<16x32xf32>
# CHECK-NEXT:    tt.store %{{.*}}, %[[S]], %mask : tensor<16x32x!tt.ptr<f32>>
