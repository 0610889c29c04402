"""How a comparison (``<``, ``<=``, ``>``, ``>=``, ``==``, ``!=``) types a Python scalar operand,
as in Triton 3.6: unlike ``+``/``*``/``&``..., where the scalar takes the block's dtype (weak
typing), a comparison first makes it a value of its own dtype (``to_tensor``: int32, uint32,
int64 or uint64 by range, int1 for a bool, float32, or float64 beyond float32's range) and then
promotes the two as two blocks. So ``x_u8 != -1`` and ``x_i8 < 300`` compare in int32,
``x_i32 < 2**31`` in uint32, ``x_f16 < 1e-8`` in float32 and ``x_f64 == 0.1`` against 0.1
rounded to float32.

Every expected row is what Triton 3.6's interpreter gives on the same kernel and input (the
bfloat16 row too: bfloat16(0.0999) is 0.10009765625, above float32(0.1)).
"""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.errors import KernelTypeError, KernelValueError

pytestmark = pytest.mark.execution


@triton.jit
def compare_kernel(x, out, S: tl.constexpr, OP: tl.constexpr, SWAP: tl.constexpr):
    offs = tl.arange(0, 4)
    a = tl.load(x + offs)
    if SWAP:
        if OP == "<":
            r = S < a  # noqa: SIM300 (the scalar on the left is the point)
        elif OP == ">":
            r = S > a  # noqa: SIM300 (the scalar on the left is the point)
        else:
            r = S == a  # noqa: SIM300 (the scalar on the left is the point)
    elif OP == "<":
        r = a < S
    elif OP == "<=":
        r = a <= S
    elif OP == ">":
        r = a > S
    elif OP == ">=":
        r = a >= S
    elif OP == "==":
        r = a == S
    else:
        r = a != S
    tl.store(out + offs, r.to(tl.int8))


# (input, its dtype, operator, scalar, scalar on the left, Triton's result)
CASES = [
    ([0, 1, 255, 3], np.uint8, "!=", -1, False, [1, 1, 1, 1]),
    ([0, 1, 255, 3], np.uint8, ">", -1, False, [1, 1, 1, 1]),
    ([0, 1, -3, 100], np.int8, "<", 300, False, [1, 1, 1, 1]),
    ([0, 1, -3, 100], np.int8, ">", 300, True, [1, 1, 1, 1]),
    ([0, 1, -3, 100], np.int16, "!=", 70000, False, [1, 1, 1, 1]),
    ([0, 5.96e-8, 1e-8, -1], np.float16, "<", 1e-8, False, [1, 0, 1, 1]),
    ([0.1, 0.5, 0.0999, 1], np.float16, "==", 0.1, False, [0, 0, 0, 0]),
    ([0.1, np.float32(0.1), -1, 0.2], np.float64, "==", 0.1, False, [0, 1, 0, 0]),
    ([0.1, np.float32(0.1), -1, 0.2], np.float64, ">=", 0.1, False, [0, 1, 0, 1]),
    ([0, 1e-45, -1, 1e-38], np.float32, "<", 1e-300, False, [1, 0, 1, 0]),
    ([0, 1, 2**32 - 1, 5], np.uint32, "<", -1, False, [1, 1, 0, 1]),
    ([0, 1, 2**32 - 1, 5], np.uint32, "<=", -2, True, [0, 0, 0, 0]),
    ([0, -1, 2**31 - 1, -5], np.int32, "<", 2**31, False, [1, 0, 1, 0]),
    ([0, -1, 2**31 - 1, -5], np.int32, "<", 2**40, False, [1, 1, 1, 1]),
    ([0, -1, 2**62, -5], np.int64, ">=", 2**63, False, [0, 1, 0, 1]),
    ([0, 1, 255, 3], np.uint8, "==", True, False, [0, 1, 0, 0]),
    ([0, 1, -1, 3], np.int8, "==", True, True, [0, 1, 0, 0]),
    ([0, 1, -1, 3], np.int8, ">", 1.5, False, [0, 0, 0, 1]),
    ([0.1, 0.5, 0.0999, 1], ml_dtypes.bfloat16, "<=", 0.1, False, [0, 0, 0, 0]),
]


@pytest.mark.parametrize(
    ("x", "dtype", "op", "scalar", "swap", "expected"),
    CASES,
    ids=[f"{np.dtype(c[1]).name}{c[2]}{c[3]}{'-left' if c[4] else ''}" for c in CASES],
)
def test_scalar_is_its_own_tensor(
    run: Any, x: list, dtype: Any, op: str, scalar: Any, swap: bool, expected: list
) -> None:
    out = np.full(4, 7, np.int8)
    run(compare_kernel, (1,), np.array(x, dtype), out, S=scalar, OP=op, SWAP=swap, num_warps=1)
    assert out.tolist() == expected


@triton.jit
def literal_kernel(xu8, xi8, xf16, out):
    offs = tl.arange(0, 4)
    a = tl.load(xu8 + offs)
    b = tl.load(xi8 + offs)
    c = tl.load(xf16 + offs)
    ne = a != -1
    lt = b < 300
    tiny = c < 1e-8
    tl.static_assert(ne.dtype == tl.int1 and lt.dtype == tl.int1 and tiny.dtype == tl.int1)
    tl.store(out + offs, ne.to(tl.int8))
    tl.store(out + 4 + offs, lt.to(tl.int8))
    tl.store(out + 8 + offs, tiny.to(tl.int8))


def test_literals_of_the_issue(run: Any) -> None:
    """The literal forms of issue 33's examples: mytriton rejected the first two and compared
    the third in float16 (where 1e-8 is 0)."""
    u8 = np.array([0, 1, 255, 3], np.uint8)
    i8 = np.array([0, 1, -3, 127], np.int8)
    f16 = np.array([0, 5.96e-8, 1e-8, -1], np.float16)
    out = np.zeros(12, np.int8)
    run(literal_kernel, (1,), u8, i8, f16, out, num_warps=1)
    assert out.reshape(3, 4).tolist() == [[1, 1, 1, 1], [1, 1, 1, 1], [1, 0, 1, 1]]


@triton.jit
def huge_kernel(x, out):
    a = tl.load(x + tl.arange(0, 4))
    tl.store(out + tl.arange(0, 4), (a < 2**64).to(tl.int8))  # <-


@triton.jit
def text_kernel(x, out):
    a = tl.load(x + tl.arange(0, 4))
    tl.store(out + tl.arange(0, 4), (a == "one").to(tl.int8))  # <-


def test_integer_beyond_uint64_is_rejected(run: Any) -> None:
    """Triton: ``Nonrepresentable integer``; a scalar no 64-bit dtype holds."""
    x = np.zeros(4, np.int64)
    with pytest.raises(KernelValueError, match="does not fit in int64 or uint64") as info:
        run(huge_kernel, (1,), x, np.zeros(4, np.int8))
    assert info.value.loc is not None and "2**64" in str(info.value)


def test_non_number_is_rejected(run: Any) -> None:
    """Triton: ``cannot convert one of type <class 'str'> to tensor``."""
    x = np.zeros(4, np.int32)
    with pytest.raises(KernelTypeError, match="type str") as info:
        run(text_kernel, (1,), x, np.zeros(4, np.int8))
    assert info.value.loc is not None and '"one"' in str(info.value)
