"""``tl.max``/``tl.min`` of booleans, as in Triton 3.6: without indices they reduce the int32
zero-extension (narrow types reduce in 32 bits), so ``max`` is any and ``min`` all, as int32;
with ``return_indices`` (and ``tl.argmax``/``tl.argmin``) the values stay int1 and compare as
unsigned (false < true); ``tl.reduce`` with ``tl.maximum`` keeps int1. Expected values and dtypes
are Triton 3.6's (its interpreter)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl

pytestmark = pytest.mark.execution


@triton.jit
def _or_by_maximum(a: Any, b: Any) -> Any:
    return tl.maximum(a, b)


@triton.jit
def bool_reductions_kernel(x_ptr, o_ptr):
    b = tl.load(x_ptr + tl.arange(0, 8)).reshape(2, 4) != 0
    rows = tl.arange(0, 2)
    hi = tl.max(b, axis=1)
    lo = tl.min(b, axis=1)
    tl.static_assert(hi.dtype == tl.int32 and lo.dtype == tl.int32)
    tl.store(o_ptr + rows, hi)
    tl.store(o_ptr + 2 + rows, lo)
    hv, hi_at = tl.max(b, axis=1, return_indices=True)
    lv, lo_at = tl.min(b, axis=1, return_indices=True)
    tl.static_assert(hv.dtype == tl.int1 and lv.dtype == tl.int1)
    tl.static_assert(hi_at.dtype == tl.int32 and lo_at.dtype == tl.int32)
    tl.store(o_ptr + 4 + rows, hv.to(tl.int32))
    tl.store(o_ptr + 6 + rows, hi_at)
    tl.store(o_ptr + 8 + rows, lv.to(tl.int32))
    tl.store(o_ptr + 10 + rows, lo_at)
    tl.store(o_ptr + 12 + rows, tl.argmax(b, axis=1))
    tl.store(o_ptr + 14 + rows, tl.argmin(b, axis=1))
    fast = tl.max(b, axis=1, return_indices=True, return_indices_tie_break_left=False)[0]
    tl.store(o_ptr + 16 + rows, fast.to(tl.int32))
    tl.store(o_ptr + 18, tl.max(b))
    tl.store(o_ptr + 19, tl.min(b))
    any_ = tl.reduce(b, 1, _or_by_maximum)
    tl.static_assert(any_.dtype == tl.int1)
    tl.store(o_ptr + 20 + rows, (~any_).to(tl.int32))


@pytest.mark.parametrize(
    ("x", "expected"),
    [
        (
            [0, 1, 0, 1, 0, 0, 0, 0],
            [1, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 0, 0, 1],
        ),
        (
            [1, 1, 1, 1, 1, 0, 1, 1],
            [1, 1, 1, 0, 1, 1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1, 0, 0, 0],
        ),
    ],
    ids=["some", "most"],
)
def test_max_min_of_booleans(run: Any, x: list, expected: list) -> None:
    out = np.full(22, 9, np.int32)
    run(bool_reductions_kernel, (1,), np.array(x, np.int32), out, num_warps=1)
    assert out.tolist() == expected
