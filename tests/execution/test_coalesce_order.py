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
