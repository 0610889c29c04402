# RUN: %python %s > %t.mlir
# RUN: filecheck %s --input-file=%t.mlir
# RUN: mytriton-opt --split-input-file %t.mlir -o %t.opt.mlir
# RUN: filecheck %s --input-file=%t.opt.mlir
# RUN: %{same_ir} %t.mlir %t.opt.mlir
# ruff: noqa: N803, F841  (kernels keep Triton's parameter names)
"""The seed's block factories: tl.zeros, tl.full with a constant and with a runtime scalar, and
tl.empty, each keeping its shape and dtype in the result type."""

import sys

import numpy as np

import mytriton as triton
import mytriton.language as tl
from mytriton.backends.stages import strip_locations


@triton.jit
def factories_kernel(out, fill, BLOCK: tl.constexpr):
    offsets = tl.arange(0, BLOCK)
    z = tl.zeros((BLOCK,), tl.float32)
    f = tl.full((BLOCK,), 2.5, tl.float32)
    g = tl.full([BLOCK], fill, tl.float32)
    tl.store(out + offsets, z + f * g)


@triton.jit
def factories_2d_kernel(out, n, BM: tl.constexpr, BN: tl.constexpr):
    rows = tl.arange(0, BM)[:, None]
    cols = tl.arange(0, BN)[None, :]
    ints = tl.full((BM, BN), n, tl.int32)
    flags = tl.full((BM, BN), True, tl.int1)
    scratch = tl.empty((BM, BN), dtype=tl.float32)
    acc = tl.zeros([BM, BN], dtype=tl.float32) + ints
    tl.store(out + rows * BN + cols, acc, mask=flags)


a = np.zeros(64, np.float32)
stage = sys.argv[1] if len(sys.argv) > 1 else "tt-opt"
one = strip_locations(factories_kernel.warmup(a, 2.0, grid=(1,), BLOCK=8).asm[stage])
two = strip_locations(factories_2d_kernel.warmup(a, 3, grid=(1,), BM=4, BN=8).asm[stage])
print(one + "\n// -----\n" + two)

# tl.full of a scalar is a splat: the multiplication happens once, on scalars.
# CHECK-LABEL: func.func @factories_kernel(%out: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %fill: f32) {
# CHECK:         %z = tt.zeros : tensor<8xf32>
# CHECK-NEXT:    %[[C:.*]] = arith.constant 2.500000e+00 : f32
# CHECK:         %[[FG:.*]] = tt.mul %[[C]], %fill : f32
# CHECK-NEXT:    %[[SPLAT:.*]] = tt.splat %[[FG]] : f32 -> tensor<8xf32>
# CHECK-NEXT:    %[[S:.*]] = tt.add %z, %[[SPLAT]] : tensor<8xf32>
# CHECK-NEXT:    tt.store %{{.*}}, %[[S]] : tensor<8x!tt.ptr<f32>>

# The all-true mask folds away; the unused tl.empty is dead code; the int->float conversion
# of the filled block happens once on the scalar.
# CHECK-LABEL: func.func @factories_2d_kernel(%out: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
# CHECK-NOT:     tt.empty
# CHECK:         %[[Z:.*]] = tt.zeros : tensor<4x8xf32>
# CHECK-NEXT:    %[[F:.*]] = tt.cast %n : i32 -> f32
# CHECK-NEXT:    %[[FS:.*]] = tt.splat %[[F]] : f32 -> tensor<4x8xf32>
# CHECK-NEXT:    %acc = tt.add %[[Z]], %[[FS]] : tensor<4x8xf32>
# CHECK-NOT:     tt.empty
# CHECK:         tt.store %{{.*}}, %acc : tensor<4x8x!tt.ptr<f32>>
