"""i32 arithmetic wraps on every backend (as in Triton and LLVM): no backend may assume that
signed overflow cannot happen (the CUDA C++ printer once let NVRTC fold ``v + 1 > v``)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl

pytestmark = pytest.mark.execution


@triton.jit
def overflow_kernel(x, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    v = tl.load(x + offs)
    tl.store(out + offs, tl.where(v + 1 > v, 1, 0))
    tl.store(out + BLOCK + offs, (v * 4) // 4)
    tl.store(out + 2 * BLOCK + offs, tl.where(v - 1 < v, 1, 0))
    tl.store(out + 3 * BLOCK + offs, -v)


def test_i32_overflow_wraps(run: Any) -> None:
    block = 4
    x = np.array([2**31 - 1, 2**30, -(2**31), 5], np.int32)
    out = np.zeros(4 * block, np.int32)
    run(overflow_kernel, (1,), x, out, BLOCK=block)
    wide = x.astype(np.int64)

    def wrap(v: np.ndarray) -> np.ndarray:
        return ((v + 2**31) % 2**32 - 2**31).astype(np.int64)

    def c_div(a: np.ndarray, b: int) -> np.ndarray:
        return np.sign(a) * (np.abs(a) // abs(b))

    expected = np.concatenate(
        [
            (wrap(wide + 1) > wide).astype(np.int64),
            c_div(wrap(wide * 4), 4),
            (wrap(wide - 1) < wide).astype(np.int64),
            wrap(-wide),
        ]
    )
    assert expected[0] == 0 and expected[block + 1] == 0
    np.testing.assert_array_equal(out, expected.astype(np.int32))
