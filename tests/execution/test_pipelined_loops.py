"""K loops whose dot operands ``tt-pipeline`` loads one iteration early, on every backend.

The pass is switched on for these tests (``MYTRITON_PIPELINE``; it is not in the default
pipeline). Each kernel runs with the default ``num_stages`` (rotated: the test checks the `tt`
IR carries the prefetched tiles) and with ``num_stages=1`` (as written); both must give NumPy's
answer,
for loops of zero, one and several trips, masked K tails, ``other`` values that matter, and
pointers advanced by amounts that depend on the iteration.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.passes.pipeline import PIPELINED

pytestmark = pytest.mark.execution


@pytest.fixture(autouse=True)
def with_tt_pipeline(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MYTRITON_PIPELINE", PIPELINED)


@triton.jit
def k_loop_kernel(
    a, b, c, M, N, K, OTHER: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr
):
    """``c = a @ b`` with K tiles loaded under a mask whose tail reads ``OTHER`` (a K tail
    filled with 1s on A and 0s on B leaves the product unchanged only if ``other`` is honoured
    on both)."""
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a_ptrs = a + rm[:, None] * K + rk[None, :]
    b_ptrs = b + rk[:, None] * N + rn[None, :]
    acc = tl.zeros((BM, BN), tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        left = K - k * BK
        x = tl.load(a_ptrs, mask=(rm[:, None] < M) & (rk[None, :] < left), other=OTHER)
        y = tl.load(b_ptrs, mask=(rk[:, None] < left) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(x, y, acc)
        a_ptrs += BK
        b_ptrs += BK * N
    tl.store(c + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def growing_step_kernel(a, b, c, STEPS, BM: tl.constexpr, BK: tl.constexpr):
    """Iteration ``k`` reads the K tile starting at ``k * (k + 1) / 2 * BK`` (pointers advanced
    by ``(k + 1) * BK``: the next pointer depends on the induction variable)."""
    rm = tl.arange(0, BM)
    rk = tl.arange(0, BK)
    a_ptrs = a + rm[:, None] * (BK * 64) + rk[None, :]
    b_ptrs = b + rk[:, None] * BM + rm[None, :]
    acc = tl.zeros((BM, BM), tl.float32)
    for k in range(0, STEPS):
        acc = tl.dot(tl.load(a_ptrs), tl.load(b_ptrs), acc)
        a_ptrs += (k + 1) * BK
        b_ptrs += (k + 1) * BK * BM
    tl.store(c + rm[:, None] * BM + rm[None, :], acc)


def _tt(compiled: Any) -> str:
    text = compiled.asm.get("tt-opt", "")
    return text if isinstance(text, str) else ""


@pytest.mark.parametrize("stages", [None, 1], ids=["pipelined", "num_stages=1"])
@pytest.mark.parametrize("k", [0, 16, 40, 64])
def test_k_loop(run: Any, k: int, stages: int | None) -> None:
    m, n, bk = 20, 24, 16
    rng = np.random.default_rng(k)
    # K = 0: one-element arrays the kernel never reads (no iteration, and no prefetch)
    a = rng.integers(-3, 4, (m, max(k, 1))).astype(np.float16)
    b = rng.integers(-3, 4, (max(k, 1), n)).astype(np.float16)
    c = np.full((m, n), 7.0, np.float32)
    options = {} if stages is None else {"num_stages": stages}
    compiled = run(k_loop_kernel, (1,), a, b, c, m, n, k, OTHER=1.0, BM=32, BN=32, BK=bk, **options)
    assert ("_next" in _tt(compiled)) == (stages is None)
    np.testing.assert_array_equal(c, a[:, :k].astype(np.float64) @ b[:k].astype(np.float64))


@pytest.mark.parametrize("stages", [None, 1], ids=["pipelined", "num_stages=1"])
def test_pointer_step_depends_on_the_iteration(run: Any, stages: int | None) -> None:
    bm, bk, steps = 16, 16, 4
    rng = np.random.default_rng(3)
    a = rng.integers(-2, 3, (bm, bk * 64)).astype(np.float16)
    b = rng.integers(-2, 3, (bk * 64, bm)).astype(np.float16)
    c = np.zeros((bm, bm), np.float32)
    options = {} if stages is None else {"num_stages": stages}
    compiled = run(growing_step_kernel, (1,), a, b, c, steps, BM=bm, BK=bk, **options)
    assert ("_next" in _tt(compiled)) == (stages is None)
    ref = np.zeros((bm, bm))
    for k in range(steps):
        start = k * (k + 1) // 2 * bk
        ref += a[:, start : start + bk].astype(np.float64) @ b[start : start + bk].astype(
            np.float64
        )
    np.testing.assert_array_equal(c, ref)


def test_every_op_keeps_a_source_line() -> None:
    """The ops tt-pipeline adds carry the kernel line they stand for (errors name it)."""
    from mytriton.dialects.verify import source_location

    a = np.zeros((16, 64), np.float16)
    b = np.zeros((64, 16), np.float16)
    c = np.zeros((16, 16), np.float32)
    compiled = growing_step_kernel.warmup(a, b, c, 2, grid=(1,), BM=16, BK=16)
    module = compiled.module
    assert module is not None
    missing = [
        op.name
        for op in module.walk()
        if op.name not in ("builtin.module", "func.return", "arith.constant")
        and source_location(op) is None
    ]
    assert not missing, missing
