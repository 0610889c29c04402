"""Signed zeros as Triton 3.6 makes them: its unary minus is ``0 - x`` (so ``-(+0.0)`` and
``-(-0.0)`` are both +0.0), and a Python scalar equal to zero becomes the dtype's zero, so a
``-0.0`` literal, constexpr or ``tl.full`` value is +0.0. ``1.0 / -x`` at ``x = 0`` is +inf.
Integer negation still wraps (``-INT32_MIN`` is INT32_MIN, ``-1u`` is UINT32_MAX).

Each expected sign below is what Triton 3.6's interpreter printed for the same kernel, but for
bfloat16's ``0 - (-0.0)``: that interpreter subtracts bfloat16 values as their uint16 bits
(its ``-bf16(1.5)`` is -3.0), compiled Triton subtracts them as floats, giving +0.0."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl

pytestmark = pytest.mark.execution


@triton.jit
def zeros_kernel(x_ptr, o_ptr, C: tl.constexpr):
    offs = tl.arange(0, 2)
    x = tl.load(x_ptr + offs)
    tl.store(o_ptr + 0 + offs, -x)
    tl.store(o_ptr + 2 + offs, x * 0 + -0.0)
    tl.store(o_ptr + 4 + offs, tl.full((2,), -0.0, tl.float32))
    tl.store(o_ptr + 6 + offs, x * 0 + C)
    tl.store(o_ptr + 8 + offs, x * -0.0)
    tl.store(o_ptr + 10 + offs, tl.where(x > 100, x, -0.0))
    tl.store(o_ptr + 12 + offs, tl.zeros((2,), tl.float32) - C)
    tl.store(o_ptr + 14 + offs, -(x * 0 + C))
    s = tl.load(x_ptr + 1)
    tl.store(o_ptr + 16, -s)
    tl.store(o_ptr + 17, -C + s * 0)
    tl.store(o_ptr + 18 + offs, tl.maximum(x, -0.0))
    tl.store(o_ptr + 20 + offs, x + -0.0)
    tl.store(o_ptr + 22 + offs, (-x.to(tl.float16)).to(tl.float32))
    tl.store(o_ptr + 24 + offs, (-x.to(tl.float64)).to(tl.float32))
    tl.store(o_ptr + 26 + offs, (-x.to(tl.bfloat16)).to(tl.float32))
    tl.store(o_ptr + 28 + offs, 1.0 / -x)
    tl.store(o_ptr + 30 + offs, 1.0 / (x * 0 + -0.0))


def test_negative_zero_forms_follow_triton(run: Any) -> None:
    x = np.array([0.0, -0.0], np.float32)
    out = np.full(32, 7.0, np.float32)
    run(zeros_kernel, (1,), x, out, -0.0, num_warps=1)
    assert not np.signbit(out[:8]).any() and not np.signbit(out[10:28]).any(), out
    # x * (+0.0): the constant is +0.0, so only -0.0 * +0.0 is negative
    assert np.signbit(out[8:10]).tolist() == [False, True]
    assert out[28:32].tolist() == [np.inf] * 4


@triton.jit
def int_negation_kernel(i_ptr, u_ptr, o_ptr):
    offs = tl.arange(0, 2)
    i = tl.load(i_ptr + offs)
    u = tl.load(u_ptr + offs)
    tl.static_assert((-u).dtype == tl.uint32 and (-i).dtype == tl.int32)
    tl.store(o_ptr + offs, (-i).to(tl.int64))
    tl.store(o_ptr + 2 + offs, (-u).to(tl.int64))
    tl.store(o_ptr + 4 + offs, (-(i.to(tl.int8))).to(tl.int64))
    tl.store(o_ptr + 6 + offs, (-(u.to(tl.uint8))).to(tl.int64))


def test_integer_negation_wraps(run: Any) -> None:
    i = np.array([-(2**31), 5], np.int32)
    u = np.array([1, 0], np.uint32)
    out = np.zeros(8, np.int64)
    run(int_negation_kernel, (1,), i, u, out, num_warps=1)
    assert out.tolist() == [-(2**31), -5, 2**32 - 1, 0, 0, -5, 255, 0]
