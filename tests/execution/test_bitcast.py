"""``x.to(dtype, bitcast=True)`` / ``tl.cast(..., bitcast=True)`` keep the bits, on every
backend; ``fp_downcast_rounding`` is checked as Triton does."""

from __future__ import annotations

from typing import Any

import ml_dtypes
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
def bitcast16_kernel(x, out, BLOCK: tl.constexpr, DTYPE: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out + offs, tl.load(x + offs).to(DTYPE, bitcast=True))
    tl.store(out + BLOCK, tl.load(x).to(DTYPE, bitcast=True))  # a scalar


#: the 16-bit types, each with its Triton dtype (bf16's NumPy type is ml_dtypes')
BITS16 = {
    "f16": (np.dtype(np.float16), tl.float16),
    "bf16": (np.dtype(ml_dtypes.bfloat16), tl.bfloat16),
    "i16": (np.dtype(np.int16), tl.int16),
    "u16": (np.dtype(np.uint16), tl.uint16),
}
#: NaNs with payloads, infinities, -0.0, subnormals of f16 and bf16, and ordinary values
PATTERNS16 = np.array(
    [
        *(0x3C00, 0x7E01, 0xFFFF, 0x7C00, 0xFF80, 0x8000, 0x0001, 0x807F),
        *(0x3FC0, 0xC049, 0x7F7F, 0x0400, 0x0080, 0x1234, 0xABCD, 0x0000),
    ],
    np.uint16,
)
PAIRS16 = [(a, b) for a in BITS16 for b in BITS16 if a != b]


@pytest.mark.parametrize(("src", "dst"), PAIRS16, ids=[f"{a}-{b}" for a, b in PAIRS16])
def test_16_bit_bitcasts_keep_the_bits(run: Any, src: str, dst: str) -> None:
    """f16 <-> bf16 <-> i16 <-> u16, blocks and scalars: every bit pattern unchanged."""
    (src_np, _), (dst_np, dst_tl) = BITS16[src], BITS16[dst]
    block = len(PATTERNS16)
    x = PATTERNS16.view(src_np).copy()
    out = np.zeros(block + 1, dst_np)
    run(bitcast16_kernel, (1,), x, out, BLOCK=block, DTYPE=dst_tl)
    np.testing.assert_array_equal(out.view(np.uint16)[:block], PATTERNS16)
    assert out.view(np.uint16)[block] == PATTERNS16[0]


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
