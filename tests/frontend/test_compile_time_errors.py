"""Errors of compile-time constructs (constexpr functions, ``.value``, ``tl.math`` names that
Triton 3.6 keeps in libdevice, ``tl.core`` helpers): typed, at the kernel's line."""

from __future__ import annotations

from typing import Any

import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.errors import (
    CompilationError,
    ConstexprError,
    KernelNameError,
    KernelTypeError,
    KernelValueError,
)
from tests.frontend.util import XI, Y, expect_error


@triton.constexpr_function
def _acc_dtype(dt):
    return tl.float32 if dt.is_floating() else tl.int32


@tl.constexpr
def _failing(n):
    return 10 // n


@triton.jit
def constexpr_fn_block_kernel(out, BLOCK: tl.constexpr):
    x = tl.arange(0, BLOCK)
    _acc_dtype(x)  # <-


@triton.jit
def constexpr_fn_raises_kernel(out, BLOCK: tl.constexpr):
    _failing(BLOCK - BLOCK)  # <-


@triton.jit
def value_of_block_kernel(out, BLOCK: tl.constexpr):
    x = tl.arange(0, BLOCK)
    x.value  # <-


@triton.jit
def math_log1p_kernel(out, BLOCK: tl.constexpr):
    x = tl.arange(0, BLOCK).to(tl.float32)
    tl.store(out + tl.arange(0, BLOCK), tl.math.log1p(x))  # <-


@triton.jit
def unwrap_two_arguments_kernel(out, BLOCK: tl.constexpr):
    tl.core._unwrap_if_constexpr(BLOCK, BLOCK)  # <-


@triton.jit
def bad_int_dtype_kernel(out, BLOCK: tl.constexpr):
    tl.core.get_int_dtype(BLOCK, True)  # <-


CASES = [
    (
        constexpr_fn_block_kernel,
        XI,
        ConstexprError,
        ("constexpr function `_acc_dtype` needs compile-time arguments", "argument 1"),
        "_acc_dtype(x)",
    ),
    (constexpr_fn_raises_kernel, XI, KernelValueError, ("_failing() failed",), "_failing("),
    (value_of_block_kernel, XI, KernelNameError, ("no attribute `value`",), "x.value"),
    (
        math_log1p_kernel,
        Y,
        KernelNameError,
        ("`tl.math` has no attribute `log1p`", "tl.extra.libdevice.log1p"),
        "tl.math.log1p",
    ),
    (
        unwrap_two_arguments_kernel,
        XI,
        KernelTypeError,
        ("_unwrap_if_constexpr takes one argument",),
        "tl.core._unwrap",
    ),
    (bad_int_dtype_kernel, XI, KernelValueError, ("Unsupported bitwidth 4",), "tl.core.get_int"),
]


@pytest.mark.parametrize(
    ("kernel", "array", "cls", "words", "at"), CASES, ids=[c[0].fn.__name__ for c in CASES]
)
def test_compile_time_errors(
    kernel: Any, array: Any, cls: type[CompilationError], words: tuple[str, ...], at: str
) -> None:
    expect_error(kernel, (array,), {"BLOCK": 4}, cls, words, at)
