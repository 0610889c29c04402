"""What the frontend knows about each kernel parameter when it compiles one specialization."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mytriton.language.core import dtype

# Triton's specialization: pointers 16-byte aligned and integers divisible by 16 are marked
# (``tt.divisibility = 16``), which lets the compiler prove vector accesses aligned.
DIVISIBILITY = 16


@dataclass(frozen=True)
class PointerArg:
    """A runtime array argument: a pointer to elements of ``dtype``; ``divisibility`` is the
    alignment of its address in bytes that the specialization guarantees (16 or 1)."""

    dtype: dtype
    divisibility: int = 1


@dataclass(frozen=True)
class ScalarArg:
    """A runtime scalar argument (``i32``, ``f32`` or ``i1``); ``divisibility`` is a power of
    two the (integer) value is known to be a multiple of (16 or 1)."""

    dtype: dtype
    divisibility: int = 1


@dataclass(frozen=True)
class ConstexprArg:
    """A compile-time argument: its value is part of the specialization."""

    value: Any


ArgSpec = PointerArg | ScalarArg | ConstexprArg
