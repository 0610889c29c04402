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
