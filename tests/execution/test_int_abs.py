"""``tl.abs`` of every integer type, as Triton computes it: a signed minimum wraps to itself
(LLVM's ``abs`` with ``is_int_min_poison = false``); unsigned integers and int1 are unchanged."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl

pytestmark = pytest.mark.execution

INT_DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]


@triton.jit
def abs_kernel(x, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out + offs, tl.abs(tl.load(x + offs)))
    tl.store(out + BLOCK + offs, tl.load(x + offs).abs())
    tl.store(out + 2 * BLOCK, tl.abs(tl.load(x + BLOCK - 1)))  # a scalar


def _extremes(dt: Any) -> np.ndarray:
    info = np.iinfo(dt)
    values = [info.min, info.min + 1, -1, 0, 1, 5, info.max - 1, info.max]
    return np.array([v for v in values if info.min <= v <= info.max] * 2, dt)[:8]


@pytest.mark.parametrize("dt", INT_DTYPES, ids=lambda d: np.dtype(d).name)
def test_abs_of_every_integer_width(run: Any, dt: Any) -> None:
    x = _extremes(dt)
    block = len(x)
    out = np.zeros(2 * block + 1, dt)
    run(abs_kernel, (1,), x, out, BLOCK=block)
    with np.errstate(over="ignore"):
        want = np.abs(x) if np.issubdtype(dt, np.signedinteger) else x  # abs(min) wraps
    if np.issubdtype(dt, np.signedinteger):
        assert want[0] == np.iinfo(dt).min
    np.testing.assert_array_equal(out, np.concatenate([want, want, want[-1:]]))


@triton.jit
def bool_abs_kernel(x, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out + offs, tl.abs(tl.load(x + offs) != 0))


def test_abs_of_int1_is_itself(run: Any) -> None:
    x = np.array([0, 3, -1, 0, 1, 0, -128, 7], np.int8)
    out = np.zeros(8, np.bool_)
    run(bool_abs_kernel, (1,), x, out, BLOCK=8)
    np.testing.assert_array_equal(out, x != 0)
