# RUN: %python %s > %t.mlir
# RUN: filecheck %s --input-file=%t.mlir
# RUN: mytriton-opt --split-input-file %t.mlir -o %t.opt.mlir
# RUN: filecheck %s --input-file=%t.opt.mlir
# RUN: %{same_ir} %t.mlir %t.opt.mlir
# ruff: noqa: N803  (kernels keep Triton's names; FileCheck lines are long)
"""The seed's softmax_kernel and Triton tutorial 02's fused softmax: max-reduce, broadcast back
(tt.splat of the f32 scalar), exp, sum-reduce, divide. The row offset `row * N` is computed once
for the load and the store (CSE)."""

import sys

import numpy as np

import mytriton as triton
import mytriton.language as tl
from mytriton.backends.stages import strip_locations


@triton.jit
def softmax_kernel(x, out, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    v = tl.load(x + row * N + cols, mask=mask, other=-float("inf"))
    v = v - tl.max(v, axis=0)
    num = tl.exp(v)
    den = tl.sum(num, axis=0)
    tl.store(out + row * N + cols, num / den, mask=mask)


@triton.jit
def fused_softmax_kernel(
    output_ptr,
    input_ptr,
    input_row_stride,
    output_row_stride,
    n_rows,
    n_cols,
    BLOCK_SIZE: tl.constexpr,
):
    row_idx = tl.program_id(0)
    row_start_ptr = input_ptr + row_idx * input_row_stride
    col_offsets = tl.arange(0, BLOCK_SIZE)
    input_ptrs = row_start_ptr + col_offsets
    mask = col_offsets < n_cols
    row = tl.load(input_ptrs, mask=mask, other=-float("inf"))
    row_minus_max = row - tl.max(row, axis=0)
    numerator = tl.exp(row_minus_max)
    denominator = tl.sum(numerator, axis=0)
    softmax_output = numerator / denominator
    output_row_start_ptr = output_ptr + row_idx * output_row_stride
    output_ptrs = output_row_start_ptr + col_offsets
    tl.store(output_ptrs, softmax_output, mask=mask)


a = np.zeros(100 * 100, np.float32)
stage = sys.argv[1] if len(sys.argv) > 1 else "tt-opt"
seed = strip_locations(softmax_kernel.warmup(a, a, 100, grid=(100,), BLOCK=128).asm[stage])
tutorial = fused_softmax_kernel.warmup(a, a, 100, 100, 100, 100, grid=(100,), BLOCK_SIZE=128)
print(seed + "\n// -----\n" + strip_locations(tutorial.asm[stage]))

# CHECK-LABEL: func.func @softmax_kernel(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %N: i32) {
# CHECK:         %mask = tt.cmp lt, %cols, %{{.*}} : tensor<128xi32>
# CHECK-NEXT:    %[[ROWOFF:.*]] = tt.mul %row, %N : i32
# CHECK:         %[[NINF:.*]] = arith.constant 0xff800000 : f32
# CHECK-NEXT:    %[[NINFS:.*]] = tt.splat %[[NINF]] : f32 -> tensor<128xf32>
# CHECK-NEXT:    %v = tt.load %{{.*}}, %mask, %[[NINFS]] : tensor<128x!tt.ptr<f32>>
# CHECK-NEXT:    %[[MAX:.*]] = tt.reduce %v {axis = 0 : i32} : tensor<128xf32> -> f32 {
# CHECK-NEXT:    ^bb0(%{{.*}}: f32, %{{.*}}: f32):
# CHECK-NEXT:      %{{.*}} = tt.maximum %{{.*}}, %{{.*}} : f32
# CHECK-NEXT:      tt.reduce.return %{{.*}} : f32
# CHECK-NEXT:    }
# CHECK-NEXT:    %[[MAXS:.*]] = tt.splat %[[MAX]] : f32 -> tensor<128xf32>
# CHECK-NEXT:    %[[SHIFTED:.*]] = tt.sub %v, %[[MAXS]] : tensor<128xf32>
# CHECK-NEXT:    %num = tt.exp %[[SHIFTED]] : tensor<128xf32>
# CHECK-NEXT:    %den = tt.reduce %num {axis = 0 : i32} : tensor<128xf32> -> f32 {
# CHECK-NEXT:    ^bb0(%{{.*}}: f32, %{{.*}}: f32):
# CHECK-NEXT:      %{{.*}} = tt.add %{{.*}}, %{{.*}} : f32
# CHECK-NEXT:      tt.reduce.return %{{.*}} : f32
# CHECK-NEXT:    }
# CHECK-NOT:     tt.mul
# CHECK:         %{{.*}} = tt.addptr %out, %[[ROWOFF]] : !tt.ptr<f32>, i32
# CHECK:         %[[DENS:.*]] = tt.splat %den : f32 -> tensor<128xf32>
# CHECK-NEXT:    %[[Y:.*]] = tt.div %num, %[[DENS]] : tensor<128xf32>
# CHECK-NEXT:    tt.store %{{.*}}, %[[Y]], %mask : tensor<128x!tt.ptr<f32>>

# CHECK-LABEL: func.func @fused_softmax_kernel(%output_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %input_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %input_row_stride: i32, %output_row_stride: i32, %n_rows: i32, %n_cols: i32) {
# CHECK:         %row_start_ptr = tt.addptr %input_ptr, %{{.*}} : !tt.ptr<f32>, i32
# CHECK:         %input_ptrs = tt.addptr %{{.*}}, %col_offsets : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
# CHECK:         %row = tt.load %input_ptrs, %mask, %{{.*}} : tensor<128x!tt.ptr<f32>>
# CHECK:         tt.reduce %row {axis = 0 : i32} : tensor<128xf32> -> f32 {
# CHECK-NEXT:         ^bb0(%{{.*}}: f32, %{{.*}}: f32):
# CHECK-NEXT:           %{{.*}} = tt.maximum %{{.*}}, %{{.*}} : f32
# CHECK-NEXT:           tt.reduce.return %{{.*}} : f32
# CHECK-NEXT:         }
# CHECK:         %numerator = tt.exp %row_minus_max : tensor<128xf32>
# CHECK-NEXT:    %denominator = tt.reduce %numerator {axis = 0 : i32} : tensor<128xf32> -> f32 {
# CHECK-NEXT:    ^bb0(%{{.*}}: f32, %{{.*}}: f32):
# CHECK-NEXT:      %{{.*}} = tt.add %{{.*}}, %{{.*}} : f32
# CHECK-NEXT:      tt.reduce.return %{{.*}} : f32
# CHECK-NEXT:    }
# CHECK:         %softmax_output = tt.div %numerator, %{{.*}} : tensor<128xf32>
# CHECK:         tt.store %output_ptrs, %softmax_output, %mask : tensor<128x!tt.ptr<f32>>
