"""fp8 conversions on chips that have them (sm_89 and later): two values an instruction.

Where the module's target (``ttg.target``) is sm_89 or later, e4m3 (``fp8e4nv``) and e5m2
(``fp8e5``) convert as Triton's NVIDIA backend converts them there: into fp8 with
``cvt.rn.satfinite.{e4m3,e5m2}x2.f32`` (``.f16x2`` from f16, bf16 through f32), out of it with
``cvt.rn.f16x2.{e4m3,e5m2}x2`` (then f32, bf16 or f64 from the f16, exactly). A thread's
registers are paired in order (0 with 1, 2 with 3; an odd last one with itself), the second of
a pair in the high byte. The results are ``tt_fp8``'s, as the integer code of ``fp8.py``
computes them, which older targets, the other fp8 formats and the toward-zero rounding keep.
"""

from __future__ import annotations

from xdsl.dialects import arith, llvm, vector
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    f16,
    f32,
    i8,
    i16,
)
from xdsl.ir import Attribute, SSAValue

from mytriton.dialects.nvgpu.nvvm_intrinsics import (
    F16X2,
    FP8_CVT_CAPABILITY,
    FP8_PAIRS,
    Intrinsic,
)
from mytriton.dialects.tt.fp8 import format_of, is_fp8
from mytriton.passes.gpu_lowering import fp8
from mytriton.passes.gpu_lowering.context import LoweringContext
from mytriton.passes.gpu_lowering.op_builders import vector_extract, vector_insert


def _pairs(ctx: LoweringContext, t: Attribute) -> tuple[Intrinsic, Intrinsic, Intrinsic] | None:
    """The instructions of fp8 type ``t`` on the target, if it has them: from f32 pairs, from
    f16 pairs, to f16 pairs."""
    if ctx.capability < FP8_CVT_CAPABILITY:
        return None
    return FP8_PAIRS.get(type(t))


def convert_all(
    ctx: LoweringContext,
    values: list[SSAValue],
    src: Attribute,
    dst: Attribute,
    toward_zero: bool = False,
) -> list[SSAValue]:
    """Every register of a conversion from ``src`` to ``dst``, one of them fp8 (``tt.cast``;
    ``tt.fp_to_fp`` into fp8: ``toward_zero``)."""
    if src == dst:
        return values
    decoder = _pairs(ctx, src)
    if decoder is not None:
        halves = _decode_pairs(ctx, values, decoder[2])
        if is_fp8(dst):
            wide = [ctx.value(arith.ExtFOp(h, f32)) for h in halves]
            return convert_all(ctx, wide, f32, dst)
        return [_from_half(ctx, h, dst) for h in halves]
    encoder = _pairs(ctx, dst)
    if encoder is not None and not toward_zero and not isinstance(src, Float64Type):
        if isinstance(src, Float16Type):
            return _encode_half_pairs(ctx, values, encoder[1])
        if is_fp8(src):
            wide = [fp8.decode(ctx, v, format_of(src)) for v in values]
        elif isinstance(src, Float32Type):
            wide = values
        else:  # bf16: exactly
            wide = [ctx.value(arith.ExtFOp(v, f32)) for v in values]
        return _encode_pairs(ctx, wide, encoder[0])
    return [fp8.convert(ctx, v, src, dst, toward_zero) for v in values]


def _call(ctx: LoweringContext, fn: Intrinsic, *operands: SSAValue) -> SSAValue:
    return ctx.value(llvm.CallIntrinsicOp(fn.name, operands, [fn.result]))


def _encode_pairs(ctx: LoweringContext, wide: list[SSAValue], fn: Intrinsic) -> list[SSAValue]:
    """The bytes of f32 ``wide``, two an instruction."""
    out: list[SSAValue] = []
    eight = ctx.const(8, i16)
    for i in range(0, len(wide), 2):
        low = wide[i]
        high = wide[i + 1] if i + 1 < len(wide) else low
        packed = _call(ctx, fn, high, low)  # the first operand goes to the high byte
        out.append(ctx.value(arith.TruncIOp(packed, i8)))
        if i + 1 < len(wide):
            shifted = ctx.value(arith.ShRUIOp(packed, eight))
            out.append(ctx.value(arith.TruncIOp(shifted, i8)))
    return out


def _encode_half_pairs(
    ctx: LoweringContext, halves: list[SSAValue], fn: Intrinsic
) -> list[SSAValue]:
    """The bytes of f16 ``halves``, two an instruction (element 0 of a pair in the low byte)."""
    out: list[SSAValue] = []
    eight = ctx.const(8, i16)
    for i in range(0, len(halves), 2):
        pair = ctx.value(vector.BroadcastOp(halves[i], F16X2))
        if i + 1 < len(halves):
            pair = ctx.value(vector_insert(halves[i + 1], pair, 1, F16X2))
        packed = _call(ctx, fn, pair)
        out.append(ctx.value(arith.TruncIOp(packed, i8)))
        if i + 1 < len(halves):
            shifted = ctx.value(arith.ShRUIOp(packed, eight))
            out.append(ctx.value(arith.TruncIOp(shifted, i8)))
    return out


def _decode_pairs(ctx: LoweringContext, bytes_: list[SSAValue], fn: Intrinsic) -> list[SSAValue]:
    """The f16 values of fp8 bytes ``bytes_`` (exact), two an instruction."""
    out: list[SSAValue] = []
    eight = ctx.const(8, i16)
    for i in range(0, len(bytes_), 2):
        low = ctx.value(arith.ExtUIOp(bytes_[i], i16))
        packed = low
        if i + 1 < len(bytes_):
            high = ctx.value(arith.ExtUIOp(bytes_[i + 1], i16))
            packed = ctx.value(arith.OrIOp(low, ctx.value(arith.ShLIOp(high, eight))))
        halves = _call(ctx, fn, packed)
        for e in range(min(2, len(bytes_) - i)):
            out.append(ctx.value(vector_extract(halves, e, f16)))
    return out


def _from_half(ctx: LoweringContext, h: SSAValue, dst: Attribute) -> SSAValue:
    """The f16 ``h`` (a decoded fp8) as ``dst``: exactly, every fp8 value being one."""
    if isinstance(dst, Float16Type):
        return h
    wide = ctx.value(arith.ExtFOp(h, f32))
    if isinstance(dst, BFloat16Type):
        return ctx.value(arith.TruncFOp(wide, dst))
    if isinstance(dst, Float64Type):
        return ctx.value(arith.ExtFOp(wide, dst))
    return wide
