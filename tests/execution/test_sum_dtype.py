"""``tl.sum(x, dtype=...)`` sums in that dtype, as Triton does: booleans and narrow integers
are widened to int32 only when no dtype is given, and a sum in int1 wraps to its parity."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl

pytestmark = pytest.mark.execution


@triton.jit
def sum_dtype_kernel(out, init, n_true, in_dtype: tl.constexpr, out_dtype: tl.constexpr):
    x = tl.full((32, 32), init, dtype=in_dtype)
    tl.store(out + 0, tl.sum(x, dtype=out_dtype).to(tl.int32))
    flags = tl.arange(0, 32) < n_true
    tl.store(out + 1, tl.sum(flags, dtype=out_dtype).to(tl.int32))


@pytest.mark.parametrize(
    ("in_dtype", "out_dtype", "n_true", "expected"),
    [
        (tl.int1, None, 3, [1024, 3]),
        (tl.int1, tl.int1, 3, [0, 1]),
        (tl.int1, tl.int1, 4, [0, 0]),
        (tl.int32, tl.float32, 5, [7 * 1024, 5]),
    ],
)
def test_sum_in_the_given_dtype(
    run: Any, in_dtype: Any, out_dtype: Any, n_true: int, expected: list[int]
) -> None:
    out = np.full(2, -1, np.int32)
    init = 1 if in_dtype == tl.int1 else 7
    run(sum_dtype_kernel, (1,), out, init, n_true, in_dtype=in_dtype, out_dtype=out_dtype)
    np.testing.assert_array_equal(out, expected)


@triton.jit
def wide_sum_kernel(x, out, BLOCK: tl.constexpr):
    v = tl.load(x + tl.arange(0, BLOCK))
    tl.store(out, tl.sum(v, axis=0))


@pytest.mark.parametrize("dt", [np.int64, np.uint64, np.uint32], ids=lambda d: np.dtype(d).name)
def test_wide_integers_sum_in_their_own_dtype(run: Any, dt: Any) -> None:
    """Only integers narrower than 32 bits are widened (the sum of int64s was computed in
    int32: 8 * 2**40 gave 0)."""
    x = np.full(8, 2**40 if np.dtype(dt).itemsize == 8 else 2**29 + 3, dt)
    out = np.zeros(1, dt)
    run(wide_sum_kernel, (1,), x, out, BLOCK=8)
    assert out[0] == x.sum(dtype=dt)


@pytest.mark.parametrize(
    ("dt", "expected"), [(np.uint8, np.uint32), (np.int16, np.int32)], ids=["uint8", "int16"]
)
def test_narrow_integers_sum_in_32_bits_of_their_signedness(
    run: Any, dt: Any, expected: Any
) -> None:
    x = np.full(64, np.iinfo(dt).max, dt)
    out = np.zeros(1, expected)
    run(wide_sum_kernel, (1,), x, out, BLOCK=64)
    assert out[0] == 64 * int(np.iinfo(dt).max)
