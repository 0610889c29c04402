"""The loop variable of ``range`` is an int32 value however the loop is compiled (unrolled for
constant bounds, or an ``scf.for``): C division, wrapping and ``.to()`` as in Triton.
``tl.static_range`` binds a compile-time integer instead."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl

pytestmark = pytest.mark.execution


@triton.jit
def loop_variable_kernel(out, K, KC: tl.constexpr):
    acc = 0
    for k in range(4):  # constant bounds: unrolled
        acc = acc * 10 + (k - 2) // 2 + 5
    acc_rt = 0
    for k in range(K):  # runtime bound: scf.for
        acc_rt = acc_rt * 10 + (k - 2) // 2 + 5
    half = 0.0
    wrapped = 0
    for k in range(KC):  # constexpr bound: unrolled
        half += k.to(tl.float32) * 0.5
        wrapped += k * 2**30
    static = 0
    for k in tl.static_range(3):
        tl.static_assert(k < 3)  # a compile-time int
        static += k * 100
    tl.store(out + 0, acc)
    tl.store(out + 1, acc_rt)
    tl.store(out + 2, (half * 2.0).to(tl.int32))
    tl.store(out + 3, wrapped)
    tl.store(out + 4, static)


def c_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def wrap32(v: int) -> int:
    return (v + 2**31) % 2**32 - 2**31


def test_range_variable_is_int32(run: Any) -> None:
    out = np.zeros(5, np.int32)
    run(loop_variable_kernel, (1,), out, 4, KC=4)
    acc = 0
    for k in range(4):
        acc = acc * 10 + c_div(k - 2, 2) + 5
    wrapped = 0
    for k in range(4):
        wrapped = wrap32(wrapped + wrap32(k * 2**30))
    expected = [acc, acc, sum(range(4)), wrapped, 300]
    np.testing.assert_array_equal(out, np.array(expected, np.int32))
    assert out[0] == 4555
