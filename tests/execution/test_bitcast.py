"""``x.to(dtype, bitcast=True)`` / ``tl.cast(..., bitcast=True)`` keep the bits, on every
backend; ``fp_downcast_rounding`` is checked as Triton does."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.errors import KernelTypeError, KernelValueError
from tests.frontend.util import expect_error

pytestmark = pytest.mark.execution


@triton.jit
def bitcast_kernel(x, out, h, hout, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out + offs, tl.load(x + offs).to(tl.int32, bitcast=True))
    halves = tl.load(h + offs).to(tl.float16, bitcast=True) * 2
    tl.store(hout + offs, tl.cast(halves, tl.int16, bitcast=True))


def test_bitcast_keeps_the_bits(run: Any) -> None:
    block = 8
    x = np.array([1.0, -2.5, 0.0, -0.0, np.inf, np.nan, 1e-40, 3.25], np.float32)
    h = np.array([1.5, -3, 0.25, 7, -0.0, 65504, 1e-7, 2], np.float16).view(np.int16).copy()
    out, hout = np.zeros(block, np.int32), np.zeros(block, np.int16)
    run(bitcast_kernel, (1,), x, out, h, hout, BLOCK=block)
    np.testing.assert_array_equal(out, x.view(np.int32))
    with np.errstate(over="ignore"):  # 65504 * 2 is inf, on the GPU too
        doubled = h.view(np.float16) * np.float16(2)
    np.testing.assert_array_equal(hout, doubled.view(np.int16))


@triton.jit
def width_mismatch_kernel(x, BLOCK: tl.constexpr):
    v = tl.load(x + tl.arange(0, BLOCK))
    v.to(tl.int16, bitcast=True)  # <-


@triton.jit
def bool_bitcast_kernel(x, BLOCK: tl.constexpr):
    v = tl.load(x + tl.arange(0, BLOCK)) > 0
    v.to(tl.int8, bitcast=True)  # <-


@triton.jit
def bad_rounding_kernel(x, BLOCK: tl.constexpr):
    v = tl.load(x + tl.arange(0, BLOCK))
    v.to(tl.float16, fp_downcast_rounding="up")  # <-


@triton.jit
def rtz_fp8_kernel(x, BLOCK: tl.constexpr):
    v = tl.load(x + tl.arange(0, BLOCK))
    v.to(tl.float8e4nv, fp_downcast_rounding="rtz")  # <-


@triton.jit
def rtz_from_fp8_kernel(x, BLOCK: tl.constexpr):
    v = tl.load(x + tl.arange(0, BLOCK)).to(tl.float8e5)
    v.to(tl.float8e4nv, fp_downcast_rounding="rtz")  # <-


@triton.jit
def widening_rounding_kernel(x, BLOCK: tl.constexpr):
    v = tl.load(x + tl.arange(0, BLOCK))
    v.to(tl.float64, fp_downcast_rounding="rtne")  # <-


X = np.zeros(8, np.float32)


@pytest.mark.parametrize(
    ("kernel", "cls", "words", "at"),
    [
        (width_mismatch_kernel, KernelTypeError, ("size 32 to data-type of size 16",), "v.to"),
        (bool_bitcast_kernel, KernelTypeError, ("booleans have no bit layout",), "v.to"),
        (bad_rounding_kernel, KernelValueError, ("'rtne' or 'rtz'",), "v.to"),
        (rtz_fp8_kernel, KernelValueError, ("'rtz' from fp32 to fp8e4nv", "not supported"), "v.to"),
        (rtz_from_fp8_kernel, KernelValueError, ("not fp8e5 to fp8e4nv",), "v.to"),
        (widening_rounding_kernel, KernelValueError, ("narrowing float conversions",), "v.to"),
    ],
    ids=["width", "bool", "bad-rounding", "rtz-fp8", "rtz-from-fp8", "widening"],
)
def test_cast_errors(kernel: Any, cls: type, words: tuple[str, ...], at: str) -> None:
    expect_error(kernel, (X,), {"BLOCK": 8}, cls, words, at)
