"""Triton's error layout and rules that code written for Triton checks: ``at L:C:`` positions
counted from the ``def``, the message last, an error in a called function chained to the error
at the call, ``must_use_result``, ``not`` of a tuple, static assertions without a cause."""

from __future__ import annotations

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.errors import (
    KernelNameError,
    StaticAssertionError,
    UnsupportedSyntaxError,
    UnusedResultError,
)
from tests.frontend.util import X, Y, expect_error, marked_line

WORDS = "Keep what it returns."


@triton.must_use_result(WORDS)
@triton.jit
def cube(x):
    return x * x * x


@triton.must_use_result
@triton.jit
def square(x):
    return x * x


@triton.jit
def dropped_cube_kernel(x, out, BLOCK: tl.constexpr):
    a = tl.load(x + tl.arange(0, BLOCK))
    cube(a)  # <-


@triton.jit
def dropped_square_kernel(x, out, BLOCK: tl.constexpr):
    a = tl.load(x + tl.arange(0, BLOCK))
    square(a)  # <-


@triton.jit
def dropped_advance_kernel(x, out, BLOCK: tl.constexpr):
    p = tl.make_block_ptr(x, (64,), (1,), (0,), (BLOCK,), (0,))
    p.advance((BLOCK,))  # <-


def test_dropped_result_of_must_use_function() -> None:
    err = expect_error(
        dropped_cube_kernel,
        (X, Y),
        {"BLOCK": 16},
        UnusedResultError,
        (),
        "cube(a)",
    )
    assert err.message == f"The result of cube is not being used. {WORDS}"
    assert str(err).splitlines()[-1] == err.message  # Triton's tests read the last line
    assert err.__cause__ is None


def test_dropped_result_without_words() -> None:
    err = expect_error(
        dropped_square_kernel, (X, Y), {"BLOCK": 16}, UnusedResultError, (), "square(a)"
    )
    assert err.message == "The result of square is not being used."


def test_dropped_advance_is_an_error() -> None:
    """``tl.advance`` moves nothing in place (Triton marks it ``must_use_result``)."""
    expect_error(
        dropped_advance_kernel,
        (X, Y),
        {"BLOCK": 16},
        UnusedResultError,
        ("The result of p.advance is not being used.", "assign the result of tl.advance"),
        "p.advance",
    )


def test_must_use_result_marks_the_function() -> None:
    assert cube._must_use_result == WORDS
    assert square._must_use_result is True
    assert triton.language.core.must_use_result is triton.must_use_result


@triton.jit
def missing_name_helper(x):
    return x + undefined_thing  # noqa: F821  # <-


@triton.jit
def calls_missing_name_kernel(x, out, BLOCK: tl.constexpr):
    # a comment line, counted in Triton's position
    v = missing_name_helper(tl.load(x + tl.arange(0, BLOCK)))
    tl.store(out + tl.arange(0, BLOCK), v)


def test_error_in_called_function_is_chained_at_the_call() -> None:
    with pytest.raises(KernelNameError) as info:
        calls_missing_name_kernel.warmup(X, Y, BLOCK=16, grid=(1,))
    outer = info.value
    inner = outer.__cause__
    assert isinstance(inner, KernelNameError) and inner.__cause__ is not None
    assert isinstance(inner.__cause__, NameError)
    assert outer.message == inner.message and "undefined_thing" in inner.message
    assert str(inner).splitlines()[0].endswith(": error: in missing_name_helper at 2:15:")
    assert str(outer).splitlines()[0].endswith(": error: in calls_missing_name_kernel at 3:8:")
    assert str(outer).splitlines()[-1] == outer.message
    # the inner error is what expect_error checks, at the helper's marked line
    file, line, _ = marked_line(missing_name_helper)
    assert inner.loc is not None and (inner.loc.file, inner.loc.line) == (file, line)


def test_positions_count_from_def_of_an_indented_kernel() -> None:
    """Decorators and indentation do not count: line 1 is the ``def``, column 0 its indent."""

    @triton.jit
    def kernel(x, out, BLOCK: tl.constexpr):
        tl.static_assert(BLOCK == 3, "three")  # <-

    err = expect_error(kernel, (X, Y), {"BLOCK": 16}, StaticAssertionError, ("three",), "tl.")
    assert "in kernel at 2:4:" in str(err)


def test_static_assert_failure_has_no_cause() -> None:
    """Triton's ``CompileTimeAssertionFailure`` has none: nothing in Python failed."""

    @triton.jit
    def kernel(x, out, BLOCK: tl.constexpr):
        tl.static_assert(isinstance(0, tl.tensor))  # <-

    err = expect_error(kernel, (X, Y), {"BLOCK": 16}, StaticAssertionError, (), "tl.static")
    assert err.__cause__ is None
    assert str(err).splitlines()[-1] == "static_assert failed"


@triton.jit
def not_of_literal_tuple_kernel(x, out, BLOCK: tl.constexpr):
    tl.static_assert(not (0, 0))  # <-


@triton.jit
def not_of_runtime_tuple_kernel(x, out, n, BLOCK: tl.constexpr):
    t = (n, n)
    if not t:  # <-
        tl.store(out, 1.0)


@pytest.mark.parametrize(
    ("kernel", "args", "at"),
    [
        (not_of_literal_tuple_kernel, (X, Y), "not (0, 0)"),
        (not_of_runtime_tuple_kernel, (X, Y, 4), "not t"),
    ],
    ids=["literal", "runtime"],
)
def test_not_of_a_kernel_tuple_is_rejected(kernel, args, at) -> None:  # type: ignore[no-untyped-def]
    """Triton has no truth value for its ``tl.tuple``: an error, not a silent ``False``."""
    err = expect_error(
        kernel, args, {"BLOCK": 16}, UnsupportedSyntaxError, ("`not` of a tuple",), at
    )
    assert err.__cause__ is None


@triton.jit
def not_of_constexpr_tuple_kernel(x, out, P: tl.constexpr, BLOCK: tl.constexpr):
    tl.static_assert(not P)  # <-


def test_not_of_a_constexpr_tuple_is_python() -> None:
    """A constexpr tuple is a Python value to Triton: ``not (0, 0)`` is False, ``not ()``
    True."""
    not_of_constexpr_tuple_kernel.warmup(X, Y, P=(), BLOCK=16, grid=(1,))
    expect_error(
        not_of_constexpr_tuple_kernel,
        (X, Y),
        {"P": (0, 0), "BLOCK": 16},
        StaticAssertionError,
        (),
        "tl.static",
    )


def test_unused_result_check_needs_a_statement() -> None:
    """Used results (assigned, returned, passed on) compile."""

    @triton.jit
    def kernel(x, out, BLOCK: tl.constexpr):
        a = tl.load(x + tl.arange(0, BLOCK))
        a = cube(a)
        tl.store(out + tl.arange(0, BLOCK), square(a))

    kernel.warmup(np.zeros(16, np.float32), np.zeros(16, np.float32), BLOCK=16, grid=(1,))
