"""Float division as Triton 3.6 computes it on the GPU: ``/`` and ``tl.fdiv`` of f32 are PTX's
approximate ``div.full.f32`` (at most 2 ulp from the IEEE quotient, over the whole range);
``/`` of f16 or bf16 divides their f32 conversions the same way. ``tl.div_rn`` and
``tl.fdiv(..., ieee_rounding=True)`` are IEEE (``div.rn``), and so are f64 division and
``tl.fdiv`` of two halves (in their own dtype). The interpreter computes the exact quotient, as
Triton's does, and so does gpusim (within the instruction's 2 ulp): so on them every result is
the IEEE one, and on a GPU the approximate ones are checked within 2 ulp."""

from __future__ import annotations

import warnings
from typing import Any

import ml_dtypes
import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl

pytestmark = pytest.mark.execution

N = 64
EXACT_BACKENDS = ("interpreter", "gpusim")


@triton.jit
def division_kernel(x, y, out, BLOCK: tl.constexpr):
    """``out``: ``a / b``, ``tl.fdiv(a, b)``, ``tl.div_rn(a, b)``, ``fdiv(ieee_rounding=True)``."""
    offs = tl.arange(0, BLOCK)
    a = tl.load(x + offs)
    b = tl.load(y + offs)
    tl.store(out + offs, (a / b).to(tl.float32))
    tl.store(out + BLOCK + offs, tl.fdiv(a, b).to(tl.float32))
    tl.store(out + 2 * BLOCK + offs, tl.div_rn(a, b).to(tl.float32))
    tl.store(out + 3 * BLOCK + offs, tl.fdiv(a, b, ieee_rounding=True).to(tl.float32))


def _divide(run: Any, a: np.ndarray, b: np.ndarray) -> list[np.ndarray]:
    out = np.full(4 * a.size, np.nan, np.float32)
    run(division_kernel, (1,), a, b, out, BLOCK=a.size, num_warps=1)
    return [out[k * a.size : (k + 1) * a.size] for k in range(4)]


def _within_two_ulp(got: np.ndarray, exact: np.ndarray) -> None:
    """``got`` (f32) is at most 2 ulp of f32 from ``exact`` (f64), and equal where not finite."""
    finite = np.isfinite(exact)
    np.testing.assert_array_equal(got[~finite], exact[~finite].astype(np.float32))
    ulp = np.spacing(np.abs(exact[finite]).astype(np.float32)).astype(np.float64)
    err = np.abs(got[finite].astype(np.float64) - exact[finite])
    assert np.all(err <= 2 * ulp), np.max(err / ulp)


def _operands(dtype: Any, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Quotients whose f32 roundings are awkward: random mantissas over a wide range of
    exponents, and 4.6875 / 0.9375 (5 exactly; triton-lang/triton#10661 reports one ulp above 5 from ``div.full.f32``)."""
    rng = np.random.default_rng(seed)
    top = 60.0 if dtype == np.float32 else 10.0
    a = (rng.uniform(1, 2, N) * np.exp2(rng.integers(-top, top, N))).astype(dtype)
    b = (rng.uniform(1, 2, N) * np.exp2(rng.integers(-top, top, N))).astype(dtype)
    a *= np.where(rng.random(N) < 0.5, -1, 1).astype(dtype)
    a[:2], b[:2] = np.array([4.6875, 1.0], dtype), np.array([0.9375, 3.0], dtype)
    return a, b


@pytest.mark.parametrize("dtype", [np.float32, np.float16, ml_dtypes.bfloat16], ids=str)
def test_slash_and_fdiv_approximate_div_rn_is_ieee(run: Any, dtype: Any) -> None:
    a, b = _operands(dtype, seed=1)
    slash, fdiv, rn, ieee = _divide(run, a, b)
    exact = a.astype(np.float64) / b.astype(np.float64)
    ieee_f32 = (a.astype(np.float32) / b.astype(np.float32)).astype(np.float32)
    _within_two_ulp(slash, exact)  # / divides in f32 (halves converted exactly)
    if dtype == np.float32:
        _within_two_ulp(fdiv, exact)
        np.testing.assert_array_equal(rn, ieee_f32)
        np.testing.assert_array_equal(ieee, ieee_f32)
        assert rn[0] == 5.0
    else:  # tl.fdiv and div_rn of two halves divide in their dtype, rounded once (IEEE)
        in_dtype = (a / b).astype(dtype).astype(np.float32)
        for got in (fdiv, rn, ieee):
            np.testing.assert_array_equal(got, in_dtype)
    if run.backend in EXACT_BACKENDS:  # the exact quotient, as Triton's interpreter
        np.testing.assert_array_equal(slash, ieee_f32)


def test_f32_special_values(run: Any) -> None:
    """IEEE's special cases on every path, and divisors beyond 2**126 (where
    ``div.approx.f32`` would give 0, ``div.full.f32`` scales the operands) or subnormal."""
    big, sub = 2.0**127, 2.0**-130
    a = np.array(
        [1.0, -1.0, 0.0, -0.0, 0.0, np.inf, np.inf, -5.0, np.nan, 2.0**100, 3.0, 2.0**-100, 6.0],
        np.float32,
    )
    b = np.array(
        [0.0, 0.0, 0.0, 3.0, -np.inf, np.inf, -2.0, np.inf, 1.0, big, big, sub, -3.0],
        np.float32,
    )
    want = np.array(
        [
            np.inf,
            -np.inf,
            np.nan,
            -0.0,
            -0.0,
            np.nan,
            -np.inf,
            -0.0,
            np.nan,
            2.0**-27,
            3.0 * 2.0**-127,
            2.0**30,
            -2.0,
        ],
        np.float32,
    )
    a, b, want = (np.resize(v, N) for v in (a, b, want))
    numbers = ~np.isnan(want)
    with np.errstate(divide="ignore", invalid="ignore"):
        exact = a.astype(np.float64) / b.astype(np.float64)
    for k, got in enumerate(_divide(run, a, b)):
        assert np.array_equal(np.isnan(got), ~numbers), k
        assert np.array_equal(np.signbit(got[numbers]), np.signbit(want[numbers])), k
        if k < 2 and run.backend not in EXACT_BACKENDS:
            _within_two_ulp(got[numbers], exact[numbers])
        else:
            np.testing.assert_array_equal(got, want)


@triton.jit
def one_division_kernel(x, y, out, HOW: tl.constexpr, BLOCK: tl.constexpr):
    """One division of each kind, for the PTX tests (``tests/cuda``, ``tests/mlir``)."""
    offs = tl.arange(0, BLOCK)
    a = tl.load(x + offs)
    b = tl.load(y + offs)
    if HOW == "slash":
        q = a / b
    elif HOW == "fdiv":
        q = tl.fdiv(a, b)
    elif HOW == "div_rn":
        q = tl.div_rn(a, b)
    else:
        q = tl.fdiv(a, b, ieee_rounding=True)
    tl.store(out + offs, q)


# (how, operand dtype) -> the one PTX division instruction each element gets
PTX_DIVISION = {
    ("slash", "float32"): "div.full.f32",
    ("fdiv", "float32"): "div.full.f32",
    ("div_rn", "float32"): "div.rn.f32",
    ("ieee", "float32"): "div.rn.f32",
    ("slash", "float16"): "div.full.f32",
    ("slash", "float64"): "div.rn.f64",
    ("fdiv", "float64"): "div.rn.f64",
}


def warmup_one_division(how: str, dtype: str) -> Any:
    """``one_division_kernel`` compiled (not run) for 128 elements, one a thread."""
    x = np.ones(128, dtype)
    out = np.ones(128, np.float32 if how == "slash" and dtype == "float16" else dtype)
    one_division_kernel.clear_cache()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # NumPy arguments: compiled, not run
        return one_division_kernel.warmup(x, x, out, grid=(1,), HOW=how, BLOCK=128)


@triton.jit
def f64_division_kernel(x, y, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(x + offs)
    b = tl.load(y + offs)
    tl.store(out + offs, a / b)
    tl.store(out + BLOCK + offs, tl.fdiv(a, b))


def test_f64_division_stays_ieee(run: Any) -> None:
    rng = np.random.default_rng(2)
    a, b = rng.normal(0, 1e3, N), rng.normal(0, 1e-3, N)
    out = np.zeros(2 * N)
    run(f64_division_kernel, (1,), a, b, out, BLOCK=N, num_warps=1)
    np.testing.assert_array_equal(out, np.concatenate([a / b, a / b]))
