"""Tuples returned from ``@jit`` helpers, as in Triton 3.6: a ``NamedTuple`` stays one (the
caller reads its fields by name), built in the ``return`` or first assigned to a variable (where
a Python number in it becomes a scalar), nested or returned from a runtime ``if``; a plain
tuple is indexed, unpacked and measured with ``len``. Triton's conformance test
``test_tuple.py::test_namedtuple`` does the same; mytriton rebuilt every returned tuple as a plain
one (``cannot take attribute `lo` of tuple``).

The expected values are what Triton 3.6's interpreter gives on the same kernel.
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
def make_pair(a, b):
    return Pair(hi=b, lo=a)


@triton.jit
def make_pair_variable(a, b):
    p = Pair(a, b)  # b is a Python number: the assignment makes it a scalar
    return p


@triton.jit
def make_plain(a, b):
    return a, (b, a + b)


@triton.jit
def pick(a, b, flag):
    if flag > 0:
        return Pair(a, b)
    else:
        return Pair(b, a)


@triton.jit
def nested(a, b):
    return Pair(Pair(a, b), b)


@triton.jit
def tuples_kernel(x, out, flag):
    offs = tl.arange(0, 4)
    v = tl.load(x + offs)
    p = make_pair(v, v * 2)
    q = make_pair_variable(v + 1, 3)
    t = make_plain(v, v * 10)
    r = pick(v, v * 3, flag)
    n = nested(v, -v)
    tl.store(out + offs, p.lo + p.hi)
    tl.store(out + 4 + offs, q.hi * q[0])
    tl.store(out + 8 + offs, t[0] + t[1][0] + t[1][1])
    lo, hi = r
    tl.store(out + 12 + offs, lo * 100 + r.hi + (hi - r.hi))
    tl.store(out + 16 + offs, n.lo.hi + n.hi + n.lo.lo)
    tl.store(out + 20 + offs, len(t) + len(p) + offs * 0)


@pytest.mark.parametrize("flag", [5, 0])
def test_returned_tuples_keep_their_kind(run: Any, flag: int) -> None:
    v = np.arange(4, dtype=np.int32)
    out = np.zeros(24, np.int32)
    run(tuples_kernel, (1,), v, out, flag, num_warps=1)
    picked = 103 * v if flag > 0 else 301 * v
    expected = [3 * v, 3 * (v + 1), 22 * v, picked, -v, np.full(4, 4)]
    assert out.reshape(6, 4).tolist() == [list(e) for e in expected]


@triton.jit
def pick_mixed(a, b, flag):
    if flag > 0:
        return Pair(a, b)
    return (b, a)


@triton.jit
def mixed_kernel(x, out, flag):
    v = tl.load(x + tl.arange(0, 4))
    r = pick_mixed(v, v * 3, flag)  # <-
    tl.store(out + tl.arange(0, 4), r[0])


def test_a_namedtuple_and_a_plain_tuple_returned_on_two_paths_is_rejected(run: Any) -> None:
    """Which one the caller gets would depend on a runtime value: mytriton rejects it, naming
    both kinds (every ``return`` of a function gives one type)."""
    x = np.zeros(4, np.int32)
    with pytest.raises(KernelTypeError, match="a Pair of 2 items on one path but a tuple") as e:
        run(mixed_kernel, (1,), x, x.copy(), 0)
    assert e.value.loc is not None
