"""Math functions (``tl.*``, ``tl.math``, ``libdevice``) on non-float operands: a typed error
naming the function and the operand's type, at the kernel's line; a runtime ``ieee_rounding``
is an error too."""

from __future__ import annotations

from typing import Any

import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.errors import ConstexprError, KernelTypeError
from mytriton.language.extra import libdevice
from tests.frontend.util import XI, X, expect_error


@triton.jit
def tanh_int_kernel(x, xi):
    libdevice.tanh(tl.load(xi))  # <-


@triton.jit
def pow_int_kernel(x, xi):
    libdevice.pow(tl.load(xi), tl.load(x))  # <- (an int32 exponent is libdevice powi)


@triton.jit
def fma_int_kernel(x, xi):
    tl.fma(tl.load(xi), tl.load(x), tl.load(x))  # <-


@triton.jit
def erf_int_kernel(x, xi):
    tl.math.erf(tl.load(xi))  # <-


@triton.jit
def isnan_int_kernel(x, xi):
    libdevice.isnan(tl.load(xi))  # <-


@triton.jit
def div_rn_int_kernel(x, xi):
    tl.div_rn(tl.load(xi), 2)  # <-


@triton.jit
def sqrt_rn_int_kernel(x, xi):
    tl.sqrt_rn(tl.load(xi))  # <-


@triton.jit
def fmod_pointer_kernel(x, xi):
    libdevice.fmod(x, 2.0)  # <-


@triton.jit
def softmax_int_kernel(x, xi):
    tl.softmax(tl.load(xi + tl.arange(0, 16)))  # <-


@triton.jit
def umulhi_float_kernel(x, xi):
    tl.umulhi(tl.load(xi), tl.load(x))  # <-


@triton.jit
def umulhi_int16_kernel(x, xi):
    tl.umulhi(tl.load(xi).to(tl.int16), tl.load(xi).to(tl.int16))  # <-


@triton.jit
def fdiv_runtime_rounding_kernel(x, xi):
    tl.fdiv(tl.load(x), tl.load(x), ieee_rounding=tl.load(xi) > 0)  # <-


@triton.jit
def softmax_runtime_rounding_kernel(x, xi):
    tl.softmax(tl.load(x + tl.arange(0, 16)), ieee_rounding=tl.load(xi) > 0)  # <-


CASES: list[tuple[Any, tuple[str, ...], str]] = [
    (tanh_int_kernel, ("libdevice.tanh expects a float", "int32"), "libdevice.tanh"),
    (pow_int_kernel, ("libdevice.pow expects float arguments", "int32"), "libdevice.pow"),
    (fma_int_kernel, ("tl.fma expects float arguments", "int32"), "tl.fma"),
    (erf_int_kernel, ("tl.erf expects a float", "int32"), "tl.math.erf"),
    (isnan_int_kernel, ("libdevice.isnan expects float arguments", "int32"), "libdevice.isnan"),
    (div_rn_int_kernel, ("tl.div_rn expects float arguments", "int32"), "tl.div_rn"),
    (sqrt_rn_int_kernel, ("tl.sqrt_rn expects a float", "int32"), "tl.sqrt_rn"),
    (fmod_pointer_kernel, ("libdevice.fmod expects float arguments", "pointer"), "libdevice.fmod"),
    (umulhi_float_kernel, ("tl.umulhi expects int32 or int64", "fp32"), "tl.umulhi"),
    (umulhi_int16_kernel, ("tl.umulhi expects int32 or int64", "int16"), "tl.umulhi"),
    (softmax_int_kernel, ("tl.exp expects a float", "int32"), "tl.softmax"),
]


@pytest.mark.parametrize(("kernel", "words", "at"), CASES, ids=[c[0].__name__ for c in CASES])
def test_math_on_wrong_type(kernel: Any, words: tuple[str, ...], at: str) -> None:
    expect_error(kernel, (X, XI), {}, KernelTypeError, words, at)


@pytest.mark.parametrize(
    ("kernel", "what", "at"),
    [
        (fdiv_runtime_rounding_kernel, "tl.fdiv's ieee_rounding", "tl.fdiv"),
        (softmax_runtime_rounding_kernel, "tl.softmax's ieee_rounding", "tl.softmax"),
    ],
    ids=["fdiv", "softmax"],
)
def test_ieee_rounding_is_a_compile_time_choice(kernel: Any, what: str, at: str) -> None:
    """``ieee_rounding`` picks the division instruction (IEEE ``div.rn`` or ``div.full``)."""
    expect_error(kernel, (X, XI), {}, ConstexprError, (what, "compile-time"), at)
