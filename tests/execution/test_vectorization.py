"""Vectorized (16-byte) global memory access is only used where it is provably safe.

The axis analysis must prove a thread's elements contiguous, aligned and uniformly masked;
kernels below move the alignment and the mask boundary around with runtime offsets and sizes.
gpusim faults on any misaligned vector access, as a GPU would, so a wrong proof fails here.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl

pytestmark = pytest.mark.execution


@triton.jit
def shifted_copy_kernel(x, out, n, off, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out + off + offs, tl.load(x + off + offs, mask=mask, other=0.0), mask=mask)


@triton.jit
def row_copy_kernel(x, out, M, N, BM: tl.constexpr, BN: tl.constexpr):
    rows = tl.program_id(0) * BM + tl.arange(0, BM)[:, None]
    cols = tl.arange(0, BN)[None, :]
    mask = (rows < M) & (cols < N)
    tl.store(out + rows * N + cols, tl.load(x + rows * N + cols, mask=mask) * 2.0, mask=mask)


@pytest.mark.parametrize("block", [256, 512])
@pytest.mark.parametrize("off", [0, 1, 3, 16, 17])
@pytest.mark.parametrize("n", [1024, 1000, 1023])
def test_shifted_copy(run: Any, n: int, off: int, block: int) -> None:
    rng = np.random.default_rng(n + off)
    x = rng.standard_normal(n + off).astype(np.float32)
    out = np.full(n + off, np.nan, np.float32)
    run(shifted_copy_kernel, (triton.cdiv(n, block),), x, out, n, off, BLOCK=block)
    np.testing.assert_array_equal(out[off:], x[off:])
    assert np.isnan(out[:off]).all()


@pytest.mark.parametrize(("m", "n"), [(64, 64), (50, 64), (64, 60), (33, 17)])
def test_row_copy(run: Any, m: int, n: int) -> None:
    rng = np.random.default_rng(m * n)
    x = rng.standard_normal(m * n).astype(np.float32)
    out = np.full(m * n, np.nan, np.float32)
    run(row_copy_kernel, (triton.cdiv(m, 16),), x, out, m, n, BM=16, BN=64)
    np.testing.assert_allclose(out, 2 * x)


def _gpu_ir(kernel: Any, *args: Any, **meta: Any) -> str:
    return kernel.warmup(*args, grid=(1,), **meta).asm["gpu"]


def test_aligned_accesses_are_vectors_and_others_are_not(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MYTRITON_BACKEND", "gpusim")
    x = np.zeros(4096, np.float32)
    vector = "vector<4xf32>"  # 512 elements over 128 threads: 4 consecutive per thread
    # n and off multiples of 16, arrays 16-byte aligned: 4 elements per access
    assert vector in _gpu_ir(shifted_copy_kernel, x, x, 1024, 16, BLOCK=512)
    # an offset that is not a multiple of 4 elements breaks the alignment
    assert "vector<" not in _gpu_ir(shifted_copy_kernel, x, x, 1024, 3, BLOCK=512)
    # a size that is not a multiple of 16 makes the mask non-uniform over 4 elements
    assert "vector<" not in _gpu_ir(shifted_copy_kernel, x, x, 1000, 16, BLOCK=512)
    # an array that is not 16-byte aligned
    assert "vector<" not in _gpu_ir(shifted_copy_kernel, x[1:], x, 1024, 16, BLOCK=512)
    # rows of a 2-D tile: vectors when the row stride keeps rows aligned
    assert vector in _gpu_ir(row_copy_kernel, x, x, 64, 64, BM=16, BN=64)
    assert "vector<" not in _gpu_ir(row_copy_kernel, x, x, 64, 60, BM=16, BN=64)
