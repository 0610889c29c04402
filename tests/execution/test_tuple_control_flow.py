"""Tuples (and ``NamedTuple``s) of runtime values through runtime control flow, as Triton 3.6
compiles them (it flattens a ``tl.tuple`` into its IR values): reassigned under a runtime
``if``, carried by ``for`` and ``while`` loops (one that may ``break`` too), nested, holding
pointers, and returned on several paths, where a Python number in one path's tuple meets a
runtime value in the other's. mytriton rejected all of them (``holds a compile-time tuple``).

The expected values are what Triton 3.6's interpreter gives on the same kernels.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.errors import KernelTypeError

pytestmark = pytest.mark.execution


class Pair(NamedTuple):
    lo: Any
    hi: Any


@triton.jit
def swap(p):
    return Pair(p.hi, p.lo)


@triton.jit
def first_big(v, n):
    acc = Pair(v, v * 0)
    i = 0
    while i < n:
        acc = Pair(acc.lo + 1, acc.hi + acc.lo)
        if tl.max(acc.hi) > 40:
            break
        i += 1
    return acc


@triton.jit
def early(v, n):
    if n > 4:
        return (v, (v, 1.5))  # 1.5 meets the other path's float32 scalar
    t = (v * 2, (v + 1, 2.5))
    return t


@triton.jit
def one_path(v, n):
    if n > 4:
        return v * 0
    else:
        p = Pair(v, v + 1)  # the other path returned: only this one reaches the end
    return p.lo + p.hi


@triton.jit
def control_flow_kernel(x, out, n):
    offs = tl.arange(0, 4)
    v = tl.load(x + offs)
    p = Pair(v, v * 2)
    if n > 0:
        p = swap(p)
    t = (v, (v + 1, 0))
    i = 0
    while i < n:
        t = (t[1][0], (t[0] * 2, t[1][1] + 1))
        i += 1
    s = (v, x)
    for j in range(n):
        s = (s[0] + tl.load(s[1] + j % 4), s[1])
    a = first_big(v, n)
    e = early(v, n)
    tl.store(out + offs, p.lo * 100 + p.hi)
    tl.store(out + 4 + offs, t[0] * 1000 + t[1][0] * 10 + t[1][1])
    tl.store(out + 8 + offs, s[0])
    tl.store(out + 12 + offs, a.lo * 1000 + a.hi)
    tl.store(out + 16 + offs, (e[0] * 10 + e[1][0] + e[1][1] * 100).to(tl.int32))
    tl.store(out + 20 + offs, one_path(v, n))


# n, Triton's rows
CASES = [
    (
        0,
        [
            [0, 102, 204, 306],
            [10, 1020, 2030, 3040],
            [0, 1, 2, 3],
            [0, 1000, 2000, 3000],
            [251, 272, 293, 314],
            [1, 3, 5, 7],
        ],
    ),
    (
        3,
        [
            [0, 201, 402, 603],
            [2003, 4043, 6083, 8123],
            [3, 4, 5, 6],
            [3003, 4006, 5009, 6012],
            [251, 272, 293, 314],
            [1, 3, 5, 7],
        ],
    ),
    (
        7,
        [
            [0, 201, 402, 603],
            [8007, 16167, 24327, 32487],
            [9, 10, 11, 12],
            [7021, 8028, 9035, 10042],
            [150, 161, 172, 183],
            [0, 0, 0, 0],
        ],
    ),
]


@pytest.mark.parametrize(("n", "expected"), CASES, ids=[f"n{c[0]}" for c in CASES])
def test_tuples_through_runtime_control_flow(run: Any, n: int, expected: list) -> None:
    x = np.arange(4, dtype=np.int32)
    out = np.zeros(24, np.int32)
    run(control_flow_kernel, (1,), x, out, n, num_warps=1)
    assert out.reshape(6, 4).tolist() == expected


@triton.jit
def retyped_in_loop_kernel(x, out, n):
    v = tl.load(x + tl.arange(0, 4))
    t = (v, 1)
    for _i in range(n):  # <-
        t = (t[0] + 1, 2.5)
    tl.store(out + tl.arange(0, 4), t[0])


@triton.jit
def resized_in_if_kernel(x, out, n):
    v = tl.load(x + tl.arange(0, 4))
    t = (v, v)
    if n > 2:  # <-
        t = (v, v, v)
    tl.store(out + tl.arange(0, 4), t[0])


@pytest.mark.parametrize(
    ("kernel", "words"),
    [
        (retyped_in_loop_kernel, "before the loop but a tuple (int32 block of shape [4], fp32"),
        (resized_in_if_kernel, "in the `if` branch but a tuple (int32 block of shape [4], int32"),
    ],
    ids=["loop", "if"],
)
def test_a_tuple_keeps_its_type(run: Any, kernel: Any, words: str) -> None:
    """Each element keeps its type, and the tuple its length, as any variable does."""
    x = np.zeros(4, np.int32)
    with pytest.raises(KernelTypeError, match=r"`t` is a tuple") as e:
        run(kernel, (1,), x, x.copy(), 5)
    assert words in str(e.value) and e.value.loc is not None
