"""``tl.exp``, ``tl.sqrt``, ``tl.rsqrt`` and ``tl.sigmoid`` as Triton 3.6 computes them on the
GPU: f32 ``exp(x)`` is ``ex2.approx.f32(x * log2(e))`` (the product rounded to f32; within
``2 + floor(|1.173 x|)`` ulp, CUDA's bound for ``__expf``, the same two instructions),
``sqrt`` is ``sqrt.approx.ftz.f32`` (1 ulp), ``rsqrt`` ``rsqrt.approx.ftz.f32`` (2 ulp); their
``.ftz`` flushes a subnormal argument to zero unless ``enable_reflect_ftz=False``.
``tl.sqrt_rn`` stays IEEE everywhere. f16/bf16 go through f32 and are rounded once; f64 keeps
the math library. The interpreter computes exactly (NumPy), as Triton's does; gpusim computes
the instructions as the GPU does up to their last bits: the f32 product by log2(e) exactly,
the power and the roots correctly rounded. So a GPU is checked within the documented bounds,
and gpusim against its model exactly."""

from __future__ import annotations

import warnings
from typing import Any

import ml_dtypes
import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.dialects.nvgpu.nvvm_intrinsics import LOG2E

pytestmark = pytest.mark.execution

N = 64
SUB = 2.0**-140  # a subnormal f32


@triton.jit
def math_kernel(x, out, BLOCK: tl.constexpr):
    """``out``: ``exp``, ``sqrt``, ``rsqrt``, ``sqrt_rn`` and ``sigmoid`` of ``x``, in f32."""
    offs = tl.arange(0, BLOCK)
    a = tl.load(x + offs)
    tl.store(out + offs, tl.exp(a).to(tl.float32))
    tl.store(out + BLOCK + offs, tl.sqrt(a).to(tl.float32))
    tl.store(out + 2 * BLOCK + offs, tl.rsqrt(a).to(tl.float32))
    tl.store(out + 3 * BLOCK + offs, tl.sqrt_rn(a).to(tl.float32))
    tl.store(out + 4 * BLOCK + offs, tl.sigmoid(a).to(tl.float32))


def _compute(run: Any, a: np.ndarray, **options: Any) -> list[np.ndarray]:
    out = np.full(5 * a.size, np.nan, np.float32)
    run(math_kernel, (1,), a, out, BLOCK=a.size, num_warps=1, **options)
    return [out[k * a.size : (k + 1) * a.size] for k in range(5)]


def _within(got: np.ndarray, exact: np.ndarray, ulps: np.ndarray | float, dtype: Any) -> None:
    """``got`` within ``ulps`` ulp (of ``dtype``, at the exact value) of ``exact`` (f64), and
    equal where ``exact`` is not finite."""
    finite = np.isfinite(exact)
    np.testing.assert_array_equal(got[~finite], exact[~finite].astype(np.float32))
    ulp = np.spacing(np.abs(exact[finite]).astype(dtype)).astype(np.float64)
    err = np.abs(got[finite].astype(np.float64) - exact[finite])
    bound = np.broadcast_to(ulps, exact.shape)[finite] * ulp
    assert np.all(err <= bound), np.max(err / ulp)


def _arguments(dtype: Any) -> np.ndarray:
    """Random magnitudes over the range where exp is finite in ``dtype``, both signs, and
    special values."""
    rng = np.random.default_rng(7)
    top = 85.0 if dtype == np.float32 else 10.0
    a = rng.uniform(-top, top, N)
    a[:8] = [0.0, -0.0, 1.0, 0.5, np.inf, -np.inf, np.nan, 4.0]
    return a.astype(dtype)


def _exact(a: np.ndarray) -> list[np.ndarray]:
    x = a.astype(np.float64)
    with np.errstate(all="ignore"):
        return [np.exp(x), np.sqrt(x), 1 / np.sqrt(x), np.sqrt(x), 1 / (1 + np.exp(-x))]


def test_f32_within_the_instruction_bounds(run: Any) -> None:
    a = _arguments(np.float32)
    exp, sqrt, rsqrt, sqrt_rn, sigmoid = _compute(run, a)
    want = _exact(a)
    x = np.abs(np.where(np.isfinite(a), a, 0).astype(np.float64))
    _within(exp, want[0], 2 + np.floor(1.173 * x), np.float32)
    _within(sqrt, want[1], 1, np.float32)
    _within(rsqrt, want[2], 2, np.float32)
    np.testing.assert_array_equal(sqrt_rn, want[3].astype(np.float32))  # IEEE everywhere
    # 1 / (1 + e): e's bound (shrunk by e / (1 + e)), the sum's half ulp, the quotient's 2 ulp
    _within(sigmoid, want[4], 5 + np.floor(1.173 * x), np.float32)
    assert exp[0] == exp[1] == 1.0 and np.signbit(sqrt[1])
    if run.backend == "gpusim":  # the GPU's two steps: the product rounded to f32, then 2**p
        p = a * np.float32(LOG2E)
        with np.errstate(over="ignore"):
            np.testing.assert_array_equal(exp, np.exp2(p))
    if run.backend in ("interpreter", "gpusim"):  # the correctly rounded root
        np.testing.assert_array_equal(sqrt, want[1].astype(np.float32))
    if run.backend == "gpusim":  # rounded once (the interpreter's 1 / sqrt rounds twice)
        np.testing.assert_array_equal(rsqrt, want[2].astype(np.float32))


def test_exp_keeps_the_product_rounding(run: Any) -> None:
    """``exp(85)``: 85 * log2(e) rounded to f32 is 4.4e-6 below the exact product, so the GPU's
    (and gpusim's) exp is 3.0e-6 relative (39 ulp) below ``e**85``: bit for bit Triton's, within
    ``__expf``'s bound; the interpreter's is the exact one, as Triton's interpreter."""
    a = np.full(N, 85.0, np.float32)
    exp = _compute(run, a)[0]
    exact = np.float32(np.exp(85.0))
    if run.backend == "interpreter":
        assert exp[0] == exact
    else:
        ulps = (np.float64(exact) - exp[0]) / np.spacing(exact)
        assert 30 <= ulps <= 2 + np.floor(1.173 * 85), ulps


@pytest.mark.parametrize("ftz", [True, False])
def test_subnormal_arguments(run: Any, ftz: bool) -> None:
    """``.ftz``: ``sqrt`` and ``rsqrt`` of a subnormal are those of zero (Triton's default);
    ``enable_reflect_ftz=False`` keeps it. ``exp`` keeps subnormal results either way
    (Triton's ``ex2.approx.f32``), ``sqrt_rn`` is IEEE either way."""
    a = np.resize(np.array([SUB, -SUB, -103.0], np.float32), N)
    exp, sqrt, rsqrt, sqrt_rn, _ = _compute(run, a, enable_reflect_ftz=ftz)
    flushed = ftz and run.backend != "interpreter"
    want_sqrt = [0.0, -0.0] if flushed else [2.0**-70, np.nan]
    want_rsqrt = [np.inf, -np.inf] if flushed else [2.0**70, np.nan]
    np.testing.assert_array_equal(sqrt[:2], np.array(want_sqrt, np.float32))
    np.testing.assert_array_equal(rsqrt[:2], np.array(want_rsqrt, np.float32))
    np.testing.assert_array_equal(sqrt_rn[:2], np.array([2.0**-70, np.nan], np.float32))
    assert 0 < exp[2] < np.finfo(np.float32).tiny  # e**-103 is subnormal: kept
    _within(exp[2:3], np.exp(np.array([-103.0])), 2 + np.floor(1.173 * 103), np.float32)


@pytest.mark.parametrize("dtype", [np.float16, ml_dtypes.bfloat16], ids=str)
def test_halves_through_f32_within_one_ulp(run: Any, dtype: Any) -> None:
    """Computed in f32 and rounded once to the half: within one ulp of the half (the f32
    errors are far below it), and the IEEE root is the correctly rounded half. ``sigmoid``
    rounds ``exp(-x)`` and ``1 + exp(-x)`` to the half (its operations' dtype) first."""
    a = _arguments(dtype)
    got = _compute(run, a)
    want = _exact(a)
    # sigmoid rounds exp(-x) and 1 + exp(-x) to the half before dividing, and the
    # interpreter's rsqrt (NumPy's 1 / sqrt in the half) rounds twice: 2 ulp
    rsqrt_ulps = 2 if run.backend == "interpreter" else 1
    for k, ulps in ((0, 1), (1, 1), (2, rsqrt_ulps), (4, 2)):
        _within(got[k], want[k], ulps, dtype)
    np.testing.assert_array_equal(got[3], want[3].astype(dtype).astype(np.float32))


@triton.jit
def f64_kernel(x, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(x + offs)
    tl.store(out + offs, tl.exp(a))
    tl.store(out + BLOCK + offs, tl.sqrt(a))
    tl.store(out + 2 * BLOCK + offs, tl.sqrt_rn(a))


def test_f64_keeps_the_math_library(run: Any) -> None:
    """f64 ``exp`` is libdevice's (1 ulp), ``sqrt`` and ``sqrt_rn`` IEEE ``sqrt.rn.f64``."""
    a = np.random.default_rng(3).uniform(0, 700, N)
    out = np.zeros(3 * N)
    run(f64_kernel, (1,), a, out, BLOCK=N, num_warps=1)
    np.testing.assert_allclose(out[:N], np.exp(a), rtol=4e-16)
    np.testing.assert_array_equal(out[N:], np.concatenate([np.sqrt(a), np.sqrt(a)]))


@triton.jit
def one_function_kernel(x, out, FN: tl.constexpr, BLOCK: tl.constexpr):
    """One function of ``x``, for the PTX tests (``tests/cuda``, ``tests/mlir``)."""
    a = tl.load(x + tl.arange(0, BLOCK))
    if FN == "exp":
        r = tl.exp(a)
    elif FN == "exp2":
        r = tl.exp2(a)
    elif FN == "sqrt":
        r = tl.sqrt(a)
    elif FN == "rsqrt":
        r = tl.rsqrt(a)
    elif FN == "sqrt_rn":
        r = tl.sqrt_rn(a)
    else:
        r = tl.sigmoid(a)
    tl.store(out + tl.arange(0, BLOCK), r)


# (function, dtype, enable_reflect_ftz) -> the PTX math instructions of one element (exp: after
# a mul.f32 by 0f3FB8AA3B), as Triton 3.6 emits them for sm_90
PTX_MATH = {
    ("exp", "float32", True): ["ex2.approx.f32"],
    ("exp", "float32", False): ["ex2.approx.f32"],
    ("exp", "float16", True): ["ex2.approx.f32"],
    ("exp2", "float32", True): ["ex2.approx.ftz.f32"],
    ("exp2", "float32", False): ["ex2.approx.f32"],
    ("sqrt", "float32", True): ["sqrt.approx.ftz.f32"],
    ("sqrt", "float32", False): ["sqrt.approx.f32"],
    ("sqrt", "float16", True): ["sqrt.approx.ftz.f32"],
    ("sqrt", "float64", True): ["sqrt.rn.f64"],
    ("rsqrt", "float32", True): ["rsqrt.approx.ftz.f32"],
    ("rsqrt", "float32", False): ["rsqrt.approx.f32"],
    ("rsqrt", "float64", True): ["rsqrt.approx.f64"],
    ("sqrt_rn", "float32", True): ["sqrt.rn.f32"],
    ("sqrt_rn", "float32", False): ["sqrt.rn.f32"],
    ("sqrt_rn", "float64", True): ["sqrt.rn.f64"],
    ("sigmoid", "float32", True): ["ex2.approx.f32", "div.full.f32"],
}
PTX_MATH_IDS = [f"{f}-{d}-{'ftz' if z else 'noftz'}" for f, d, z in PTX_MATH]
# the instructions PTX_MATH lists, as found in a PTX file
PTX_MATH_PATTERN = r"\b(?:ex2|sqrt|rsqrt|div)\.[\w.]+"
# exp's multiplication by log2(e) rounded to f32
PTX_LOG2E_PATTERN = r"\bmul(?:\.rn)?\.f32\s+%\w+, %\w+, 0f3FB8AA3B;"


def warmup_one_function(fn: str, dtype: str, ftz: bool) -> Any:
    """``one_function_kernel`` compiled (not run) for 128 elements, one a thread."""
    x = np.ones(128, dtype)
    one_function_kernel.clear_cache()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # NumPy arguments: compiled, not run
        return one_function_kernel.warmup(x, x, grid=(1,), FN=fn, BLOCK=128, enable_reflect_ftz=ftz)
