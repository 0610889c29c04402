"""Loads and stores through a block table (paged attention's K and V caches): the pointer block
is built from a loaded table (``base + tl.load(table + n // PAGE)[None, :] + d[:, None]``), so
it is bound to the table load's layout, yet the access is laid out along its contiguous
dimension with whole 16-byte vectors a thread (Triton's coalescing), its pointers recomputed
from the small table values. Both orientations (K^T: ``[D, N]``, contiguous down the columns;
V: ``[N, D]``, along the rows), masked by the tokens' range and by unmapped table entries, for
several element sizes; every backend against a NumPy reference.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl

pytestmark = pytest.mark.execution

PAGE, D, BN = 8, 64, 32
FILL = 7  # what a masked-off element reads as


@triton.jit
def paged_gather(
    Cache, Table, Out, n_tokens, stride_b, stride_t, NP,
    PAGE: tl.constexpr, D: tl.constexpr, BN: tl.constexpr, KT: tl.constexpr,
):  # fmt: skip
    """Token ``n``'s row of the paged ``Cache`` (page ``Table[n // PAGE]``, slot ``n % PAGE``)
    into column ``n`` of ``Out`` [D, NP] (``KT``) or row ``n`` of ``Out`` [NP, D]; a token past
    ``n_tokens`` or on an unmapped page (-1) reads as ``FILL``."""
    offs_n = tl.program_id(0) * BN + tl.arange(0, BN)
    offs_d = tl.arange(0, D)
    n_valid = offs_n < n_tokens
    block = tl.load(Table + offs_n // PAGE, mask=n_valid, other=-1)
    ok = n_valid & (block >= 0)
    offs = block.to(tl.int64) * stride_b + (offs_n % PAGE) * stride_t
    if KT:
        x = tl.load(Cache + offs[None, :] + offs_d[:, None], mask=ok[None, :], other=7)
        tl.store(Out + offs_d[:, None] * NP + offs_n[None, :], x)
    else:
        x = tl.load(Cache + offs[:, None] + offs_d[None, :], mask=ok[:, None], other=7)
        tl.store(Out + offs_n[:, None] * D + offs_d[None, :], x)


@triton.jit
def paged_scatter(
    Src, Table, Cache, n_tokens, stride_b, stride_t, NP,
    PAGE: tl.constexpr, D: tl.constexpr, BN: tl.constexpr, KT: tl.constexpr,
):  # fmt: skip
    """The inverse: column ``n`` of ``Src`` [D, NP] (``KT``) or its row ``n`` ([NP, D]) into
    token ``n``'s row of the paged ``Cache``, for the tokens on mapped pages."""
    offs_n = tl.program_id(0) * BN + tl.arange(0, BN)
    offs_d = tl.arange(0, D)
    n_valid = offs_n < n_tokens
    block = tl.load(Table + offs_n // PAGE, mask=n_valid, other=-1)
    ok = n_valid & (block >= 0)
    offs = block.to(tl.int64) * stride_b + (offs_n % PAGE) * stride_t
    if KT:
        x = tl.load(Src + offs_d[:, None] * NP + offs_n[None, :])
        tl.store(Cache + offs[None, :] + offs_d[:, None], x, mask=ok[None, :])
    else:
        x = tl.load(Src + offs_n[:, None] * D + offs_d[None, :])
        tl.store(Cache + offs[:, None] + offs_d[None, :], x, mask=ok[:, None])


DTYPES = {"f16": np.float16, "f32": np.float32, "i8": np.int8}


def _paged(dtype: type, n_tokens: int) -> tuple[np.ndarray, np.ndarray, int]:
    """A cache [pages, PAGE, D] of random values, a shuffled table of its pages (one unmapped)
    and the padded token count."""
    np_tokens = triton.cdiv(n_tokens, BN) * BN
    n_pages = np_tokens // PAGE
    rng = np.random.default_rng(n_tokens)
    cache = (rng.standard_normal((n_pages + 3, PAGE, D)) * 20).astype(dtype)
    table = rng.permutation(n_pages + 3)[:n_pages].astype(np.int32)
    table[1] = -1
    return cache, table, np_tokens


def _rows(cache: np.ndarray, table: np.ndarray, n_tokens: int, np_tokens: int) -> np.ndarray:
    """Token n's row of the cache, [np_tokens, D], FILL where it reads nothing."""
    rows = np.full((np_tokens, D), FILL, cache.dtype)
    for n in range(n_tokens):
        if table[n // PAGE] >= 0:
            rows[n] = cache[table[n // PAGE], n % PAGE]
    return rows


def access_layout(ttg: str, op: str, shape: str) -> str:
    """The layout of the ``op`` (``tt.load``, ``tt.store``) through a pointer block of
    ``shape`` ("64x32") in laid-out IR with aliases."""
    line = next(x for x in ttg.splitlines() if f"{op} " in x and f"tensor<{shape}x!tt.ptr" in x)
    found = re.search(rf"tensor<{shape}x!tt\.ptr<\w+>, (#\w+)>", line)
    assert found is not None, line
    definition = re.search(rf"^{found.group(1)} = (.*)$", ttg, re.M)
    assert definition is not None
    return definition.group(1)


def _check_coalesced(compiled: Any, op: str, kt: bool, dtype: type) -> None:
    """The access through the table moves 16-byte vectors along D, its threads along D too."""
    width = 16 // np.dtype(dtype).itemsize
    shape = f"{D}x{BN}" if kt else f"{BN}x{D}"
    layout = access_layout(compiled.asm["ttg"], op, shape)
    spt, order = ([width, 1], [0, 1]) if kt else ([1, width], [1, 0])
    assert f"sizePerThread = {spt}" in layout and f"order = {order}" in layout, layout


@pytest.mark.parametrize("kind", list(DTYPES))
@pytest.mark.parametrize("kt", [True, False], ids=["kt", "v"])
@pytest.mark.parametrize("n_tokens", [64, 45])
def test_gathered_load(run: Any, kind: str, kt: bool, n_tokens: int) -> None:
    cache, table, np_tokens = _paged(DTYPES[kind], n_tokens)
    out = np.zeros((D, np_tokens) if kt else (np_tokens, D), cache.dtype)
    compiled = run(
        paged_gather, (np_tokens // BN,), cache, table, out, n_tokens, PAGE * D, D, np_tokens,
        PAGE=PAGE, D=D, BN=BN, KT=kt,
    )  # fmt: skip
    rows = _rows(cache, table, n_tokens, np_tokens)
    np.testing.assert_array_equal(out, rows.T if kt else rows)
    if run.backend != "interpreter":
        _check_coalesced(compiled, "tt.load", kt, DTYPES[kind])


@pytest.mark.parametrize("kind", list(DTYPES))
@pytest.mark.parametrize("kt", [True, False], ids=["kt", "v"])
@pytest.mark.parametrize("n_tokens", [64, 45])
def test_scattered_store(run: Any, kind: str, kt: bool, n_tokens: int) -> None:
    cache, table, np_tokens = _paged(DTYPES[kind], n_tokens)
    rng = np.random.default_rng(n_tokens + 1)
    src_rows = (rng.standard_normal((np_tokens, D)) * 20).astype(cache.dtype)
    src = np.ascontiguousarray(src_rows.T) if kt else src_rows
    expected = cache.copy()
    for n in range(n_tokens):
        if table[n // PAGE] >= 0:
            expected[table[n // PAGE], n % PAGE] = src_rows[n]
    compiled = run(
        paged_scatter, (np_tokens // BN,), src, table, cache, n_tokens, PAGE * D, D, np_tokens,
        PAGE=PAGE, D=D, BN=BN, KT=kt,
    )  # fmt: skip
    np.testing.assert_array_equal(cache, expected)
    if run.backend != "interpreter":
        _check_coalesced(compiled, "tt.store", kt, DTYPES[kind])


@triton.jit
def gathered_rows_sum(
    A, Rows, Out, n_valid, K, stride_am, BM: tl.constexpr, BK: tl.constexpr
):  # fmt: skip
    """``Out[i, j]`` = the sum over k of ``A[Rows[i], k * BK + j]`` (a fused MoE's rows of A,
    gathered through its token ids, a K loop advancing the pointer block); a row id of
    ``n_valid`` or more reads zeros."""
    offs_m = tl.arange(0, BM)
    offs_k = tl.arange(0, BK)
    rows = tl.load(Rows + offs_m)
    row_ok = rows < n_valid
    a_ptrs = A + rows[:, None] * stride_am + offs_k[None, :]
    acc = tl.zeros((BM, BK), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_ptrs, mask=row_ok[:, None] & (offs_k[None, :] < K - k * BK), other=0.0)
        acc += a.to(tl.float32)
        a_ptrs += BK
    tl.store(Out + offs_m[:, None] * BK + offs_k[None, :], acc)


@pytest.mark.parametrize("kind", ["f16", "f32"])
@pytest.mark.parametrize("k", [256, 200])
def test_gathered_rows_in_loop(run: Any, kind: str, k: int) -> None:
    """The loop-carried pointer block starts from the gathered rows: it is carried in the
    loads' coalesced layout, its initial value recomputed from the row ids."""
    bm, bk, n_rows, n_valid = 32, 64, 40, 37
    rng = np.random.default_rng(k)
    a = rng.standard_normal((n_rows, k)).astype(DTYPES[kind])
    rows = rng.integers(0, n_rows, bm).astype(np.int32)
    rows[3] = n_valid + 1  # masked: reads zeros
    out = np.full((bm, bk), np.nan, np.float32)
    compiled = run(gathered_rows_sum, (1,), a, rows, out, n_valid, k, k, BM=bm, BK=bk)
    padded = np.zeros((n_rows, triton.cdiv(k, bk) * bk), np.float32)
    padded[:, :k] = a
    expected = padded.reshape(n_rows, -1, bk).sum(axis=1)[rows.clip(max=n_rows - 1)]
    expected[rows >= n_valid] = 0
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-5)
    if run.backend != "interpreter":
        # K % 16: the mask is uniform over 16-byte vectors; else an element a thread, but
        # still each warp's lanes along the row (not one element of each of 32 rows)
        width = 16 // np.dtype(DTYPES[kind]).itemsize if k % 16 == 0 else 1
        lanes = min(32, bk // width)
        layout = access_layout(compiled.asm["ttg"], "tt.load", f"{bm}x{bk}")
        assert f"sizePerThread = [1, {width}], threadsPerWarp = [{32 // lanes}, {lanes}]" in (
            layout
        ), layout
