"""The objects a kernel names through ``tl``: dtypes, ``constexpr`` and builtin functions.

The functions here are never executed: the frontend recognises them by identity and emits `tt`
ops. Calling one from ordinary Python raises, as it does in Triton.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])


class dtype:  # noqa: N801 - Triton's public name
    """A scalar element type (``tl.float32``...). Compared by name, hashable, printable."""

    def __init__(self, name: str, bitwidth: int, kind: str):
        self.name = name
        self.primitive_bitwidth = bitwidth
        self.kind = kind  # "int", "float" or "bool"

    def is_floating(self) -> bool:
        return self.kind == "float"

    def is_int(self) -> bool:
        return self.kind in ("int", "bool")

    def is_bool(self) -> bool:
        return self.kind == "bool"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, dtype) and other.name == self.name

    def __hash__(self) -> int:
        return hash(self.name)

    def __repr__(self) -> str:
        return self.name

    def __str__(self) -> str:
        return self.name


int1 = dtype("int1", 1, "bool")
int8 = dtype("int8", 8, "int")
int16 = dtype("int16", 16, "int")
int32 = dtype("int32", 32, "int")
int64 = dtype("int64", 64, "int")
float16 = dtype("float16", 16, "float")
bfloat16 = dtype("bfloat16", 16, "float")
float32 = dtype("float32", 32, "float")
float64 = dtype("float64", 64, "float")

DTYPES = {d.name: d for d in (int1, int8, int16, int32, int64, float16, bfloat16, float32, float64)}


class constexpr:  # noqa: N801 - Triton's public name
    """Annotation of a compile-time parameter (``BLOCK: tl.constexpr``); also wraps values."""

    def __init__(self, value: Any):
        self.value: Any = value.value if isinstance(value, constexpr) else value

    def __repr__(self) -> str:
        return f"constexpr[{self.value!r}]"


class PropagateNan(enum.Enum):
    """NaN handling of ``tl.maximum``/``tl.minimum``/``tl.clamp`` (Triton's values).

    ``NONE`` (the default) returns the other operand when one is NaN (IEEE maxNum, PTX
    ``max.f32``); ``ALL`` returns NaN when either operand is NaN (PTX ``max.NaN.f32``).
    """

    NONE = 0x0000
    ALL = 0xFFFF


BUILTINS: dict[Callable[..., Any], str] = {}


def builtin(fn: F) -> F:
    """Mark ``fn`` as a kernel builtin; the frontend implements it under ``fn.__name__``."""

    def outside_kernel(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError(f"tl.{fn.__name__} can only be called inside a @mytriton.jit kernel")

    outside_kernel.__name__ = fn.__name__
    outside_kernel.__qualname__ = fn.__qualname__
    outside_kernel.__doc__ = fn.__doc__
    outside_kernel.__wrapped__ = fn  # type: ignore[attr-defined]
    BUILTINS[outside_kernel] = fn.__name__
    return outside_kernel  # type: ignore[return-value]


class pointer_type(dtype):  # noqa: N801 - Triton's public name
    """The dtype of a pointer value (``x_ptr.dtype``): ``pointer_type(float32)``."""

    def __init__(self, element_ty: dtype):
        super().__init__(f"pointer<{element_ty.name}>", 64, "pointer")
        self.element_ty = element_ty

    def is_ptr(self) -> bool:
        return True
