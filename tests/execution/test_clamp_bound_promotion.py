"""How ``tl.clamp(x, lo, hi)`` types bounds of different dtypes, as in Triton 3.6: ``lo`` is
promoted with ``hi`` first, and only then each with ``x``. So with an int8 ``lo`` and a uint8
``hi`` the bounds are uint8 (-3 becomes 253) before they meet a float ``x``; a float32 ``hi``
(a Python float) makes the bounds, and so the result, float32 even for a float16 ``x``.

Every expected row is what Triton 3.6's interpreter gives on the same kernel and inputs
(mytriton before the 'sem' branch promoted each bound with ``x`` directly: -3.0).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl

pytestmark = pytest.mark.execution


@triton.jit
def clamp_kernel(x, lo, hi, out, MODE: tl.constexpr, D: tl.constexpr):
    offs = tl.arange(0, 4)
    v = tl.load(x + offs)
    a = tl.load(lo + offs)
    b = tl.load(hi + offs)
    if MODE == "blocks":
        r = tl.clamp(v, a, b)
    elif MODE == "float_hi":
        r = tl.clamp(v, a, 7.5)
    elif MODE == "int_lo":
        r = tl.clamp(v, -3, b)
    else:
        r = tl.clamp(v, a, 1e5)
    tl.static_assert(r.dtype == D)
    tl.store(out + offs, r.to(tl.float64))


X = [-10, 0.5, 100, 300]
LO = [-3, -3, 1, 2]
HI = [250, 5, 250, 250]
# (x's, lo's and hi's dtypes, mode, Triton's result dtype and values)
CASES = [
    (np.float32, np.int8, np.uint8, "blocks", tl.float32, [250, 5, 100, 250]),
    (np.float16, np.int8, np.uint8, "blocks", tl.float16, [250, 5, 100, 250]),
    (np.float16, np.int16, np.uint8, "blocks", tl.float16, [-3, 0.5, 100, 250]),
    (np.float16, np.float16, np.uint8, "blocks", tl.float16, [-3, 0.5, 100, 250]),
    (np.float64, np.int8, np.float32, "blocks", tl.float64, [-3, 0.5, 100, 250]),
    (np.float16, np.int8, np.uint8, "float_hi", tl.float32, [-3, 0.5, 7.5, 7.5]),
    (np.float16, np.int8, np.uint8, "int_lo", tl.float16, [-3, 0.5, 100, 250]),
    (np.float16, np.int8, np.float16, "big", tl.float32, [-3, 0.5, 100, 300]),
]


@pytest.mark.parametrize(
    ("xd", "lod", "hid", "mode", "result", "expected"),
    CASES,
    ids=[f"{c[0].__name__}-{c[1].__name__}-{c[2].__name__}-{c[3]}" for c in CASES],
)
def test_bounds_promote_together_first(
    run: Any, xd: Any, lod: Any, hid: Any, mode: str, result: Any, expected: list
) -> None:
    out = np.zeros(4, np.float64)
    x, lo, hi = np.array(X, xd), np.array(LO, lod), np.array(HI, hid)
    run(clamp_kernel, (1,), x, lo, hi, out, MODE=mode, D=result, num_warps=1)
    assert out.tolist() == expected
