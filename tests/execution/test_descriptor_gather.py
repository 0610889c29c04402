"""Tensor descriptor rows by offsets (``desc.gather``/``desc.scatter``) and the descriptor's
attributes inside a kernel (``desc.block_shape``/``shape``/``strides``,
``isinstance(desc, tl.tensor_descriptor)``), on every backend, checked against NumPy with
Triton 3.6's semantics: a gathered row is the ``[1, N]`` block load at ``(x, y)`` (padding
where out of bounds), a scattered row its store (out of bounds dropped)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl


def gathered(src: np.ndarray, rows: np.ndarray, y: int, width: int, fill: float) -> np.ndarray:
    """Row ``i``: ``src[rows[i], y:y + width]``, ``fill`` where outside ``src``."""
    out = np.full((len(rows), width), fill, src.dtype)
    for i, r in enumerate(rows):
        for j in range(width):
            if 0 <= r < src.shape[0] and 0 <= y + j < src.shape[1]:
                out[i, j] = src[r, y + j]
    return out


@triton.jit
def gather_rows_kernel(
    out, src, idx, y, X, Y, BLOCK_X: tl.constexpr, BLOCK_Y: tl.constexpr, PAD: tl.constexpr
):
    rows = tl.load(idx + tl.arange(0, BLOCK_X))
    desc = tl.make_tensor_descriptor(src, [X, Y], [Y, 1], [1, BLOCK_Y], padding_option=PAD)
    block = desc.gather(rows, y)
    tl.store(out + tl.arange(0, BLOCK_X)[:, None] * BLOCK_Y + tl.arange(0, BLOCK_Y)[None, :], block)


@pytest.mark.parametrize(
    ("dtype", "width"), [(np.float32, 8), (np.float16, 16), (np.int8, 32), (np.float64, 4)]
)
def test_gather_rows(run: Any, dtype: Any, width: int) -> None:
    """Repeated, negative and too-large rows, and columns running past the right edge."""
    x, ycols = 13, 3 * width
    src = (np.arange(x * ycols) % 101).astype(dtype).reshape(x, ycols)
    rows = np.array([3, 1, 1, 13, -1, 12, 0, 40, 7, 2, 2, -5, 9, 11, 4, 6], np.int32)
    y = 2 * width + width // 2  # the right half of each row is out of bounds
    out = np.full((16, width), 77, dtype)
    run(
        gather_rows_kernel, (1,), out, src, rows, y, x, ycols, BLOCK_X=16, BLOCK_Y=width, PAD="zero"
    )
    np.testing.assert_array_equal(out, gathered(src, rows, y, width, 0))


def test_gather_nan_padding(run: Any) -> None:
    src = np.random.default_rng(1).standard_normal((9, 24)).astype(np.float32)
    rows = np.array([8, 9, 0, -1, 4, 4, 100, 1], np.int32)
    out = np.zeros((8, 16), np.float32)
    run(gather_rows_kernel, (1,), out, src, rows, 16, 9, 24, BLOCK_X=8, BLOCK_Y=16, PAD="nan")
    np.testing.assert_array_equal(out, gathered(src, rows, 16, 16, np.nan))


@triton.jit
def scatter_rows_kernel(out, src, idx, y, X, Y, BLOCK_X: tl.constexpr, BLOCK_Y: tl.constexpr):
    rows = tl.load(idx + tl.arange(0, BLOCK_X))
    block = tl.load(src + tl.arange(0, BLOCK_X)[:, None] * BLOCK_Y + tl.arange(0, BLOCK_Y)[None, :])
    desc = tl.make_tensor_descriptor(out, [X, Y], [Y, 1], [1, BLOCK_Y])
    desc.scatter(block, rows, y)


@pytest.mark.parametrize(("dtype", "width"), [(np.float32, 8), (np.int8, 32)])
def test_scatter_rows(run: Any, dtype: Any, width: int) -> None:
    """Distinct rows; those outside the tensor and the columns past its edge are dropped."""
    x, ycols = 10, 2 * width
    rows = np.array([4, -1, 9, 0, 10, 2, 7, 1], np.int32)
    src = (np.arange(8 * width) % 113 + 1).astype(dtype).reshape(8, width)
    y = width + width // 4
    out = np.zeros((x, ycols), dtype)
    run(scatter_rows_kernel, (1,), out, src, rows, y, x, ycols, BLOCK_X=8, BLOCK_Y=width)
    ref = np.zeros_like(out)
    for i, r in enumerate(rows):
        if 0 <= r < x:
            n = min(width, ycols - y)
            ref[r, y : y + n] = src[i, :n]
    np.testing.assert_array_equal(out, ref)


@triton.jit
def gather_dot_kernel(
    a, b, c, K: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr
):
    """c = a @ b with both operands gathered row by row (Triton's gather-dot pipeline test)."""
    a_desc = tl.make_tensor_descriptor(a, [BM, K], [K, 1], [1, BK])
    b_desc = tl.make_tensor_descriptor(b, [K, BN], [BN, 1], [1, BN])
    acc = tl.zeros((BM, BN), tl.float32)
    for k in range(0, K, BK):
        acc = tl.dot(
            a_desc.gather(tl.arange(0, BM), k), b_desc.gather(tl.arange(0, BK) + k, 0), acc
        )
    tl.store(c + tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :], acc)


def test_gather_dot(run: Any) -> None:
    rng = np.random.default_rng(2)
    a = rng.integers(-4, 5, (16, 64)).astype(np.float32)
    b = rng.integers(-4, 5, (64, 16)).astype(np.float32)
    c = np.zeros((16, 16), np.float32)
    run(gather_dot_kernel, (1,), a, b, c, K=64, BM=16, BN=16, BK=16)
    np.testing.assert_array_equal(c, a @ b)


@triton.jit
def rows_of(desc: tl.tensor_descriptor, first, BLOCK_X: tl.constexpr):
    """A helper taking a descriptor (annotated as Triton's type)."""
    tl.static_assert(isinstance(desc, tl.tensor_descriptor))
    return desc.gather(first + tl.arange(0, BLOCK_X), 0)


@triton.jit
def attributes_kernel(out, info, src, M, N, BM: tl.constexpr, BN: tl.constexpr):
    """The block load at (BM, BN) of src and rows BM.. of its first BN columns, after
    compile-time checks of the descriptor's attributes (Triton's test_tensor_descriptor_load
    pattern); ``info`` gets the runtime shape and strides."""
    desc = tl.make_tensor_descriptor(src, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    assert desc.block_shape == [BM, BN]  # a compile-time comparison, as in Triton
    tl.static_assert(desc.block_shape == (BM, BN))
    tl.static_assert(desc.block_shape != [BN, BM])
    tl.static_assert(desc.block_shape[-1] == BN)
    tl.static_assert(len(desc.block_shape) == 2)
    tl.static_assert(isinstance(desc, tl.tensor_descriptor))
    tl.static_assert(not isinstance(src, tl.tensor_descriptor))
    tl.store(info, desc.shape[0])
    tl.store(info + 1, desc.shape[1])
    tl.store(info + 2, desc.strides[0])
    tl.store(info + 3, desc.strides[1])
    block = desc.load([BM, BN])
    tl.store(out + tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :], block)
    rows = rows_of(tl.make_tensor_descriptor(src, [M, N], [N, 1], [1, BN]), BM, BM)
    tl.store(out + BM * BN + tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :], rows)


def test_descriptor_attributes(run: Any) -> None:
    m, n = 24, 32
    src = np.arange(m * n, dtype=np.float32).reshape(m, n)
    out = np.zeros((16, 16), np.float32)
    info = np.zeros(4, np.int64)
    run(attributes_kernel, (1,), out, info, src, m, n, BM=8, BN=16)
    np.testing.assert_array_equal(out[:8], src[8:16, 16:32])
    np.testing.assert_array_equal(out[8:], src[8:16, 0:16])
    np.testing.assert_array_equal(info, [m, n, n, 1])


def descriptor_gather_warmups() -> list[Any]:
    """The kernels above compiled once each (compile-only: tests/cuda checks the C++)."""
    f32 = np.zeros((16, 64), np.float32)
    i32 = np.zeros(16, np.int32)
    return [
        gather_rows_kernel.warmup(
            f32, f32, i32, 8, 16, 64, BLOCK_X=16, BLOCK_Y=16, PAD="nan", grid=(1,)
        ),
        scatter_rows_kernel.warmup(f32, f32, i32, 8, 16, 64, BLOCK_X=8, BLOCK_Y=16, grid=(1,)),
        gather_dot_kernel.warmup(f32, f32, f32, K=64, BM=16, BN=16, BK=16, grid=(1,)),
    ]
