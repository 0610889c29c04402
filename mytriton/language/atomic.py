"""Triton's atomics (``tl.atomic_add`` ... ``tl.atomic_cas``), also block methods
(``ptrs.atomic_add(v)``). Each returns the value memory held before; ``sem`` is one of
``"relaxed"``, ``"acquire"``, ``"release"``, ``"acq_rel"`` (the default), ``scope`` one of
``"cta"``, ``"gpu"`` (the default), ``"sys"``. Signatures follow ``triton.language``."""

from __future__ import annotations

from typing import Any

from mytriton.language.core import builtin


@builtin
def atomic_add(pointer: Any, val: Any, mask: Any = None, sem: Any = None, scope: Any = None) -> Any:
    """Atomically ``*pointer += val`` where ``mask``; integers (32/64-bit) and all floats."""


@builtin
def atomic_max(pointer: Any, val: Any, mask: Any = None, sem: Any = None, scope: Any = None) -> Any:
    """Atomically ``*pointer = max(*pointer, val)`` where ``mask``; integers, f32 and f64."""


@builtin
def atomic_min(pointer: Any, val: Any, mask: Any = None, sem: Any = None, scope: Any = None) -> Any:
    """Atomically ``*pointer = min(*pointer, val)`` where ``mask``; integers, f32 and f64."""


@builtin
def atomic_and(pointer: Any, val: Any, mask: Any = None, sem: Any = None, scope: Any = None) -> Any:
    """Atomically ``*pointer &= val`` where ``mask``; 32/64-bit integers."""


@builtin
def atomic_or(pointer: Any, val: Any, mask: Any = None, sem: Any = None, scope: Any = None) -> Any:
    """Atomically ``*pointer |= val`` where ``mask``; 32/64-bit integers."""


@builtin
def atomic_xor(pointer: Any, val: Any, mask: Any = None, sem: Any = None, scope: Any = None) -> Any:
    """Atomically ``*pointer ^= val`` where ``mask``; 32/64-bit integers."""


@builtin
def atomic_xchg(
    pointer: Any, val: Any, mask: Any = None, sem: Any = None, scope: Any = None
) -> Any:
    """Atomically ``*pointer = val`` where ``mask``; 32/64-bit integers, f32 and f64."""


@builtin
def atomic_cas(pointer: Any, cmp: Any, val: Any, sem: Any = None, scope: Any = None) -> Any:
    """Atomically ``if *pointer == cmp: *pointer = val`` (bit patterns compared); 16-, 32- or
    64-bit elements."""


ATOMICS = (
    "atomic_add",
    "atomic_and",
    "atomic_cas",
    "atomic_max",
    "atomic_min",
    "atomic_or",
    "atomic_xchg",
    "atomic_xor",
)
