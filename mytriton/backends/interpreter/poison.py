"""Poison: the contents of ``tl.empty`` blocks and of masked-off lanes loaded without ``other``.

Such elements are undefined on the GPU. The interpreter always fills them with a recognisable
value (NaN for floats, the bit pattern 0xDEADBEEF for integers, ``True`` for booleans) so that a
result built from them looks wrong. In debug mode it also tracks, per element, which values are
derived from poison (as LLVM's poison: any arithmetic on a poisoned element is poisoned; ``select``
takes the poison of the operand it picks), and reports a store, reduction, address, mask or loop
bound built from poison as ``PoisonUse``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from mytriton.dialects.tt.semantics import is_float_dtype

Array = np.ndarray

INT_SENTINEL_BITS = 0xDEADBEEFDEADBEEF


def poison_scalar(dtype: np.dtype) -> Array:
    """The value poisoned elements of ``dtype`` hold (a 0-d array)."""
    if dtype == np.bool_:
        return np.array(True)
    if is_float_dtype(dtype):
        return np.array(np.nan, dtype=dtype)
    return np.array(INT_SENTINEL_BITS, dtype=np.uint64).astype(dtype)


def poison_block(dtype: np.dtype, shape: Sequence[int]) -> Array:
    return np.full(tuple(shape), poison_scalar(dtype), dtype=dtype)


@dataclass(frozen=True)
class Poison:
    """Which elements of one value derive from poison, and where (the first) poison came from.

    ``mask`` is a boolean array broadcastable to the value's shape (program axis included).
    """

    mask: Array
    origin: str


def make_poison(mask: Array, origin: str) -> Poison | None:
    """A ``Poison`` for ``mask``, or None when no element is poisoned."""
    return Poison(mask, origin) if mask.any() else None


def union(poisons: Sequence[Poison | None]) -> Poison | None:
    """Elementwise OR of operand poisons (operands share the result's shape up to broadcasting)."""
    present = [p for p in poisons if p is not None]
    if not present:
        return None
    if len(present) == 1:
        return present[0]
    mask = present[0].mask
    for p in present[1:]:
        mask = mask | p.mask
    return Poison(mask, present[0].origin)


def mask_of(poison: Poison | None, shape: Sequence[int]) -> Array:
    """The poison mask broadcast to ``shape`` (all False for a clean value)."""
    if poison is None:
        return np.zeros(tuple(shape), dtype=bool)
    return np.broadcast_to(poison.mask, tuple(shape))
