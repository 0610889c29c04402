"""Reference semantics of the `tt` elementwise ops (and max/min reductions), as NumPy functions.

These define what each op computes on the GPU (C/PTX semantics, not Python's or NumPy's):
i32 wraps, integer division truncates toward zero, f32 stays f32, float ``maximum``/``minimum``
are PTX's ``max``/``min`` (a NaN operand is ignored, or with ``propagate_nan`` returned; ``+0.0 >
-0.0``), float ``!=`` is unordered. The constant folder and the CPU interpreter both call these,
so the two can never disagree.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable

import numpy as np
from xdsl.ir import Attribute

from mytriton.dialects.tt import dtype_table
from mytriton.dialects.tt import fp8 as tt_fp8
from mytriton.dialects.tt.types import PointerType, element_type
from mytriton.errors import LaunchError

Array = np.ndarray


def numpy_dtype(t: Attribute) -> np.dtype:
    """The NumPy dtype holding elements of ``t`` (pointers are held as int64 offsets): its
    dtype-table row's, ml_dtypes' through ``bfloat16_dtype`` and ``tt_fp8.container_dtype``
    (which check the version and say how to install it)."""
    e = element_type(t)
    if isinstance(e, PointerType):
        return np.dtype(np.int64)
    row = dtype_table.row_of_ir(e)
    if row is None:
        raise NotImplementedError(f"no NumPy dtype for element type {e}")
    if row.kind == "fp8":
        return tt_fp8.container_dtype(tt_fp8.format_of(e))
    if row.name == "bfloat16":
        return bfloat16_dtype()
    return row.numpy_dtype()


def bfloat16_dtype() -> np.dtype:
    """ml_dtypes' bfloat16 (NumPy has none); optional, so a clear error when it is missing.

    Its arithmetic converts to f32 and rounds once, exact for ``+ - * /`` (24 >= 2 * 8 + 2).
    """
    try:
        import ml_dtypes
    except ImportError:
        raise LaunchError(
            "bfloat16 on the CPU backends needs the ml_dtypes package: pip install ml_dtypes"
        ) from None
    dtype = np.dtype(ml_dtypes.bfloat16)
    if not _rounds_once(dtype):
        raise LaunchError(
            f"ml_dtypes {ml_dtypes.__version__} rounds float64 and int64 to bfloat16 twice "
            "(through float32), which gives wrong results: pip install 'ml_dtypes>=0.7'"
        )
    return dtype


@functools.cache
def _rounds_once(bf16: np.dtype) -> bool:
    """Whether ml_dtypes converts float64/int64 to bfloat16 with one rounding, as the GPU's
    ``cvt.rn.bf16.f64`` does (older releases went through float32, and ``1 + 2**-8 + 2**-40``
    became a tie rounded down)."""
    wide = np.array([1 + 2**-8 + 2**-40], np.float64).astype(bf16).view(np.uint16)
    big = np.array([2**40 + 2**32 + 1], np.int64).astype(bf16).view(np.uint16)
    return bool(wide[0] == 0x3F81 and big[0] == 0x5381)


def float32_to_bfloat16(value: np.ndarray | np.float32) -> float:
    """A float32 scalar that is not a NaN, rounded to bfloat16 (to nearest, ties to even; past
    the largest bfloat16, infinity), as a Python float: what ml_dtypes' conversion gives, for
    the constant folder, which would otherwise load ml_dtypes (a second, more than most
    kernels' whole compile) to fold ``tl.load(..., other=-float("inf"))`` of a bf16 tensor.
    The bits of bfloat16 are the top half of float32's: add just under half the dropped
    half's unit (plus one when the kept part is odd, to tie to even) and drop it."""
    bits = int(np.asarray(value, np.float32).view(np.uint32))
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    return float(np.array(rounded, np.uint32).view(np.float32))


def is_float_dtype(dtype: np.dtype) -> bool:
    """Whether ``dtype`` holds floats (ml_dtypes' bfloat16 and fp8 are not NumPy ``floating``)."""
    floating = np.issubdtype(dtype, np.floating) or dtype.name == "bfloat16"
    return bool(floating) or tt_fp8.format_of_dtype(dtype) is not None


def _is_float(a: Array) -> bool:
    return is_float_dtype(a.dtype)


def _int_div_rem(a: Array, b: Array) -> tuple[Array, Array]:
    """C division: quotient truncated toward zero, remainder with the dividend's sign.

    Division by zero is undefined on the GPU; here it gives quotient -1 and remainder ``a``.
    """
    if a.dtype.kind == "u":  # floor is truncation; x / 0 is all ones (PTX ``div.u``)
        zero = b == 0
        safe = np.where(zero, np.ones_like(b), b)
        q = np.where(zero, np.array(np.iinfo(a.dtype).max, a.dtype), a // safe)
        return q.astype(a.dtype), np.where(zero, a, a % safe).astype(a.dtype)
    a64, b64 = a.astype(np.int64), b.astype(np.int64)
    zero = b64 == 0
    safe = np.where(zero, 1, b64)
    q = a64 // safe
    r = a64 - q * safe
    q = np.where((r != 0) & ((a64 < 0) != (safe < 0)), q + 1, q)
    r = a64 - q * safe
    q = np.where(zero, -1, q)
    r = np.where(zero, a64, r)
    return q.astype(a.dtype), r.astype(a.dtype)


def add(a: Array, b: Array) -> Array:
    return np.add(a, b, dtype=a.dtype)


def sub(a: Array, b: Array) -> Array:
    return np.subtract(a, b, dtype=a.dtype)


def mul(a: Array, b: Array) -> Array:
    return np.multiply(a, b, dtype=a.dtype)


def div(a: Array, b: Array) -> Array:
    if _is_float(a):
        return np.divide(a, b, dtype=a.dtype)
    return _int_div_rem(a, b)[0]


def rem(a: Array, b: Array) -> Array:
    if _is_float(a):
        return np.fmod(a, b, dtype=a.dtype)
    return _int_div_rem(a, b)[1]


def bit_and(a: Array, b: Array) -> Array:
    return np.bitwise_and(a, b)


def bit_or(a: Array, b: Array) -> Array:
    return np.bitwise_or(a, b)


def bit_xor(a: Array, b: Array) -> Array:
    return np.bitwise_xor(a, b)


def maximum(a: Array, b: Array, propagate_nan: bool = False) -> Array:
    """PTX ``max`` (``max.NaN`` with ``propagate_nan``): LLVM/MLIR ``maxnum`` (``maximum``)."""
    if not _is_float(a):
        return np.maximum(a, b)
    r = (np.maximum if propagate_nan else np.fmax)(a, b)
    # equal operands are two zeros (+0.0 wins) or one number
    return np.where(a == b, np.where(np.signbit(a), b, a), r).astype(a.dtype)


def minimum(a: Array, b: Array, propagate_nan: bool = False) -> Array:
    """PTX ``min`` (``min.NaN`` with ``propagate_nan``): LLVM/MLIR ``minnum`` (``minimum``)."""
    if not _is_float(a):
        return np.minimum(a, b)
    r = (np.minimum if propagate_nan else np.fmin)(a, b)
    # equal operands are two zeros (-0.0 wins) or one number
    return np.where(a == b, np.where(np.signbit(a), a, b), r).astype(a.dtype)


def reduce_max(a: Array, axis: int) -> Array:
    """``tl.max``: ``maximum`` (NaN ignored) over ``axis``; it is associative and commutative
    (``+0.0 > -0.0``), so any combining order gives this."""
    if not _is_float(a):
        return np.max(a, axis=axis)
    r = np.fmax.reduce(a, axis=axis)
    positive_zero = np.any((a == 0) & ~np.signbit(a), axis=axis)
    return np.where((r == 0) & positive_zero, np.zeros_like(r), r).astype(a.dtype)


def reduce_min(a: Array, axis: int) -> Array:
    """``tl.min``: ``minimum`` (NaN ignored) over ``axis``, in any combining order."""
    if not _is_float(a):
        return np.min(a, axis=axis)
    r = np.fmin.reduce(a, axis=axis)
    negative_zero = np.any((a == 0) & np.signbit(a), axis=axis)
    return np.where((r == 0) & negative_zero, -np.zeros_like(r), r).astype(a.dtype)


# Float comparisons are ordered except ``ne`` (unordered: NaN != x), NumPy's own rule.
COMPARISONS: dict[str, Callable[[Array, Array], Array]] = {
    "lt": np.less,
    "le": np.less_equal,
    "gt": np.greater,
    "ge": np.greater_equal,
    "eq": np.equal,
    "ne": np.not_equal,
}


def compare(predicate: str, a: Array, b: Array) -> Array:
    return np.asarray(COMPARISONS[predicate](a, b))


def select(c: Array, a: Array, b: Array) -> Array:
    return np.where(c, a, b).astype(a.dtype)


def neg(a: Array) -> Array:
    return np.negative(a, dtype=a.dtype)


def _float_unary(fn: Callable[[Array], Array]) -> Callable[[Array], Array]:
    def apply(a: Array) -> Array:
        return np.asarray(fn(a)).astype(a.dtype)

    apply.__name__ = fn.__name__
    return apply


exp = _float_unary(np.exp)
exp2 = _float_unary(np.exp2)
log = _float_unary(np.log)
log2 = _float_unary(np.log2)
sqrt = _float_unary(np.sqrt)
sin = _float_unary(np.sin)
cos = _float_unary(np.cos)
floor = _float_unary(np.floor)
ceil = _float_unary(np.ceil)


def _erf(a: Array) -> Array:
    """``erf`` in f64 (NumPy has none), rounded to ``a``'s dtype by the caller."""
    return np.vectorize(math.erf, otypes=[np.float64])(a.astype(np.float64))


def round_half_away(a: Array) -> Array:
    """C ``round``: halfway cases away from zero (NumPy's ``round`` goes to even)."""
    return np.asarray(np.copysign(np.floor(np.abs(a) + np.asarray(0.5, a.dtype)), a))


tanh = _float_unary(np.tanh)
erf = _float_unary(_erf)
expm1 = _float_unary(np.expm1)
log1p = _float_unary(np.log1p)
log10 = _float_unary(np.log10)
tan = _float_unary(np.tan)
asin = _float_unary(np.arcsin)
acos = _float_unary(np.arccos)
atan = _float_unary(np.arctan)
sinh = _float_unary(np.sinh)
cosh = _float_unary(np.cosh)
asinh = _float_unary(np.arcsinh)
acosh = _float_unary(np.arccosh)
atanh = _float_unary(np.arctanh)
trunc = _float_unary(np.trunc)
round_ = _float_unary(round_half_away)
rint = _float_unary(np.rint)
cbrt = _float_unary(np.cbrt)


def pow_(a: Array, b: Array) -> Array:
    return np.power(a, b, dtype=a.dtype)


def atan2(a: Array, b: Array) -> Array:
    return np.arctan2(a, b).astype(a.dtype)


def copysign(a: Array, b: Array) -> Array:
    return np.copysign(a, b).astype(a.dtype)


def fma(a: Array, b: Array, c: Array) -> Array:
    """``a * b + c`` rounded once for f16/f32 (exact in f64 but for rare double-rounding ties);
    f64 has no wider type here, so it rounds twice."""
    if a.dtype == np.float64:
        return np.asarray(a * b + c)
    wide = a.astype(np.float64) * b.astype(np.float64) + c.astype(np.float64)
    return wide.astype(a.dtype)


def umulhi(a: Array, b: Array) -> Array:
    """High half of the unsigned double-width product of two same-width integers."""
    bits = a.dtype.itemsize * 8
    mask = (1 << bits) - 1
    high = np.frompyfunc(lambda x, y: ((int(x) & mask) * (int(y) & mask)) >> bits, 2, 1)
    return np.asarray(high(a, b), dtype=object).astype(f"uint{bits}").view(a.dtype)


def rsqrt(a: Array) -> Array:
    return (np.array(1, a.dtype) / np.sqrt(a)).astype(a.dtype)


def abs_(a: Array) -> Array:
    return np.abs(a).astype(a.dtype)


def cast(a: Array, to: np.dtype) -> Array:
    """Value conversion with C semantics (float->int as ``float_to_int``; anything -> bool is
    ``x != 0``)."""
    if tt_fp8.format_of_dtype(a.dtype) or tt_fp8.format_of_dtype(np.dtype(to)):
        return tt_fp8.convert(a, np.dtype(to))
    if to == np.bool_:
        return a != 0
    if _is_float(a) and np.issubdtype(to, np.integer):
        return float_to_int(a, np.dtype(to))
    return a.astype(to)


def float_to_int(a: Array, to: np.dtype) -> Array:
    """Float -> integer as Triton's kernels compute it on NVIDIA GPUs (measured on the H200):
    PTX ``cvt.rzi`` truncates toward zero and saturates to a 16-, 32- or 64-bit range; an 8-bit
    result is the low byte of the 16-bit one (LLVM converts through i16), so 300.0 -> int8 is
    44. NaN gives 0 from f16/bf16/f32 to at most 32 bits, else the top-bit pattern (INT_MIN)."""
    to = np.dtype(to)
    bits = max(16, to.itemsize * 8)
    wide = np.dtype(f"{'u' if to.kind == 'u' else ''}int{bits}")
    info = np.iinfo(wide)
    t = np.trunc(np.nan_to_num(a.astype(np.float64), nan=0.0))
    # compared as floats: int64's and uint64's extremes are not floats, 2**63 and 2**64 are
    low, high = t < float(info.min), t >= 2.0 ** (info.bits - (info.min < 0))
    inside = np.where(low | high, 0, t).astype(wide)
    out = np.where(low, info.min, np.where(high, info.max, inside)).astype(wide)
    nan_to_zero = a.dtype != np.float64 and bits <= 32
    top_bit = np.array(1 << (bits - 1), np.uint64).astype(wide)
    out = np.where(np.isnan(a), wide.type(0) if nan_to_zero else top_bit, out).astype(wide)
    return out.astype(to)  # to 8 bits: the low byte


def _shift_amount(a: Array, b: Array) -> tuple[Array, Array]:
    """The amount as an unsigned number, and whether it reaches the width (PTX ``shl``/``shr``
    clamp it: every bit is shifted out)."""
    bits = a.dtype.itemsize * 8
    amount = b.astype(np.dtype(f"uint{bits}"))
    big = amount >= bits
    return np.where(big, 0, amount).astype(a.dtype), big


def shl(a: Array, b: Array) -> Array:
    amount, big = _shift_amount(a, b)
    return np.where(big, np.zeros_like(a), np.left_shift(a, amount)).astype(a.dtype)


def shr(a: Array, b: Array) -> Array:
    """Arithmetic for signed integers (the sign fills in), logical for unsigned."""
    amount, big = _shift_amount(a, b)
    full = np.right_shift(a, np.asarray(a.dtype.itemsize * 8 - 1, a.dtype))
    out = np.where(big, full if a.dtype.kind == "i" else np.zeros_like(a), a >> amount)
    return out.astype(a.dtype)


def round_toward_zero(a: Array, to: np.dtype) -> Array:
    """A float narrowed to ``to`` rounded toward zero (``tt.fp_to_fp``, PTX ``cvt.rz``): the
    value of ``to`` nearest ``a`` in magnitude without exceeding it, so an overflow gives the
    largest finite value, not an infinity; infinities and NaN are kept.

    Rounding to nearest lands on one of the two neighbours of ``a``; where that is the one
    away from zero, the bit pattern one lower is the other (patterns order magnitudes).
    """
    fp8 = tt_fp8.format_of_dtype(np.dtype(to))
    if fp8 is not None:
        return tt_fp8.encode(a, fp8, toward_zero=True)
    nearest = np.asarray(a.astype(to))
    away = np.abs(nearest.astype(a.dtype)) > np.abs(a)
    bits = np.dtype(f"uint{np.dtype(to).itemsize * 8}")
    lower = (nearest.view(bits) - np.asarray(1, bits)).view(to)
    return np.where(away, lower, nearest).astype(to)


def bitcast(a: Array, to: np.dtype) -> Array:
    """The same bits read as another element type of the same width."""
    return np.ascontiguousarray(a).view(to).reshape(a.shape)


def evaluate(fn: Callable[..., Array], *args: object) -> Array:
    """Call a semantic function with NumPy's overflow/invalid warnings silenced (GPUs wrap)."""
    with np.errstate(all="ignore"):
        return fn(*args)
