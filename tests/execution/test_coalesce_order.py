"""Accesses laid out along the dimension their addresses are contiguous in (Triton's coalescing
order): a column-major block is loaded with threads and 16-byte vectors down its columns
(``order = [0, 1]``), a transposing copy converts between the load's and the store's layouts,
and a K-contiguous dot operand (attention's K^T, a matmul's B given transposed) is copied and
staged K-major. Every backend against NumPy; gpusim faults on a misaligned or mis-grouped
vector access, as a GPU would.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl

pytestmark = pytest.mark.execution


@triton.jit
def transpose_kernel(x, y, M, N, BM: tl.constexpr, BN: tl.constexpr):
    """``y = 2 x`` with x stored column-major (``x[m, n]`` at ``m + M n``) and y row-major
    (``y[m, n]`` at ``m N + n``): the load runs down the columns, the store along the rows."""
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    v = tl.load(x + rm[:, None] + rn[None, :] * M, mask=mask, other=0.0)
    tl.store(y + rm[:, None] * N + rn[None, :], v * 2, mask=mask)


@triton.jit
def column_sum_kernel(x, out, M, BM: tl.constexpr, BN: tl.constexpr):
    """Row sums of a column-major block: the load runs down the columns, the sum across."""
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.arange(0, BN)
    v = tl.load(x + rm[:, None] + rn[None, :] * M, mask=rm[:, None] < M, other=0.0)
    tl.store(out + rm, tl.sum(v, axis=1), mask=rm < M)


DTYPES = {"f32": np.float32, "f16": np.float16}


@pytest.mark.parametrize("kind", ["f32", "f16"])
@pytest.mark.parametrize(("m", "n"), [(64, 32), (128, 64), (50, 40)])
def test_transposing_copy(run: Any, kind: str, m: int, n: int) -> None:
    rng = np.random.default_rng(m + n)
    x = rng.standard_normal((m, n)).astype(DTYPES[kind])
    x_col = np.asfortranarray(x).ravel(order="K")  # column-major storage, flat
    y = np.full((m, n), np.nan, DTYPES[kind])
    compiled = run(
        transpose_kernel, (triton.cdiv(m, 32), triton.cdiv(n, 32)), x_col, y, m, n, BM=32, BN=32
    )
    np.testing.assert_array_equal(y, x * 2)
    if run.backend == "interpreter":
        return
    assert "order = [0, 1]" in compiled.asm["ttg"]  # the load runs down the columns
    if m % 16 == 0:  # M specialized divisible by 16: whole 16-byte vectors down a column
        width = 16 // np.dtype(DTYPES[kind]).itemsize
        assert f"vector<{width}x" in compiled.asm["gpu"]


@pytest.mark.parametrize("m", [64, 100])
def test_column_major_reduction(run: Any, m: int) -> None:
    rng = np.random.default_rng(m)
    x = rng.standard_normal((m, 16)).astype(np.float32)
    x_col = np.asfortranarray(x).ravel(order="K")
    out = np.full(m, np.nan, np.float32)
    run(column_sum_kernel, (triton.cdiv(m, 32),), x_col, out, m, BM=32, BN=16)
    np.testing.assert_allclose(out, x.sum(axis=1), rtol=1e-5, atol=1e-5)


@triton.jit
def column_major_ops(x, sums, maxes, scan, trans, joined, M: tl.constexpr, N: tl.constexpr):
    """Every kind of op on a block loaded column-major (``order = [0, 1]``): reductions and
    scans along both axes, a transpose, a join and reshape."""
    rm, rn = tl.arange(0, M), tl.arange(0, N)
    v = tl.load(x + rm[:, None] + rn[None, :] * M)
    tl.store(sums + rn, tl.sum(v, axis=0))
    tl.store(maxes + rm, tl.max(v, axis=1))
    tl.store(scan + rm[:, None] * N + rn[None, :], tl.cumsum(v, axis=0) + tl.cumsum(v, axis=1))
    tl.store(trans + rn[:, None] * M + rm[None, :], tl.trans(v))
    pairs = tl.reshape(tl.join(v, v + 1), (M, 2 * N))
    tl.store(joined + rm[:, None] * (2 * N) + tl.arange(0, 2 * N)[None, :], pairs)


@triton.jit
def column_major_atomics(x, out, M: tl.constexpr, N: tl.constexpr):
    rm, rn = tl.arange(0, M), tl.arange(0, N)
    v = tl.load(x + rm[:, None] * N + rn[None, :])
    tl.atomic_add(out + rm[:, None] + rn[None, :] * M, v)  # column-major target


@triton.jit
def permuted_3d(x, out, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr):
    """x stored as [C, B, A] (element (a, b, c) at a + A b + A B c), out as [A, B, C]."""
    ra, rb, rc = tl.arange(0, A), tl.arange(0, B), tl.arange(0, C)
    v = tl.load(x + ra[:, None, None] + rb[None, :, None] * A + rc[None, None, :] * (A * B))
    tl.store(out + ra[:, None, None] * (B * C) + rb[None, :, None] * C + rc[None, None, :], v * 2)


@pytest.mark.parametrize(("m", "n", "warps"), [(64, 32, 4), (16, 128, 1), (128, 16, 8)])
def test_ops_on_column_major_blocks(run: Any, m: int, n: int, warps: int) -> None:
    rng = np.random.default_rng(m * n)
    x = rng.standard_normal((m, n)).astype(np.float32)
    sums, maxes = np.zeros(n, np.float32), np.zeros(m, np.float32)
    scan, trans = np.zeros((m, n), np.float32), np.zeros((n, m), np.float32)
    joined = np.zeros((m, 2 * n), np.float32)
    x_col = np.asfortranarray(x).ravel(order="K")
    run(column_major_ops, (1,), x_col, sums, maxes, scan, trans, joined, M=m, N=n,
        num_warps=warps)  # fmt: skip
    np.testing.assert_allclose(sums, x.sum(axis=0), rtol=1e-5, atol=1e-4)
    np.testing.assert_array_equal(maxes, x.max(axis=1))
    np.testing.assert_allclose(scan, x.cumsum(0) + x.cumsum(1), rtol=1e-5, atol=1e-4)
    np.testing.assert_array_equal(trans, x.T)
    np.testing.assert_array_equal(joined, np.stack([x, x + 1], -1).reshape(m, 2 * n))
    out = np.zeros(m * n, np.float32)
    run(column_major_atomics, (1,), x, out, M=m, N=n, num_warps=warps)
    np.testing.assert_array_equal(out, x_col)


@pytest.mark.parametrize("shape", [(8, 4, 16), (16, 8, 4), (4, 16, 8)])
def test_permuted_3d_copy(run: Any, shape: tuple[int, int, int]) -> None:
    """A 3-D block whose first dimension is the contiguous one (laid out ``order = [0, 2,
    1]``: that one first, the others as by default), stored with its last one contiguous."""
    a, b, c = shape
    x = np.random.default_rng(a * b).standard_normal((c, b, a)).astype(np.float32)
    out = np.zeros((a, b, c), np.float32)
    compiled = run(permuted_3d, (1,), x, out, A=a, B=b, C=c)
    np.testing.assert_array_equal(out, 2 * x.transpose(2, 1, 0))
    if run.backend != "interpreter":
        assert "order = [0, 2, 1]" in compiled.asm["ttg"]
