"""Stores are done once per element: a scalar by thread 0 of the program, a block element whose
layout replicates it over threads by its one owner thread (the replica coordinates all 0), as in
Triton. Otherwise a read-modify-write races: a thread that loads after another thread's store
reads the new value and writes it modified twice."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl

pytestmark = pytest.mark.execution


@triton.jit
def double_scalar_kernel(p):
    pid = tl.program_id(0)
    x = tl.load(p + pid)
    tl.store(p + pid, x * 2)


@triton.jit
def double_scalar_masked_kernel(p, n):
    pid = tl.program_id(0)
    x = tl.load(p + pid)
    tl.store(p + pid, x * 2, mask=pid < n)


@triton.jit
def double_block_kernel(p, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(p + offs, mask=mask)
    tl.store(p + offs, x * 2, mask=mask)


@triton.jit
def double_rows_kernel(p, ROWS: tl.constexpr, COLS: tl.constexpr):
    """Row indices and row sums come out of reductions (a slice layout: replicated over the
    reduced dimension's threads); the per-row accumulator in memory is updated with them."""
    cols = tl.arange(0, COLS)[None, :]
    grid = tl.program_id(0) * ROWS + tl.arange(0, ROWS)[:, None] + cols * 0
    rows = tl.max(grid, axis=1)
    total = tl.sum(grid * 0 + cols, axis=1)
    acc = tl.load(p + rows)
    tl.store(p + rows, acc * 2 + total)


def programs(run: Any) -> int:
    """Many programs on a GPU, where warps really interleave (the race showed with 65536); a
    few hundred on the CPU: gpusim's race check sees the race in every program."""
    return 300 if run.framework == "numpy" else 65536


@pytest.mark.parametrize("num_warps", [4, 32])
def test_scalar_read_modify_write(run: Any, num_warps: int) -> None:
    n = programs(run)
    p = np.arange(n, dtype=np.int32)
    run(double_scalar_kernel, (n,), p, num_warps=num_warps)
    np.testing.assert_array_equal(p, 2 * np.arange(n))


@pytest.mark.parametrize("num_warps", [4, 32])
def test_scalar_read_modify_write_under_a_mask(run: Any, num_warps: int) -> None:
    total = programs(run)
    p = np.arange(total, dtype=np.float32)
    n = total - 7
    run(double_scalar_masked_kernel, (total,), p, n, num_warps=num_warps)
    expected = np.arange(total, dtype=np.float32)
    expected[:n] *= 2
    np.testing.assert_array_equal(p, expected)


@pytest.mark.parametrize(("block", "num_warps"), [(32, 4), (16, 4), (64, 8), (1, 4)])
def test_replicated_block_read_modify_write(run: Any, block: int, num_warps: int) -> None:
    grid = programs(run) // 10
    n = grid * block - 3 if block > 1 else grid
    p = np.arange(n, dtype=np.float32)
    run(double_block_kernel, (triton.cdiv(n, block),), p, n, BLOCK=block, num_warps=num_warps)
    np.testing.assert_array_equal(p, 2 * np.arange(n, dtype=np.float32))


def test_reduced_rows_read_modify_write(run: Any) -> None:
    rows, cols, grid = 8, 64, programs(run) // 30
    p = np.arange(rows * grid, dtype=np.int32)
    run(double_rows_kernel, (grid,), p, ROWS=rows, COLS=cols)
    np.testing.assert_array_equal(p, 2 * np.arange(rows * grid) + cols * (cols - 1) // 2)
