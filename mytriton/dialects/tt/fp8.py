"""The five fp8 storage formats Triton names, and what converting to and from them computes.

Triton 3.6 stores fp8 values, converts them and takes ``tl.abs`` of them; it has no other fp8
arithmetic (its GPU backends reject it). The conversions follow what its NVIDIA backend runs on
sm_90 (checked on an H200 against tests/execution/test_fp8.py's reference):

* decoding (fp8 -> f16/bf16/f32) is exact, NaN and infinity as the format defines them (Triton's
  fp8e5 -> bf16 bit trick turns them into 65536 and up; that is not copied);
* encoding (f16/bf16/f32 -> fp8) is PTX ``cvt.rn.satfinite``: round to nearest even, a value
  beyond the largest finite one (infinity too) saturates to it, NaN gives the format's NaN;
* ``fp8e4b15`` (Triton's software format: bias 15, no infinity, no NaN, ``0x7f`` is 1.875)
  is encoded by Triton's own code: magnitudes clamped to 1.75, rounded half away from zero,
  NaN -> +1.75 (from an f16, the NaN's sign is kept);
* encoding toward zero (``fp_downcast_rounding="rtz"``) is compiled by Triton's NVIDIA backend
  only from f32 into fp8e5 (``TOWARD_ZERO``; every other pair aborts its compiler, and
  fp8e4b15's code ignores the mode): ``cvt.rz`` to f16, then the f16's high byte. That is the
  magnitude truncated; a finite value beyond the largest gives it, an infinity stays one,
  NaN gives the format's NaN.

These are the results on every target. Triton's NVIDIA backend computes them on sm_89 and later
(``cvt.rn.satfinite``; the lowering emits the same instructions there, ``gpu_lowering/fp8_cvt``);
before sm_89 it has no fp8e4nv, and its own fp8e5 code (``cvt.rz`` to f16 then ``+ 0x80`` on the
bits from f32/f16, clamps and ``+ 0x10`` from bf16) rounds ties away from zero and gives
infinity or NaN beyond the largest value: that chip-dependent rounding is not copied.

The AMD formats ``fp8e4b8``/``fp8e5b16`` (``fnuz``: one NaN ``0x80``, no -0.0, no infinity) are
encoded with the same saturating rule; Triton's NVIDIA backend rejects them, here every backend
takes them (the conversions are software). The IR types are Triton's: ``fp8e4b15`` is
``f8E4M3B11FNUZ`` there too, a stand-in whose name does not describe the format.

The NumPy side (the interpreter and the constant folder) holds fp8 values in ml_dtypes' arrays of
the same name (``fp8e4b15`` in ``float8_e4m3b11fnuz`` arrays, as opaque bytes); the GPU lowering
computes the same conversions on the bits (``passes/gpu_lowering/fp8.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
from xdsl.dialects.builtin import Float8E5M2Type, Float32Type
from xdsl.ir import Attribute

from mytriton.dialects.tt import dtype_table
from mytriton.dialects.tt.types import FP8_TYPES, element_type
from mytriton.errors import LaunchError

Array = np.ndarray


@dataclass(frozen=True)
class Fp8Format:
    """One fp8 format: its layout, its special values and how values are rounded into it."""

    name: str  # Triton's dtype name
    numpy_name: str  # the ml_dtypes type holding its values
    exponent_bits: int
    mantissa_bits: int
    bias: int
    #: "fn" (NaN = all ones, no infinity), "ieee" (infinity and NaNs at the top exponent),
    #: "fnuz" (NaN = 0x80, no -0.0, no infinity) or "none" (every byte is a number)
    specials: str
    max_byte: int  # the largest magnitude encoding produces (saturation)
    nan_byte: int  # what NaN encodes to
    ties_away: bool = False  # round half away from zero instead of to even

    def value(self, byte: int) -> float:
        """The number byte ``byte`` (0..255) holds."""
        sign = -1.0 if byte & 0x80 else 1.0
        mag = byte & 0x7F
        e, m = mag >> self.mantissa_bits, mag & ((1 << self.mantissa_bits) - 1)
        if self.specials == "fnuz" and byte == 0x80:
            return float("nan")
        if self.specials == "fn" and mag == 0x7F:
            return float("nan")
        if self.specials == "ieee" and e == (1 << self.exponent_bits) - 1:
            return float("nan") if m else sign * float("inf")
        if e == 0:
            return sign * m * 2.0 ** (1 - self.bias - self.mantissa_bits)
        return sign * (1 + m / (1 << self.mantissa_bits)) * 2.0 ** (e - self.bias)

    @property
    def max_value(self) -> float:
        return self.value(self.max_byte)


def _format(
    name: str, specials: str, max_byte: int, nan_byte: int, ties_away: bool = False
) -> tuple[type[Attribute], Fp8Format]:
    """The format of the dtype-table row ``name`` (its names and layout are the row's)."""
    row = dtype_table.BY_DTYPE_NAME[name]
    assert row.mantissa_bits is not None and row.exponent_bias is not None
    exponent_bits = row.bits - 1 - row.mantissa_bits
    layout = (exponent_bits, row.mantissa_bits, row.exponent_bias)
    fmt = Fp8Format(name, row.numpy, *layout, specials, max_byte, nan_byte, ties_away)
    return type(row.ir), fmt


#: the formats, by IR type (their special values and rounding are no dtype-table column)
FORMATS: dict[type[Attribute], Fp8Format] = dict(
    [
        _format("fp8e4nv", "fn", 0x7E, 0x7F),
        _format("fp8e5", "ieee", 0x7B, 0x7F),
        _format("fp8e4b8", "fnuz", 0x7F, 0x80),
        _format("fp8e5b16", "fnuz", 0x7F, 0x80),
        _format("fp8e4b15", "none", 0x7E, 0x7E, ties_away=True),
    ]
)
_BY_NUMPY_NAME = {f.numpy_name: f for f in FORMATS.values()}

#: the fp8 formats Triton's NVIDIA backend converts into toward zero, and from which types
TOWARD_ZERO: dict[type[Attribute], tuple[type[Attribute], ...]] = {Float8E5M2Type: (Float32Type,)}


def is_fp8(t: Attribute) -> bool:
    """Whether ``t`` (or its element type) is one of the fp8 formats."""
    return isinstance(element_type(t), FP8_TYPES)


def format_of(t: Attribute) -> Fp8Format:
    return FORMATS[type(element_type(t))]


def converts_toward_zero(src: Attribute, dst: Attribute) -> bool:
    """Whether (the element type of) ``src`` converts into fp8 ``dst`` toward zero."""
    sources = TOWARD_ZERO.get(type(element_type(dst)), ())
    return isinstance(element_type(src), sources)


# ------------------------------------------------------------------ NumPy


def container_dtype(fmt: Fp8Format) -> np.dtype:
    """The ml_dtypes dtype holding ``fmt``'s bytes; a clear error when ml_dtypes is missing."""
    try:
        import ml_dtypes
    except ImportError:
        raise LaunchError(
            f"{fmt.name} on the CPU backends needs the ml_dtypes package: pip install ml_dtypes"
        ) from None
    return np.dtype(getattr(ml_dtypes, fmt.numpy_name))


def format_of_dtype(dtype: np.dtype) -> Fp8Format | None:
    """The fp8 format a NumPy dtype holds, if it holds one."""
    return _BY_NUMPY_NAME.get(dtype.name)


def format_named(name: str) -> Fp8Format | None:
    """The fp8 format of an array dtype name (ml_dtypes' and torch's: ``"float8_e5m2"``), if
    it is one Triton takes (``float8_e4m3b11fnuz`` is no ``fp8e4b15``: that one comes only
    through ``mytriton.reinterpret``)."""
    fmt = _BY_NUMPY_NAME.get(name)
    return fmt if fmt is not None and fmt.specials != "none" else None


@cache
def _decode_table(fmt: Fp8Format) -> Array:
    return np.array([fmt.value(b) for b in range(256)], np.float32)


def decode(a: Array) -> Array:
    """The float32 values of an fp8 array (exact)."""
    fmt = format_of_dtype(a.dtype)
    assert fmt is not None, a.dtype
    return decode_bytes(a.view(np.uint8), fmt)


def decode_bytes(a: Array, fmt: Fp8Format) -> Array:
    """The float32 values of ``fmt``'s bytes ``a`` (uint8; exact)."""
    return _decode_table(fmt)[a]


def encode(x: Array, fmt: Fp8Format, toward_zero: bool = False) -> Array:
    """``x`` (float16, bfloat16 or float32) converted to ``fmt``, as the GPU converts."""
    if toward_zero:
        bits = _encode_toward_zero(x, fmt)
    elif fmt.specials == "none":
        bits = _encode_e4b15(x)
    else:
        wide = np.asarray(x).astype(np.float32)
        limit = np.float32(fmt.max_value)
        with np.errstate(invalid="ignore"):
            rounded = np.clip(wide, -limit, limit).astype(container_dtype(fmt))  # to nearest even
        bits = np.where(np.isnan(wide), np.uint8(fmt.nan_byte), rounded.view(np.uint8))
    return np.asarray(bits, np.uint8).view(container_dtype(fmt))


def _encode_toward_zero(x: Array, fmt: Fp8Format) -> Array:
    """The byte of the largest magnitude not beyond ``|x|`` (the largest finite one for a
    finite ``x`` beyond it), with ``x``'s sign; an infinity stays one, NaN is the format's."""
    assert fmt.specials != "none", "fp8e4b15 has no toward-zero conversion"
    wide = np.asarray(x).astype(np.float32)
    mag = np.minimum(np.abs(wide), np.float32(fmt.max_value))
    with np.errstate(invalid="ignore"):
        nearest = mag.astype(container_dtype(fmt)).view(np.uint8)
    # to nearest gives one of the two neighbours; the lower one is the byte below
    byte = nearest - (_decode_table(fmt)[nearest] > mag).astype(np.uint8)
    if fmt.specials == "ieee":
        infinity = ((1 << fmt.exponent_bits) - 1) << fmt.mantissa_bits
        byte = np.where(np.isinf(wide), np.uint8(infinity), byte)
    signed = np.signbit(wide) & ((byte != 0) | (fmt.specials != "fnuz"))  # fnuz: no -0.0
    out = byte | np.where(signed, np.uint8(0x80), np.uint8(0))
    return np.where(np.isnan(wide), np.uint8(fmt.nan_byte), out)


def _encode_e4b15(x: Array) -> Array:
    """Triton's f16 -> fp8e4b15 code, on the bits: f32 is first rounded toward zero to f16
    (``cvt.rz``, which gives NaN a positive sign); the magnitude's f16 bits are clamped to
    1.75 (``min.f16x2``, which also turns NaN into 1.75), doubled and rounded at their high
    byte (``+ 0x80``: half away from zero)."""
    x = np.asarray(x)
    if x.dtype == np.float16:
        half = x
        sign = np.signbit(x)
    else:
        wide = x.astype(np.float32)
        with np.errstate(over="ignore"):
            half = wide.astype(np.float16)
        over = np.abs(half.astype(np.float64)) > np.abs(wide.astype(np.float64))
        half = np.where(over, np.nextafter(half, np.float16(0)), half)
        sign = np.signbit(wide) & ~np.isnan(wide)
    magnitude = half.view(np.uint16).astype(np.uint32) & 0x7FFF
    magnitude = np.where(np.isnan(half), 0x3F00, np.minimum(magnitude, 0x3F00))
    byte = (magnitude * 2 + 0x80) >> 8
    return (byte | np.where(sign, 0x80, 0)).astype(np.uint8)


def convert(a: Array, to: np.dtype) -> Array:
    """``tt.cast`` where either side is fp8: exactly through float32."""
    src, dst = format_of_dtype(a.dtype), format_of_dtype(to)
    if dst is None:
        return decode(a).astype(to)
    if src is not None:
        a = decode(a)
    return encode(a, dst)


# ------------------------------------------------------------------ constants


def has_constants(t: Attribute) -> bool:
    """Whether constants of type ``t`` can be folded: not fp8e4b15's, whose stand-in type makes
    xDSL's ``FloatAttr`` round values to another format (2**-17 and -0.0 would become 0)."""
    return not (is_fp8(t) and format_of(t).specials == "none")


def bits_of(value: float, t: Attribute) -> int:
    """The byte holding ``value``, a number of fp8 type ``t`` (an ``arith.constant``)."""
    fmt = format_of(t)
    table = _decode_table(fmt)
    if np.isnan(value):
        return fmt.nan_byte if fmt.specials != "none" else 0x7E
    matches = [b for b in range(256) if table[b] == value]  # +0.0 and -0.0 both match 0
    for b in matches:
        if np.signbit(table[b]) == np.signbit(value):
            return b
    if matches:  # -0.0 in a format without it
        return matches[0]
    raise ValueError(f"{value!r} is not a {fmt.name} value")


def constant_array(value: float, t: Attribute) -> Array:
    """A 0-d array holding the fp8 constant ``value`` of type ``t``."""
    return np.array(bits_of(value, t), np.uint8).view(container_dtype(format_of(t)))


def constant_value(a: Array) -> float:
    """The number a 0-d fp8 array holds (for an ``arith.constant`` attribute)."""
    return float(decode(np.asarray(a)))
