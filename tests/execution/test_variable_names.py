"""Variables whose names make no IR name (``_0``: xDSL drops the ``_<digits>`` suffix and keeps
an empty name that a pass cannot copy; ``größe``: not an MLIR name) compile and run, their values
left unnamed (Triton's ``test_cast_matmul`` loads with ``other=_0``)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.frontend.ir_names import value_name

pytestmark = pytest.mark.execution


@triton.jit
def oddly_named_kernel(_1, out_ptr, K, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    größe = tl.zeros((BLOCK,), dtype=tl.float32)
    for _3 in range(0, K):
        _0 = tl.zeros((1,), dtype=tl.float32)
        x = tl.load(_1 + _3 * BLOCK + offs, mask=offs < BLOCK - 1, other=_0)
        größe += x
    tl.store(out_ptr + offs, größe)


def test_values_of_names_xdsl_cannot_keep_are_unnamed(run: Any) -> None:
    x = np.arange(24, dtype=np.float32).reshape(3, 8)
    out = np.full(8, -1.0, np.float32)
    run(oddly_named_kernel, (1,), x, out, 3, BLOCK=8)
    expected = x.sum(axis=0)
    expected[-1] = 0.0
    np.testing.assert_array_equal(out, expected)


@pytest.mark.parametrize(
    ("name", "kept"),
    [("offs", "offs"), ("x_1", "x_1"), ("_", "_"), ("__0", "__0"), ("_0", None), ("größe", None)],
)
def test_value_name(name: str, kept: str | None) -> None:
    assert value_name(name) == kept
