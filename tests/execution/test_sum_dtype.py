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
