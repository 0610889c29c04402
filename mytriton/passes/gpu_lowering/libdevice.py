"""Lowering of the libdevice calls (``tt.extern_elementwise``) and of ``tt.fp_to_fp``.

A libdevice function is an ``llvm.call @__nv_*`` with the symbol declared once as an external
``llvm.func`` in the ``gpu.module``: the MLIR backend links libdevice, which defines it, and
the CUDA printer declares and calls the same symbol, which NVRTC links.

Narrowing toward zero is plain ``arith``: ``arith.truncf``'s rounding-mode attribute becomes an
LLVM constrained intrinsic whose mode the NVPTX backend ignores (it emits ``cvt.rn``), so the
attribute would silently round to nearest. Instead the value is rounded to nearest and, where
that went away from zero, moved back by one ulp (the bit pattern minus one).
"""

from __future__ import annotations

from xdsl.dialects import arith, llvm, math
from xdsl.dialects.builtin import IntegerType
from xdsl.ir import Attribute, SSAValue

from mytriton.dialects.tt import math as tm
from mytriton.passes.gpu_lowering.context import LoweringContext


def libdevice_call(
    ctx: LoweringContext, op: tm.ExternElementwiseOp, args: list[SSAValue]
) -> SSAValue:
    """One element of ``op``: a call of its libdevice symbol."""
    fn = op.function
    ctx.declare_function(fn.symbol, fn.param_types, fn.result_type)
    return ctx.value(llvm.CallOp(fn.symbol, *args, return_type=fn.result_type))


def round_toward_zero(
    ctx: LoweringContext, v: SSAValue, src: Attribute, dst: Attribute
) -> SSAValue:
    """``v`` (a float of type ``src``) narrowed to ``dst`` rounding toward zero: an overflow
    gives the largest finite value, infinities and NaN stay (what ``cvt.rz`` does)."""
    nearest = ctx.value(arith.TruncFOp(v, dst))
    back = ctx.value(arith.ExtFOp(nearest, src))
    magnitude = ctx.value(math.AbsFOp(v))
    away = ctx.value(arith.CmpfOp(ctx.value(math.AbsFOp(back)), magnitude, "ogt"))
    bits_type = IntegerType(dst.bitwidth)  # type: ignore[attr-defined]
    bits = ctx.value(arith.BitcastOp(nearest, bits_type))
    lower_bits = ctx.value(arith.SubiOp(bits, ctx.const(1, bits_type)))
    lower = ctx.value(arith.BitcastOp(lower_bits, dst))
    return ctx.value(arith.SelectOp(away, lower, nearest))
