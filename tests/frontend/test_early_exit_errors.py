"""``break``/``continue``/``return`` on runtime paths (early_exit.py): what is rejected, with a
typed error at the kernel's line, and the IR shapes chosen (a loop that may be left early is an
``scf.while``; ``continue`` alone keeps the ``scf.for``; a guard clause needs no flag)."""

from __future__ import annotations

from typing import Any

import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.errors import CompilationError, KernelNameError, KernelTypeError, KernelValueError
from tests.frontend.util import XI, X, Y, expect_error, marked_line, ops, tt


@triton.jit
def load_f32_or_i32(c, f, i):
    if c:
        return tl.load(f)
    return tl.load(i)  # <-


@triton.jit
def mismatched_returns_kernel(x, xi, n):
    tl.store(x, load_f32_or_i32(n > 0, x, xi).to(tl.float32))


@triton.jit
def value_or_nothing(c, f):
    if c:
        return tl.load(f)
    return  # <-


@triton.jit
def value_or_nothing_kernel(x, out, n):
    value_or_nothing(n > 0, x)


@triton.jit
def falls_off(c, f):
    if c:
        return tl.load(f)  # <-
    tl.store(f, 0.0)


@triton.jit
def falls_off_kernel(x, out, n):
    tl.store(out, falls_off(n > 0, x))


@triton.jit
def one_or_two(c, f):
    for i in range(c):
        if tl.load(f + i) > 0:
            return tl.load(f + i), i
    return tl.load(f)  # <-


@triton.jit
def tuple_or_value_kernel(x, out, n):
    one_or_two(n, x)


@triton.jit
def kernel_returns_in_if_kernel(x, out, n):
    if n > 0:
        return tl.load(x)  # <-


@triton.jit
def first_assigned_before_break_kernel(x, out, n):
    i = 0
    while i < n:
        last = tl.load(x + i)
        if last > 0:
            break
        i += 1
    tl.store(out, last)  # <-


@triton.jit
def one_path_after_break_kernel(x, out, n):
    total = 0.0
    for i in range(n):
        v = tl.load(x + i)
        if v > 0:
            w = v
        if v > 10:
            break
        total += w  # <-
    tl.store(out, total)


@triton.jit
def assigned_on_the_exiting_path_kernel(x, out, n):
    total = 0.0
    for i in range(n):
        v = tl.load(x + i)
        if v > 0:
            w = v
            continue
        total += w  # <-
    tl.store(out, total)


# (kernel, the function whose line `# <-` marks the error, error class, words, caret text)
REJECTED = [
    (
        mismatched_returns_kernel,
        load_f32_or_i32,
        KernelTypeError,
        ("this `return` gives a int32 scalar", "at line", "gives a fp32 scalar", "one type"),
        "return",
    ),
    (
        value_or_nothing_kernel,
        value_or_nothing,
        KernelTypeError,
        ("gives nothing", "a fp32 scalar"),
        "return",
    ),
    (falls_off_kernel, falls_off, KernelTypeError, ("`falls_off`", "reach its end"), "return"),
    (
        tuple_or_value_kernel,
        one_or_two,
        KernelTypeError,
        ("gives a fp32 scalar", "(a fp32 scalar, a int32 scalar)"),
        "return",
    ),
    (
        kernel_returns_in_if_kernel,
        kernel_returns_in_if_kernel,
        KernelValueError,
        ("a kernel cannot return a value",),
        "return",
    ),
    (
        first_assigned_before_break_kernel,
        first_assigned_before_break_kernel,
        KernelNameError,
        ("`last`", "first assigned inside the runtime `while`"),
        "last",
    ),
    (
        one_path_after_break_kernel,
        one_path_after_break_kernel,
        KernelNameError,
        ("`w`", "only one path"),
        "w",
    ),
    (
        assigned_on_the_exiting_path_kernel,
        assigned_on_the_exiting_path_kernel,
        KernelNameError,
        ("`w`",),
        "w",
    ),
]


@pytest.mark.parametrize(
    ("kernel", "marked", "cls", "words", "at"), REJECTED, ids=[k[0].fn.__name__ for k in REJECTED]
)
def test_rejected(
    kernel: Any, marked: Any, cls: type[CompilationError], words: tuple[str, ...], at: str
) -> None:
    args = (X, XI, 4) if kernel is mismatched_returns_kernel else (X, Y, 4)
    err = expect_error(kernel, args, {}, cls, words, None)
    file, line, text = marked_line(marked)
    assert err.loc is not None and (err.loc.file, err.loc.line) == (file, line), str(err)
    assert text[err.loc.col - 1 :].startswith(at), str(err)


@triton.jit
def for_break_kernel(x, out, n):
    for i in range(n):
        if tl.load(x + i) < 0:
            break
        tl.store(out + i, 1.0)


@triton.jit
def for_continue_kernel(x, out, n):
    for i in range(n):
        if tl.load(x + i) < 0:
            continue
        tl.store(out + i, 1.0)


@triton.jit
def guard_clause_kernel(x, out, n):
    if tl.program_id(0) >= n:
        return
    tl.store(out, tl.load(x))


@triton.jit
def compile_time_break_kernel(x, out, N: tl.constexpr):
    for k in tl.static_range(N):
        if k == 2:
            break
        tl.store(out + k, tl.load(x + k))


def test_break_makes_the_for_an_scf_while() -> None:
    ir = tt(for_break_kernel, X, Y, 8)
    assert "scf.for" not in ir
    assert ops(ir).count("scf.while") == 1
    assert "%broke" in ir


def test_continue_keeps_the_scf_for() -> None:
    ir = tt(for_continue_kernel, X, Y, 8)
    assert ops(ir).count("scf.for") == 1
    assert "scf.while" not in ir
    assert "%continued" in ir  # the flag the rest of the iteration is guarded by


def test_guard_clause_puts_the_rest_in_the_else_branch() -> None:
    ir = tt(guard_clause_kernel, X, Y, 8)
    assert ops(ir).count("scf.if") == 1
    assert ops(ir).index("tt.store") > ops(ir).index("scf.if")


def test_compile_time_break_unrolls_only_the_iterations_before_it() -> None:
    ir = tt(compile_time_break_kernel, X, Y, N=6)
    assert ops(ir).count("tt.store") == 2
    assert "scf.if" not in ir and "scf.while" not in ir


@triton.jit
def constant_range_break_kernel(x, out):
    for i in range(8):
        if tl.load(x + i) < 0:
            break
        tl.store(out + i, 1.0)


def test_constant_range_that_may_break_stays_a_loop() -> None:
    ir = tt(constant_range_break_kernel, X, Y)
    assert ops(ir).count("scf.while") == 1
    assert ops(ir).count("tt.store") == 1  # not unrolled into 8 guarded copies


@triton.jit
def while_true_kernel(x, out, n):
    i = 0
    while True:
        if tl.load(x + i) > 10:
            break
        i += 1
    tl.store(out, i)


def test_while_true_left_by_break_is_one_scf_while() -> None:
    ir = tt(while_true_kernel, X, XI, 8)
    assert ops(ir).count("scf.while") == 1
    assert ops(ir).count("tt.load") == 1  # no iteration unrolled before the loop
