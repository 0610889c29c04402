"""``tl.exp2`` as Triton computes it on the GPU: PTX ``ex2.approx.ftz.f32`` (f16 and bf16 through
f32; f64 keeps the math library). Its error is a couple of ulp and it flushes subnormal results
to zero, on both GPU backends and in gpusim; the interpreter computes NumPy's ``exp2``, as
Triton's interpreter does. ``nvvm_intrinsics.py`` says why."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl

pytestmark = pytest.mark.execution

TINY = float(np.finfo(np.float32).tiny)  # 2**-126


@triton.jit
def exp2_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.exp2(tl.load(x_ptr + offs)))


def _exp2(run: Any, x: np.ndarray) -> np.ndarray:
    out = np.full_like(x, np.nan)
    run(exp2_kernel, (1,), x, out, BLOCK=x.size)
    return out


def test_f32_within_two_ulp(run: Any) -> None:
    rng = np.random.default_rng(0)
    x = rng.uniform(-120.0, 120.0, 256).astype(np.float32)
    got = _exp2(run, x)
    want = np.exp2(x.astype(np.float64))
    ulp = np.spacing(want.astype(np.float32)).astype(np.float64)
    assert np.all(np.abs(got - want) <= 2 * ulp), np.max(np.abs(got - want) / ulp)


def test_special_values(run: Any) -> None:
    x = np.array([0.0, -0.0, 128.0, 1000.0, np.inf, -np.inf, -1e30, np.nan] * 8, np.float32)
    got = _exp2(run, x)
    want = np.array([1.0, 1.0, np.inf, np.inf, np.inf, 0.0, 0.0, np.nan] * 8, np.float32)
    np.testing.assert_array_equal(got, want)
    assert not np.any(np.signbit(got[~np.isnan(got)]))


def test_subnormal_results_flush_to_zero_on_the_gpu(run: Any) -> None:
    x = np.array([-126.0, -127.0, -140.0, -149.0, -200.0, -1e30, -126.0, -127.0] * 16, np.float32)
    got = _exp2(run, x)
    assert got[0] == TINY  # the smallest normal stays
    if run.backend == "interpreter":  # NumPy's exp2, as Triton's interpreter
        np.testing.assert_array_equal(got, np.exp2(x))
    else:  # ex2.approx.ftz.f32
        assert np.all(got[1:6] == 0.0) and np.all(got[7:8] == 0.0) and not np.any(np.signbit(got))


@pytest.mark.parametrize("dtype", [np.float16, "bfloat16", np.float64])
def test_other_float_types(run: Any, dtype: Any) -> None:
    if dtype == "bfloat16":
        ml_dtypes = pytest.importorskip("ml_dtypes")
        dtype = ml_dtypes.bfloat16
    x = np.linspace(-14.0, 15.0, 128).astype(dtype)
    got = _exp2(run, x).astype(np.float64)
    want = np.exp2(x.astype(np.float64))
    rtol = {np.float64: 1e-15}.get(dtype, float(np.finfo(dtype).eps))
    np.testing.assert_allclose(got, want, rtol=rtol)
