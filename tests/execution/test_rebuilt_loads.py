"""Small operands loaded again in the layout their consumer needs instead of converting a large
tensor through shared memory (``layout_values._rebuilds``), as the patterns benchmark's kernels
use them: rotary embedding's cos/sin row scaling two tiles of different layouts, fp8
dequantization's per-group scales, split-KV decode's combine (``w[:, None] * o`` with ``w`` from
the loaded log-sum-exps), paged attention's table row gathering both K^T and V in a pipelined
loop; and a row overwritten between its load and its use in another layout, which must still
be used as first read (the second load is issued right after the first, and a barrier keeps the
store of a faster warp from reaching a slower warp's second read). Every backend against
NumPy; the laid-out IR converts none of them. Without those barriers (patched off), gpusim
reports the races.
"""

from __future__ import annotations

import re
from typing import Any

import ml_dtypes
import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.backends.gpusim import SimulationError
from mytriton.passes.ttg import assign_layouts, reissue_fences

pytestmark = pytest.mark.execution


@triton.jit
def rotary(
    Q, K, Positions, CosSin, stride_qt, stride_qh, stride_kt, stride_kh, stride_cs, n_qh, n_kh,
    HALF: tl.constexpr, BLOCK_QH: tl.constexpr, BLOCK_KH: tl.constexpr,
):  # fmt: skip
    """q [T, n_qh, 2 HALF] and k [T, n_kh, 2 HALF] rotated in place by their token's position's
    cos/sin (``CosSin`` [positions, 2 HALF]: cos then sin)."""
    t = tl.program_id(0).to(tl.int64)
    pos = tl.load(Positions + t).to(tl.int64)
    d = tl.arange(0, HALF)
    cos = tl.load(CosSin + pos * stride_cs + d)[None, :]
    sin = tl.load(CosSin + pos * stride_cs + HALF + d)[None, :]
    hq = tl.arange(0, BLOCK_QH)
    mq = (hq < n_qh)[:, None]
    q_lo = Q + t * stride_qt + hq[:, None] * stride_qh + d[None, :]
    q1 = tl.load(q_lo, mask=mq, other=0.0).to(tl.float32)
    q2 = tl.load(q_lo + HALF, mask=mq, other=0.0).to(tl.float32)
    tl.store(q_lo, (q1 * cos - q2 * sin).to(Q.dtype.element_ty), mask=mq)
    tl.store(q_lo + HALF, (q2 * cos + q1 * sin).to(Q.dtype.element_ty), mask=mq)
    hk = tl.arange(0, BLOCK_KH)
    mk = (hk < n_kh)[:, None]
    k_lo = K + t * stride_kt + hk[:, None] * stride_kh + d[None, :]
    k1 = tl.load(k_lo, mask=mk, other=0.0).to(tl.float32)
    k2 = tl.load(k_lo + HALF, mask=mk, other=0.0).to(tl.float32)
    tl.store(k_lo, (k1 * cos - k2 * sin).to(K.dtype.element_ty), mask=mk)
    tl.store(k_lo + HALF, (k2 * cos + k1 * sin).to(K.dtype.element_ty), mask=mk)


@triton.jit
def dequant(Q, S, Y, K, GROUP: tl.constexpr, BLOCK_K: tl.constexpr):
    """``Y = Q * the scale of its group of GROUP columns``, a row block of BLOCK_K columns."""
    row = tl.program_id(0).to(tl.int64)
    cols = tl.program_id(1) * BLOCK_K + tl.arange(0, BLOCK_K)
    mask = cols < K
    q = tl.load(Q + row * K + cols, mask=mask, other=0.0).to(tl.float32)
    s = tl.load(S + row * (K // GROUP) + cols // GROUP, mask=mask, other=0.0)
    tl.store(Y + row * K + cols, (q * s).to(Y.dtype.element_ty), mask=mask)


@triton.jit
def combine(
    MidO, MidLse, Out, stride_mb, stride_mh, stride_ms, stride_ob, stride_oh,
    HEAD_DIM: tl.constexpr, NUM_SPLITS: tl.constexpr,
):  # fmt: skip
    """The splits' partial outputs ``MidO`` [B, H, S, D] weighted by their log-sum-exps
    (``MidLse`` [B, H, S], at ``mid // HEAD_DIM``: MidO's offsets over D)."""
    b = tl.program_id(0)
    h = tl.program_id(1)
    offs_s = tl.arange(0, NUM_SPLITS)
    offs_d = tl.arange(0, HEAD_DIM)
    mid = b * stride_mb + h * stride_mh + offs_s * stride_ms
    lse = tl.load(MidLse + mid // HEAD_DIM)
    o = tl.load(MidO + mid[:, None] + offs_d[None, :])
    w = tl.exp2(lse - tl.max(lse, axis=0))
    out = tl.sum(w[:, None] * o, axis=0) / tl.sum(w, axis=0)
    tl.store(Out + b * stride_ob + h * stride_oh + offs_d, out.to(Out.dtype.element_ty))


@triton.jit
def overwritten_row(X, T, R: tl.constexpr, D: tl.constexpr):
    """``T[r, :] *= X[:D]`` as first read, though ``X[:D]`` is overwritten (+ 1000) between its
    load and that use (in T's layout, not the row's)."""
    d = tl.arange(0, D)
    r = tl.arange(0, R)
    v = tl.load(X + d)
    tl.store(X + d, v + 1000.0)
    t_ptrs = T + r[:, None] * D + d[None, :]
    t = tl.load(t_ptrs).to(tl.float32)
    tl.store(t_ptrs, (t * v[None, :]).to(T.dtype.element_ty))


@triton.jit
def running_row(X, T, Out, N, R: tl.constexpr, D: tl.constexpr):
    """``Out = sum_i T[i] * X`` with ``X += 1`` before each read: the row's store of the next
    iteration comes before its load in the loop body."""
    d = tl.arange(0, D)
    r = tl.arange(0, R)
    tile = r[:, None] * D + d[None, :]
    acc = tl.zeros((R, D), dtype=tl.float32)
    for i in range(N):
        tl.store(X + d, tl.load(X + d) + 1.0)
        v = tl.load(X + d)
        acc += tl.load(T + i * R * D + tile).to(tl.float32) * v[None, :]
    tl.store(Out + tile, acc)


@triton.jit
def paged_two_dots(
    Q, KCache, VCache, Table, Out, n_tokens, stride_b, stride_t,
    PAGE: tl.constexpr, BM: tl.constexpr, D: tl.constexpr, BN: tl.constexpr,
):  # fmt: skip
    """The sum over key blocks of ``(Q @ K_j^T) @ V_j``, K^T and V gathered through the same
    table row (paged attention's loop without its softmax): the row is loaded in each tile's
    slice, both pipelined ahead of the copies."""
    offs_m = tl.arange(0, BM)
    offs_d = tl.arange(0, D)
    q = tl.load(Q + offs_m[:, None] * D + offs_d[None, :])
    acc = tl.zeros((BM, D), dtype=tl.float32)
    for start in range(0, n_tokens, BN):
        offs_n = start + tl.arange(0, BN)
        valid = offs_n < n_tokens
        block = tl.load(Table + offs_n // PAGE, mask=valid, other=0)
        offs = block * stride_b + (offs_n % PAGE) * stride_t
        kt = tl.load(KCache + offs[None, :] + offs_d[:, None], mask=valid[None, :], other=0.0)
        s = tl.dot(q, kt)
        v = tl.load(VCache + offs[:, None] + offs_d[None, :], mask=valid[:, None], other=0.0)
        acc += tl.dot(s.to(tl.float16), v)
    tl.store(Out + offs_m[:, None] * D + offs_d[None, :], acc)


def _no_conversion(run: Any, compiled: Any) -> None:
    if run.backend != "interpreter":
        assert "ttg.convert_layout" not in compiled.asm["ttg"]


def _fenced(run: Any, compiled: Any) -> None:
    """Each load issued again in a slice layout reaches the program's next write (or the end of
    its loop body) only through a barrier: other threads than its bound copy's read the
    elements, and a faster warp's store must not reach a slower warp's read; nor does it follow
    a store of the program without a barrier between (a slower warp's store must reach a faster
    warp's re-issued read)."""
    if run.backend == "interpreter":
        return
    lines = compiled.asm["ttg"].splitlines()
    reissued = [i for i, line in enumerate(lines) if re.search(r"= tt.load .*#slice", line)]
    assert reissued, compiled.asm["ttg"]
    for i in reissued:
        after = next(
            line for line in lines[i + 1 :] if re.search(r"tt.store|scf.yield|gpu.barrier", line)
        )
        assert "gpu.barrier" in after, (lines[i], after)
        # and from the program's earlier writes (a loop's previous iteration's included)
        earlier = [line for line in lines[:i] if re.search(r"tt.store|gpu.barrier", line)]
        assert not earlier or "gpu.barrier" in earlier[-1], (lines[i], earlier[-1])


def test_rotary(run: Any) -> None:
    n_tokens, n_qh, n_kh, half, n_pos = 3, 30, 8, 64, 7
    rng = np.random.default_rng(0)
    q = rng.standard_normal((n_tokens, n_qh, 2 * half)).astype(np.float16)
    k = rng.standard_normal((n_tokens, n_kh, 2 * half)).astype(np.float16)
    pos = np.array([5, 0, 3], np.int64)
    angle = rng.uniform(0, 6.3, (n_pos, half))
    cos_sin = np.concatenate([np.cos(angle), np.sin(angle)], axis=1).astype(np.float32)

    def rotated(x: np.ndarray) -> np.ndarray:
        c, s = cos_sin[pos, None, :half], cos_sin[pos, None, half:]
        x1, x2 = x[..., :half].astype(np.float32), x[..., half:].astype(np.float32)
        return np.concatenate([x1 * c - x2 * s, x2 * c + x1 * s], axis=-1).astype(np.float16)

    expected_q, expected_k = rotated(q), rotated(k)
    compiled = run(
        rotary, (n_tokens,), q, k, pos, cos_sin, n_qh * 2 * half, 2 * half, n_kh * 2 * half,
        2 * half, 2 * half, n_qh, n_kh, HALF=half, BLOCK_QH=32, BLOCK_KH=8,
    )  # fmt: skip
    np.testing.assert_allclose(q.astype(np.float32), expected_q, rtol=2e-3, atol=2e-3)
    np.testing.assert_allclose(k.astype(np.float32), expected_k, rtol=2e-3, atol=2e-3)
    _no_conversion(run, compiled)
    _fenced(run, compiled)


def test_fp8_dequant(run: Any) -> None:
    rows, k, group, block = 2, 1920, 128, 1024  # the last block masked past K
    rng = np.random.default_rng(1)
    q = rng.standard_normal((rows, k)).astype(ml_dtypes.float8_e4m3fn)
    s = rng.uniform(0.5, 2.0, (rows, k // group)).astype(np.float32)
    y = np.full((rows, k), np.nan, np.float16)
    compiled = run(dequant, (rows, triton.cdiv(k, block)), q, s, y, k, GROUP=group, BLOCK_K=block)
    expected = (q.astype(np.float32) * np.repeat(s, group, axis=1)).astype(np.float16)
    np.testing.assert_array_equal(y, expected)
    _no_conversion(run, compiled)


def test_decode_combine(run: Any) -> None:
    batch, heads, splits, dim = 2, 3, 16, 128
    rng = np.random.default_rng(2)
    mid_o = rng.standard_normal((batch, heads, splits, dim)).astype(np.float32)
    mid_lse = rng.uniform(-4, 4, (batch, heads, splits)).astype(np.float32)
    out = np.full((batch, heads, dim), np.nan, np.float16)
    compiled = run(
        combine, (batch, heads), mid_o, mid_lse, out, heads * splits * dim, splits * dim, dim,
        heads * dim, dim, HEAD_DIM=dim, NUM_SPLITS=splits,
    )  # fmt: skip
    w = np.exp2(mid_lse - mid_lse.max(axis=-1, keepdims=True))
    expected = (w[..., None] * mid_o).sum(axis=2) / w.sum(axis=-1)[..., None]
    np.testing.assert_allclose(out.astype(np.float32), expected, rtol=2e-3, atol=2e-3)
    _no_conversion(run, compiled)


def test_row_overwritten_before_its_use(run: Any) -> None:
    """A row stored to between its load and its use in another layout: the use sees the values
    first read (a load issued again at the use would see the stored ones)."""
    r, d = 32, 64
    rng = np.random.default_rng(3)
    x = rng.uniform(1, 2, d).astype(np.float32)
    t = rng.uniform(1, 2, (r, d)).astype(np.float16)
    expected = (t.astype(np.float32) * x).astype(np.float16)
    first = x.copy()
    compiled = run(overwritten_row, (1,), x, t, R=r, D=d)
    np.testing.assert_array_equal(t, expected)
    np.testing.assert_array_equal(x, first + 1000)
    _no_conversion(run, compiled)
    _fenced(run, compiled)


def test_row_stored_again_in_a_loop(run: Any) -> None:
    """The row's store of the next iteration (before its load in the body) waits for every
    warp's re-issued read of this one."""
    n, r, d = 3, 16, 64
    rng = np.random.default_rng(4)
    x = rng.integers(1, 5, d).astype(np.float32)
    t = rng.integers(-2, 3, (n, r, d)).astype(np.float16)
    out = np.full((r, d), np.nan, np.float32)
    expected = sum(t[i].astype(np.float32) * (x + i + 1) for i in range(n))
    first = x.copy()
    compiled = run(running_row, (1,), x, t, out, n, R=r, D=d)
    np.testing.assert_array_equal(out, expected)
    np.testing.assert_array_equal(x, first + n)
    _no_conversion(run, compiled)
    _fenced(run, compiled)


@pytest.mark.parametrize("n_tokens", [64, 45])
def test_paged_two_dots(run: Any, n_tokens: int) -> None:
    """Exact sums of small whole numbers; the table row is never converted."""
    bm, d, bn, page = 32, 32, 32, 8
    n_pages = triton.cdiv(n_tokens, page)
    rng = np.random.default_rng(n_tokens)
    q = rng.integers(-1, 2, (bm, d)).astype(np.float16)
    k_cache = rng.integers(-1, 2, (n_pages + 2, page, d)).astype(np.float16)
    v_cache = rng.integers(-1, 2, (n_pages + 2, page, d)).astype(np.float16)
    table = rng.permutation(n_pages + 2)[:n_pages].astype(np.int32)
    out = np.full((bm, d), np.nan, np.float32)
    compiled = run(
        paged_two_dots, (1,), q, k_cache, v_cache, table, out, n_tokens, page * d, d,
        PAGE=page, BM=bm, D=d, BN=bn,
    )  # fmt: skip
    tokens = np.arange(n_tokens)
    k = k_cache[table[tokens // page], tokens % page].astype(np.float32)
    v = v_cache[table[tokens // page], tokens % page].astype(np.float32)
    expected = np.zeros((bm, d), np.float32)
    for start in range(0, n_tokens, bn):
        blk = slice(start, start + bn)
        expected += (q.astype(np.float32) @ k[blk].T) @ v[blk]
    np.testing.assert_array_equal(out, expected)
    if run.backend != "interpreter":
        ttg = compiled.asm["ttg"]
        assert not re.search(r"convert_layout %\S+ : tensor<32xi32", ttg), ttg


def _unfenced(kernel: Any, *args: Any, **constexprs: Any) -> None:
    """Run ``kernel`` on gpusim compiled afresh (the patched pipeline), then drop that compile."""
    kernel.clear_cache()
    try:
        kernel[(1,)](*args, **constexprs)
    finally:
        kernel.clear_cache()


def test_gpusim_sees_the_unfenced_overwritten_row_race(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without reissue_fences (patched off), the owner's store reaches the element that other
    threads' re-issued load reads: on a GPU that load may run after it."""
    monkeypatch.setenv("MYTRITON_BACKEND", "gpusim")
    monkeypatch.setattr(assign_layouts, "fence_reissued_loads", lambda loads: None)
    x = np.ones(64, np.float32)
    t = np.ones((32, 64), np.float16)
    with pytest.raises(
        SimulationError,
        match=r"data race: stores a different value to element \d+ of `X`, which loads owned "
        r"by several threads of the program read since the last barrier",
    ):
        _unfenced(overwritten_row, x, t, R=32, D=64)


@pytest.mark.parametrize("missing", ["every fence", "the fence before"])
def test_gpusim_sees_the_unfenced_running_row_race(
    monkeypatch: pytest.MonkeyPatch, missing: str
) -> None:
    """Without the barrier before the re-issued load (all fences patched off, or only the one
    before, as before commit a39b2ff), other threads read the row the owners just stored: on a
    GPU before their store."""
    monkeypatch.setenv("MYTRITON_BACKEND", "gpusim")
    if missing == "every fence":
        monkeypatch.setattr(assign_layouts, "fence_reissued_loads", lambda loads: None)
    else:
        monkeypatch.setattr(reissue_fences, "_fence_before", lambda load: None)
    x = np.ones(64, np.float32)
    t = np.ones((3, 16, 64), np.float16)
    out = np.zeros((16, 64), np.float32)
    with pytest.raises(
        SimulationError,
        match=r"data race: loads element \d+ of `X`, which thread \d+ of the program stored "
        r"since the last barrier",
    ):
        _unfenced(running_row, x, t, out, 3, R=16, D=64)
