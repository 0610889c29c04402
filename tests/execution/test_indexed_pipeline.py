"""Software pipelining of dot operands gathered through a loaded index (``ttg-pipeline``'s
index loads): paged attention's K^T and V tiles, whose pointers come from a block table loaded
in the same iteration. The table load is issued one iteration before the copies that read it,
which run ``max(1, (num_stages - 1) // 2)`` iterations ahead of their dot, as Triton's
pipeliner stages indirect loads. Both orientations (K^T ``[D, BN]``, V ``[BN, D]``), a block of
table entries or one scalar page id an iteration, tokens masked at the end, 2 to 4 stages, loops
of 0 to 4 iterations, and a paged attention loop (both tiles, two dots) on every backend against
NumPy.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl

pytestmark = pytest.mark.execution

BM, D, BN = 32, 64, 32


@triton.jit
def paged_dot(
    A, Cache, Table, Out, n_tokens, stride_a, stride_b, stride_t,
    PAGE: tl.constexpr, BM: tl.constexpr, D: tl.constexpr, BN: tl.constexpr,
    KT: tl.constexpr, SCALAR: tl.constexpr, COLS: tl.constexpr,
):  # fmt: skip
    """The sum over token blocks j of ``A_j @ G_j``, ``G_j`` block j of the tokens' rows of
    the paged ``Cache`` (token n: page ``Table[n // PAGE]``, slot ``n % PAGE``; past
    ``n_tokens``: zeros), transposed (``KT``: ``[D, BN]``, ``A_j`` columns ``j D ..``) or not
    (``[BN, D]``, ``A_j`` columns ``j BN ..``). ``SCALAR``: one page an iteration (``PAGE ==
    BN``), its id loaded as a scalar. ``COLS``: ``BN`` (``KT``) or ``D``."""
    offs_m = tl.arange(0, BM)
    offs_d = tl.arange(0, D)
    offs_b = tl.arange(0, BN)
    acc = tl.zeros((BM, COLS), dtype=tl.float32)
    for start_n in range(0, n_tokens, BN):
        offs_n = start_n + offs_b
        n_valid = offs_n < n_tokens
        if SCALAR:
            page = tl.load(Table + start_n // PAGE).to(tl.int64)
            offs = page * stride_b + offs_b * stride_t
        else:
            block = tl.load(Table + offs_n // PAGE, mask=n_valid, other=0).to(tl.int64)
            offs = block * stride_b + (offs_n % PAGE) * stride_t
        j = start_n // BN
        if KT:
            a = tl.load(A + offs_m[:, None] * stride_a + j * D + offs_d[None, :])
            g = tl.load(Cache + offs[None, :] + offs_d[:, None], mask=n_valid[None, :], other=0.0)
        else:
            a = tl.load(A + offs_m[:, None] * stride_a + start_n + offs_b[None, :])
            g = tl.load(Cache + offs[:, None] + offs_d[None, :], mask=n_valid[:, None], other=0.0)
        acc = tl.dot(a, g, acc)
    offs_c = tl.arange(0, COLS)
    tl.store(Out + offs_m[:, None] * COLS + offs_c[None, :], acc)


def _reference(
    a: np.ndarray, cache: np.ndarray, table: np.ndarray, n_tokens: int, page: int, kt: bool
) -> np.ndarray:
    blocks = triton.cdiv(n_tokens, BN)
    acc = np.zeros((BM, BN if kt else D), np.float64)
    for j in range(blocks):
        g = np.zeros((BN, D), np.float64)
        for i in range(BN):
            n = j * BN + i
            if n < n_tokens:
                g[i] = cache[table[n // page], n % page]
        if kt:
            acc += a[:, j * D : (j + 1) * D].astype(np.float64) @ g.T
        else:
            acc += a[:, j * BN : (j + 1) * BN].astype(np.float64) @ g
    return acc


@pytest.mark.parametrize("kt", [True, False], ids=["kt", "v"])
@pytest.mark.parametrize("scalar", [False, True], ids=["block", "scalar"])
@pytest.mark.parametrize(("n_tokens", "stages"), [(100, 3), (128, 2), (70, 4), (20, 3), (0, 3)])
def test_paged_dot(run: Any, kt: bool, scalar: bool, n_tokens: int, stages: int) -> None:
    page = BN if scalar else 8
    blocks = max(1, triton.cdiv(n_tokens, BN))
    pages = blocks * BN // page
    rng = np.random.default_rng(n_tokens + stages)
    cache = rng.standard_normal((pages + 5, page, D)).astype(np.float16)
    table = rng.permutation(pages + 5)[:pages].astype(np.int32)
    a = rng.standard_normal((BM, blocks * (D if kt else BN))).astype(np.float16)
    out = np.full((BM, BN if kt else D), np.nan, np.float32)
    compiled = run(
        paged_dot, (1,), a, cache, table, out, n_tokens, a.shape[1], page * D, D,
        PAGE=page, BM=BM, D=D, BN=BN, KT=kt, SCALAR=scalar, COLS=BN if kt else D,
        num_stages=stages,
    )  # fmt: skip
    np.testing.assert_allclose(
        out, _reference(a, cache, table, n_tokens, page, kt), rtol=2e-3, atol=2e-3
    )
    if run.backend == "interpreter":
        return
    ttg = compiled.asm["ttg"]
    gathered = f"tensor<{D}x{BN}x!tt.ptr<f16>" if kt else f"tensor<{BN}x{D}x!tt.ptr<f16>"
    lines = [x for x in ttg.splitlines() if gathered in x]
    assert any("ttg.async_copy_global_to_local" in x for x in lines)  # the gathered tile
    assert not any("tt.load " in x for x in lines)  # copied ahead, not loaded


@triton.jit
def self_indexed_dot(A, B, Out, n_blocks, BS: tl.constexpr):
    """The sum over j of ``A_j @ G_j``, ``G_j[r, c] = B[A_j[r, c]]`` (A holds whole numbers):
    A feeds the dot and B's addresses, so it is B's index load, loaded an iteration ahead
    while the copies of B run ahead of the dot."""
    r = tl.arange(0, BS)
    a_ptrs = A + r[:, None] * BS + r[None, :]
    acc = tl.zeros((BS, BS), dtype=tl.float32)
    for _ in range(n_blocks):
        a = tl.load(a_ptrs)
        g = tl.load(B + a.to(tl.int32))
        acc = tl.dot(a, g, acc)
        a_ptrs += BS * BS
    tl.store(Out + r[:, None] * BS + r[None, :], acc)


@pytest.mark.parametrize("n_blocks", [0, 1, 3])
def test_self_indexed_dot(run: Any, n_blocks: int) -> None:
    bs = 32
    rng = np.random.default_rng(n_blocks)
    a = rng.integers(0, 16, (max(n_blocks, 1), bs, bs)).astype(np.float16)
    b = rng.standard_normal(16).astype(np.float16)
    out = np.full((bs, bs), np.nan, np.float32)
    compiled = run(self_indexed_dot, (1,), a, b, out, n_blocks, BS=bs)
    expected = np.zeros((bs, bs))
    for j in range(n_blocks):
        expected += a[j].astype(np.float64) @ b[a[j].astype(np.int64)].astype(np.float64)
    np.testing.assert_allclose(out, expected, rtol=1e-3, atol=1e-2)
    if run.backend != "interpreter" and n_blocks > 1:  # (1: specialized, no loop is left)
        assert "ttg.async_copy_global_to_local" in compiled.asm["ttg"]  # B, copied ahead


@triton.jit
def paged_attention(
    Q, KCache, VCache, Table, Out, n_tokens, sm_scale, stride_b, stride_t,
    PAGE: tl.constexpr, BM: tl.constexpr, D: tl.constexpr, BN: tl.constexpr,
):  # fmt: skip
    """``softmax(Q K^T * sm_scale) V`` over the first ``n_tokens`` tokens of a paged cache
    (token n: page ``Table[n // PAGE]``, slot ``n % PAGE``), online as decode attention does:
    K^T and V gathered through the same table row each iteration, two dots reading them."""
    offs_m = tl.arange(0, BM)
    offs_d = tl.arange(0, D)
    q = tl.load(Q + offs_m[:, None] * D + offs_d[None, :])
    m_i = tl.zeros((BM,), dtype=tl.float32) - float("inf")
    l_i = tl.zeros((BM,), dtype=tl.float32)
    acc = tl.zeros((BM, D), dtype=tl.float32)
    for start_n in range(0, n_tokens, BN):
        offs_n = start_n + tl.arange(0, BN)
        n_valid = offs_n < n_tokens
        block = tl.load(Table + offs_n // PAGE, mask=n_valid, other=0).to(tl.int64)
        offs = block * stride_b + (offs_n % PAGE) * stride_t
        kt = tl.load(KCache + offs[None, :] + offs_d[:, None], mask=n_valid[None, :], other=0.0)
        s = tl.where(n_valid[None, :], tl.dot(q, kt) * sm_scale, -float("inf"))
        m_new = tl.maximum(m_i, tl.max(s, axis=1))
        alpha = tl.exp(m_i - m_new)
        p = tl.exp(s - m_new[:, None])
        l_i = l_i * alpha + tl.sum(p, axis=1)
        v = tl.load(VCache + offs[:, None] + offs_d[None, :], mask=n_valid[:, None], other=0.0)
        acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
        m_i = m_new
    out = acc / tl.where(l_i == 0.0, 1.0, l_i)[:, None]
    tl.store(Out + offs_m[:, None] * D + offs_d[None, :], out)


def _attention_reference(
    q: np.ndarray, k: np.ndarray, v: np.ndarray, table: np.ndarray, n: int, page: int
) -> np.ndarray:
    if n == 0:
        return np.zeros(q.shape, np.float64)
    rows = [table[i // page] for i in range(n)]
    ks = np.stack([k[r, i % page] for i, r in zip(range(n), rows, strict=True)]).astype(float)
    vs = np.stack([v[r, i % page] for i, r in zip(range(n), rows, strict=True)]).astype(float)
    s = q.astype(np.float64) @ ks.T / np.sqrt(q.shape[1])
    p = np.exp(s - s.max(axis=1, keepdims=True))
    return (p / p.sum(axis=1, keepdims=True)) @ vs


@pytest.mark.parametrize(("bm", "d", "bn"), [(16, 32, 32), (64, 64, 64)], ids=["mma", "wgmma"])
@pytest.mark.parametrize(
    ("blocks", "stages"), [(2.2, 3), (2, 2), (4.7, 5), (3.1, 4), (0.6, 3), (0, 3)]
)
def test_paged_attention(run: Any, bm: int, d: int, bn: int, blocks: float, stages: int) -> None:
    """The K^T and V tiles of a paged attention loop copied ahead, the table loaded an
    iteration before: the loop's ``num_stages - 1`` iterations of lookahead shared by the
    table load and the copies (``qualify.copy_stages``), so a loop of mma.sync dots keeps
    ``max(1, (S - 1) // 2)`` tiles of each, its copies after the reads of the tile they
    rewrite (a barrier between: gpusim fails without it)."""
    n_tokens, page = int(blocks * bn), 8
    pages = max(1, triton.cdiv(n_tokens, page))
    rng = np.random.default_rng(n_tokens * 10 + stages)
    q = rng.standard_normal((bm, d)).astype(np.float16)
    k = rng.standard_normal((pages + 3, page, d)).astype(np.float16)
    v = rng.standard_normal((pages + 3, page, d)).astype(np.float16)
    table = rng.permutation(pages + 3)[: pages + 2].astype(np.int32)  # past the end: unread
    out = np.full((bm, d), np.nan, np.float32)
    compiled = run(
        paged_attention, (1,), q, k, v, table, out, n_tokens, 1 / np.sqrt(d), page * d, d,
        PAGE=page, BM=bm, D=d, BN=bn, num_stages=stages,
    )  # fmt: skip
    expected = _attention_reference(q, k, v, table, n_tokens, page)
    np.testing.assert_allclose(out, expected, rtol=1e-2, atol=1e-2)
    if run.backend == "interpreter" or n_tokens <= bn:  # (one iteration: no loop is left)
        return
    ttg = compiled.asm["ttg"]
    copies = [x for x in ttg.splitlines() if "ttg.async_copy_global_to_local" in x]
    assert any(f"tensor<{d}x{bn}x!tt.ptr<f16>" in x for x in copies)  # K^T, copied ahead
    assert any(f"tensor<{bn}x{d}x!tt.ptr<f16>" in x for x in copies)  # V
    if bm == 16:
        tiles = max(1, (stages - 1) // 2)
        assert ttg.count(f"ttg.local_alloc : () -> !ttg.memdesc<{tiles}x") == 2, ttg
    else:  # 64 rows on sm_90: warpgroup MMAs
        assert compiled.asm["gpu"].count("nvvm.wgmma.mma_async") > 0
