"""A typed compile error carries, as its ``__cause__``, the plain exception Triton's own
``CompilationError`` is caused by (code written for Triton reads the message there), and under
the interpreter it is also an ``InterpreterError``, the class Triton's interpreter raises for
every error of a kernel. Neither costs mytriton's own class, message or ``file:line:col``."""

from __future__ import annotations

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.backends.interpreter.errors import InterpreterError
from mytriton.errors import (
    CompilationError,
    KernelNameError,
    KernelTypeError,
    KernelValueError,
    UnsupportedSyntaxError,
)
from tests.frontend.util import marked_line


@triton.jit
def grid_axis_kernel(out):
    tl.store(out, tl.program_id(7))  # <-


@triton.jit
def narrow_descriptor_kernel(x):
    d = tl.make_tensor_descriptor(x, [16, 16], [16, 1], [16, 2])  # <-
    d.store([0, 0], tl.zeros([16, 2], tl.int32))


@triton.jit
def while_else_kernel(out):
    i = 0
    while i < 4:  # <-
        i += 1
    else:
        i = 0


@triton.jit
def undefined_name_kernel(out):
    tl.store(out, no_such_name)  # <-  # noqa: F821


@triton.jit
def library_scalar_cumsum_kernel(out, n):
    tl.store(out, tl.cumsum(n, 0))  # <-


OUT = np.zeros(4, np.int32)


def _error(kernel, *args):
    with pytest.raises(CompilationError) as info:
        kernel[(1,)](*args)
    return info.value


def test_value_error_is_caused_by_a_plain_value_error(monkeypatch):
    monkeypatch.setenv("MYTRITON_BACKEND", "gpusim")
    err = _error(grid_axis_kernel, OUT)
    assert type(err) is KernelValueError
    assert type(err.__cause__) is ValueError
    assert str(err.__cause__) == "program_id axis must be 0, 1, or 2 but got 7"
    file, line, _ = marked_line(grid_axis_kernel)
    assert str(err).startswith(f"{file}:{line}:")  # the location stays on the error itself
    assert file not in str(err.__cause__)


def test_name_error_is_caused_by_a_plain_name_error(monkeypatch):
    monkeypatch.setenv("MYTRITON_BACKEND", "gpusim")
    err = _error(undefined_name_kernel, OUT)
    assert type(err) is KernelNameError
    assert type(err.__cause__) is NameError
    assert str(err.__cause__) == err.message


def test_syntax_error_has_no_cause(monkeypatch):
    """As Triton's ``UnsupportedLanguageConstruct``: nothing below the syntax failed."""
    monkeypatch.setenv("MYTRITON_BACKEND", "gpusim")
    err = _error(while_else_kernel, OUT)
    assert type(err) is UnsupportedSyntaxError
    assert err.__cause__ is None


def test_library_error_keeps_the_librarys_cause(monkeypatch):
    """An error inside ``tl.cumsum`` is reported at the kernel's call, caused by what the
    library function raised."""
    monkeypatch.setenv("MYTRITON_BACKEND", "gpusim")
    err = _error(library_scalar_cumsum_kernel, OUT, 3)
    assert isinstance(err, (KernelTypeError, KernelValueError))
    assert err.message.endswith("(in tl.cumsum)")
    assert err.__cause__ is not None and str(err.__cause__) in err.message
    assert "(in tl.cumsum)" not in str(err.__cause__)


def test_interpreter_compile_error_is_also_an_interpreter_error(monkeypatch):
    monkeypatch.setenv("MYTRITON_INTERPRET", "1")
    err = _error(narrow_descriptor_kernel, np.zeros((16, 16), np.int32))
    assert isinstance(err, KernelValueError) and isinstance(err, InterpreterError)
    assert type(err).__name__ == "KernelValueError"
    assert "Descriptor block shape must have at least 16 bytes" in str(err.__cause__)
    assert "but got 2 * 4 = 8 bytes" in err.message
    file, line, _ = marked_line(narrow_descriptor_kernel)
    assert (err.loc.file, err.loc.line) == (file, line)


def test_interpreter_error_class_is_made_once_per_class(monkeypatch):
    monkeypatch.setenv("MYTRITON_INTERPRET", "1")
    first = _error(grid_axis_kernel, OUT)
    grid_axis_kernel.clear_cache()
    second = _error(grid_axis_kernel, OUT)
    assert type(first) is type(second)
    assert isinstance(first, InterpreterError) and type(first.__cause__) is ValueError


@pytest.mark.parametrize("backend", ["gpusim", "cuda"])
def test_other_backends_raise_the_plain_class(monkeypatch, backend):
    monkeypatch.delenv("MYTRITON_INTERPRET", raising=False)
    monkeypatch.delenv("TRITON_INTERPRET", raising=False)
    monkeypatch.setenv("MYTRITON_BACKEND", backend)
    err = _error(grid_axis_kernel, OUT)
    assert type(err) is KernelValueError
