"""``x.to(dtype, fp_downcast_rounding="rtz")`` (and ``tl.cast``): float narrowing rounded toward
zero on every backend, against an exact reference (Python floats, power-of-two quanta).

Toward zero, every result is the representable value nearest the argument without exceeding
its magnitude: an overflow gives the largest finite value (not an infinity, as rounding to
nearest does), infinities and NaN stay, tiny values go to a zero of their sign.
"""

from __future__ import annotations

import math
from typing import Any

import ml_dtypes
import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.errors import KernelValueError

pytestmark = pytest.mark.execution

BF16 = np.dtype(ml_dtypes.bfloat16)
# target -> (significand bits, least normal exponent, largest finite value)
FORMATS: dict[Any, tuple[int, int, float]] = {
    np.dtype(np.float16): (11, -14, 65504.0),
    BF16: (8, -126, float.fromhex("0x1.fep127")),
    np.dtype(np.float32): (24, -126, float.fromhex("0x1.fffffep127")),
}
TL = {np.dtype(np.float16): tl.float16, BF16: tl.bfloat16, np.dtype(np.float32): tl.float32}


def toward_zero(x: float, target: np.dtype) -> float:
    """``x`` rounded toward zero to ``target``: the multiple of the quantum of ``x``'s binade
    (or of the subnormals) below ``|x|``, capped at the largest finite value."""
    if math.isnan(x) or math.isinf(x) or x == 0:
        return x
    bits, emin, largest = FORMATS[target]
    exponent = math.frexp(x)[1]  # |x| in [2^(exponent-1), 2^exponent)
    quantum = max(exponent - bits, emin - bits + 1)
    magnitude = math.floor(math.ldexp(abs(x), -quantum))
    return math.copysign(min(math.ldexp(magnitude, quantum), largest), x)


def _values(source: Any, target: np.dtype) -> np.ndarray:
    """Values rounding differently to nearest and toward zero, and the special cases."""
    bits, emin, largest = FORMATS[target]
    ulp = 2.0 ** (1 - bits)
    special = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, largest, -largest]
    between = [1 + 0.75 * ulp, -(1 + 0.75 * ulp), 1 + 0.5 * ulp, 1 + 1.5 * ulp, 3 + 2.9 * ulp]
    overflow = [largest * (1 + ulp / 2), -largest * (1 + ulp), 2 * largest]
    tiny = 2.0 ** (emin - bits + 1)  # the least subnormal
    small = [0.75 * tiny, -0.75 * tiny, 2.5 * tiny, -2.5 * tiny, 2.0**emin * (1 - ulp / 4)]
    rng = np.random.default_rng(bits)
    wide = rng.uniform(-1000, 1000, 42)  # 64 values in all
    values = np.array([*special, *between, *overflow, *small, *wide], np.float64)
    with np.errstate(over="ignore"):
        return values.astype(source)


@triton.jit
def to_rtz_kernel(x_ptr, out_ptr, DTYPE: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, x.to(DTYPE, fp_downcast_rounding="rtz"))


@triton.jit
def cast_rtz_kernel(x_ptr, out_ptr, DTYPE: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, tl.cast(x, DTYPE, fp_downcast_rounding="rtz"))


@triton.jit
def to_rtne_kernel(x_ptr, out_ptr, DTYPE: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, x.to(DTYPE, fp_downcast_rounding="rtne"))


def _bits_equal(got: np.ndarray, expected: np.ndarray) -> None:
    """The same value (zeros by sign) or both NaN, element by element."""
    g, e = got.astype(np.float64), expected.astype(np.float64)
    same = np.where(np.isnan(e), np.isnan(g), (g == e) & (np.signbit(g) == np.signbit(e)))
    bad = np.flatnonzero(~same)[:6]
    assert bad.size == 0, [(int(i), got[i], expected[i]) for i in bad]


CONVERSIONS = [
    (np.float32, np.dtype(np.float16)),
    (np.float32, BF16),
    (np.float64, np.dtype(np.float32)),
    (np.float64, np.dtype(np.float16)),
    (np.float64, BF16),
]


@pytest.mark.parametrize("kernel", [to_rtz_kernel, cast_rtz_kernel], ids=["to", "cast"])
@pytest.mark.parametrize(
    ("source", "target"), CONVERSIONS, ids=[f"{np.dtype(s).name}-{t.name}" for s, t in CONVERSIONS]
)
def test_rounds_toward_zero(run: Any, kernel: Any, source: Any, target: np.dtype) -> None:
    x = _values(source, target)
    out = np.zeros(x.size, target)
    run(kernel, (1,), x, out, DTYPE=TL[target], BLOCK=x.size)
    expected = np.array([toward_zero(float(v), target) for v in x])
    with np.errstate(over="ignore"):
        _bits_equal(out, expected.astype(target))
    nearest = np.zeros_like(out)
    run(to_rtne_kernel, (1,), x, nearest, DTYPE=TL[target], BLOCK=x.size)
    with np.errstate(over="ignore"):
        _bits_equal(nearest, x.astype(target))
    differ = ~((out == nearest) | (np.isnan(out.astype(np.float64))))
    assert np.count_nonzero(differ) >= 8  # the two roundings really differ on these values


def test_reference_is_exact() -> None:
    """The reference against known values (f16 has 11 significand bits, max 65504)."""
    f16 = np.dtype(np.float16)
    assert toward_zero(1 + 2**-10 * 0.99, f16) == 1.0
    assert toward_zero(-(2049.0 + 0.5), f16) == -2048.0  # ulp 2 above 2048
    assert toward_zero(70000.0, f16) == 65504.0
    assert toward_zero(2.0**-25, f16) == 0.0  # below the least subnormal 2^-24
    assert toward_zero(3 * 2.0**-25, f16) == 2.0**-24


@triton.jit
def rtz_widening_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, x.to(tl.float64, fp_downcast_rounding="rtz"))


@triton.jit
def rtz_to_int_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, x.to(tl.int32, fp_downcast_rounding="rtz"))


@triton.jit
def rtz_bitcast_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, x.to(tl.int32, bitcast=True, fp_downcast_rounding="rtz"))


@triton.jit
def bad_rounding_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, x.to(tl.float16, fp_downcast_rounding="rd"))


@pytest.mark.parametrize(
    ("kernel", "out_dtype", "message"),
    [
        (rtz_widening_kernel, np.float64, "for narrowing float conversions, not fp32 to fp64"),
        (rtz_to_int_kernel, np.int32, "for narrowing float conversions, not fp32 to int32"),
        (rtz_bitcast_kernel, np.int32, "no effect on a bitcast"),
        (bad_rounding_kernel, np.float16, "must be 'rtne' or 'rtz', got 'rd'"),
    ],
)
def test_rtz_only_on_float_narrowing(kernel: Any, out_dtype: Any, message: str) -> None:
    x, out = np.zeros(4, np.float32), np.zeros(4, out_dtype)
    with pytest.raises(KernelValueError) as info:
        kernel[(1,)](x, out, BLOCK=4)
    assert message in str(info.value)
    assert info.value.loc.line == kernel.fn.__code__.co_firstlineno + 4  # type: ignore[attr-defined]
