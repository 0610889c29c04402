"""What the frontend knows about each kernel parameter when it compiles one specialization."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mytriton.language.core import dtype


@dataclass(frozen=True)
class PointerArg:
    """A runtime array argument: a pointer to elements of ``dtype``."""

    dtype: dtype


@dataclass(frozen=True)
class ScalarArg:
    """A runtime scalar argument (``i32``, ``f32`` or ``i1``)."""

    dtype: dtype


@dataclass(frozen=True)
class ConstexprArg:
    """A compile-time argument: its value is part of the specialization."""

    value: Any


ArgSpec = PointerArg | ScalarArg | ConstexprArg
