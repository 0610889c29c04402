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


@triton.jit
def broadcast_product_kernel(
    z, x, y, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr, BM: tl.constexpr,
    BN: tl.constexpr, BK: tl.constexpr,
):  # fmt: skip
    """Triton's ``test_dot_mulbroadcasted``: a matmul written as a sum of a broadcast product."""
    pidm = tl.program_id(0)
    pidn = tl.program_id(1)
    offm = tl.arange(0, BM)[:, None]
    offn = tl.arange(0, BN)[None, :]
    offak = tl.arange(0, BK)[None, :]
    offbk = tl.arange(0, BK)[:, None]
    acc = tl.full((BM, BN), 0.0, tl.float32)
    for k in range(0, K // BK):
        a = tl.load(x + pidm * K * BM + offm * K + k * BK + offak)
        b = tl.load(y + pidn * BN + offbk * N + k * N * BK + offn)
        acc = tl.sum(tl.expand_dims(a, axis=2) * tl.expand_dims(b, axis=0), axis=1) + acc
    tl.store(z + pidm * BM * N + pidn * BN + offm * N + offn, acc)


def test_sum_of_broadcast_product_is_a_dot(run: Any) -> None:
    """The 128 x 32 x 32 product block would need 512 KiB of shared memory to reduce; as the
    dot it is (f32, ieee) the kernel compiles and computes the matmul to f32 accuracy."""
    m, n, k, bm, bn, bk = 256, 192, 160, 128, 32, 32
    rng = np.random.default_rng(17)
    a = rng.standard_normal((m, k)).astype(np.float32)
    b = rng.standard_normal((k, n)).astype(np.float32)
    out = np.zeros((m, n), np.float32)
    compiled = run(broadcast_product_kernel, (m // bm, n // bn), out, a, b, m, n, k, bm, bn, bk)
    assert "tt.dot" in compiled.asm["tt-opt"] and "tt.reduce" not in compiled.asm["tt-opt"]
    exact = a.astype(np.float64) @ b.astype(np.float64)
    np.testing.assert_allclose(out, exact, rtol=1e-5, atol=1e-4)
