"""``hasattr``/``getattr``/``isinstance`` in a kernel are decided while compiling, from what
the kernel's ``x.name`` would give, so a chain of ``and`` stops before the attribute a value
lacks (Triton's ``test_short_circuiting`` pattern)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl

pytestmark = pytest.mark.execution


@triton.jit
def clamp_int32_kernel(x, LIMIT: tl.constexpr):
    """Clamps x[0] to LIMIT only when x is an int32 array; anything else is left alone."""
    if (
        x is not None
        and hasattr(x, "dtype")
        and isinstance(x.dtype, tl.pointer_type)
        and x.dtype.element_ty == tl.int32
        and tl.load(x) > LIMIT
    ):
        tl.store(x, LIMIT)


@triton.jit
def describe_kernel(x, out, FALLBACK: tl.constexpr):
    """out[0]: 1 if x has a dtype; out[1]: x's element width in bits or FALLBACK."""
    tl.store(out, hasattr(x, "dtype"))
    width = getattr(getattr(x, "dtype", None), "element_ty", None)
    if width is None:
        tl.store(out + 1, FALLBACK)
    else:
        tl.store(out + 1, width.primitive_bitwidth)


@pytest.mark.parametrize(
    ("value", "dtype", "expected"),
    [
        (100, np.int32, 7),
        (3, np.int32, 3),
        (100, np.int64, 100),
        (100.0, np.float32, 100.0),
    ],
)
def test_and_chain_stops_at_the_first_false(run: Any, value, dtype, expected) -> None:
    x = np.full(1, value, dtype)
    run(clamp_int32_kernel, (1,), x, LIMIT=7, num_warps=1)
    assert x[0] == expected


@pytest.mark.parametrize("arg", [None, 1, 5])
def test_values_without_a_pointer_dtype_do_nothing(run: Any, arg) -> None:
    run(clamp_int32_kernel, (1,), arg, LIMIT=7, num_warps=1)  # compiles and runs


def test_getattr_with_default(run: Any) -> None:
    out = np.zeros(2, np.int32)
    run(describe_kernel, (1,), np.zeros(4, np.float16), out, FALLBACK=-1, num_warps=1)
    np.testing.assert_array_equal(out, [1, 16])
    out[:] = 0
    run(describe_kernel, (1,), None, out, FALLBACK=-1, num_warps=1)
    np.testing.assert_array_equal(out, [0, -1])
