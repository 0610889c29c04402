"""``x.logical_and(y)`` / ``x.logical_or(y)``, Triton's tensor methods (TorchInductor's
``bucketize_binary_search`` helper calls them): booleans only, a Python bool becoming an int1
constant; another dtype is a compile error at the call's line (Triton: "Cannot bitcast data-type
of size 32 to data-type of size 1"). Expected values are Triton 3.6's (its interpreter)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.errors import KernelTypeError

pytestmark = pytest.mark.execution


@triton.jit
def logical_methods_kernel(x_ptr, o_ptr):
    x = tl.load(x_ptr + tl.arange(0, 8))
    a = (x > 2).logical_and(x < 6)
    b = (x < 1).logical_or(x > 6)
    c = (x > 2).logical_and(True)
    tl.store(o_ptr + tl.arange(0, 8), a.to(tl.int32) + 2 * b.to(tl.int32) + 4 * c.to(tl.int32))


@triton.jit
def logical_and_of_ints_kernel(x_ptr, o_ptr):
    x = tl.load(x_ptr + tl.arange(0, 8))
    tl.store(o_ptr + tl.arange(0, 8), (x > 2).logical_and(x).to(tl.int32))


def test_logical_methods(run: Any) -> None:
    x = np.arange(8, dtype=np.int32)
    out = np.zeros(8, np.int32)
    run(logical_methods_kernel, (1,), x, out)
    np.testing.assert_array_equal(out, [2, 0, 0, 5, 5, 5, 4, 6])


def test_logical_and_of_ints_is_a_type_error(run: Any) -> None:
    x = np.arange(8, dtype=np.int32)
    with pytest.raises(KernelTypeError, match="Cannot bitcast data-type of size 32") as info:
        run(logical_and_of_ints_kernel, (1,), x, np.zeros(8, np.int32))
    line = (
        logical_and_of_ints_kernel.fn.__code__.co_firstlineno + 3
    )  # the decorator's line, then def, load, store
    assert f"test_logical_methods.py:{line}:" in str(info.value)
