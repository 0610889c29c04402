"""Tuples (nested, ``NamedTuple``\\ s) and ``@jit`` functions as launch arguments, as Triton
takes them: each element specialized as an argument of its own (arrays, ints, floats, None,
constexprs), the runtime ones passed flattened; and ``tl.tuple`` in a kernel."""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.errors import KernelTypeError, LaunchError
from mytriton.tools.tensor_descriptor import TensorDescriptor

pytestmark = pytest.mark.execution


@triton.jit
def tuple_assign(XPtrs, YPtrs, values):
    X0, X1 = XPtrs
    x0, x1, _ = values
    tl.store(X0, x0)
    tl.store(X1, x1)
    Y0, Y1, Y2 = YPtrs
    y = x0, 10, x1
    tl.store(Y0, y[0])
    tl.store(Y1, y[1])
    tl.store(Y2, y[2])


def test_tuples_of_arrays_and_values(run: Any) -> None:
    x = tuple(np.zeros(1, np.float32) for _ in range(2))
    y = tuple(np.zeros(1, np.float32) for _ in range(3))
    run(tuple_assign, (1,), x, y, (2.0, 3.0, None))
    assert [a[0] for a in x] == [2.0, 3.0] and [a[0] for a in y] == [2.0, 10.0, 3.0]
    # the same plan, other arrays and values: nothing of the first launch is reused
    x2 = tuple(np.zeros(1, np.float32) for _ in range(2))
    run(tuple_assign, (1,), x2, y, (5.0, 6.0, None))
    assert [a[0] for a in x2] == [5.0, 6.0] and [a[0] for a in y] == [5.0, 10.0, 6.0]
    assert [a[0] for a in x] == [2.0, 3.0]


@triton.jit
def nested(out, n, t, c: tl.constexpr):
    tl.static_assert(t[1][1] is None)
    tl.static_assert(t[1][3] == 4)
    tl.store(out + 0, tl.load(t[0]))
    tl.store(out + 1, t[1][0])
    tl.store(out + 2, tl.load(t[1][2]))
    tl.store(out + 3, c + n + t[2])


def test_nested_tuple_with_constants(run: Any) -> None:
    a = np.array([8], np.int32)
    b = np.array([12], np.int32)
    out = np.zeros(4, np.int32)
    nested.cache.clear()  # another backend's run of this test may have compiled both already
    run(nested, (1,), out, 1, (a, (7, None, b, tl.constexpr(4)), 1), c=20)
    np.testing.assert_array_equal(out, [8, 7, 12, 22])
    first = len(nested.cache)
    run(nested, (1,), out, 1, (a, (1, None, b, tl.constexpr(4)), 5), c=20)  # 1 compiled in
    np.testing.assert_array_equal(out, [8, 1, 12, 26])
    assert len(nested.cache) == first + 1


class Vector(NamedTuple):
    ptr: Any
    n: int


@triton.jit
def scale(x, a):
    return x * a


@triton.jit
def apply(fn, src, dst, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < src.n
    made = Vector(ptr=dst.ptr, n=dst.n)
    tl.store(made.ptr + offs, fn(tl.load(src.ptr + offs, mask=mask), 3.0), mask=mask)


def test_named_tuples_and_a_jit_function_argument(run: Any) -> None:
    x = np.arange(16, dtype=np.float32)
    y = np.zeros(16, np.float32)
    run(apply, (1,), scale, Vector(x, 10), Vector(y, 10), BLOCK=16)
    np.testing.assert_array_equal(y, np.where(np.arange(16) < 10, x * 3.0, 0.0))


@triton.jit
def tl_tuples(out):
    t = tl.tuple((4, 5)) + (6, 7)  # noqa: RUF005 (the tuple + under test)
    for i in tl.static_range(4):
        tl.store(out + i, t[i])
    tl.store(out + 4, tl.tuple((1, 2)) == (1, 2))
    tl.store(out + 5, tl.tuple([tl.load(out + 0), 2])[0] + 1)


def test_tl_tuple(run: Any) -> None:
    out = np.zeros(6, np.int32)
    run(tl_tuples, (1,), out)
    np.testing.assert_array_equal(out, [4, 5, 6, 7, 1, 5])
    assert tl.tuple((1, 2)) == (1, 2)


@triton.jit
def tl_tuple_of_a_number(out):
    tl.store(out, tl.tuple(3)[0])


def test_errors(run: Any) -> None:
    out = np.zeros(4, np.float32)
    with pytest.raises(KernelTypeError, match=r"(?s)test_tuple_arguments.py:\d+.*tl.tuple takes"):
        run(tl_tuple_of_a_number, (1,), out)
    desc = TensorDescriptor.from_tensor(np.zeros((16, 16), np.float32), [16, 16])
    with pytest.raises(LaunchError, match=r"argument `XPtrs\[0\]`: a tensor descriptor inside"):
        run(tuple_assign, (1,), (desc, out), (out, out, out), (1.0, 2.0, None))
