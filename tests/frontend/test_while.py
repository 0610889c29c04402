# ruff: noqa: F841
"""``while`` in the frontend: the ``scf.while`` a runtime condition makes (Triton's shape: the
condition computed from the carried values in the *before* region), compile-time conditions
unrolled, and every construct it rejects, located at the kernel's line."""

from __future__ import annotations

import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.errors import (
    ConstexprError,
    KernelNameError,
    KernelTypeError,
    UnsupportedSyntaxError,
)
from tests.frontend.util import XI, X, Y, expect_error, ops, tt


@triton.jit
def carried_kernel(x, out, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK,), tl.float32)
    i = 0
    local = 0.0
    while i < n:
        local = tl.load(x + i)
        acc += local
        i += 1
    tl.store(out + offs, acc)


@triton.jit
def unrolled_kernel(x, out, BLOCK: tl.constexpr, N: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    i = 0
    while i < N:
        tl.store(out + i * BLOCK + offs, tl.load(x + offs))
        i += 1


def test_runtime_while_is_one_scf_while() -> None:
    ir = tt(carried_kernel, X, Y, 16, BLOCK=16)
    assert ops(ir).count("scf.while") == 1
    assert "scf.condition" in ir
    # the carried variables, sorted by name: `acc` (a block) and `i`; `local` (assigned in the
    # body but only read there) is carried too, as a runtime `for` carries it
    assert "-> (tensor<16xf32>, i32, f32)" in ir


def test_counter_assigned_a_number_is_a_runtime_scalar() -> None:
    """``i = 0`` makes ``i`` an int32 scalar (Triton's rule), so the loop runs at run time."""
    ir = tt(unrolled_kernel, X, Y, BLOCK=16, N=3)
    assert ops(ir).count("scf.while") == 1
    assert ops(ir).count("tt.store") == 1


@triton.jit
def type_change_kernel(x, out, n, BLOCK: tl.constexpr):
    i = 0
    while i < n:  # <-
        i = i + 0.5


@triton.jit
def block_condition_kernel(x, out, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    while offs < n:  # <-
        offs += 1


@triton.jit
def pointer_condition_kernel(x, out, n, BLOCK: tl.constexpr):
    p = x
    while p:  # <-
        p += 1


@triton.jit
def compile_time_value_carried_kernel(x, out, n, BLOCK: tl.constexpr):
    i = 0
    kind = tl.float32
    while i < n:  # <-
        kind = tl.int32
        i += 1


@triton.jit
def endless_kernel(x, out, n, BLOCK: tl.constexpr):
    while BLOCK > 0:  # <-
        tl.store(out, 1.0)


@triton.jit
def while_else_kernel(x, out, n, BLOCK: tl.constexpr):
    i = 0
    while i < n:  # <-
        i += 1
    else:
        i = 0


CASES = [
    (
        type_change_kernel,
        KernelTypeError,
        ("loop-carried variable `i`", "int32 scalar", "fp32 scalar", "must not change"),
        "while",
    ),
    (
        block_condition_kernel,
        KernelTypeError,
        ("condition of a `while` must be a scalar", "int1 block of shape [16]"),
        "offs < n",
    ),
    (pointer_condition_kernel, KernelTypeError, ("pointer has no truth value",), "p"),
    (
        compile_time_value_carried_kernel,
        KernelTypeError,
        ("`kind` holds a compile-time", "only numbers and blocks can be loop-carried"),
        "while",
    ),
    (endless_kernel, ConstexprError, ("4096 unrolled iterations",), "BLOCK > 0"),
    (while_else_kernel, UnsupportedSyntaxError, ("`while ... else`",), "while"),
]


@pytest.mark.parametrize(
    ("kernel", "cls", "words", "at"), CASES, ids=[c[0].__name__ for c in CASES]
)
def test_rejected(kernel: object, cls: type, words: tuple[str, ...], at: str) -> None:
    expect_error(kernel, (X, Y, 16), {"BLOCK": 16}, cls, words, at)


def test_int_condition_is_truth_tested() -> None:
    """``while n:`` on an int32 scalar tests ``n != 0`` (Triton's truth conversion)."""
    ir = tt(countdown_kernel, XI, 5)
    assert "tt.cmp ne" in ir
    assert "scf.condition" in ir


@triton.jit
def countdown_kernel(out, n):
    k = n
    while k:
        k -= 1
    tl.store(out, k)


@triton.jit
def local_escapes_kernel(x, out, n, BLOCK: tl.constexpr):
    i = 0
    while i < n:
        step = 1
        i += step
    tl.store(out, step)  # <-


def test_body_local_not_defined_after() -> None:
    expect_error(
        local_escapes_kernel,
        (X, Y, 16),
        {"BLOCK": 16},
        KernelNameError,
        ("`step` is first assigned inside the runtime `while`", "not defined after the loop"),
        "step",
    )


def test_stage_dumps_of_a_while_loop_reparse() -> None:
    """xDSL prints a location inside ``scf.while``'s custom form, where its parser cannot read
    it: every stage's text (dumps, overrides) must parse back to the same module."""
    from mytriton.backends.stages import parse_module, print_generic, print_module

    kernel = carried_kernel.warmup(X, Y, 5, grid=(1,), BLOCK=64)
    for stage in ("tt", "tt-opt", "ttg"):
        text = kernel.asm[stage]
        assert "scf.while" in text
        module = parse_module(text)  # failed on `... -> (...) loc(...) {`
        assert parse_module(print_module(module)).is_structurally_equivalent(module)
        assert parse_module(print_generic(module)).is_structurally_equivalent(module)
