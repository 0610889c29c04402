"""``tl.reduce``/``tl.associative_scan`` and the library reductions on wrong input: a typed error
at the kernel's line naming what is wrong (combine_fn arity, result count or dtype, inputs)."""

from __future__ import annotations

from typing import Any

import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.errors import (
    ConstexprError,
    KernelNameError,
    KernelTypeError,
    KernelValueError,
    StaticAssertionError,
)
from tests.frontend.util import XI, X, expect_error


@triton.jit
def _add(a, b):
    return a + b


@triton.jit
def _add3(a, b, c):
    return a + b + c


@triton.jit
def _to_float(a, b):
    return (a + b).to(tl.float32)


@triton.jit
def _pair(a, b):
    return a, b


def _python_add(a: Any, b: Any) -> Any:
    return a + b


@triton.jit
def arity_kernel(x, xi):
    tl.reduce(tl.load(xi + tl.arange(0, 16)), 0, _add3)  # <-


@triton.jit
def result_dtype_kernel(x, xi):
    tl.reduce(tl.load(xi + tl.arange(0, 16)), 0, _to_float)  # <-


@triton.jit
def result_count_kernel(x, xi):
    tl.associative_scan(tl.load(xi + tl.arange(0, 16)), 0, _pair)  # <-


@triton.jit
def tuple_arity_kernel(x, xi):
    v = tl.load(xi + tl.arange(0, 16))
    tl.reduce((v, v), 0, _add)  # <-


@triton.jit
def not_jit_kernel(x, xi):
    tl.reduce(tl.load(xi + tl.arange(0, 16)), 0, _python_add)  # <-


@triton.jit
def shapes_kernel(x, xi):
    tl.reduce((tl.load(xi + tl.arange(0, 16)), tl.load(x + tl.arange(0, 32))), 0, _pair)  # <-


@triton.jit
def scalar_kernel(x, xi):
    tl.cumsum(tl.load(xi))  # <-


@triton.jit
def axis_kernel(x, xi):
    tl.associative_scan(tl.load(xi + tl.arange(0, 16)), 1, _add)  # <-


@triton.jit
def runtime_axis_kernel(x, xi):
    tl.reduce(tl.load(xi + tl.arange(0, 16)), tl.load(xi), _add)  # <-


@triton.jit
def xor_sum_float_kernel(x, xi):
    tl.xor_sum(tl.load(x + tl.arange(0, 16)))  # <-


CASES: list[tuple[Any, type[Exception], tuple[str, ...], str]] = [
    (arity_kernel, KernelTypeError, ("calling `_add3`", "missing"), "tl.reduce"),
    (result_dtype_kernel, KernelTypeError, ("returns fp32 for result 0", "int32"), "tl.reduce"),
    (result_count_kernel, KernelTypeError, ("must return 1 value(s)", "got 2"), "tl.associative"),
    (tuple_arity_kernel, KernelTypeError, ("calling `_add`", "too many"), "tl.reduce"),
    (not_jit_kernel, KernelNameError, ("Cannot access global variable _python_add",), "_py"),
    (
        shapes_kernel,
        KernelValueError,
        ("all inputs must have one shape", "[16], [32]"),
        "tl.reduce",
    ),
    (scalar_kernel, KernelTypeError, ("needs a block", "(in tl.cumsum)"), "tl.cumsum"),
    (axis_kernel, KernelValueError, ("axis 1 out of range for a rank-1 block",), "tl.associative"),
    (runtime_axis_kernel, ConstexprError, ("axis must be a compile-time constant",), "tl.reduce"),
    (
        xor_sum_float_kernel,
        StaticAssertionError,
        ("xor_sum only supported for integers",),
        "tl.xor",
    ),
]


@pytest.mark.parametrize(
    ("kernel", "cls", "words", "at"), CASES, ids=[c[0].__name__ for c in CASES]
)
def test_reduce_errors(kernel: Any, cls: type[Exception], words: tuple[str, ...], at: str) -> None:
    expect_error(kernel, (X, XI), {}, cls, words, at)  # type: ignore[arg-type]


def test_combine_fn_must_be_jit(monkeypatch: pytest.MonkeyPatch) -> None:
    """A plain Python function read as a global (Triton's rule lifted) is still no combine_fn."""
    monkeypatch.setenv("TRITON_ALLOW_NON_CONSTEXPR_GLOBALS", "1")
    expect_error(
        not_jit_kernel,
        (X, XI),
        {},
        KernelTypeError,
        ("combine_fn must be a @triton.jit function",),
        "tl.reduce",
    )
