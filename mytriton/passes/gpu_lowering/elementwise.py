"""Lowering of elementwise `tt` ops: the same scalar `arith`/`math` code for every register.

``scalar_op`` is the single place that says how one element of each op is computed on the GPU
(integer vs float forms, the NaN rule of ``maximum``/``minimum``, C conversions).
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import arith, llvm, math
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float64Type,
    IntegerType,
    f32,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue

from mytriton.dialects.nvgpu.nvvm_intrinsics import (
    DIV_FULL,
    EX2_APPROX,
    EX2_APPROX_FTZ,
    LOG2E,
    RSQRT_APPROX,
    RSQRT_APPROX_FTZ,
    SQRT_APPROX,
    SQRT_APPROX_FTZ,
    SQRT_RN,
    Intrinsic,
)
from mytriton.dialects.nvgpu.upstream import RemFOp
from mytriton.dialects.tt import elementwise as ew
from mytriton.dialects.tt import math as tm
from mytriton.dialects.tt.pointer_casts import IntToPtrOp, PtrToIntOp
from mytriton.dialects.tt.types import (
    element_type,
    is_bool,
    is_float,
    is_int,
    is_pointer,
    is_unsigned,
)
from mytriton.dialects.ttg.layouts import layout_of
from mytriton.errors import BackendError
from mytriton.passes.analysis.axis_info import pow2_dividing
from mytriton.passes.gpu_lowering import fp8, fp8_cvt
from mytriton.passes.gpu_lowering.context import LoweringContext
from mytriton.passes.gpu_lowering.libdevice import libdevice_call, round_toward_zero
from mytriton.passes.gpu_lowering.memory import GLOBAL_POINTER
from mytriton.passes.gpu_lowering.rules import lowers

_INT_BINARY: dict[type[Operation], Callable[[SSAValue, SSAValue], Operation]] = {
    ew.AddOp: arith.AddiOp,
    ew.SubOp: arith.SubiOp,
    ew.MulOp: arith.MuliOp,
    ew.DivOp: arith.DivSIOp,
    ew.RemOp: arith.RemSIOp,
    ew.AndOp: arith.AndIOp,
    ew.OrOp: arith.OrIOp,
    ew.XorOp: arith.XOrIOp,
    ew.MaximumOp: arith.MaxSIOp,
    ew.MinimumOp: arith.MinSIOp,
}
# the ops whose unsigned form differs (`tt` types keep the signedness; arith's are signless)
_UNSIGNED_BINARY: dict[type[Operation], Callable[[SSAValue, SSAValue], Operation]] = {
    ew.DivOp: arith.DivUIOp,
    ew.RemOp: arith.RemUIOp,
    ew.MaximumOp: arith.MaxUIOp,
    ew.MinimumOp: arith.MinUIOp,
    ew.ShrOp: arith.ShRUIOp,
}
# booleans order as unsigned numbers (Triton's int1 is unsigned): max is any, min is all
_EXTREMA = (ew.MaximumOp, ew.MinimumOp)
_INT_BINARY[ew.ShlOp] = arith.ShLIOp
_INT_BINARY[ew.ShrOp] = arith.ShRSIOp
_FLOAT_BINARY: dict[type[Operation], Callable[[SSAValue, SSAValue], Operation]] = {
    ew.AddOp: arith.AddfOp,
    ew.SubOp: arith.SubfOp,
    ew.MulOp: arith.MulfOp,
    ew.DivOp: arith.DivfOp,
    tm.PreciseDivOp: arith.DivfOp,
    ew.RemOp: RemFOp,
    tm.PowOp: math.PowFOp,
    tm.Atan2Op: math.Atan2Op,
    tm.CopySignOp: math.CopySignOp,
}
_FLOAT_UNARY: dict[type[Operation], Callable[[SSAValue], Operation]] = {
    ew.ExpOp: math.ExpOp,
    ew.Exp2Op: math.Exp2Op,
    ew.LogOp: math.LogOp,
    ew.Log2Op: math.Log2Op,
    ew.SqrtOp: math.SqrtOp,
    ew.RsqrtOp: math.RsqrtOp,
    ew.SinOp: math.SinOp,
    ew.CosOp: math.CosOp,
    ew.FloorOp: math.FloorOp,
    ew.CeilOp: math.CeilOp,
    tm.TanhOp: math.TanhOp,
    tm.ErfOp: math.ErfOp,
    tm.Expm1Op: math.ExpM1Op,
    tm.Log1pOp: math.Log1pOp,
    tm.Log10Op: math.Log10Op,
    tm.TanOp: math.TanOp,
    tm.AsinOp: math.AsinOp,
    tm.AcosOp: math.AcosOp,
    tm.AtanOp: math.AtanOp,
    tm.SinhOp: math.SinhOp,
    tm.CoshOp: math.CoshOp,
    tm.AsinhOp: math.AsinhOp,
    tm.AcoshOp: math.AcoshOp,
    tm.AtanhOp: math.AtanhOp,
    tm.RoundOp: math.RoundOp,
    tm.RintOp: math.RoundEvenOp,
    tm.CbrtOp: math.CbrtOp,
    tm.PreciseSqrtOp: math.SqrtOp,  # f64: sqrt.rn.f64 on both backends
    ew.AbsOp: math.AbsFOp,
    ew.NegOp: arith.NegfOp,
}
# ops Triton computes with one PTX instruction, not the math library (f64 excepted): the
# approximate ones as its libdevice (flush-to-zero on), and tl.sqrt_rn's IEEE root
_APPROXIMATE: dict[type[Operation], Intrinsic] = {
    ew.Exp2Op: EX2_APPROX_FTZ,
    ew.SqrtOp: SQRT_APPROX_FTZ,
    ew.RsqrtOp: RSQRT_APPROX_FTZ,
    tm.PreciseSqrtOp: SQRT_RN,
}
# the same, where the kernel keeps subnormals (``enable_reflect_ftz=False``)
_APPROXIMATE_NO_FTZ: dict[type[Operation], Intrinsic] = {
    ew.Exp2Op: EX2_APPROX,
    ew.SqrtOp: SQRT_APPROX,
    ew.RsqrtOp: RSQRT_APPROX,
    tm.PreciseSqrtOp: SQRT_RN,
}
_INT_PREDICATES = {"lt": "slt", "le": "sle", "gt": "sgt", "ge": "sge", "eq": "eq", "ne": "ne"}
# unsigned integers, and booleans: false < true (as a signed i1, true is -1 and would sort first)
_UNSIGNED_PREDICATES = {"lt": "ult", "le": "ule", "gt": "ugt", "ge": "uge", "eq": "eq", "ne": "ne"}
_FLOAT_PREDICATES = {"lt": "olt", "le": "ole", "gt": "ogt", "ge": "oge", "eq": "oeq", "ne": "une"}


def float_extremum(
    ctx: LoweringContext, a: SSAValue, b: SSAValue, larger: bool, propagate_nan: bool
) -> SSAValue:
    """Triton's float max/min: ``maxnumf``/``minnumf`` ignore a NaN operand (PTX ``max.f32``),
    ``maximumf``/``minimumf`` return NaN (``max.NaN.f32``); both order ``-0.0 < +0.0``."""
    if larger:
        return ctx.value(arith.MaximumfOp(a, b) if propagate_nan else arith.MaxnumfOp(a, b))
    return ctx.value(arith.MinimumfOp(a, b) if propagate_nan else arith.MinnumfOp(a, b))


def convert(ctx: LoweringContext, v: SSAValue, src: Attribute, dst: Attribute) -> SSAValue:
    """One element of ``tt.cast`` from element type ``src`` to ``dst`` (C semantics)."""
    if src == dst:
        return v
    if fp8.is_fp8(src) or fp8.is_fp8(dst):
        return fp8.convert(ctx, v, src, dst)
    if is_bool(dst):
        if is_float(src):
            return ctx.value(arith.CmpfOp(v, ctx.const(0.0, src), "une"))
        return ctx.value(arith.CmpiOp(v, ctx.const(0, src), "ne"))
    if is_float(dst):
        if is_unsigned_like(src):
            return ctx.value(arith.UIToFPOp(v, dst))  # type: ignore[arg-type]
        if is_int(src):
            return ctx.value(arith.SIToFPOp(v, dst))  # type: ignore[arg-type]
        if _is_half(src) and _is_half(dst):  # f16 <-> bf16: exactly to f32, then one rounding
            v, src = ctx.value(arith.ExtFOp(v, f32)), f32
        wider = dst.bitwidth > src.bitwidth  # type: ignore[attr-defined]
        return ctx.value(arith.ExtFOp(v, dst) if wider else arith.TruncFOp(v, dst))  # type: ignore[arg-type]
    assert isinstance(dst, IntegerType)
    if is_float(src):
        # 8-bit results through 16 bits, as LLVM does for Triton (300.0 -> int8 is 44, the low
        # byte of the saturated int16): `tt_semantics.float_to_int`
        width = IntegerType(max(16, dst.width.data), dst.signedness.data)
        fp_to_int = arith.FPToUIOp if is_unsigned(dst) else arith.FPToSIOp
        wide = ctx.value(fp_to_int(v, width))
        return wide if width == dst else ctx.value(arith.TruncIOp(wide, dst))
    assert isinstance(src, IntegerType)
    if dst.width.data > src.width.data:  # the source's signedness says how to fill
        return ctx.value(arith.ExtUIOp(v, dst) if is_unsigned_like(src) else arith.ExtSIOp(v, dst))
    if dst.width.data == src.width.data:  # int32 <-> uint32: the same bits, the new type
        return v if src == dst else ctx.value(arith.BitcastOp(v, dst))
    return ctx.value(arith.TruncIOp(v, dst))


def is_unsigned_like(t: Attribute) -> bool:
    """Unsigned integers and booleans: ordered, extended and converted as unsigned numbers."""
    return is_unsigned(t) or is_bool(t)


def _is_half(t: Attribute) -> bool:
    """f16 or bf16: computed in f32 and rounded (bf16 always, f16 but for native ops)."""
    return isinstance(t, Float16Type | BFloat16Type)


# f16 arithmetic the GPU does natively; every other f16 float op goes through f32
_EXACT_F16_BINARY = (ew.AddOp, ew.SubOp, ew.MulOp, ew.DivOp, tm.PreciseDivOp, ew.RemOp)


def _in_f32(
    ctx: LoweringContext, t: Attribute, args: list[SSAValue], make: Callable[..., Operation]
) -> SSAValue:
    """The math library is f32: an f16 or bf16 is computed in f32 and rounded, as Triton does
    (one rounding: f32 has more than twice their precision plus two bits)."""
    wide = [ctx.value(arith.ExtFOp(a, f32)) for a in args]
    return ctx.value(arith.TruncFOp(ctx.value(make(*wide)), t))  # type: ignore[arg-type]


def _approximate(
    ctx: LoweringContext, t: Attribute, args: list[SSAValue], fn: Intrinsic
) -> SSAValue:
    """``fn`` (an f32 intrinsic: ``nvvm_intrinsics``); an f16 or bf16 through f32, rounded."""

    def call(*operands: SSAValue) -> Operation:
        return llvm.CallIntrinsicOp(fn.name, operands, [fn.result])

    if _is_half(t):
        return _in_f32(ctx, t, args, call)
    return ctx.value(call(*args))


def _exp(ctx: LoweringContext, t: Attribute, x: SSAValue) -> SSAValue:
    """Triton's ``exp`` of f32: ``ex2.approx.f32(x * log2(e))``, the product rounded to f32
    and never flushed (Triton's own lowering, not libdevice's); halves through f32."""
    wide = ctx.value(arith.ExtFOp(x, f32)) if _is_half(t) else x
    scaled = ctx.value(arith.MulfOp(wide, ctx.const(LOG2E, f32)))
    e = ctx.value(llvm.CallIntrinsicOp(EX2_APPROX.name, [scaled], [EX2_APPROX.result]))
    return ctx.value(arith.TruncFOp(e, t)) if _is_half(t) else e  # type: ignore[arg-type]


def _trunc(ctx: LoweringContext, t: Attribute, v: SSAValue) -> SSAValue:
    """Round toward zero as ``copysign(floor(|x|), x)`` (exact; keeps ``-0.0``): upstream's
    GPU-to-NVVM conversion leaves ``math.trunc`` unlowered."""
    wide = ctx.value(arith.ExtFOp(v, f32)) if _is_half(t) else v
    mag = ctx.value(math.FloorOp(ctx.value(math.AbsFOp(wide))))
    r = ctx.value(math.CopySignOp(mag, wide))
    return ctx.value(arith.TruncFOp(r, t)) if _is_half(t) else r  # type: ignore[arg-type]


def _umulhi(ctx: LoweringContext, t: Attribute, a: SSAValue, b: SSAValue) -> SSAValue:
    """High half of the unsigned product: for i32 through i64; for i64 from the four 32x32-bit
    partial products (no i128 on the GPU backends)."""
    assert isinstance(t, IntegerType)
    if t.width.data == 32:
        wa, wb = (ctx.value(arith.ExtUIOp(v, i64)) for v in (a, b))
        product = ctx.value(arith.MuliOp(wa, wb))
        return ctx.value(arith.TruncIOp(ctx.value(arith.ShRUIOp(product, ctx.const(32, i64))), t))
    low_mask, shift = ctx.const(0xFFFFFFFF, t), ctx.const(32, t)

    def low(v: SSAValue) -> SSAValue:
        return ctx.value(arith.AndIOp(v, low_mask))

    def high(v: SSAValue) -> SSAValue:
        return ctx.value(arith.ShRUIOp(v, shift))

    def mul(x: SSAValue, y: SSAValue) -> SSAValue:
        return ctx.value(arith.MuliOp(x, y))

    def add(x: SSAValue, y: SSAValue) -> SSAValue:
        return ctx.value(arith.AddiOp(x, y))

    a0, a1, b0, b1 = low(a), high(a), low(b), high(b)
    p00, p01, p10, p11 = mul(a0, b0), mul(a0, b1), mul(a1, b0), mul(a1, b1)
    middle = add(add(high(p00), low(p01)), low(p10))  # < 2**34: no carry lost
    return add(add(add(p11, high(p01)), high(p10)), high(middle))


def scalar_op(ctx: LoweringContext, op: ew.ElementwiseOp, args: list[SSAValue]) -> SSAValue:
    """One element of ``op`` applied to one element of each operand."""
    t = element_type(op.operands[-1].type)
    kind = type(op)
    if isinstance(op, ew.CastOp):
        return convert(ctx, args[0], element_type(op.src.type), element_type(op.result.type))
    if isinstance(op, ew.BitcastOp):
        # an fp8 lives in its byte already; integers of one width are the same bits (a bitcast
        # only where the signedness changes: later ops check their operand types)
        to = fp8.register_type(element_type(op.result.type))
        if to == args[0].type:
            return args[0]
        return ctx.value(arith.BitcastOp(args[0], to))
    if isinstance(op, IntToPtrOp):  # an address, signless in registers (ui64 is i64 there)
        return ctx.value(llvm.IntToPtrOp.build(operands=args, result_types=[GLOBAL_POINTER]))
    if isinstance(op, PtrToIntOp):
        return ctx.value(llvm.PtrToIntOp(args[0], i64))
    if isinstance(op, tm.ExternElementwiseOp):
        return libdevice_call(ctx, op, args)
    if isinstance(op, tm.FpToFpOp):
        src, dst = element_type(op.src.type), element_type(op.result.type)
        if fp8.is_fp8(dst):
            return fp8.convert(ctx, args[0], src, dst, toward_zero=True)
        return round_toward_zero(ctx, args[0], src, dst)
    if isinstance(op, ew.SelectOp):
        return ctx.value(arith.SelectOp(*args))
    if isinstance(op, ew.CmpOp):
        pred = op.predicate.data.value
        if is_pointer(t):
            raise BackendError("comparing pointers is not supported by the GPU backends")
        if is_float(t):
            return ctx.value(arith.CmpfOp(args[0], args[1], _FLOAT_PREDICATES[pred]))
        predicates = _UNSIGNED_PREDICATES if is_unsigned_like(t) else _INT_PREDICATES
        return ctx.value(arith.CmpiOp(args[0], args[1], predicates[pred]))
    if is_float(t):
        if isinstance(op, ew.ExtremumOp):
            larger = isinstance(op, ew.MaximumOp)
            return float_extremum(ctx, args[0], args[1], larger, op.propagates_nan)
        if kind is ew.DivOp and t == f32:  # Triton's `/`; f64, f16, bf16 (tl.fdiv) stay IEEE
            return _approximate(ctx, t, args, DIV_FULL)
        if kind in _FLOAT_BINARY:
            if isinstance(t, BFloat16Type) or (
                isinstance(t, Float16Type) and kind not in _EXACT_F16_BINARY
            ):
                return _in_f32(ctx, t, args, _FLOAT_BINARY[kind])
            return ctx.value(_FLOAT_BINARY[kind](args[0], args[1]))
        if kind is tm.TruncOp:
            return _trunc(ctx, t, args[0])
        if kind is tm.FmaOp:
            if _is_half(t):
                return _in_f32(ctx, t, args, math.FmaOp)
            return ctx.value(math.FmaOp(args[0], args[1], args[2]))
        if kind is ew.ExpOp and not isinstance(t, Float64Type):
            return _exp(ctx, t, args[0])
        if kind in _APPROXIMATE and not isinstance(t, Float64Type):
            table = _APPROXIMATE if ctx.reflect_ftz else _APPROXIMATE_NO_FTZ
            return _approximate(ctx, t, args, table[kind])
        if kind in _FLOAT_UNARY:
            if _is_half(t) and kind not in (ew.AbsOp, ew.NegOp):
                return _in_f32(ctx, t, args, _FLOAT_UNARY[kind])
            return ctx.value(_FLOAT_UNARY[kind](args[0]))
    else:
        if kind in _UNSIGNED_BINARY and (
            is_unsigned_like(t) if kind in _EXTREMA else is_unsigned(t)
        ):
            return ctx.value(_UNSIGNED_BINARY[kind](args[0], args[1]))
        if kind in _INT_BINARY:
            return ctx.value(_INT_BINARY[kind](args[0], args[1]))
        if kind is tm.UmulhiOp:
            return _umulhi(ctx, t, args[0], args[1])
        if kind is ew.NegOp:
            return ctx.value(arith.SubiOp(ctx.const(0, t), args[0]))
        if kind is ew.AbsOp:
            return args[0] if is_unsigned(t) else ctx.value(math.AbsIOp(args[0]))
    raise BackendError(f"{op.name} on {t} is not supported by the GPU backends")


@lowers(ew.ElementwiseOp)
class LowerElementwise:
    """Every elementwise op: ``scalar_op`` register by register (an fp8 conversion: all the
    registers at once, ``fp8_cvt``)."""

    def lower(self, ctx: LoweringContext, op: Operation) -> None:
        assert isinstance(op, ew.ElementwiseOp)
        operands = [ctx.get(v) for v in op.operands]
        if isinstance(op, ew.CastOp | tm.FpToFpOp):
            src, dst = element_type(op.operands[0].type), element_type(op.results[0].type)
            if fp8.is_fp8(src) or fp8.is_fp8(dst):  # pairs of registers where the chip can
                toward_zero = isinstance(op, tm.FpToFpOp)
                ctx.set(op.results[0], fp8_cvt.convert_all(ctx, operands[0], src, dst, toward_zero))
                return
        count = max(len(r) for r in operands)
        leaders = equal_registers(ctx, op.results[0], count)
        out: list[SSAValue] = []
        for i in range(count):
            if leaders[i] != i:  # the same value as an earlier register: computed once
                out.append(out[leaders[i]])
                continue
            args = [r[i] if len(r) > 1 else r[0] for r in operands]
            out.append(scalar_op(ctx, op, args))
        ctx.set(op.results[0], out)


def equal_registers(ctx: LoweringContext, v: SSAValue, count: int) -> list[int]:
    """Per register of ``v`` (``count`` of them), an earlier-or-same register of the thread
    known to hold the same value (Triton's deduplication by constancy): a block the axis
    analysis proves constant over aligned runs of ``k`` along a dimension (``offs < N`` with
    ``offs`` contiguous and ``N`` a multiple of ``k``) is equal over each aligned group of
    ``min(k, sizePerThread)`` of a thread's consecutive registers, so one compare serves a
    whole vector instead of one per element."""
    leaders = list(range(count))
    if ctx.axis is None or count == 1 or layout_of(v.type) is None:
        return leaders
    g = ctx.geometry(v.type)
    if g.num_registers != count:
        return leaders
    constancy = ctx.axis[v].constancy
    for own, root in enumerate(g.kept):
        width = min(pow2_dividing(constancy[own]), g.root.spt[root], g.full_shape[root])
        if width < 2:
            continue
        for run in g.register_runs(root, width):
            for r in run:  # run[0] is the run's first register: its leader is no later
                leaders[r] = leaders[run[0]]
    return leaders
