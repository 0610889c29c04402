"""NumPy semantics of the libdevice functions that are calls (``tt.extern_elementwise``).

Each function takes and returns arrays of the libdevice signature's dtypes (f32/f64, i32/i64)
and computes what CUDA's libdevice returns, special values included (C99/CUDA rules for NaN,
infinities, signed zeros, poles). An f32 function is computed in f64 and rounded once: within
an ulp of the exact result, as close as libdevice's own documented error bounds (1 to 4 ulp)
or closer. Integer functions act on the two's-complement bits as the GPU does.
"""

from __future__ import annotations

import decimal
import math
import statistics
from collections.abc import Callable
from typing import Any

import numpy as np

Array = np.ndarray
F64 = np.float64
SQRT2 = math.sqrt(2.0)
TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)


def in_f64(fn: Callable[..., Array]) -> Callable[..., Array]:
    """``fn`` on the float arguments widened to f64, rounded back to the first one's dtype
    (integer arguments pass unchanged)."""

    def apply(*args: Array) -> Array:
        dtype = args[0].dtype
        wide = [a.astype(F64) if a.dtype.kind == "f" else a for a in args]
        return np.asarray(fn(*wide)).astype(dtype)

    apply.__name__ = fn.__name__
    return apply


def _scalar(fn: Callable[[float], float]) -> Callable[[Array], Array]:
    """A Python ``float -> float`` function applied to each element (f64 in, f64 out)."""
    vectorized = np.vectorize(fn, otypes=[F64])
    return lambda x: vectorized(x) if x.size else x.astype(F64)


# ---- exponentials, roots, norms ----


def exp10(x: Array) -> Array:
    return np.power(F64(10.0), x)


def rcbrt(x: Array) -> Array:
    return 1.0 / np.cbrt(x)


def norm(*xs: Array) -> Array:
    """``sqrt(sum x_i^2)`` without overflow: +inf if any ``x_i`` is infinite (even with a NaN
    beside it), NaN if one is NaN (C ``hypot``'s rules, which CUDA's ``norm*`` follow)."""
    mags = np.abs(np.broadcast_arrays(*xs))
    big = np.max(mags, axis=0)
    safe = np.where((big == 0) | ~np.isfinite(big), 1.0, big)
    total = np.sqrt(np.sum((mags / safe) ** 2, axis=0)) * safe
    total = np.where(np.isnan(mags).any(axis=0), np.nan, total)
    return np.where(np.isinf(mags).any(axis=0), np.inf, total)


def rnorm(*xs: Array) -> Array:
    return 1.0 / norm(*xs)


def hypot(x: Array, y: Array) -> Array:
    return norm(x, y)


def rhypot(x: Array, y: Array) -> Array:
    return rnorm(x, y)


def rsqrt_rn(x: Array) -> Array:
    """``1 / sqrt(x)`` correctly rounded (``__nv_frsqrt_rn``): in f64, then one rounding."""
    return 1.0 / np.sqrt(x)


# ---- trigonometry in multiples of pi ----


def _reduce_half_turns(x: Array) -> Array:
    """``x`` mod 2 in [-1, 1] (exact: fmod and the subtraction of an integer are exact)."""
    r = np.fmod(x, 2.0)
    return r - 2.0 * np.trunc(r)


def sinpi(x: Array) -> Array:
    """``sin(pi x)``: exact zeros at integers (signed like ``x``), exact ones at halves."""
    r = _reduce_half_turns(x)
    r = np.where(r > 0.5, 1.0 - r, np.where(r < -0.5, -1.0 - r, r))  # Sterbenz: exact
    s = np.sin(np.pi * r)
    return np.where(r == 0, np.copysign(0.0, x), s)


def cospi(x: Array) -> Array:
    """``cos(pi x)``: +0 at every half-integer, exactly +-1 at integers."""
    r = np.abs(_reduce_half_turns(x))  # [0, 1]
    c = np.where(r < 0.25, np.cos(np.pi * r), np.sin(np.pi * (0.5 - r)))  # 0.5 - r exact
    return np.where(r == 0.5, 0.0, c)


# ---- error function and the normal distribution ----


def erfc(x: Array) -> Array:
    return _scalar(math.erfc)(x)


def _exp_square(x: Array) -> Array:
    """``exp(x^2)`` with the rounding error of ``x^2`` corrected (it would cost ~x^2 ulp)."""
    square, error = _two_product(x, x)
    return np.exp(square) * (1.0 + np.where(np.isfinite(error), error, 0.0))


def erfcx(x: Array) -> Array:
    """``exp(x^2) erfc(x)``: ~``1/(x sqrt(pi))`` for large x, +inf below about -26.6.

    Below 2 the product itself (``exp`` of the exact square); from 2 on, erfc's continued
    fraction ``1 / (sqrt(pi) (x + (1/2) / (x + (2/2) / (x + ...))))``, converged to an ulp by
    200 terms there; for negative x the reflection ``2 exp(x^2) - erfcx(-x)``.
    """
    with np.errstate(all="ignore"):
        a = np.abs(x)
        fraction = np.where(a >= 2.0, a, 2.0)
        for k in range(200, 0, -1):
            fraction = a + (k / 2.0) / np.where(a >= 2.0, fraction, 2.0)
        tail = 1.0 / (math.sqrt(math.pi) * fraction)
        near = _exp_square(a) * erfc(a)
        positive = np.where(a >= 2.0, tail, near)
        positive = np.where(np.isinf(a), 0.0, positive)
        negative = 2.0 * _exp_square(a) - positive
        return np.where(x < 0, negative, np.where(np.isnan(x), x, positive))


_NORMAL = statistics.NormalDist()


def _erfcinv_scalar(z: float) -> float:
    """``erfc(x) = z`` for z in [0, 2]: the normal quantile, then Newton steps on erfc."""
    if math.isnan(z) or not 0.0 <= z <= 2.0:
        return math.nan
    if z == 0.0:
        return math.inf
    if z == 2.0:
        return -math.inf
    if z == 1.0:
        return 0.0
    x = -_NORMAL.inv_cdf(max(z / 2.0, 5e-324)) / SQRT2
    for _ in range(3):
        slope = -TWO_OVER_SQRT_PI * math.exp(-x * x)
        if slope == 0.0:
            break
        x -= (math.erfc(x) - z) / slope
    return x


def _erfinv_scalar(y: float) -> float:
    if math.isnan(y) or abs(y) > 1.0:
        return math.nan
    if abs(y) >= 0.5:  # through erfc, where 1 - |y| is exact
        return math.copysign(_erfcinv_scalar(1.0 - abs(y)), y)
    if y == 0.0:
        return y  # keeps -0.0
    x = _NORMAL.inv_cdf((1.0 + y) / 2.0) / SQRT2
    for _ in range(3):
        x -= (math.erf(x) - y) / (TWO_OVER_SQRT_PI * math.exp(-x * x))
    return x


def erfinv(x: Array) -> Array:
    return _scalar(_erfinv_scalar)(x)


def erfcinv(x: Array) -> Array:
    return _scalar(_erfcinv_scalar)(x)


def _two_product(a: Array, b: Array | float) -> tuple[Array, Array]:
    """``a * b`` and its exact rounding error (Dekker's product of split halves)."""

    def split(v: Array | float) -> tuple[Any, Any]:
        c = 134217729.0 * v  # 2^27 + 1
        high = c - (c - v)
        return high, v - high

    p = a * b
    (ah, al), (bh, bl) = split(a), split(b)
    return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl


# 1/sqrt(2) as a sum of two doubles (the second ~1e-17)
_INV_SQRT2 = 1.0 / SQRT2
_INV_SQRT2_LOW = float(
    decimal.Decimal(1) / decimal.Decimal(2).sqrt(decimal.Context(prec=40))
    - decimal.Decimal(_INV_SQRT2)
)


def normcdf(x: Array) -> Array:
    """``erfc(-x / sqrt(2)) / 2``, with the rounding error of ``-x / sqrt(2)`` corrected to
    first order (it would cost ~t^2 ulp in the far tail, where erfc' is large)."""
    with np.errstate(all="ignore"):
        t, error = _two_product(-x, _INV_SQRT2)
        error = np.where(np.isfinite(t), error - x * _INV_SQRT2_LOW, 0.0)
        slope = -TWO_OVER_SQRT_PI * np.exp(-t * t)
        return 0.5 * (erfc(t) + slope * error)


def _normcdfinv_scalar(p: float) -> float:
    if math.isnan(p) or not 0.0 <= p <= 1.0:
        return math.nan
    return 0.0 - SQRT2 * _erfcinv_scalar(2.0 * p)  # +0.0 at p = 0.5


def normcdfinv(x: Array) -> Array:
    return _scalar(_normcdfinv_scalar)(x)


# ---- gamma ----


def _lgamma_scalar(x: float) -> float:
    try:
        return math.lgamma(x)
    except (ValueError, OverflowError):  # poles: 0 and the negative integers
        return math.inf


def _tgamma_scalar(x: float) -> float:
    if x == 0.0:
        return math.copysign(math.inf, x)
    if x == -math.inf or (x < 0 and x == math.floor(x)):
        return math.nan
    try:
        return math.gamma(x)
    except OverflowError:
        return math.inf


def lgamma(x: Array) -> Array:
    """Python's ``lgamma``: within an ulp of 1 (not of the result) near its zeros at 1 and 2,
    where libdevice's f64 version is closer."""
    return _scalar(_lgamma_scalar)(x)


def tgamma(x: Array) -> Array:
    return _scalar(_tgamma_scalar)(x)


def cyl_bessel_i0(x: Array) -> Array:
    return np.where(np.isinf(x), np.inf, np.i0(np.where(np.isinf(x), 0.0, x)))


# ---- float bits and remainders (exact) ----


def nextafter(x: Array, y: Array) -> Array:
    return np.nextafter(x, y)


def _remainder_scalar(x: float, y: float) -> float:
    try:
        return math.remainder(x, y)
    except ValueError:  # y == 0 or x infinite
        return math.nan


def remainder(x: Array, y: Array) -> Array:
    """IEEE remainder ``x - n y``, n the integer nearest ``x / y`` (ties to even); exact in
    f64 for f32 operands."""
    return np.vectorize(_remainder_scalar, otypes=[F64])(x, y) if x.size else x


def fdim(x: Array, y: Array) -> Array:
    """``x - y`` where ``x > y``, else +0; NaN if either is NaN. In the operands' own dtype."""
    d = np.where(x > y, x - y, np.zeros_like(x))
    return np.where(np.isnan(x) | np.isnan(y), np.nan, d).astype(x.dtype)


def ldexp(x: Array, n: Array) -> Array:
    """``x * 2^n`` rounded once, in ``x``'s dtype."""
    return np.ldexp(x, np.clip(n, -(2**20), 2**20).astype(np.int32)).astype(x.dtype)


def powi(x: Array, n: Array) -> Array:
    """``x^n`` as libdevice's ``__nv_powif`` computes it: by repeated squaring in ``x``'s own
    precision (a rounding per product), the reciprocal for a negative ``n``."""
    x, n = np.broadcast_arrays(x, n)
    e = np.abs(n.astype(np.int64))
    result = np.ones_like(x)
    base = x.copy()
    with np.errstate(all="ignore"):
        while np.any(e):
            result = np.where(e & 1, result * base, result)
            e = e >> 1
            base = np.where(e > 0, base * base, base)
        return np.where(n < 0, np.ones_like(x) / result, result).astype(x.dtype)


def logb(x: Array) -> Array:
    """The unbiased exponent of ``x`` as a float (subnormals too): -inf at 0, +inf at inf."""
    exponent = (np.frexp(np.where(np.isfinite(x), x, 1.0))[1] - 1).astype(x.dtype)
    r = np.where(x == 0, -np.inf, exponent)
    return np.where(np.isinf(x), np.inf, np.where(np.isnan(x), x, r)).astype(x.dtype)


INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1


def ilogb(x: Array) -> Array:
    """The unbiased exponent as int32: ``INT_MIN`` at 0 and NaN, ``INT_MAX`` at +-inf."""
    e = np.frexp(np.where(np.isfinite(x) & (x != 0), x, 1.0))[1].astype(np.int64) - 1
    e = np.where((x == 0) | np.isnan(x), INT32_MIN, np.where(np.isinf(x), INT32_MAX, e))
    return e.astype(np.int32)


def saturatef(x: Array) -> Array:
    """``x`` clamped to [+0, 1]; NaN and -0.0 give +0."""
    return np.where(np.isnan(x) | (x <= 0), 0.0, np.minimum(x, 1.0)).astype(x.dtype)


# ---- integer bit functions ----


def _unsigned(a: Array) -> Array:
    """The bit pattern of a signed integer array as uint64 (i32 patterns stay 32-bit)."""
    bits = a.dtype.itemsize * 8
    return a.astype(np.int64).astype(np.uint64) & np.uint64((1 << bits) - 1)


def _bit_length(u: Array) -> Array:
    """The number of significant bits of each uint64 (0 for 0), as int64."""
    n = np.zeros(u.shape, np.int64)
    u = u.copy()
    for shift in (32, 16, 8, 4, 2, 1):
        high = u >= np.uint64(1 << shift)
        n = np.where(high, n + shift, n)
        u = np.where(high, u >> np.uint64(shift), u)
    return n + (u != 0)


def clz(a: Array) -> Array:
    """Leading zero bits of the 32- or 64-bit pattern (32 or 64 for 0), as int32."""
    return (a.dtype.itemsize * 8 - _bit_length(_unsigned(a))).astype(np.int32)


def popc(a: Array) -> Array:
    """Set bits of the pattern, as int32."""
    return np.bitwise_count(_unsigned(a)).astype(np.int32)


def ffs(a: Array) -> Array:
    """1-based position of the lowest set bit (0 for 0), as int32."""
    u = _unsigned(a)
    lowest = u & (~u + np.uint64(1))
    return _bit_length(lowest).astype(np.int32)


_REVERSED_BYTES = np.array([int(f"{b:08b}"[::-1], 2) for b in range(256)], np.uint8)


def brev(a: Array) -> Array:
    """The bit pattern reversed (bit 0 becomes the top bit)."""
    bytes_ = np.ascontiguousarray(a).view(np.uint8).reshape(*a.shape, a.dtype.itemsize)
    flipped = np.ascontiguousarray(_REVERSED_BYTES[bytes_][..., ::-1])
    return flipped.view(a.dtype).reshape(a.shape)


def byte_perm(x: Array, y: Array, s: Array) -> Array:
    """Byte n of the result is byte ``(s >> 4n) & 7`` of the 8 bytes ``y:x`` (``x`` low)."""
    pool, sel = np.broadcast_arrays((_unsigned(y) << np.uint64(32)) | _unsigned(x), _unsigned(s))
    out = np.zeros(pool.shape, np.uint64)
    for n in range(4):
        index = (sel >> np.uint64(4 * n)) & np.uint64(7)
        byte = (pool >> (index * np.uint64(8))) & np.uint64(0xFF)
        out |= byte << np.uint64(8 * n)
    return out.astype(np.uint32).view(np.int32)


def mulhi(a: Array, b: Array) -> Array:
    """The high half of the signed double-width product."""
    if a.dtype == np.int32:
        return ((a.astype(np.int64) * b.astype(np.int64)) >> 32).astype(np.int32)
    high = np.frompyfunc(lambda x, y: (int(x) * int(y)) >> 64, 2, 1)
    return np.asarray(high(a, b), dtype=object).astype(np.int64)


def mul24(a: Array, b: Array) -> Array:
    """The low 32 bits of the product of the sign-extended low 24 bits of each operand."""

    def low24(v: Array) -> Array:
        return ((v.astype(np.int64) & 0xFFFFFF) ^ 0x800000) - 0x800000

    return (low24(a) * low24(b)).astype(np.int32)


def hadd(a: Array, b: Array) -> Array:
    """``(a + b) >> 1`` without overflow (rounded toward -inf)."""
    return ((a.astype(np.int64) + b.astype(np.int64)) >> 1).astype(np.int32)


def rhadd(a: Array, b: Array) -> Array:
    """``(a + b + 1) >> 1`` without overflow."""
    return ((a.astype(np.int64) + b.astype(np.int64) + 1) >> 1).astype(np.int32)


# ---- float bits, classification, correctly rounded arithmetic ----


def signbit(x: Array) -> Array:
    """1 where the sign bit is set (negative numbers, -0.0, negative NaNs), else 0."""
    return np.signbit(x).astype(np.int32)


def isfinite(x: Array) -> Array:
    return np.isfinite(x).astype(np.int32)


def double2hiint(x: Array) -> Array:
    return (x.astype(F64).view(np.int64) >> 32).astype(np.int32)


def double2loint(x: Array) -> Array:
    return x.astype(F64).view(np.int64).astype(np.int32)


def hiloint2double(hi: Array, lo: Array) -> Array:
    bits = (hi.astype(np.int64) << 32) | (lo.astype(np.int64) & 0xFFFFFFFF)
    return np.ascontiguousarray(bits).view(F64).reshape(bits.shape)


def add(x: Array, y: Array) -> Array:
    return np.add(x, y, dtype=x.dtype)


def sub(x: Array, y: Array) -> Array:
    return np.subtract(x, y, dtype=x.dtype)


def mul(x: Array, y: Array) -> Array:
    return np.multiply(x, y, dtype=x.dtype)


def rcp(x: Array) -> Array:
    return np.divide(np.ones_like(x), x, dtype=x.dtype)


# ---- float -> integer conversions with a rounding mode ----

ROUNDINGS: dict[str, Callable[[Array], Array]] = {
    "rn": np.rint,  # to nearest, ties to even
    "rz": np.trunc,
    "rd": np.floor,
    "ru": np.ceil,
    "round": lambda x: np.copysign(np.floor(np.abs(x) + 0.5), x),  # ties away from zero
}


def to_int(rounding: str, bits: int, signed: bool) -> Callable[[Array], Array]:
    """Round with ``rounding``, then convert saturating to the ``bits``-wide signed or
    unsigned range (PTX ``cvt.rni.s32.f32`` and friends); an unsigned result is returned as
    the signed integer of the same bits, as Triton types it.

    NaN gives 0 from an f32 to 32 bits, and the pattern with only the top bit set from an
    f64 or to 64 bits (what an H200 returns for libdevice's conversions).
    """
    low, high = (-(2 ** (bits - 1)), 2 ** (bits - 1) - 1) if signed else (0, 2**bits - 1)
    out = np.dtype(f"int{bits}")

    def convert(x: Array) -> Array:
        nan = np.isnan(x)
        r = ROUNDINGS[rounding](x.astype(F64))
        r = np.where(nan, 0.0, r)
        too_high = r >= float(high) + 1.0  # (high + 1 is a power of two: exact)
        r = np.clip(r, float(low), float(high) + 1.0)
        if signed:
            result = np.where(too_high, high, np.where(too_high, 0.0, r).astype(np.int64))
        else:  # values of the top half have the sign bit set as signed integers
            top = r >= 2.0 ** (bits - 1)
            wrapped = np.where(top, r - 2.0**bits, r)
            result = np.where(too_high, -1, np.where(too_high, 0.0, wrapped).astype(np.int64))
        nan_result = 0 if (x.dtype == np.float32 and bits == 32) else -(2 ** (bits - 1))
        return np.where(nan, nan_result, result).astype(out)

    convert.__name__ = f"to_{'' if signed else 'u'}int{bits}_{rounding}"
    return convert
