"""``>>`` is arithmetic or logical by the signedness of the block whose operator it is, taken
*before* the operands are promoted (Triton's ``tensor.__rshift__`` picks ``ashr``/``lshr`` from
its own dtype, then promotes): ``int8 >> uint8`` is an arithmetic shift of the uint8 bits, where
mytriton shifted logically by the promoted dtype (Triton's ``test_shift_op[int8-uint8->>]``)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl

pytestmark = pytest.mark.execution


@triton.jit
def shift_kernel(x_ptr, y_ptr, z_ptr, w_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    tl.store(z_ptr + offs, x >> y)
    tl.store(w_ptr + offs, 200 >> y)  # the block's own (y's) signedness decides


def _shift(x: np.ndarray, y: np.ndarray, arithmetic: bool, out: np.dtype) -> np.ndarray:
    """``x >> y`` on the bits of ``out``, arithmetic or logical."""
    bits = x.astype(out)
    view = np.dtype(f"{'i' if arithmetic else 'u'}{out.itemsize}")
    return (bits.view(view) >> y.astype(view)).view(out)


@pytest.mark.parametrize(
    ("xd", "yd", "zd"),
    [
        (np.int8, np.uint8, np.uint8),  # promoted unsigned, shifted arithmetically
        (np.int32, np.uint32, np.uint32),
        (np.uint16, np.int16, np.uint16),
        (np.uint8, np.int16, np.int16),  # promoted signed, shifted logically
        (np.int64, np.int64, np.int64),
    ],
    ids=lambda d: np.dtype(d).name,
)
def test_right_shift_kind_comes_from_the_left_block(run: Any, xd: Any, yd: Any, zd: Any) -> None:
    n = 16
    x = np.array([-1, -128, 100, -7, 5, -100, 127, -2] * 2, dtype=np.int64).astype(xd)
    y = (np.arange(n) % 8).astype(yd)
    z = np.zeros(n, zd)
    w = np.zeros(n, yd)
    run(shift_kernel, (1,), x, y, z, w, N=n)
    arithmetic = np.dtype(xd).kind == "i"
    np.testing.assert_array_equal(z, _shift(x, y, arithmetic, np.dtype(zd)))
    w_arithmetic = np.dtype(yd).kind == "i"
    np.testing.assert_array_equal(w, _shift(np.full(n, 200), y, w_arithmetic, np.dtype(yd)))
