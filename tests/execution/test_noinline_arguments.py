"""Triton's rule for ``@jit(noinline=True)`` functions: compiled as calls, they take no block
(of more than one element) as a positional argument; its interpreter (``TRITON_INTERPRET=1``)
has no such rule (Triton's ``test_core.py::test_call``). Scalars and one-element blocks pass."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.errors import UnsupportedSyntaxError
from tests.frontend.util import expect_error

pytestmark = pytest.mark.execution


@triton.jit(noinline=True)
def times(val, i):
    return val * i


@triton.jit
def block_argument_kernel(x, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    v = tl.load(x + offs)
    for i in range(1, n):
        v = times(v, i)  # <-
    tl.store(x + offs, v)


@triton.jit
def scalar_and_single_kernel(x, n, BLOCK: tl.constexpr):
    s = tl.load(x)
    one = tl.load(x + tl.arange(0, 1))  # a one-element block passes too
    for i in range(1, n):
        s = times(s, i)
    tl.store(x, s)
    tl.store(x + 1 + tl.arange(0, 1), times(one, 10))
    offs = tl.arange(0, BLOCK)
    tl.store(x + 2 + offs, times(i=2.0, val=tl.load(x + 2 + offs)))  # by keyword: not checked


def test_block_argument_is_refused() -> None:
    x = np.ones(8, np.float32)
    err = expect_error(
        block_argument_kernel,
        (x, 4),
        {"BLOCK": 8},
        UnsupportedSyntaxError,
        ("Function times is marked noinline", "non-scalar argument val:fp32[8]"),
        "times(v, i)",
    )
    assert err.__cause__ is None


def test_interpret_mode_has_no_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRITON_INTERPRET", "1")
    x = np.ones(8, np.float32)
    block_argument_kernel[(1,)](x, 4, BLOCK=8)
    np.testing.assert_array_equal(x, 6.0)


def test_scalars_and_single_elements_pass(run: Any) -> None:
    x = np.arange(1, 11, dtype=np.float32)
    want = x.copy()
    want[0] *= 1 * 2 * 3
    want[1] = x[0] * 10  # x[0] before the kernel
    want[2:] *= 2.0
    run(scalar_and_single_kernel, (1,), x, 4, BLOCK=8)
    np.testing.assert_array_equal(x, want)
