# RUN: env MYTRITON_BACKEND=cuda %python %s ttg | filecheck %s --check-prefix=TTG
# RUN: env MYTRITON_BACKEND=cuda %python %s gpu | filecheck %s --check-prefix=GPU
# ruff: noqa: N803  (kernels keep Triton's names; FileCheck lines are long)

"""Float division from the kernel's source to the GPU IR, as Triton 3.6 computes it: ``/`` of
f32 (and of f16, which divides in f32) and ``tl.fdiv`` are ``tt.div``, whose f32 form is PTX's
approximate ``div.full.f32`` (``llvm.nvvm.div.full``); ``tl.div_rn`` and
``tl.fdiv(..., ieee_rounding=True)`` are ``tt.precise_divf``, IEEE ``arith.divf``; f64 ``/``
stays ``arith.divf``. One element per kernel (BLOCK=32, one warp): one register each."""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
import mytriton as triton
import mytriton.language as tl


@triton.jit
def division_kernel(x, y, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(x + offs)
    b = tl.load(y + offs)
    q_slash = a / b
    q_fdiv = tl.fdiv(b, a)  # the operands swapped: CSE would merge equal divisions
    q_rn = tl.div_rn(a, b)
    q_ieee = tl.fdiv(b, a, ieee_rounding=True)
    tl.store(out + offs, q_slash + q_fdiv + q_rn + q_ieee)


stage = sys.argv[1]
for dtype in (np.float32, np.float16, np.float64):
    a = np.ones(32, dtype)
    kernel = division_kernel.warmup(a, a, a, grid=(1,), BLOCK=32, num_warps=1)
    print(kernel.asm[stage])

# TTG-LABEL: func.func @division_kernel(
# TTG:         %q_slash = tt.div %a, %b : tensor<32xf32, #blocked>
# TTG-NEXT:    %q_fdiv = tt.div %b, %a : tensor<32xf32, #blocked>
# TTG-NEXT:    %q_rn = tt.precise_divf %a, %b : tensor<32xf32, #blocked>
# TTG-NEXT:    %q_ieee = tt.precise_divf %b, %a : tensor<32xf32, #blocked>
# f16: `/` divides in f32, tl.fdiv and div_rn in f16 (tl.div_rn promotes nothing here)
# TTG-LABEL: func.func @division_kernel(
# TTG:         %q_slash = tt.div %{{.*}}, %{{.*}} : tensor<32xf32, #blocked>
# TTG-NEXT:    %q_fdiv = tt.div %b, %a : tensor<32xf16, #blocked>
# TTG-NEXT:    %q_rn = tt.precise_divf %a, %b : tensor<32xf16, #blocked>
# TTG-NEXT:    %q_ieee = tt.precise_divf %b, %a : tensor<32xf16, #blocked>
# TTG-LABEL: func.func @division_kernel(
# TTG:         %q_slash = tt.div %a, %b : tensor<32xf64, #blocked>
# TTG-NEXT:    %q_fdiv = tt.div %b, %a : tensor<32xf64, #blocked>
# TTG-NEXT:    %q_rn = tt.precise_divf %a, %b : tensor<32xf64, #blocked>
# TTG-NEXT:    %q_ieee = tt.precise_divf %b, %a : tensor<32xf64, #blocked>

# GPU-LABEL: "gpu.func"
# GPU:         %q_slash = "llvm.call_intrinsic"(%a, %b) <{intrin = "llvm.nvvm.div.full"{{.*}} : (f32, f32) -> f32
# GPU-NEXT:    %q_fdiv = "llvm.call_intrinsic"(%b, %a) <{intrin = "llvm.nvvm.div.full"{{.*}} : (f32, f32) -> f32
# GPU-NEXT:    %q_rn = "arith.divf"(%a, %b) {{.*}} : (f32, f32) -> f32
# GPU-NEXT:    %q_ieee = "arith.divf"(%b, %a) {{.*}} : (f32, f32) -> f32
# GPU-NOT:     div.full
# GPU:         sym_name = "division_kernel"
# f16: `/` is div.full of the operands converted to f32; fdiv and div_rn divide in f16 (IEEE:
# fdiv(b, a) with and without ieee_rounding are then one arith.divf, merged by CSE)
# GPU-LABEL: "gpu.func"
# GPU:         %q_slash = "llvm.call_intrinsic"(%{{.*}}, %{{.*}}) <{intrin = "llvm.nvvm.div.full"{{.*}} : (f32, f32) -> f32
# GPU-NEXT:    %q_fdiv = "arith.divf"(%b, %a) {{.*}} : (f16, f16) -> f16
# GPU-NEXT:    %q_rn = "arith.divf"(%a, %b) {{.*}} : (f16, f16) -> f16
# GPU-NOT:     div.full
# GPU:         sym_name = "division_kernel"
# GPU-LABEL: "gpu.func"
# GPU:         %q_slash = "arith.divf"(%a, %b) {{.*}} : (f64, f64) -> f64
# GPU-NEXT:    %q_fdiv = "arith.divf"(%b, %a) {{.*}} : (f64, f64) -> f64
# GPU-NOT:     div.full
