"""Vector loads and stores of 1-D blocks in slice layouts (a row or column of a 2-D tile's
layout): a thread's consecutive elements along the dimension the slice keeps move as one
vector, the threads along the removed dimension hold replicas and only their owner stores.
Masked tails move the mask boundary inside and outside a thread's run; gpusim faults on a
misaligned vector access, as a GPU would."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl

pytestmark = pytest.mark.execution


@triton.jit
def row_kernel(x, bias, out, col_max, M, N, BM: tl.constexpr, BN: tl.constexpr):
    """Rows: ``bias`` loaded as a row of the tile (slice dim 0), the column maxima stored
    from one (a reduction over dim 0)."""
    r = tl.arange(0, BM)
    c = tl.arange(0, BN)
    rows = r[:, None]
    cols = c[None, :]
    mask = (rows < M) & (cols < N)
    tile = tl.load(x + rows * N + cols, mask=mask, other=0)
    b = tl.load(bias + c, mask=c < N, other=0)
    tl.store(out + rows * N + cols, tile + b[None, :], mask=mask)
    tl.store(col_max + c, tl.max(tile, axis=0), mask=c < N)


@triton.jit
def column_kernel(x, bias, out, row_max, M, N, BM: tl.constexpr, BN: tl.constexpr):
    """Columns of a column-major tile (dimension 0 contiguous in memory): ``bias`` loaded as a
    column (slice dim 1), the row maxima stored from one (a reduction over dim 1)."""
    r = tl.arange(0, BM)
    c = tl.arange(0, BN)
    rows = r[:, None]
    cols = c[None, :]
    mask = (rows < M) & (cols < N)
    tile = tl.load(x + rows + cols * M, mask=mask, other=0)
    b = tl.load(bias + r, mask=r < M, other=0)
    tl.store(out + rows + cols * M, tile + b[:, None], mask=mask)
    tl.store(row_max + r, tl.max(tile, axis=1), mask=r < M)


DTYPES = ["float32", "float16", "int8"]
SIZES = [(64, 64), (64, 48), (37, 64), (64, 37), (5, 3)]


def _data(dtype: str, shape: tuple[int, ...], seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    if dtype == "int8":
        return rng.integers(-50, 50, shape).astype(np.int8)
    return rng.standard_normal(shape).astype(dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize(("m", "n"), SIZES)
def test_rows(run: Any, dtype: str, m: int, n: int) -> None:
    x, bias = _data(dtype, (m, n), m * n), _data(dtype, (n,), n)
    out = np.zeros((m, n), dtype)
    col_max = np.full(n + 3, 7, dtype)  # past n: must stay untouched
    run(row_kernel, (1,), x, bias, out, col_max, m, n, BM=64, BN=64)
    np.testing.assert_array_equal(out, x + bias[None, :])
    np.testing.assert_array_equal(col_max[:n], x.max(axis=0))
    np.testing.assert_array_equal(col_max[n:], 7)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize(("m", "n"), SIZES)
def test_columns(run: Any, dtype: str, m: int, n: int) -> None:
    x, bias = _data(dtype, (n, m), m * n + 1), _data(dtype, (m,), m)  # x[col, row]
    out = np.zeros((n, m), dtype)
    row_max = np.full(m + 3, 7, dtype)
    run(column_kernel, (1,), x, bias, out, row_max, m, n, BM=64, BN=64)
    np.testing.assert_array_equal(out, x + bias[None, :])
    np.testing.assert_array_equal(row_max[:m], x.max(axis=0))
    np.testing.assert_array_equal(row_max[m:], 7)


@pytest.mark.parametrize("kernel", [row_kernel, column_kernel])
@pytest.mark.parametrize(("dtype", "vector"), [("float32", "4xf32"), ("int8", "16xi8")])
def test_slice_accesses_are_vectors(
    monkeypatch: pytest.MonkeyPatch, kernel: Any, dtype: str, vector: str
) -> None:
    """The 1-D load and store are one 16-byte vector a thread each, as the tile's accesses
    are; a size that is not a multiple of 16 leaves the mask non-uniform: element by element."""
    monkeypatch.setenv("MYTRITON_BACKEND", "gpusim")
    x = np.zeros(8192, dtype)

    def accesses(m: int, n: int) -> list[str]:
        ir = kernel.warmup(x, x, x, x, m, n, BM=64, BN=64, grid=(1,)).asm["gpu"]
        return [line for line in ir.splitlines() if "llvm.load" in line or "llvm.store" in line]

    aligned = accesses(64, 64)
    tile = 64 * 64 // 128 // int(vector.split("x")[0])  # the tile's vectors a thread
    assert sum(f"vector<{vector}>" in line for line in aligned) == 2 * (tile + 1)
    assert all("vector<" in line for line in aligned)
    assert not any("vector<" in line for line in accesses(37, 37))
