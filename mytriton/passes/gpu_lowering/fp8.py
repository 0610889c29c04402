"""fp8 on the GPU: a value lives in its byte (``i8``), and conversions are integer code.

Upstream MLIR cannot lower ``arith.extf``/``truncf`` on f8 types to NVPTX reliably and the CUDA
printer has no fp8 type, so loads and stores move bytes and the conversions to and from f32
(``tt_fp8`` says what they compute) are emitted here as integer arithmetic on the bits; every
backend then runs plain ``arith``. f16/bf16 go through f32 exactly. On sm_89 and later e4m3 and
e5m2 convert with the hardware's paired instructions instead (``fp8_cvt``), except toward zero.

Decoding builds the f32 bits of a normal value from the exponent and mantissa fields (rebiased),
a subnormal as ``mantissa * 2**(1 - bias - mantissa_bits)`` (exact), and the format's specials.
Encoding clamps the magnitude to the largest finite value (satfinite), then rounds one integer
``X >> s`` (``X`` the f32 magnitude bits for a normal result, so a carry out of the mantissa
bumps the exponent; the significand for a subnormal one, ``s`` growing as the value shrinks).
Toward zero (``tt.fp_to_fp``) it is ``X >> s`` itself, and an infinity stays one.
"""

from __future__ import annotations

import struct

from xdsl.dialects import arith
from xdsl.dialects.builtin import Float16Type, Float32Type, Float64Type, f32, i8, i16, i32
from xdsl.ir import Attribute, Operation, SSAValue

from mytriton.dialects.tt.fp8 import Fp8Format, format_of, is_fp8
from mytriton.errors import BackendError
from mytriton.passes.gpu_lowering.context import LoweringContext

_SIGN, _MAGNITUDE = 0x80, 0x7F
_F32_INF, _F32_NAN = 0x7F800000, 0x7FC00000


def register_type(t: Attribute) -> Attribute:
    """The type a value of scalar type ``t`` lives in on the GPU: an fp8 in its byte."""
    return i8 if is_fp8(t) else t


def _f32_bits(value: float) -> int:
    return struct.unpack("<I", struct.pack("<f", value))[0]


class _Ints:
    """Terse i32 arithmetic for the conversion code."""

    def __init__(self, ctx: LoweringContext):
        self.ctx = ctx

    def c(self, n: int) -> SSAValue:
        return self.ctx.i32(n - (1 << 32) if n >= 1 << 31 else n)

    def v(self, op: Operation) -> SSAValue:
        return self.ctx.value(op)

    def and_(self, a: int | SSAValue, n: int | SSAValue) -> SSAValue:
        return self.v(arith.AndIOp(self._arg(a), self._arg(n)))

    def or_(self, a: int | SSAValue, n: int | SSAValue) -> SSAValue:
        return self.v(arith.OrIOp(self._arg(a), self._arg(n)))

    def add(self, a: int | SSAValue, n: int | SSAValue) -> SSAValue:
        return self.v(arith.AddiOp(self._arg(a), self._arg(n)))

    def sub(self, a: int | SSAValue, n: int | SSAValue) -> SSAValue:
        return self.v(arith.SubiOp(self._arg(a), self._arg(n)))

    def shl(self, a: int | SSAValue, n: int | SSAValue) -> SSAValue:
        return self.v(arith.ShLIOp(self._arg(a), self._arg(n)))

    def shr(self, a: int | SSAValue, n: int | SSAValue) -> SSAValue:
        return self.v(arith.ShRUIOp(self._arg(a), self._arg(n)))

    def cmp(self, pred: str, a: SSAValue, n: int | SSAValue) -> SSAValue:
        return self.v(arith.CmpiOp(a, self._arg(n), pred))

    def select(self, cond: SSAValue, a: int | SSAValue, b: int | SSAValue) -> SSAValue:
        return self.v(arith.SelectOp(cond, self._arg(a), self._arg(b)))

    def _arg(self, n: int | SSAValue) -> SSAValue:
        return self.c(n) if isinstance(n, int) else n


def decode(ctx: LoweringContext, byte: SSAValue, fmt: Fp8Format) -> SSAValue:
    """The f32 value of an fp8 byte (exact)."""
    z = _Ints(ctx)
    mb = fmt.mantissa_bits
    b = z.v(arith.ExtUIOp(byte, i32))
    mag = z.and_(b, _MAGNITUDE)
    normal = z.add(z.shl(mag, 23 - mb), (127 - fmt.bias) << 23)
    mantissa = z.v(arith.UIToFPOp(z.and_(mag, (1 << mb) - 1), f32))
    scale = ctx.const(2.0 ** (1 - fmt.bias - mb), f32)
    subnormal = z.v(arith.BitcastOp(z.v(arith.MulfOp(mantissa, scale)), i32))
    bits = z.select(z.cmp("ult", mag, 1 << mb), subnormal, normal)
    if fmt.specials == "fn":  # S.1111.111
        bits = z.select(z.cmp("eq", mag, _MAGNITUDE), _F32_NAN, bits)
    elif fmt.specials == "ieee":  # the top exponent: infinity, then NaNs
        top = ((1 << fmt.exponent_bits) - 1) << mb
        bits = z.select(z.cmp("eq", mag, top), _F32_INF, bits)
        bits = z.select(z.cmp("ugt", mag, top), _F32_NAN, bits)
    bits = z.or_(bits, z.shl(z.and_(b, _SIGN), 24))
    if fmt.specials == "fnuz":  # 0x80, the one NaN (no -0.0)
        bits = z.select(z.cmp("eq", b, _SIGN), _F32_NAN, bits)
    return z.v(arith.BitcastOp(bits, f32))


def encode(
    ctx: LoweringContext,
    x: SSAValue,
    fmt: Fp8Format,
    nan_sign: SSAValue | None = None,
    toward_zero: bool = False,
) -> SSAValue:
    """The fp8 byte of f32 ``x``: saturated, rounded to nearest (even, or away for fp8e4b15);
    ``toward_zero``: a finite value truncated (and saturated), an infinity kept.

    ``nan_sign`` (i32, 0 or 0x80) is the sign fp8e4b15 gives a NaN (the f16 source's; an f32
    NaN gives +1.75)."""
    z = _Ints(ctx)
    mb, bias = fmt.mantissa_bits, fmt.bias
    xb = z.v(arith.BitcastOp(x, i32))
    sign = z.and_(z.shr(xb, 24), _SIGN)
    mag = z.and_(xb, 0x7FFFFFFF)
    is_nan = z.cmp("ugt", mag, _F32_INF)
    clamped = z.v(arith.MinUIOp(mag, z.c(_f32_bits(fmt.max_value))))  # infinity too
    exponent = z.shr(clamped, 23)
    is_subnormal = z.cmp("ult", exponent, 128 - bias)
    # a subnormal result counts units of 2**(1 - bias - mb) in the significand
    significand = z.or_(z.and_(clamped, 0x7FFFFF), z.select(z.cmp("eq", exponent, 0), 0, 0x800000))
    shift_sub = z.sub(151 - bias - mb, z.v(arith.MaxUIOp(exponent, z.c(1))))
    shift_sub = z.v(arith.MinUIOp(shift_sub, z.c(31)))
    wide = z.select(is_subnormal, significand, clamped)
    shift = z.select(is_subnormal, shift_sub, 23 - mb)
    n = z.shr(wide, shift)
    if not toward_zero:
        n = z.add(n, _round_up(z, wide, shift, n, fmt.ties_away))
    n = z.sub(n, z.select(is_subnormal, 0, (127 - bias) << mb))
    out = z.or_(n, sign)
    if fmt.specials == "fnuz":  # no -0.0
        out = z.select(z.cmp("eq", n, 0), 0, out)
    if toward_zero and fmt.specials == "ieee":  # saturating is for finite values only
        infinity = z.or_(sign, ((1 << fmt.exponent_bits) - 1) << mb)
        out = z.select(z.cmp("eq", mag, _F32_INF), infinity, out)
    if fmt.specials == "none":  # fp8e4b15 has no NaN: Triton's code makes it 1.75
        nan_byte = z.c(fmt.nan_byte) if nan_sign is None else z.or_(nan_sign, fmt.nan_byte)
        out = z.select(is_nan, nan_byte, out)
    else:
        out = z.select(is_nan, fmt.nan_byte, out)
    return z.v(arith.TruncIOp(out, i8))


def _round_up(z: _Ints, wide: SSAValue, shift: SSAValue, q: SSAValue, ties_away: bool) -> SSAValue:
    """1 where ``wide >> shift`` (``q``) rounds up to nearest (ties to even or away), else 0."""
    rest = z.and_(wide, z.sub(z.shl(1, shift), 1))
    half = z.shl(1, z.sub(shift, 1))
    if ties_away:
        up = z.cmp("uge", rest, half)
    else:
        odd = z.cmp("ne", z.and_(q, 1), 0)
        tie_to_odd = z.v(arith.AndIOp(z.cmp("eq", rest, half), odd))
        up = z.v(arith.OrIOp(z.cmp("ugt", rest, half), tie_to_odd))
    return z.v(arith.ExtUIOp(up, i32))


def convert(
    ctx: LoweringContext, v: SSAValue, src: Attribute, dst: Attribute, toward_zero: bool = False
) -> SSAValue:
    """One element of ``tt.cast`` where ``src`` or ``dst`` is fp8 (the other a float), or of
    ``tt.fp_to_fp`` into fp8 (``toward_zero``)."""
    if is_fp8(src):
        wide = decode(ctx, v, format_of(src))
        if is_fp8(dst):
            return encode(ctx, wide, format_of(dst))
        if isinstance(dst, Float32Type):
            return wide
        if isinstance(dst, Float64Type):
            return ctx.value(arith.ExtFOp(wide, dst))
        return ctx.value(arith.TruncFOp(wide, dst))  # type: ignore[arg-type]  # f16/bf16: exact
    fmt = format_of(dst)
    if isinstance(src, Float64Type):
        raise BackendError(f"converting float64 to {fmt.name} is not supported on the GPU")
    nan_sign = None
    if isinstance(src, Float16Type) and fmt.specials == "none":
        half = ctx.value(arith.BitcastOp(v, i16))
        z = _Ints(ctx)
        nan_sign = z.and_(z.shr(z.v(arith.ExtUIOp(half, i32)), 8), _SIGN)
    wide = v if isinstance(src, Float32Type) else ctx.value(arith.ExtFOp(v, f32))
    return encode(ctx, wide, fmt, nan_sign, toward_zero)
