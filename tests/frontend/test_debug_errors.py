"""Typed errors of the debugging builtins, hints, inline assembly and load/store options,
located at the kernel line (Triton 3.6's checks, as ``KernelTypeError``/``KernelValueError``),
and the verifiers of the ops they build."""

from __future__ import annotations

from typing import Any

import pytest
from xdsl.parser import Parser
from xdsl.utils.exceptions import VerifyException

import mytriton as triton
import mytriton.language as tl
from mytriton.dialects import make_context
from mytriton.errors import (
    CompilationError,
    KernelTypeError,
    KernelValueError,
    StaticAssertionError,
    UnsupportedSyntaxError,
)
from tests.frontend.util import XI, X, expect_error


@triton.jit
def print_prefix_kernel(x, xi):
    tl.device_print(3, tl.load(x))  # <-


@triton.jit
def print_pointer_kernel(x, xi):
    tl.device_print("p", x)  # <-


@triton.jit
def print_two_strings_kernel(x, xi):
    print("a", "b")  # <-


@triton.jit
def print_nothing_kernel(x, xi):
    print()  # <-


@triton.jit
def assert_message_kernel(x, xi):
    tl.device_assert(tl.load(xi) > 0, 3)  # <-


@triton.jit
def multiple_of_count_kernel(x, xi):
    tl.multiple_of(tl.arange(0, 16), [4, 4])  # <-


@triton.jit
def max_contiguous_scalar_kernel(x, xi):
    tl.max_contiguous(tl.load(xi), 4)  # <-


@triton.jit
def multiple_of_float_kernel(x, xi):
    tl.multiple_of(tl.arange(0, 16), 2.5)  # <-


@triton.jit
def assume_int_kernel(x, xi):
    tl.assume(tl.load(xi))  # <-


@triton.jit
def load_cache_kernel(x, xi):
    tl.load(x, cache_modifier=".wb")  # <-


@triton.jit
def store_cache_kernel(x, xi):
    tl.store(x, 1.0, cache_modifier=".ca")  # <-


@triton.jit
def eviction_kernel(x, xi):
    tl.load(x, eviction_policy="evict_sometimes")  # <-


@triton.jit
def asm_pack_kernel(x, xi):
    tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", [tl.load(xi)], tl.int32, True, 3)  # <-


@triton.jit
def asm_no_dtype_kernel(x, xi):
    tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", [tl.load(xi)], (), True, 1)  # <-


@triton.jit
def asm_args_kernel(x, xi):
    tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", tl.load(xi), tl.int32, True, 1)  # <-


CASES: list[tuple[Any, type[CompilationError], tuple[str, ...], str]] = [
    (print_prefix_kernel, KernelTypeError, ("prefix must be a string",), "tl.device_print"),
    (print_pointer_kernel, KernelTypeError, ("of pointers",), "tl.device_print"),
    (print_two_strings_kernel, KernelTypeError, ("another string",), "print"),
    (print_nothing_kernel, UnsupportedSyntaxError, ("print() without arguments",), "print"),
    (assert_message_kernel, KernelTypeError, ("message must be a string",), "tl.device_assert"),
    (multiple_of_count_kernel, KernelValueError, ("2 value(s)", "[16]"), "tl.multiple_of"),
    (max_contiguous_scalar_kernel, KernelValueError, ("1 value(s)",), "tl.max_contiguous"),
    (multiple_of_float_kernel, KernelTypeError, ("must be an int", "2.5"), "tl.multiple_of"),
    (assume_int_kernel, KernelTypeError, ("must be a boolean", "int32"), "tl.assume"),
    (load_cache_kernel, KernelValueError, ("cache_modifier", "'.wb'"), "tl.load"),
    (store_cache_kernel, KernelValueError, ("cache_modifier", "'.ca'"), "tl.store"),
    (eviction_kernel, KernelValueError, ("eviction_policy", "evict_sometimes"), "tl.load"),
    (asm_pack_kernel, KernelValueError, ("pack must be a power of two",), "tl.inline_asm"),
    (asm_no_dtype_kernel, KernelValueError, ("at least one output dtype",), "tl.inline_asm"),
    (asm_args_kernel, KernelTypeError, ("args must be a list or tuple",), "tl.inline_asm"),
]


@pytest.mark.parametrize(
    ("kernel", "cls", "words", "at"), CASES, ids=[c[0].__name__ for c in CASES]
)
def test_debug_builtin_errors(
    kernel: Any, cls: type[CompilationError], words: tuple[str, ...], at: str
) -> None:
    expect_error(kernel, (X, XI), {}, cls, words, at)


@triton.jit
def static_kernel(x, xi, N: tl.constexpr):
    tl.static_print("N is", N, sep="=")
    tl.static_assert(N > 4, "N must exceed 4")  # <-


def test_static_print_and_assert(capsys: pytest.CaptureFixture[str]) -> None:
    static_kernel.warmup(X, XI, 8, grid=(1,))
    assert capsys.readouterr().out == "N is=8\n"
    expect_error(static_kernel, (X, XI, 2), {}, StaticAssertionError, ("N must exceed 4",), "tl")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (
            '%p = "tt.make_range"() {start = 0 : i32, end = 4 : i32} : () -> tensor<4xi32>\n'
            "%q = tt.splat %x : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>\n"
            'tt.print " p: ", %q : tensor<4x!tt.ptr<f32>>',
            "can print integers and floats",
        ),
        ('%c = arith.constant 1 : i32\ntt.assert %c, "m" : i32', "condition must be i1"),
        (
            "%c = arith.constant 1 : i32\n"
            '%r = tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", '
            "packed_element = 3 : i32}, %c : i32 -> i32",
            "packed_element must be a power of two",
        ),
    ],
)
def test_debug_op_verifiers(text: str, words: str) -> None:
    src = f"func.func @f(%x: !tt.ptr<f32>) {{\n{text}\nfunc.return\n}}"
    module = Parser(make_context(), src).parse_module()
    with pytest.raises(VerifyException, match=words):
        module.verify()
