"""Poison (debug mode) follows the elements the shape ops move: a poisoned element moved by
``trans``/``join``/``split``/``cat``/``gather``/``reshape`` is reported where it is stored, and
storing only the defined elements after the move is clean."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.backends.interpreter import PoisonUse

pytestmark = pytest.mark.execution


@triton.jit
def moved_kernel(x, out, n, KIND: tl.constexpr):
    offs = tl.arange(0, 8)
    v = tl.where(offs < n, tl.load(x + offs), tl.empty((8,), tl.float32))  # poison from n on
    if KIND == 0:
        w = tl.flip(v)  # a gather
        keep = offs >= 8 - n
    elif KIND == 1:
        w = tl.trans(tl.reshape(v, 2, 4)).reshape(8)  # w[i] = v[(i % 2) * 4 + i // 2]
        keep = (offs % 2) * 4 + offs // 2 < n
    elif KIND == 2:
        a, b = tl.split(tl.join(v, v))
        w = a + b
        keep = offs < n
    else:
        c = tl.cat(v, v, can_reorder=True)
        w, _ = tl.split(tl.trans(tl.reshape(c, 2, 8)))  # the first copy of v
        keep = offs < n
    tl.store(out + offs, w, mask=keep)


@pytest.mark.parametrize("kind", [0, 1, 2, 3])
def test_poison_follows_moved_elements(monkeypatch: Any, kind: int) -> None:
    monkeypatch.setenv("MYTRITON_BACKEND", "interpreter")
    x = np.arange(8, dtype=np.float32)
    out = np.zeros(8, np.float32)
    moved_kernel[(1,)](x, out, 5, KIND=kind, debug=True)  # only defined elements are stored
    assert np.isfinite(out).all()


@triton.jit
def store_moved_poison_kernel(x, out, n):
    offs = tl.arange(0, 8)
    v = tl.where(offs < n, tl.load(x + offs), tl.empty((8,), tl.float32))
    tl.store(out + offs, tl.flip(v))  # <- the poisoned tail lands at the front


def test_storing_moved_poison_is_reported(monkeypatch: Any) -> None:
    monkeypatch.setenv("MYTRITON_BACKEND", "interpreter")
    x = np.arange(8, dtype=np.float32)
    with pytest.raises(PoisonUse, match="element"):
        store_moved_poison_kernel[(1,)](x, np.zeros(8, np.float32), 5, debug=True)
