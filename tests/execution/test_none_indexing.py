"""``x[None, :]``-style indexing counts positions as Triton does: the i-th index that is None
inserts a size-1 dimension at position i and a ``:`` past the last dimension does nothing, so
``z_ptr[None, None, :]`` on a scalar pointer is a [1, 1] block (Triton's own ``test_reduce``
stores ``axis=None, keep_dims=True`` results that way)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl

pytestmark = pytest.mark.execution


@triton.jit
def keep_dims_total_kernel(x_ptr, z_ptr, M: tl.constexpr, N: tl.constexpr):
    rows = tl.arange(0, M)[:, None]
    cols = tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + rows * N + cols)
    total = tl.sum(x, axis=None, keep_dims=True)  # [1, 1]
    tl.store(z_ptr[None, None, :], total)


@triton.jit
def extra_slices_kernel(x_ptr, z_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)[:, :]  # still rank 1, as in Triton
    tl.store(z_ptr + offs, tl.load(x_ptr + offs) * 2)


def test_scalar_pointer_indexed_with_none_is_a_block(run: Any) -> None:
    x = np.arange(32, dtype=np.int32).reshape(4, 8)
    z = np.zeros(1, np.int32)
    run(keep_dims_total_kernel, (1,), x, z, M=4, N=8)
    assert z[0] == x.sum()


def test_full_slices_past_the_rank_do_nothing(run: Any) -> None:
    x = np.arange(16, dtype=np.float32)
    z = np.zeros(16, np.float32)
    run(extra_slices_kernel, (1,), x, z, N=16)
    np.testing.assert_array_equal(z, x * 2)


@triton.jit
def none_slices_kernel(x_ptr, z_ptr, N: tl.constexpr, NOTHING: tl.constexpr):
    """Every slice of Nones keeps a dimension; a compile-time None inserts one."""
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    a = x[None, None:]  # [1, N]
    b = x[None, :None, NOTHING]  # [1, N, 1]
    c = x[::None, None]  # [N, 1]
    d = x[None:None:None, NOTHING]  # [N, 1]
    tl.static_assert(a.shape == [1, N])
    tl.static_assert(b.shape == [1, N, 1])
    # [N, N] outer sums: row i, column j holds x[i] + 10 * x[j]
    grid = c + 10 * a
    grid2 = d + 10 * tl.reshape(b, (1, N))
    rows = tl.arange(0, N)[:, None]
    cols = tl.arange(0, N)[None, :]
    tl.store(z_ptr + rows * N + cols, grid)
    tl.store(z_ptr + N * N + rows * N + cols, grid2)


@triton.jit
def scalar_none_kernel(x_ptr, z_ptr):
    """A scalar's first None makes a one-element block, wherever it stands (Triton's rule)."""
    s = tl.load(x_ptr)
    one = s[None]
    two = s[None, None]
    late = s[:, None]
    tl.static_assert(one.shape == [1])
    tl.static_assert(two.shape == [1, 1])
    tl.static_assert(late.shape == [1])
    tl.store(z_ptr + tl.arange(0, 1), one + 1)
    tl.store(z_ptr + 1 + tl.arange(0, 1)[:, None], two + 2)
    tl.store(z_ptr + 2 + tl.arange(0, 1), late + 3)


def test_slices_of_nones_keep_a_dimension(run: Any) -> None:
    x = np.arange(8, dtype=np.int32)
    z = np.zeros(2 * 64, np.int32)
    run(none_slices_kernel, (1,), x, z, N=8, NOTHING=None)
    expected = x[:, None] + 10 * x[None, :]
    np.testing.assert_array_equal(z[:64].reshape(8, 8), expected)
    np.testing.assert_array_equal(z[64:].reshape(8, 8), expected)


def test_scalar_indexed_with_none(run: Any) -> None:
    x = np.array([5], np.int32)
    z = np.zeros(3, np.int32)
    run(scalar_none_kernel, (1,), x, z)
    np.testing.assert_array_equal(z, [6, 7, 8])
