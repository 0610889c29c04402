"""Conversions Triton 3.6 refuses between pointers and other types: typed, at the kernel line
(an int32 address, which Triton's verifier rejects after the fact, included)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.errors import KernelTypeError
from tests.frontend.util import XI, X, expect_error, ops, tt


@triton.jit
def int32_to_pointer_kernel(x):
    tl.load(x).to(tl.pointer_type(tl.float32))  # <-


@triton.jit
def float_to_pointer_kernel(x):
    tl.load(x).to(tl.pointer_type(tl.float32), bitcast=True)  # <-


@triton.jit
def pointer_to_int32_kernel(x):
    x.to(tl.int32)  # <-


@triton.jit
def pointer_to_float_kernel(x):
    x.to(tl.float64, bitcast=True)  # <-


CASES = [
    (
        int32_to_pointer_kernel,
        XI,
        ("cannot convert int32 to pointer<fp32>", "64-bit integer"),
        "tl",
    ),
    (float_to_pointer_kernel, X, ("cannot convert fp32 to pointer<fp32>",), "tl.load"),
    (
        pointer_to_int32_kernel,
        X,
        ("cannot convert pointer<fp32> to int32", "int64, uint64"),
        "x.to",
    ),
    (pointer_to_float_kernel, X, ("cannot convert pointer<fp32> to fp64",), "x.to"),
]


@pytest.mark.parametrize(
    ("kernel", "array", "words", "at"), CASES, ids=[c[0].fn.__name__ for c in CASES]
)
def test_pointer_cast_errors(kernel: Any, array: Any, words: tuple[str, ...], at: str) -> None:
    expect_error(kernel, (array,), {}, KernelTypeError, words, at)


@triton.jit
def pointer_casts_kernel(x, y):
    p = x.to(tl.pointer_type(tl.int8))
    tl.store(y, p.to(tl.int64))
    tl.store(y + 1, x.to(tl.int1).to(tl.int64))


def test_the_ops_a_pointer_cast_makes() -> None:
    """Triton's ops: pointer to pointer is the same address (ptr_to_int, int_to_ptr here); to
    int1 a comparison of the address with 0."""
    names = ops(tt(pointer_casts_kernel, X, np.zeros(2, np.int64)))
    assert names.count("tt.ptr_to_int") == 3 and names.count("tt.int_to_ptr") == 1, names
    assert "tt.cmp" in names
