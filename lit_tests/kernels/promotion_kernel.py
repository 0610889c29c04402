# RUN: %python %s > %t.mlir
# RUN: filecheck %s --input-file=%t.mlir
# RUN: mytriton-opt --split-input-file %t.mlir -o %t.opt.mlir
# RUN: filecheck %s --input-file=%t.opt.mlir
# ruff: noqa: N803  (kernels keep Triton's names; FileCheck lines are long)
"""Triton's promotion: the narrower operand is cast first (uint8 + int32 -> int32;
uint32 + int32 -> uint32; f16 + bf16 -> f16; int + f16 -> f16; `/` of f16 in f32), and a
Python constant takes the tensor's dtype (weak typing), uint32 above int32's range."""

import ml_dtypes
import numpy as np

import mytriton as triton
import mytriton.language as tl
from mytriton.backends.stages import strip_locations


@triton.jit
def promotion_kernel(u8, i32, u32, h, b, out_i, out_u, out_h, out_f, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(u8 + offs)
    c = tl.load(i32 + offs)
    d = tl.load(u32 + offs)
    x = tl.load(h + offs)
    y = tl.load(b + offs)
    tl.store(out_i + offs, a + c)
    tl.store(out_u + offs, (d + c) * 3_000_000_000)
    tl.store(out_h + offs, (x + y) + c)
    tl.store(out_f + offs, x / x)


z = np.zeros(16, np.float16)
compiled = promotion_kernel.warmup(
    np.zeros(16, np.uint8),
    np.zeros(16, np.int32),
    np.zeros(16, np.uint32),
    z,
    np.zeros(16, ml_dtypes.bfloat16),
    np.zeros(16, np.int32),
    np.zeros(16, np.uint32),
    z,
    np.zeros(16, np.float32),
    grid=(1,),
    BLOCK=16,
)
print(strip_locations(compiled.asm["tt"]))

# CHECK-LABEL: func.func @promotion_kernel(
# CHECK:         %[[A32:.*]] = tt.cast %a : tensor<16xui8> -> tensor<16xi32>
# CHECK-NEXT:    %{{.*}} = tt.add %[[A32]], %c : tensor<16xi32>
# CHECK:         %[[CU:.*]] = tt.cast %c : tensor<16xi32> -> tensor<16xui32>
# CHECK-NEXT:    %[[SUM:.*]] = tt.add %d, %[[CU]] : tensor<16xui32>
# CHECK-NEXT:    %[[BIG:.*]] = tt.constant 3000000000 : ui32
# CHECK-NEXT:    %[[BIGS:.*]] = tt.splat %[[BIG]] : ui32 -> tensor<16xui32>
# CHECK-NEXT:    %{{.*}} = tt.mul %[[SUM]], %[[BIGS]] : tensor<16xui32>
# CHECK:         %[[YH:.*]] = tt.cast %y : tensor<16xbf16> -> tensor<16xf16>
# CHECK-NEXT:    %[[XY:.*]] = tt.add %x, %[[YH]] : tensor<16xf16>
# CHECK-NEXT:    %[[CH:.*]] = tt.cast %c : tensor<16xi32> -> tensor<16xf16>
# CHECK-NEXT:    %{{.*}} = tt.add %[[XY]], %[[CH]] : tensor<16xf16>
# CHECK:         %[[XF:.*]] = tt.cast %x : tensor<16xf16> -> tensor<16xf32>
# CHECK-NEXT:    %[[XF2:.*]] = tt.cast %x : tensor<16xf16> -> tensor<16xf32>
# CHECK-NEXT:    %{{.*}} = tt.div %[[XF]], %[[XF2]] : tensor<16xf32>
