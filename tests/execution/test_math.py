"""The math library (``tl.*`` math functions, ``tl.math`` and ``libdevice``) on every backend,
against NumPy in float64.

Transcendentals may differ from the correctly rounded result by a few ulp (CUDA's documented
bounds are at most 4 ulp for these, NumPy's own f32 kernels a little less), so they are checked
to ``ULPS`` ulp of the argument's dtype; rounding, classification, sign and remainder functions
are exact. f16 arguments are computed in f32 and rounded, so they are within one f16 ulp.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.language.extra import libdevice

pytestmark = pytest.mark.execution

N = 64
ULPS = 8


def _unary_kernel(fn: Callable[..., Any]) -> Any:
    @triton.jit
    def kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        tl.store(out_ptr + offs, fn(tl.load(x_ptr + offs)))

    return kernel


def _binary_kernel(fn: Callable[..., Any]) -> Any:
    @triton.jit
    def kernel(x_ptr, y_ptr, out_ptr, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        tl.store(out_ptr + offs, fn(tl.load(x_ptr + offs), tl.load(y_ptr + offs)))

    return kernel


@triton.jit
def fma_kernel(x_ptr, y_ptr, z_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x, y, z = tl.load(x_ptr + offs), tl.load(y_ptr + offs), tl.load(z_ptr + offs)
    tl.store(out_ptr + offs, tl.fma(x, y, z))


def _erf(x: np.ndarray) -> np.ndarray:
    return np.vectorize(math.erf, otypes=[np.float64])(x)


# name -> (function, float64 reference, (low, high) of the arguments)
UNARY: dict[str, tuple[Any, Callable[[np.ndarray], np.ndarray], tuple[float, float]]] = {
    "tl.erf": (tl.erf, _erf, (-3.0, 3.0)),
    "tl.sqrt_rn": (tl.sqrt_rn, np.sqrt, (0.0, 100.0)),
    "tl.math.erf": (tl.math.erf, _erf, (-3.0, 3.0)),
    "libdevice.rsqrt": (libdevice.rsqrt, lambda x: 1 / np.sqrt(x), (0.1, 100.0)),
    "libdevice.tanh": (libdevice.tanh, np.tanh, (-5.0, 5.0)),
    "libdevice.expm1": (libdevice.expm1, np.expm1, (-3.0, 3.0)),
    "libdevice.log1p": (libdevice.log1p, np.log1p, (-0.9, 10.0)),
    "libdevice.log10": (libdevice.log10, np.log10, (0.01, 1000.0)),
    "libdevice.tan": (libdevice.tan, np.tan, (-1.2, 1.2)),
    "libdevice.asin": (libdevice.asin, np.arcsin, (-0.99, 0.99)),
    "libdevice.acos": (libdevice.acos, np.arccos, (-0.99, 0.99)),
    "libdevice.atan": (libdevice.atan, np.arctan, (-10.0, 10.0)),
    "libdevice.sinh": (libdevice.sinh, np.sinh, (-4.0, 4.0)),
    "libdevice.cosh": (libdevice.cosh, np.cosh, (-4.0, 4.0)),
    "libdevice.asinh": (libdevice.asinh, np.arcsinh, (-10.0, 10.0)),
    "libdevice.acosh": (libdevice.acosh, np.arccosh, (1.01, 10.0)),
    "libdevice.atanh": (libdevice.atanh, np.arctanh, (-0.9, 0.9)),
    "libdevice.cbrt": (libdevice.cbrt, np.cbrt, (-100.0, 100.0)),
    "libdevice.fast_expf": (libdevice.fast_expf, np.exp, (-5.0, 5.0)),
    "libdevice.fast_logf": (libdevice.fast_logf, np.log, (0.01, 100.0)),
}
EXACT_UNARY: dict[str, tuple[Any, Callable[[np.ndarray], np.ndarray]]] = {
    "libdevice.trunc": (libdevice.trunc, np.trunc),
    "libdevice.round": (
        libdevice.round,
        lambda x: np.copysign(np.floor(np.abs(x) + 0.5), x),
    ),
    "libdevice.rint": (libdevice.rint, np.rint),
    "libdevice.floor": (libdevice.floor, np.floor),
    "libdevice.ceil": (libdevice.ceil, np.ceil),
    "libdevice.fabs": (libdevice.fabs, np.abs),
}
BINARY: dict[
    str, tuple[Any, Callable[[np.ndarray, np.ndarray], np.ndarray], tuple[float, float]]
] = {
    "libdevice.pow": (libdevice.pow, np.power, (0.1, 4.0)),
    "libdevice.atan2": (libdevice.atan2, np.arctan2, (-5.0, 5.0)),
    "libdevice.fast_dividef": (libdevice.fast_dividef, np.divide, (0.5, 8.0)),
    "tl.div_rn": (tl.div_rn, np.divide, (0.5, 8.0)),
}


def _fmin(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """C ``fmin`` as the GPU computes it (PTX ``min``): NaN ignored, ``-0.0 < +0.0``."""
    zeros = (x == 0) & (y == 0)
    return np.where(zeros, np.where(np.signbit(x) | np.signbit(y), -0.0, 0.0), np.fmin(x, y))


def _fmax(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """C ``fmax`` as the GPU computes it (PTX ``max``): NaN ignored, ``+0.0 > -0.0``."""
    zeros = (x == 0) & (y == 0)
    return np.where(zeros, np.where(np.signbit(x) & np.signbit(y), -0.0, 0.0), np.fmax(x, y))


EXACT_BINARY: dict[str, tuple[Any, Callable[[np.ndarray, np.ndarray], np.ndarray]]] = {
    "libdevice.copysign": (libdevice.copysign, np.copysign),
    "libdevice.fmod": (libdevice.fmod, np.fmod),
    "libdevice.fmin": (libdevice.fmin, _fmin),
    "libdevice.fmax": (libdevice.fmax, _fmax),
}
FLOATS = [np.float32, np.float64, np.float16]

# signed zeros, infinities, NaN, halfway cases and ordinary numbers
SPECIAL = np.array(
    [
        0.0,
        -0.0,
        np.inf,
        -np.inf,
        np.nan,
        0.5,
        -0.5,
        1.5,
        -1.5,
        2.5,
        -2.5,
        3.49,
        -3.51,
        7.0,
        -1e3,
        1e-3,
    ]
)


def _args(rng: np.random.Generator, dtype: Any, bounds: tuple[float, float]) -> np.ndarray:
    return rng.uniform(*bounds, N).astype(dtype)


def _close(got: np.ndarray, expected: np.ndarray, dtype: Any) -> None:
    eps = float(np.finfo(dtype).eps)
    ulps = 1 if dtype == np.float16 else ULPS
    scale = np.maximum(np.abs(expected), 1.0)  # results near 0 compare to the argument scale
    err = np.abs(got.astype(np.float64) - expected)
    bad = np.flatnonzero(~(err <= ulps * eps * scale))[:6]
    assert bad.size == 0, [(int(i), got[i], expected[i]) for i in bad]


def _same(got: np.ndarray, expected: np.ndarray) -> None:
    """Equal values, NaN where expected, the same sign on every non-NaN (zeros)."""
    same = np.where(
        np.isnan(expected),
        np.isnan(got),
        (got == expected) & (np.signbit(got) == np.signbit(expected)),
    )
    bad = np.flatnonzero(~same)[:6]
    assert bad.size == 0, [(int(i), got[i], expected[i]) for i in bad]


@pytest.mark.parametrize("dtype", FLOATS, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", list(UNARY))
def test_unary(run: Any, name: str, dtype: Any) -> None:
    fn, ref, bounds = UNARY[name]
    x = _args(np.random.default_rng(len(name)), dtype, bounds)
    out = np.zeros(N, dtype)
    run(_unary_kernel(fn), (1,), x, out, BLOCK=N)
    _close(out, ref(x.astype(np.float64)), dtype)


@pytest.mark.parametrize("dtype", FLOATS, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", list(EXACT_UNARY))
def test_exact_unary(run: Any, name: str, dtype: Any) -> None:
    fn, ref = EXACT_UNARY[name]
    rng = np.random.default_rng(1)
    x = np.concatenate([SPECIAL, rng.uniform(-20, 20, N - SPECIAL.size)]).astype(dtype)
    out = np.zeros(N, dtype)
    run(_unary_kernel(fn), (1,), x, out, BLOCK=N)
    with np.errstate(all="ignore"):
        _same(out, ref(x.astype(np.float64)).astype(dtype))


@pytest.mark.parametrize("dtype", FLOATS, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", list(BINARY))
def test_binary(run: Any, name: str, dtype: Any) -> None:
    fn, ref, bounds = BINARY[name]
    rng = np.random.default_rng(len(name))
    x, y = _args(rng, dtype, bounds), _args(rng, dtype, bounds)
    out = np.zeros(N, dtype)
    run(_binary_kernel(fn), (1,), x, y, out, BLOCK=N)
    _close(out, ref(x.astype(np.float64), y.astype(np.float64)), dtype)


@pytest.mark.parametrize("dtype", FLOATS, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", list(EXACT_BINARY))
def test_exact_binary(run: Any, name: str, dtype: Any) -> None:
    fn, ref = EXACT_BINARY[name]
    x = np.repeat(SPECIAL, SPECIAL.size)[:N].astype(dtype)
    y = np.tile(SPECIAL, SPECIAL.size)[:N].astype(dtype)
    rng = np.random.default_rng(2)
    x = np.concatenate([x, rng.uniform(-9, 9, N)]).astype(dtype)
    y = np.concatenate([y, rng.uniform(-9, 9, N)]).astype(dtype)
    out = np.zeros(2 * N, dtype)
    run(_binary_kernel(fn), (1,), x, y, out, BLOCK=2 * N)
    with np.errstate(all="ignore"):
        _same(out, ref(x, y).astype(dtype))


@pytest.mark.parametrize("name", ["isnan", "isinf"])
@pytest.mark.parametrize("dtype", FLOATS, ids=lambda d: np.dtype(d).name)
def test_classify_is_int32(run: Any, name: str, dtype: Any) -> None:
    """libdevice's ``isnan``/``isinf`` give int32 1 or 0, as ``__nv_isnanf`` does."""
    fn = getattr(libdevice, name)
    x = np.resize(SPECIAL, N).astype(dtype)
    out = np.full(N, 7, np.int32)
    run(_unary_kernel(fn), (1,), x, out, BLOCK=N)
    np.testing.assert_array_equal(out, getattr(np, name)(x).astype(np.int32))


@pytest.mark.parametrize("dtype", [np.float32, np.float16], ids=lambda d: np.dtype(d).name)
def test_fma_rounds_once(run: Any, dtype: Any) -> None:
    """``fma(x, y, -x*y)`` is the rounding error of ``x*y``: zero if the product were rounded."""
    rng = np.random.default_rng(3)
    x, y = rng.uniform(1, 2, N).astype(dtype), rng.uniform(1, 2, N).astype(dtype)
    z = -(x * y)
    out = np.zeros(N, dtype)
    run(fma_kernel, (1,), x, y, z, out, BLOCK=N)
    exact = x.astype(np.float64) * y.astype(np.float64) + z.astype(np.float64)
    np.testing.assert_array_equal(out, exact.astype(dtype))
    assert np.count_nonzero(out) > N // 4  # the product's rounding error is really kept


@triton.jit
def softmax_kernel(x_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr, DIM: tl.constexpr):
    rows = tl.arange(0, M)[:, None]
    cols = tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + rows * N + cols)
    tl.store(out_ptr + rows * N + cols, tl.softmax(x, DIM, keep_dims=True))


@pytest.mark.parametrize("dim", [0, 1])
def test_softmax(run: Any, dim: int) -> None:
    x = np.random.default_rng(4).uniform(-5, 5, (8, 16)).astype(np.float32)
    out = np.zeros_like(x)
    run(softmax_kernel, (1,), x, out, M=8, N=16, DIM=dim)
    e = np.exp(x.astype(np.float64) - x.max(axis=dim, keepdims=True))
    np.testing.assert_allclose(out, e / e.sum(axis=dim, keepdims=True), rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("dtype", [np.int32, np.int64], ids=lambda d: np.dtype(d).name)
def test_umulhi(run: Any, dtype: Any) -> None:
    """The high half of the product of the operands read as unsigned (both signs, extremes)."""
    info = np.iinfo(dtype)
    rng = np.random.default_rng(5)
    edges = [0, 1, -1, 2, info.max, info.min, info.max - 1, info.min + 1]
    x = np.concatenate([np.repeat(edges, 8), rng.integers(info.min, info.max, N, dtype)])
    y = np.concatenate([np.tile(edges, 8), rng.integers(info.min, info.max, N, dtype)])
    x, y = x.astype(dtype), y.astype(dtype)
    out = np.zeros(2 * N, dtype)
    run(_binary_kernel(tl.umulhi), (1,), x, y, out, BLOCK=2 * N)
    bits = np.dtype(dtype).itemsize * 8
    unsigned = [(int(a) % 2**bits) * (int(b) % 2**bits) >> bits for a, b in zip(x, y, strict=True)]
    np.testing.assert_array_equal(
        out, np.array(unsigned, np.uint64).astype(f"uint{bits}").view(dtype)
    )
