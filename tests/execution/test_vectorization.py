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


# ---------------------------------------------------------------- 16- and 8-bit elements

#: element types moved as packed vectors (fp8 in its byte), by their NumPy / ml_dtypes name
NARROW = ["float16", "bfloat16", "int16", "uint16", "int8", "uint8", "float8_e4m3fn"]


def _dtype(name: str) -> np.dtype:
    if name in ("bfloat16", "float8_e4m3fn"):
        return np.dtype(getattr(pytest.importorskip("ml_dtypes"), name))
    return np.dtype(name)


def _other(dtype: np.dtype) -> float:
    """-1 of ``dtype``, as an ``other`` Triton accepts (it converts fp8 only from floats)."""
    return -1 if dtype.kind in "iu" else -1.0


def _distinct(n: int, dtype: np.dtype) -> np.ndarray:
    """``n`` values of ``dtype``, neighbours different (so a swapped pair shows), none -1."""
    if dtype.kind in "iu":
        return (np.arange(n) % 100 + 1).astype(dtype)
    return ((np.arange(n) % 31) * 0.25 + 0.5).astype(dtype)


@triton.jit
def padded_copy_kernel(x, out, n, off, BLOCK: tl.constexpr, OTHER: tl.constexpr = -1):
    """``out[off + i] = x[off + i]`` for ``i < n``, ``OTHER`` (the load's ``other``) after."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out + off + offs, tl.load(x + off + offs, mask=offs < n, other=OTHER))


@triton.jit
def strided_row_copy_kernel(x, out, M, stride, BM: tl.constexpr, BN: tl.constexpr):
    """``out[r, :BN] = x[r, :BN]`` for rows ``r < M`` of length ``stride``."""
    rows = tl.program_id(0) * BM + tl.arange(0, BM)[:, None]
    offsets = rows * stride + tl.arange(0, BN)[None, :]
    mask = rows < M
    tl.store(out + offsets, tl.load(x + offsets, mask=mask), mask=mask)


@pytest.mark.parametrize("name", NARROW)
@pytest.mark.parametrize(
    ("n", "off", "block"),
    [
        (4096, 0, 1024),  # 8 elements per thread: one 16-byte vector of 16-bit ones
        (4096, 16, 2048),  # 16 per thread: one vector of bytes
        (4096, 0, 256),  # 2 per thread (vector<2xi8>: one 16-bit word)
        (4000, 0, 1024),  # n no multiple of 16: the mask may change inside a vector
        (4095, 16, 512),
        (4096, 1, 1024),  # offsets breaking the alignment: one element at a time
        (4096, 8, 2048),
        (100, 0, 256),
    ],
)
def test_narrow_padded_copy(run: Any, name: str, n: int, off: int, block: int) -> None:
    """``x`` holds exactly ``off + n`` elements: a vector read past its end faults in gpusim,
    as does a misaligned one; masked-off elements are the load's ``other``."""
    dtype = _dtype(name)
    grid = triton.cdiv(n, block)
    x = _distinct(off + n, dtype)
    out = np.zeros(off + grid * block, dtype)
    other = _other(dtype)
    run(padded_copy_kernel, (grid,), x, out, n, off, BLOCK=block, OTHER=other)
    expected = np.concatenate(
        [np.zeros(off, dtype), x[off:], np.full(grid * block - n, other).astype(dtype)]
    )
    np.testing.assert_array_equal(out.view(np.uint8), expected.view(np.uint8))


@pytest.mark.parametrize("name", ["float16", "int8"])
@pytest.mark.parametrize("stride", [16, 17, 24, 32, 48])
def test_narrow_strided_rows(run: Any, name: str, stride: int) -> None:
    """Rows start aligned only when the stride is provably a multiple of 16 elements."""
    dtype = _dtype(name)
    m, bn = 37, 16
    x = _distinct(m * stride, dtype)
    out = np.zeros(m * stride, dtype)
    run(strided_row_copy_kernel, (triton.cdiv(m, 8),), x, out, m, stride, num_warps=1, BM=8, BN=bn)
    expected = np.zeros((m, stride), dtype)
    expected[:, :bn] = x.reshape(m, stride)[:, :bn]
    np.testing.assert_array_equal(out.view(np.uint8), expected.reshape(-1).view(np.uint8))


# the vector a 16-byte access of each element type is (fp8 moves as its bytes)
_VECTOR16 = {
    "float16": "vector<8xf16>",
    "bfloat16": "vector<8xbf16>",
    "int16": "vector<8xi16>",
    "uint16": "vector<8xi16>",
    "int8": "vector<16xi8>",
    "uint8": "vector<16xi8>",
    "float8_e4m3fn": "vector<16xi8>",
}


@pytest.mark.parametrize("name", NARROW)
def test_narrow_aligned_accesses_are_16_byte_vectors(
    monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    monkeypatch.setenv("MYTRITON_BACKEND", "gpusim")
    dtype = _dtype(name)
    x = np.zeros(8192, dtype)
    vector = _VECTOR16[name]
    lanes = int(vector.split("<")[1].split("x")[0])
    block = 128 * lanes  # 4 warps: `lanes` consecutive elements per thread
    other = _other(dtype)
    ir = _gpu_ir(padded_copy_kernel, x, x, 4096, 16, BLOCK=block, OTHER=other)
    # one vector load and one vector store per thread, 16-byte aligned, nothing scalar
    loads = [line for line in ir.splitlines() if '"llvm.load"' in line]
    stores = [line for line in ir.splitlines() if '"llvm.store"' in line]
    assert len(loads) == 1 and f"alignment = 16 : i64}}> : (!llvm.ptr<1>) -> {vector}" in loads[0]
    assert len(stores) == 1 and f"alignment = 16 : i64}}> : ({vector}, !llvm.ptr<1>)" in stores[0]
    # fewer elements per thread: a smaller vector of the same elements
    half = vector.replace(f"<{lanes}x", f"<{lanes // 2}x")
    assert f"-> {half}" in _gpu_ir(
        padded_copy_kernel, x, x, 4096, 16, BLOCK=block // 2, OTHER=other
    )
    # an offset, a size or an array that breaks the alignment or the mask's uniformity
    assert "vector<" not in _gpu_ir(padded_copy_kernel, x, x, 4096, 8, BLOCK=block, OTHER=other)
    assert "vector<" not in _gpu_ir(padded_copy_kernel, x, x, 4088, 16, BLOCK=block, OTHER=other)
    assert "vector<" not in _gpu_ir(
        padded_copy_kernel, x[1:], x, 4096, 16, BLOCK=block, OTHER=other
    )


def test_bool_accesses_are_never_vectors(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MYTRITON_BACKEND", "gpusim")
    x = np.zeros(8192, np.bool_)
    assert "vector<" not in _gpu_ir(shifted_copy_kernel, x, x, 4096, 16, BLOCK=2048)
