"""``tl.dot(a, b, acc) + c`` on every backend, against a float64 NumPy reference.

Canonicalization folds ``dot(a, b, 0) + c`` into ``dot(a, b, c)`` (the K-loop idiom ``acc +
tl.dot(a, b)``). That is only exact for a zero accumulator: with any other ``acc`` the fold would
drop it. The interpreter runs the same canonicalized `tt` as the GPU backends, so only the NumPy
reference can tell.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from tests.dot_precision import f32_dot_tol
from tests.gpusim.util import nans, randn

pytestmark = pytest.mark.execution

BM, BN, BK = 16, 32, 16


@triton.jit
def dot_acc_plus_kernel(
    a,
    b,
    c,
    out,
    ACC: tl.constexpr,
    C_FIRST: tl.constexpr,
    BM: tl.constexpr,
    BN: tl.constexpr,
    BK: tl.constexpr,
):
    """``out = dot(a, b, full(ACC)) + c`` (or ``c + dot(...)``) with a compile-time ``ACC``."""
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a_tile = tl.load(a + rm[:, None] * BK + rk[None, :])
    b_tile = tl.load(b + rk[:, None] * BN + rn[None, :])
    c_tile = tl.load(c + rm[:, None] * BN + rn[None, :])
    d = tl.dot(a_tile, b_tile, tl.full((BM, BN), ACC, tl.float32))
    result = c_tile + d if C_FIRST else d + c_tile
    tl.store(out + rm[:, None] * BN + rn[None, :], result)


@triton.jit
def dot_runtime_acc_plus_kernel(
    a, b, c, out, fill, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr
):
    """The accumulator filled with a runtime scalar: not provably zero."""
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a_tile = tl.load(a + rm[:, None] * BK + rk[None, :])
    b_tile = tl.load(b + rk[:, None] * BN + rn[None, :])
    c_tile = tl.load(c + rm[:, None] * BN + rn[None, :])
    acc = tl.full((BM, BN), fill, tl.float32)
    tl.store(out + rm[:, None] * BN + rn[None, :], tl.dot(a_tile, b_tile, acc) + c_tile)


def _inputs(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    return randn(rng, BM, BK), randn(rng, BK, BN), randn(rng, BM, BN), nans(BM, BN)


def _reference(a: np.ndarray, b: np.ndarray, c: np.ndarray, acc: float) -> np.ndarray:
    return a.astype(np.float64) @ b.astype(np.float64) + acc + c.astype(np.float64)


@pytest.mark.parametrize("c_first", [False, True], ids=["dot+c", "c+dot"])
@pytest.mark.parametrize("acc", [0.0, 1.0, -2.5])
def test_constant_accumulator_is_kept(run: Any, acc: float, c_first: bool) -> None:
    a, b, c, out = _inputs(7)
    run(dot_acc_plus_kernel, (1,), a, b, c, out, ACC=acc, C_FIRST=c_first, BM=BM, BN=BN, BK=BK)
    np.testing.assert_allclose(out, _reference(a, b, c, acc), **f32_dot_tol(run.backend, BK))


@pytest.mark.parametrize("fill", [0.0, 1.0])
def test_runtime_accumulator_is_kept(run: Any, fill: float) -> None:
    a, b, c, out = _inputs(8)
    run(dot_runtime_acc_plus_kernel, (1,), a, b, c, out, fill, BM=BM, BN=BN, BK=BK)
    np.testing.assert_allclose(out, _reference(a, b, c, fill), **f32_dot_tol(run.backend, BK))
