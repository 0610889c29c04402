"""The libdevice functions that are calls of libdevice itself (``tt.extern_elementwise``), the
aliases of ops the compiler has, and the typed error of the few that are not compiled, on every
backend.

References are independent of the implementation where one exists (Python's ``math`` and
``statistics``, round trips through ``erf``, per-element Python integers); transcendentals are
checked to ``ULPS`` ulp like ``test_math``, exact functions bit for bit, special values (NaN,
infinities, signed zeros, poles, saturation) included.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.errors import KernelNameError, KernelTypeError
from mytriton.language.extra import libdevice
from mytriton.language.extra.cuda import libdevice as cuda_libdevice

pytestmark = pytest.mark.execution

N = 64
ULPS = 8
FLOATS = [np.float32, np.float64]
SPECIAL = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 0.5, -0.5, 1.5, -2.5, 3.0, 1e-3, -7.25])


def _kernel(fn: Callable[..., Any], arity: int) -> Any:
    if arity == 1:

        @triton.jit
        def unary(a_ptr, out_ptr, BLOCK: tl.constexpr):
            offs = tl.arange(0, BLOCK)
            tl.store(out_ptr + offs, fn(tl.load(a_ptr + offs)))

        return unary
    if arity == 2:

        @triton.jit
        def binary(a_ptr, b_ptr, out_ptr, BLOCK: tl.constexpr):
            offs = tl.arange(0, BLOCK)
            tl.store(out_ptr + offs, fn(tl.load(a_ptr + offs), tl.load(b_ptr + offs)))

        return binary
    if arity == 3:

        @triton.jit
        def ternary(a_ptr, b_ptr, c_ptr, out_ptr, BLOCK: tl.constexpr):
            offs = tl.arange(0, BLOCK)
            a, b, c = tl.load(a_ptr + offs), tl.load(b_ptr + offs), tl.load(c_ptr + offs)
            tl.store(out_ptr + offs, fn(a, b, c))

        return ternary

    @triton.jit
    def quaternary(a_ptr, b_ptr, c_ptr, d_ptr, out_ptr, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        a, b = tl.load(a_ptr + offs), tl.load(b_ptr + offs)
        c, d = tl.load(c_ptr + offs), tl.load(d_ptr + offs)
        tl.store(out_ptr + offs, fn(a, b, c, d))

    return quaternary


def _call(run: Any, fn: Any, args: list[np.ndarray], out_dtype: Any) -> np.ndarray:
    """``fn`` on the elements of ``args`` (padded with their first elements to a power of two)."""
    n = args[0].size
    block = 1 << (n - 1).bit_length()
    padded = [np.concatenate([a, np.resize(a, block - n)]).astype(a.dtype) for a in args]
    out = np.zeros(block, out_dtype)
    run(_kernel(fn, len(args)), (1,), *padded, out, BLOCK=block)
    return out[:n]


def _scalar(fn: Callable[..., float]) -> Callable[..., np.ndarray]:
    return np.vectorize(fn, otypes=[np.float64])


def _close(
    got: np.ndarray,
    expected: np.ndarray,
    dtype: Any,
    ulps: float | np.ndarray = ULPS,
    floor: float = 0.0,
) -> None:
    """Within ``ulps`` ulp of ``expected``, or of ``floor`` for results smaller than that."""
    eps = float(np.finfo(dtype).eps)
    scale = np.maximum(np.abs(expected), max(float(np.finfo(dtype).tiny), floor))
    err = np.abs(got.astype(np.float64) - expected)
    ok = (err <= ulps * eps * scale) | (np.isnan(expected) & np.isnan(got))
    ok |= np.isinf(expected) & (got == expected)
    bad = np.flatnonzero(~ok)[:6]
    assert bad.size == 0, [(int(i), got[i], expected[i]) for i in bad]


def _same(got: np.ndarray, expected: np.ndarray) -> None:
    """Equal values, NaN where expected, the same sign on every non-NaN (zeros)."""
    expected = np.asarray(expected).astype(got.dtype)
    if got.dtype.kind != "f":
        np.testing.assert_array_equal(got, expected)
        return
    same = np.where(
        np.isnan(expected),
        np.isnan(got),
        (got == expected) & (np.signbit(got) == np.signbit(expected)),
    )
    bad = np.flatnonzero(~same)[:6]
    assert bad.size == 0, [(int(i), got[i], expected[i]) for i in bad]


def _uniform(seed: int, low: float, high: float, dtype: Any, n: int = N) -> np.ndarray:
    return np.random.default_rng(seed).uniform(low, high, n).astype(dtype)


def _norm(*xs: np.ndarray) -> np.ndarray:
    return np.sqrt(sum(x.astype(np.float64) ** 2 for x in xs))


def _i0(x: float) -> float:
    """Modified Bessel function of order 0 by its power series."""
    term, total, k = 1.0, 1.0, 1
    while term > 1e-17 * total:
        term *= (x / 2) ** 2 / k**2
        total += term
        k += 1
    return total


# name -> (function, arity, argument range, float64 reference)
APPROXIMATE: dict[str, tuple[Any, int, tuple[float, float], Callable[..., np.ndarray]]] = {
    "exp10": (libdevice.exp10, 1, (-20.0, 20.0), lambda x: 10.0**x),
    "fast_exp10f": (libdevice.fast_exp10f, 1, (-5.0, 5.0), lambda x: 10.0**x),
    "rcbrt": (libdevice.rcbrt, 1, (-50.0, 50.0), lambda x: 1 / np.cbrt(x)),
    "sinpi": (libdevice.sinpi, 1, (-3.0, 3.0), lambda x: np.sin(np.pi * x)),
    "cospi": (libdevice.cospi, 1, (-3.0, 3.0), lambda x: np.cos(np.pi * x)),
    "erfc": (libdevice.erfc, 1, (-3.0, 9.0), _scalar(math.erfc)),
    "erfcx": (libdevice.erfcx, 1, (-2.0, 4.0), _scalar(lambda x: math.exp(x * x) * math.erfc(x))),
    # (statistics' cdf is 1 + erf: accurate to an ulp of its result above -1 only)
    "normcdf": (libdevice.normcdf, 1, (-1.0, 6.0), _scalar(statistics.NormalDist().cdf)),
    # (math.lgamma is accurate to an ulp of 1 only, near its zeros at 1 and 2)
    "lgamma": (libdevice.lgamma, 1, (0.1, 30.0), _scalar(math.lgamma)),
    "tgamma": (libdevice.tgamma, 1, (-4.5, 20.0), _scalar(math.gamma)),
    "cyl_bessel_i0": (libdevice.cyl_bessel_i0, 1, (-10.0, 10.0), _scalar(_i0)),
    "rsqrt_rn": (libdevice.rsqrt_rn, 1, (0.01, 100.0), lambda x: 1 / np.sqrt(x)),
    "hypot": (libdevice.hypot, 2, (-1e3, 1e3), _norm),
    "rhypot": (libdevice.rhypot, 2, (-1e3, 1e3), lambda *xs: 1 / _norm(*xs)),
    "norm3d": (libdevice.norm3d, 3, (-10.0, 10.0), _norm),
    "rnorm3d": (libdevice.rnorm3d, 3, (-10.0, 10.0), lambda *xs: 1 / _norm(*xs)),
    "norm4d": (libdevice.norm4d, 4, (-10.0, 10.0), _norm),
    "rnorm4d": (libdevice.rnorm4d, 4, (-10.0, 10.0), lambda *xs: 1 / _norm(*xs)),
    "fast_powf": (libdevice.fast_powf, 2, (0.5, 3.0), np.power),
}
F32_ONLY = {"rsqrt_rn", "fast_exp10f", "fast_powf"}
# the float64 reference sin(pi * x) is only accurate to an ulp of its argument near its zeros
ARGUMENT_SCALE = {"sinpi", "cospi", "lgamma"}


@pytest.mark.parametrize("dtype", FLOATS, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", list(APPROXIMATE))
def test_approximate(run: Any, name: str, dtype: Any) -> None:
    if dtype == np.float64 and name in F32_ONLY:
        pytest.skip("libdevice has no float64 version")
    fn, arity, (low, high), ref = APPROXIMATE[name]
    args = [_uniform(len(name) + i, low, high, dtype) for i in range(arity)]
    got = _call(run, fn, args, dtype)
    floor = 1.0 if name in ARGUMENT_SCALE else 0.0
    _close(got, ref(*(a.astype(np.float64) for a in args)), dtype, floor=floor)


@pytest.mark.parametrize("dtype", FLOATS, ids=lambda d: np.dtype(d).name)
def test_inverse_error_functions_round_trip(run: Any, dtype: Any) -> None:
    """``erf(erfinv(y)) == y``, ``erfc(erfcinv(z)) == z``, ``cdf(normcdfinv(p)) == p``."""
    y = np.concatenate([[0.0, -0.0, 1.0, -1.0, 1.5, np.nan], _uniform(1, -0.999, 0.999, dtype)])
    z = np.concatenate([[0.0, 2.0, 1.0, 2.5, -0.5, np.nan], _uniform(2, 0.001, 1.999, dtype)])
    p = np.concatenate([[0.0, 1.0, 0.5, 1.5, -0.5, np.nan], _uniform(3, 0.001, 0.999, dtype)])
    y, z, p = y.astype(dtype), z.astype(dtype), p.astype(dtype)

    def condition(v: np.ndarray) -> np.ndarray:
        """How much erf/erfc/cdf magnify a relative error of their argument (~2 v^2)."""
        return 4 * (1 + 2 * v.astype(np.float64) ** 2)

    x = _call(run, libdevice.erfinv, [y], dtype)
    _same(x[:6], [0.0, -0.0, np.inf, -np.inf, np.nan, np.nan])
    erf = _scalar(math.erf)(x[6:].astype(np.float64))
    _close(erf, y[6:].astype(np.float64), dtype, condition(x[6:]))
    w = _call(run, libdevice.erfcinv, [z], dtype)
    _same(w[:6], [np.inf, -np.inf, 0.0, np.nan, np.nan, np.nan])
    erfc = _scalar(math.erfc)(w[6:].astype(np.float64))
    _close(erfc, z[6:].astype(np.float64), dtype, condition(w[6:]))
    q = _call(run, libdevice.normcdfinv, [p], dtype)
    _same(q[:6], [-np.inf, np.inf, 0.0, np.nan, np.nan, np.nan])
    cdf = _scalar(statistics.NormalDist().cdf)(q[6:].astype(np.float64))
    _close(cdf, p[6:].astype(np.float64), dtype, condition(q[6:] / np.sqrt(2)))


def _remainder(x: float, y: float) -> float:
    try:
        return math.remainder(x, y)
    except ValueError:
        return math.nan


def _fdim(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return np.where(np.isnan(x) | np.isnan(y), np.nan, np.where(x > y, x - y, 0.0))


def _logb(x: float) -> float:
    if math.isnan(x) or math.isinf(x):
        return abs(x)
    return -math.inf if x == 0 else float(math.frexp(x)[1] - 1)


def _ilogb(x: float) -> int:
    if math.isnan(x) or x == 0:
        return -(2**31)
    return 2**31 - 1 if math.isinf(x) else math.frexp(x)[1] - 1


def _saturate(x: np.ndarray) -> np.ndarray:
    return np.where(np.isnan(x) | (x <= 0), 0.0, np.minimum(x, 1.0))  # -0.0 gives +0.0


# name -> (function, float64 reference of the float arguments, result dtype or None for the
# argument's): results are exact, special values included
EXACT_FLOAT: dict[str, tuple[Any, Callable[..., np.ndarray], Any]] = {
    "remainder": (libdevice.remainder, _scalar(_remainder), None),
    "fdim": (libdevice.fdim, _fdim, None),
    "nextafter": (libdevice.nextafter, None, None),  # in the argument's dtype, below
    "logb": (libdevice.logb, _scalar(_logb), None),
    "ilogb": (libdevice.ilogb, np.vectorize(_ilogb, otypes=[np.int64]), np.int32),
    "signbit": (libdevice.signbit, lambda x: np.signbit(x).astype(np.int32), np.int32),
    "saturatef": (libdevice.saturatef, _saturate, None),
    "nearbyint": (libdevice.nearbyint, np.rint, None),
    "add_rn": (libdevice.add_rn, None, None),
    "sub_rn": (libdevice.sub_rn, None, None),
    "mul_rn": (libdevice.mul_rn, None, None),
    "rcp_rn": (libdevice.rcp_rn, None, None),
}
IN_OWN_DTYPE: dict[str, Callable[..., np.ndarray]] = {
    "nextafter": np.nextafter,
    "add_rn": np.add,
    "sub_rn": np.subtract,
    "mul_rn": np.multiply,
    "rcp_rn": lambda x: np.ones_like(x) / x,
}


@pytest.mark.parametrize("dtype", FLOATS, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", list(EXACT_FLOAT))
def test_exact_float(run: Any, name: str, dtype: Any) -> None:
    fn, ref, out = EXACT_FLOAT[name]
    if dtype == np.float64 and name == "saturatef":
        pytest.skip("libdevice has no float64 version")
    arity = 2 if name in ("remainder", "fdim", "nextafter", "add_rn", "sub_rn", "mul_rn") else 1
    rng = np.random.default_rng(len(name))
    if arity == 1:
        args = [np.concatenate([SPECIAL, [1e-40, 5e-310, 3e38], rng.uniform(-9, 9, 33)])]
    else:
        grid = np.array(np.meshgrid(SPECIAL[:8], SPECIAL[:8])).reshape(2, -1)
        args = [np.concatenate([g, rng.uniform(-9, 9, N - g.size)]) for g in grid]
    args = [a.astype(dtype) for a in args]
    got = _call(run, fn, args, out or dtype)
    with np.errstate(all="ignore"):
        if name in IN_OWN_DTYPE:
            expected = IN_OWN_DTYPE[name](*args)
        else:
            expected = ref(*(a.astype(np.float64) for a in args))
    _same(got, expected)


def test_ldexp_scalbn_and_integer_powers(run: Any) -> None:
    x = np.array([1.0, -1.5, 3.0, 0.0, -0.0, np.inf, np.nan, 1e-30, 2.0, 0.75, 1e30, -3.0])
    n = np.array([3, -2, 200, 5, 5, -3, 1, -130, -149, 0, 10, 3], np.int32)
    for dtype in FLOATS:
        xs = x.astype(dtype)
        for fn in (libdevice.ldexp, libdevice.scalbn):
            with np.errstate(all="ignore"):
                _same(_call(run, fn, [xs, n], dtype), np.ldexp(xs, n))
        small = np.abs(n) % 5
        got = _call(run, libdevice.pow, [xs, small.astype(np.int32)], dtype)
        with np.errstate(all="ignore"):
            _close(got, np.power(xs.astype(np.float64), small), dtype)


def _bits(v: int, width: int) -> int:
    return v & ((1 << width) - 1)


def _signed(v: int, width: int) -> int:
    v = _bits(v, width)
    return v - (1 << width) if v >> (width - 1) else v


def _per_element(fn: Callable[..., int], *args: np.ndarray) -> list[int]:
    return [fn(*(int(a) for a in row)) for row in zip(*args, strict=True)]


INT_EDGES = {32: [0, 1, -1, 2, 0x7FFFFFFF, -(2**31), 0x00F0F000, 0x800000, 0xFFFFFF, -12345]}
INT_EDGES[64] = [*INT_EDGES[32], 2**63 - 1, -(2**63), 1 << 40, 0x0123456789ABCDEF]


def _ints(width: int, seed: int) -> np.ndarray:
    edges = INT_EDGES[width]
    rng = np.random.default_rng(seed)
    lo, hi = -(2 ** (width - 1)), 2 ** (width - 1) - 1
    return np.concatenate([edges, rng.integers(lo, hi, N - len(edges))]).astype(f"int{width}")


# name -> (function, reference on Python ints and the width)
INT_UNARY: dict[str, tuple[Any, Callable[[int, int], int]]] = {
    "clz": (libdevice.clz, lambda v, w: w - _bits(v, w).bit_length()),
    "popc": (libdevice.popc, lambda v, w: bin(_bits(v, w)).count("1")),
    "ffs": (libdevice.ffs, lambda v, w: (_bits(v, w) & -_bits(v, w)).bit_length()),
    "brev": (libdevice.brev, lambda v, w: _signed(int(f"{_bits(v, w):0{w}b}"[::-1], 2), w)),
}


@pytest.mark.parametrize("width", [32, 64])
@pytest.mark.parametrize("name", list(INT_UNARY))
def test_integer_bits(run: Any, name: str, width: int) -> None:
    fn, ref = INT_UNARY[name]
    x = _ints(width, len(name))
    out = np.int64 if name == "brev" and width == 64 else np.int32
    got = _call(run, fn, [x], out)
    np.testing.assert_array_equal(got, _per_element(lambda v: ref(v, width), x))


INT_BINARY: dict[str, tuple[Any, Callable[[int, int], int]]] = {
    "mulhi": (libdevice.mulhi, lambda a, b: (a * b) >> 32),
    "mul24": (libdevice.mul24, lambda a, b: _signed(_signed(a, 24) * _signed(b, 24), 32)),
    "hadd": (libdevice.hadd, lambda a, b: (a + b) >> 1),
    "rhadd": (libdevice.rhadd, lambda a, b: (a + b + 1) >> 1),
}


@pytest.mark.parametrize("name", list(INT_BINARY))
def test_integer_binary(run: Any, name: str) -> None:
    fn, ref = INT_BINARY[name]
    a, b = _ints(32, 1), np.roll(_ints(32, 2), 3)
    got = _call(run, fn, [a, b], np.int32)
    np.testing.assert_array_equal(got, _per_element(ref, a, b))


def test_mulhi_int64(run: Any) -> None:
    a, b = _ints(64, 3), np.roll(_ints(64, 4), 5)
    got = _call(run, libdevice.mulhi, [a, b], np.int64)
    np.testing.assert_array_equal(got, _per_element(lambda x, y: (x * y) >> 64, a, b))


def test_byte_perm(run: Any) -> None:
    """Byte n of the result is byte ``(s >> 4n) & 7`` of ``y:x`` (bit 3 of a selector unused)."""
    x = np.full(8, 0x33221100, np.int32)
    y = np.full(8, 0x77665544, np.int32)
    s = np.array([0x3210, 0x7654, 0x0123, 0x5140, 0x8888, 0xFFFF, 0x1234ABCD, 0], np.int32)

    def ref(xv: int, yv: int, sv: int) -> int:
        pool = (_bits(yv, 32) << 32) | _bits(xv, 32)
        out = 0
        for n in range(4):
            out |= ((pool >> (8 * ((sv >> (4 * n)) & 7))) & 0xFF) << (8 * n)
        return _signed(out, 32)

    got = _call(run, libdevice.byte_perm, [x, y, s], np.int32)
    np.testing.assert_array_equal(got, _per_element(ref, x, y, s))


def _to_int(
    rounding: Callable[[float], float], width: int, signed: bool, source: Any = np.float64
) -> Callable[..., int]:
    """Round, saturate to the range; an unsigned result as the signed same bits. NaN gives 0
    from float32 to 32 bits, else the top bit alone (as an H200 does)."""
    lo, hi = (-(2 ** (width - 1)), 2 ** (width - 1) - 1) if signed else (0, 2**width - 1)

    def convert(x: float) -> int:
        if math.isnan(x):
            return 0 if (source == np.float32 and width == 32) else -(2 ** (width - 1))
        r = min(max(rounding(x), lo), hi) if math.isfinite(x) else (hi if x > 0 else lo)
        return _signed(int(r), width)

    return convert


def _round_half_away(x: float) -> float:
    return math.copysign(math.floor(abs(x) + 0.5), x)


ROUNDINGS: dict[str, Callable[[float], float]] = {
    "rn": lambda x: float(round(x)),  # Python rounds ties to even
    "rz": math.trunc,
    "rd": math.floor,
    "ru": math.ceil,
}
CONVERSION_ARGS = [0.0, -0.0, 0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 2.7, -2.7, np.nan, np.inf, -np.inf]
CONVERSION_ARGS += [3e9, -3e9, 5e9, 1e19, -1e19, 4e19, 2147483647.5, -2147483648.75, 123456.4]


@pytest.mark.parametrize("mode", list(ROUNDINGS))
@pytest.mark.parametrize(
    ("name", "dtype", "width", "signed"),
    [
        ("float2int", np.float32, 32, True),
        ("double2int", np.float64, 32, True),
        ("float2uint", np.float32, 32, False),
        ("double2uint", np.float64, 32, False),
        ("float2ll", np.float32, 64, True),
        ("double2ll", np.float64, 64, True),
        ("float2ull", np.float32, 64, False),
        ("double2ull", np.float64, 64, False),
    ],
)
def test_float_to_int(run: Any, name: str, dtype: Any, width: int, signed: bool, mode: str) -> None:
    x = np.array(CONVERSION_ARGS, dtype)
    got = _call(run, getattr(libdevice, f"{name}_{mode}"), [x], f"int{width}")
    ref = _to_int(ROUNDINGS[mode], width, signed, dtype)
    np.testing.assert_array_equal(got, [ref(float(v)) for v in x])


@pytest.mark.parametrize("dtype", FLOATS, ids=lambda d: np.dtype(d).name)
def test_llrint_llround(run: Any, dtype: Any) -> None:
    x = np.array(CONVERSION_ARGS, dtype)
    got = _call(run, libdevice.llrint, [x], np.int64)
    np.testing.assert_array_equal(got, [_to_int(ROUNDINGS["rn"], 64, True)(float(v)) for v in x])
    got = _call(run, libdevice.llround, [x], np.int64)
    np.testing.assert_array_equal(got, [_to_int(_round_half_away, 64, True)(float(v)) for v in x])


def test_classification_and_double_halves(run: Any) -> None:
    x = SPECIAL.astype(np.float64)
    _same(_call(run, libdevice.isfinited, [x], np.int32), np.isfinite(x))
    _same(_call(run, libdevice.finitef, [x.astype(np.float32)], np.int32), np.isfinite(x))
    bits = x.view(np.int64)
    hi = _call(run, libdevice.double2hiint, [x], np.int32)
    lo = _call(run, libdevice.double2loint, [x], np.int32)
    np.testing.assert_array_equal(hi, (bits >> 32).astype(np.int32))
    np.testing.assert_array_equal(lo, bits.astype(np.int32))
    back = _call(run, libdevice.hiloint2double, [hi, lo], np.float64)
    np.testing.assert_array_equal(back.view(np.int64), bits)


def test_bit_reinterpretations(run: Any) -> None:
    f = SPECIAL.astype(np.float32)
    d = SPECIAL.astype(np.float64)
    _same(_call(run, libdevice.float_as_int, [f], np.int32), f.view(np.int32))
    _same(_call(run, libdevice.float_as_uint, [f], np.int32), f.view(np.int32))
    _same(_call(run, libdevice.int_as_float, [f.view(np.int32)], np.float32), f)
    _same(_call(run, libdevice.double_as_longlong, [d], np.int64), d.view(np.int64))
    _same(_call(run, libdevice.longlong_as_double, [d.view(np.int64)], np.float64), d)


def test_rn_conversions(run: Any) -> None:
    i = np.array([0, 1, -1, 2**31 - 1, -(2**31), 16777217, -16777219], np.int32)
    _same(_call(run, libdevice.int2float_rn, [i], np.float32), i.astype(np.float32))
    _same(_call(run, libdevice.int2double_rn, [i], np.float64), i.astype(np.float64))
    ll = i.astype(np.int64) * (2**31 + 1)
    _same(_call(run, libdevice.ll2float_rn, [ll], np.float32), ll.astype(np.float32))
    _same(_call(run, libdevice.ll2double_rn, [ll], np.float64), ll.astype(np.float64))
    d = np.array([1 + 2**-24, 1 + 3 * 2**-24, -(1 + 2**-24), 1e300, np.nan, -0.0])
    with np.errstate(all="ignore"):
        _same(_call(run, libdevice.double2float_rn, [d], np.float32), d.astype(np.float32))
    rz = np.array([1.0, 1 + 2**-23, -1.0, 3.4028234663852886e38, np.nan, -0.0], np.float32)
    _same(_call(run, libdevice.double2float_rz, [d], np.float32), rz)


def test_half_arguments_are_computed_in_float32(run: Any) -> None:
    x = _uniform(5, -100.0, 100.0, np.float16)
    y = _uniform(6, -100.0, 100.0, np.float16)
    got = _call(run, libdevice.hypot, [x, y], np.float16)
    ref = np.hypot(x.astype(np.float32), y.astype(np.float32)).astype(np.float16)
    np.testing.assert_array_equal(got, ref)


def test_the_cuda_module_is_the_same() -> None:
    assert cuda_libdevice.hypot is libdevice.hypot
    assert "popc" in libdevice.__all__ and "j0" in libdevice.__all__


@triton.jit
def _scalar_arguments(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, libdevice.hypot(x, 4.0) + libdevice.pow(x, 2))


def test_python_scalars_are_weakly_typed(run: Any) -> None:
    x = np.array([3.0, -3.0, 0.0, 1.5], np.float64)
    out = np.zeros_like(x)
    run(_scalar_arguments, (1,), x, out, BLOCK=4)
    np.testing.assert_allclose(out, np.hypot(x, 4.0) + x**2, rtol=1e-15)


@triton.jit
def _uses_jn(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, libdevice.jn(1, tl.load(x_ptr + offs)))


@triton.jit
def _uses_directed_add(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(x_ptr + offs, libdevice.add_rz(x, x))


@triton.jit
def _popc_of_float(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, libdevice.popc(tl.load(x_ptr + offs)))


@triton.jit
def _erfc_of_int(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, libdevice.erfc(tl.load(x_ptr + offs)))


@pytest.mark.parametrize(
    ("kernel", "dtype", "error", "message", "line"),
    [
        (_uses_jn, np.float32, KernelNameError, "libdevice.jn is not supported by mytriton", 3),
        (_uses_directed_add, np.float32, KernelNameError, "libdevice.add_rz is not supp", 4),
        (_popc_of_float, np.float32, KernelTypeError, "libdevice.popc expects int32 or int64", 3),
        (_erfc_of_int, np.int32, KernelTypeError, "libdevice.erfc expects float arguments", 3),
    ],
)
def test_errors_name_the_function_at_its_line(
    kernel: Any, dtype: Any, error: type, message: str, line: int
) -> None:
    x = np.zeros(4, dtype)
    with pytest.raises(error) as info:
        kernel[(1,)](x, BLOCK=4)
    assert message in str(info.value)
    first = kernel.fn.__code__.co_firstlineno
    assert info.value.loc.line == first + line  # type: ignore[attr-defined]


def _powi_by_squaring(x: np.floating, n: int) -> np.floating:
    """``x^n`` by repeated squaring, one rounding per product, in ``x``'s precision."""
    one = type(x)(1)
    result, base, e = one, x, abs(n)
    while e:
        if e & 1:
            result = type(x)(result * base)
        e >>= 1
        if e:
            base = type(x)(base * base)
    return result if n >= 0 else type(x)(one / result)


# (function, arguments, result) as an H200 computes them with libdevice (and real Triton)
MEASURED_ON_GPU: dict[str, tuple[Any, list[np.ndarray], np.ndarray]] = {
    "powi is repeated squaring": (
        libdevice.pow,
        [np.array([0.999, 1.5, -0.999], np.float32), np.array([85, -150, 116], np.int32)],
        np.array([0.91847485, 3.8575468e-27, 0.8904257], np.float32),
    ),
    "powi f64": (
        libdevice.pow,
        [np.array([0.001, -2.5]), np.array([-98, -149], np.int32)],
        np.array([1.000000000000001e294, -5.092589940836214e-60]),
    ),
    "NaN to int32 from float32": (
        libdevice.float2int_rn,
        [np.array([np.nan], np.float32)],
        np.array([0], np.int32),
    ),
    "NaN to int32 from float64": (
        libdevice.double2int_rz,
        [np.array([np.nan])],
        np.array([-(2**31)], np.int32),
    ),
    "NaN to int64": (libdevice.llrint, [np.array([np.nan], np.float32)], np.array([-(2**63)])),
    "saturatef of -0.0": (
        libdevice.saturatef,
        [np.array([-0.0], np.float32)],
        np.array([0.0], np.float32),
    ),
}


@pytest.mark.parametrize("case", list(MEASURED_ON_GPU))
def test_values_measured_on_a_gpu(run: Any, case: str) -> None:
    fn, args, expected = MEASURED_ON_GPU[case]
    got = _call(run, fn, args, expected.dtype)
    _same(got, expected)
    if fn is libdevice.pow:
        x, n = args
        squared = [_powi_by_squaring(a, int(k)) for a, k in zip(x, n, strict=True)]
        _same(np.array(squared, x.dtype), expected)
