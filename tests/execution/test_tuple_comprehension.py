"""``[f(v) for v in t]`` over a tuple in a kernel: the tuple of results, unrolled while
compiling (Triton 3.6's rule: one ``for``, over a tuple; its ``test_tuple.py::test_index``)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.errors import UnsupportedSyntaxError
from tests.frontend.util import expect_error

pytestmark = pytest.mark.execution


@triton.jit
def _increment(values):
    return tl.tuple([v + 1 for v in values])


@triton.jit
def _store_all(ptrs, values):
    for i in tl.static_range(len(values)):
        tl.store(ptrs[i], values[i])


@triton.jit
def increment_kernel(ptrs, values):
    _store_all(ptrs, _increment(values))


@pytest.mark.parametrize("size", [0, 1, 2, 4])
def test_comprehension_over_runtime_tuple(run: Any, size: int) -> None:
    values = tuple(float(i) * 1.5 for i in range(size))
    outs = tuple(np.zeros(1, np.float32) for _ in values)
    run(increment_kernel, (1,), outs, values)
    assert [o[0] for o in outs] == [v + 1 for v in values]


@triton.jit
def blocks_kernel(x, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    v = tl.load(x + offs)
    scaled = [v * k for k in (1.0, 2.0, 3.0)]  # a tuple of blocks
    pairs = [a + b for a, b in ((v, v), (v, 1.0))]  # targets unpack
    tl.store(out + offs, scaled[0] + scaled[1] + scaled[2] + pairs[0] + pairs[1])


def test_comprehension_of_blocks(run: Any) -> None:
    x = np.arange(8, dtype=np.float32)
    out = np.zeros(8, np.float32)
    run(blocks_kernel, (1,), x, out, BLOCK=8)
    np.testing.assert_array_equal(out, 6 * x + 2 * x + x + 1)


@triton.jit
def scoped_kernel(x, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    v = tl.load(x + offs)
    t = [v + 100.0 for v in (1.0, 2.0)]
    tl.store(out + offs, v + t[1])  # `v` is the block again, as in Python


def test_comprehension_variable_does_not_leak(run: Any) -> None:
    x = np.arange(8, dtype=np.float32)
    out = np.zeros(8, np.float32)
    run(scoped_kernel, (1,), x, out, BLOCK=8)
    np.testing.assert_array_equal(out, x + 102.0)


@triton.jit
def two_fors_kernel(x, out, BLOCK: tl.constexpr):
    t = [a * b for a in (1, 2) for b in (3, 4)]  # <-  # noqa: F841


@triton.jit
def filtered_kernel(x, out, BLOCK: tl.constexpr):
    t = [a for a in (1, 2) if a > 1]  # <-  # noqa: F841


@triton.jit
def over_range_kernel(x, out, BLOCK: tl.constexpr):
    t = [a for a in range(3)]  # <-  # noqa: F841


@triton.jit
def over_block_kernel(x, out, BLOCK: tl.constexpr):
    t = [a for a in tl.arange(0, BLOCK)]  # <-  # noqa: F841


@pytest.mark.parametrize(
    ("kernel", "words", "at"),
    [
        (two_fors_kernel, ("several `for`s",), "["),
        (filtered_kernel, ("`if`",), "["),
        (over_range_kernel, ("over range", "only tuples"), "range"),
        (over_block_kernel, ("over a block", "only tuples"), "tl.arange"),
    ],
    ids=["two-fors", "if", "range", "block"],
)
def test_comprehension_errors(kernel: Any, words: tuple[str, ...], at: str) -> None:
    x = np.zeros(8, np.float32)
    expect_error(kernel, (x, x), {"BLOCK": 8}, UnsupportedSyntaxError, words, at)
