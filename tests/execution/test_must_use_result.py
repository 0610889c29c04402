"""A ``triton.must_use_result`` function runs as any ``@jit`` function when its result is
used (the mark only makes dropping the result a compile error)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl

pytestmark = pytest.mark.execution


@triton.must_use_result("Assign it.")
@triton.jit
def cube(x):
    return x * x * x


@triton.jit
def cube_kernel(x, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    p = tl.make_block_ptr(x, (2 * BLOCK,), (1,), (0,), (BLOCK,), (0,))
    p = tl.advance(p, (BLOCK,))  # tl.advance is must_use_result too
    tl.store(out + offs, cube(tl.load(p)))


def test_must_use_result_function_runs(run: Any) -> None:
    x = np.arange(-8, 8, dtype=np.float32)
    out = np.zeros(8, np.float32)
    run(cube_kernel, (1,), x, out, BLOCK=8)
    np.testing.assert_array_equal(out, x[8:] ** 3)
