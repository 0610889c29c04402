"""Simulated SSA values: one NumPy entry per thread of the batch (a "lane").

Scalars are arrays (a ``vector<N x T>`` adds a trailing axis of N: shape ``(lanes, N)``); a
global pointer is a ``Ptr`` (which kernel parameter it derives from, and a byte offset from
that parameter's address), so every access can be bounds-checked against the array that was
passed; a shared-memory ``memref`` is a ``SharedRef`` naming its buffer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

import numpy as np

from mytriton.dialects.tt.semantics import is_float_dtype


@dataclass(frozen=True)
class Ptr:
    """``!llvm.ptr<1>`` per lane: parameter index ``arg`` plus byte offset ``off`` (int64)."""

    arg: np.ndarray
    off: np.ndarray


@dataclass(frozen=True)
class SharedRef:
    """A ``memref`` in address space 3: the ``memref.global`` it names (uniform per program)."""

    name: str


Value: TypeAlias = np.ndarray | Ptr | SharedRef


def merge(cond: np.ndarray, a: Value, b: Value) -> Value:
    """Per lane, ``a`` where ``cond`` else ``b`` (``scf.if`` results, loop-carried values)."""
    if isinstance(a, np.ndarray) and isinstance(b, np.ndarray):
        if a.ndim > 1:  # vectors: the lane's condition picks all of its elements
            cond = cond.reshape(-1, *[1] * (a.ndim - 1))
        return np.where(cond, a, b)
    if isinstance(a, Ptr) and isinstance(b, Ptr):
        return Ptr(np.where(cond, a.arg, b.arg), np.where(cond, a.off, b.off))
    if isinstance(a, SharedRef) and a == b:
        return a
    raise TypeError(f"cannot merge simulated values {a!r} and {b!r}")


def same_number(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Element-wise "the same number": ``==``, except that any two NaNs are the same.

    Threads holding replicated copies of a value may differ in bits a GPU leaves unspecified
    (a NaN's sign and payload, the sign of a zero ``max`` returns), so storing both is no race.
    """
    if is_float_dtype(a.dtype):
        return np.asarray((a == b) | (np.isnan(a) & np.isnan(b)))
    return np.asarray(a == b)


def first_conflict(keys: np.ndarray, values: np.ndarray) -> tuple[int, int] | None:
    """Two positions storing different numbers to one key, if any."""
    order = np.argsort(keys, kind="stable")
    k = keys[order]
    dup = k[1:] == k[:-1]
    if not dup.any():
        return None
    v = values[order]
    clash = dup & ~same_number(v[1:], v[:-1])
    if not clash.any():
        return None
    i = int(np.argmax(clash))
    return int(order[i]), int(order[i + 1])
