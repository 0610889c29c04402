"""Kernels launched with ``@jit``/launch options give the same values on every backend:
``repr=`` (the kernel renamed), ``do_not_specialize`` (1 and multiples of 16 passed at run
time), ``maxnreg`` and ``enable_fp_fusion``."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl

pytestmark = pytest.mark.execution


@triton.jit(repr=lambda spec: f"axpb_{spec.signature['a']}", do_not_specialize=["a", "b"])
def axpb(X, Y, a, b, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(X + offs, mask=mask)
    tl.store(Y + offs, x * a + b, mask=mask)


@pytest.mark.parametrize("a, b", [(1, 16), (3, 1), (16, 32)])
def test_do_not_specialize_and_repr(run: Any, a: int, b: int) -> None:
    x = np.arange(10, dtype=np.int32)
    y = np.zeros(10, np.int32)
    kernel = run(axpb, (1,), x, y, a, b, 10, BLOCK=16)
    np.testing.assert_array_equal(y, x * a + b)
    assert kernel.name == "axpb_i32"


@triton.jit
def mul_add(X, Y, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(Y + offs, tl.load(X + offs) * 1.5 + 1.0)


@pytest.mark.parametrize("fusion", [False, True])
def test_maxnreg_and_fp_fusion(run: Any, fusion: bool) -> None:
    if run.backend == "mlir" and not fusion:
        pytest.skip("the mlir backend refuses enable_fp_fusion=False (tests/runtime)")
    rng = np.random.default_rng(0)
    x = rng.standard_normal(64).astype(np.float32)
    y = np.zeros(64, np.float32)
    run(mul_add, (1,), x, y, BLOCK=64, maxnreg=64, enable_fp_fusion=fusion)
    expected = x.astype(np.float64) * 1.5 + 1.0  # fused or not: within one f32 rounding step
    np.testing.assert_allclose(y, expected, rtol=2e-7, atol=1e-7)
