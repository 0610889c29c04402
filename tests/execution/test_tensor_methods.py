"""Triton's ``tl.tensor`` methods: ``x.cast(d)``, ``x.sum(0)``, ``x.exp()`` are the ``tl``
functions with the tensor as first argument (Triton's own tests spell casts ``x.cast``)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.errors import UnsupportedSyntaxError
from mytriton.frontend import attributes

pytestmark = pytest.mark.execution


@triton.jit
def methods_kernel(x, out, BLOCK: tl.constexpr):
    v = tl.load(x + tl.arange(0, BLOCK))
    tl.store(out, v.sum(axis=0) + v.max(0) - v.min(axis=0))
    bits = v.cast(tl.int32, bitcast=True)
    tl.store(out + 1 + tl.arange(0, BLOCK), (bits >> 23).cast(tl.float32))
    tl.store(out + 1 + BLOCK + tl.arange(0, BLOCK), v.sqrt().exp2().abs())


def test_tensor_methods_are_tl_functions(run: Any) -> None:
    x = np.linspace(1, 8, 8, dtype=np.float32)
    out = np.zeros(17, np.float32)
    run(methods_kernel, (1,), x, out, BLOCK=8)
    assert out[0] == x.sum() + 8 - 1
    np.testing.assert_array_equal(out[1:9], (x.view(np.int32) >> 23).astype(np.float32))
    np.testing.assert_allclose(out[9:], np.exp2(np.sqrt(x)), rtol=1e-6)


@triton.jit
def missing_method_kernel(x, BLOCK: tl.constexpr):
    v = tl.load(x + tl.arange(0, BLOCK))
    v.cumprod(0)


def test_a_method_not_built_yet_is_a_typed_error(monkeypatch: pytest.MonkeyPatch) -> None:
    # every method of Triton 3.6's tl.tensor is built now: pretend tl.cumprod is not
    monkeypatch.setenv("MYTRITON_BACKEND", "interpreter")
    real = attributes._has_tl_function
    monkeypatch.setattr(
        attributes, "_has_tl_function", lambda name: name != "cumprod" and real(name)
    )
    with pytest.raises(UnsupportedSyntaxError, match=r"x.cumprod\(...\)` \(tl.cumprod\)"):
        missing_method_kernel[(1,)](np.zeros(8, np.float32), BLOCK=8)
