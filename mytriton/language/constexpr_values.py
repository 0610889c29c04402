"""``tl.constexpr`` (a compile-time parameter's annotation, and the wrapper of compile-time
values), ``tl.const`` (the annotation of a pointer to constant data), ``constexpr_type`` (the
type of a compile-time value) and Triton's helpers that unwrap them."""

from __future__ import annotations

from typing import Any


class constexpr:  # noqa: N801 - Triton's public name
    """Annotation of a compile-time parameter (``BLOCK: tl.constexpr``); also wraps values."""

    def __init__(self, value: Any):
        self.value: Any = value.value if isinstance(value, constexpr) else value

    def __repr__(self) -> str:
        return f"constexpr[{self.value!r}]"

    def __eq__(self, other: object) -> bool:  # by value, as Triton's (``shape == [constexpr(2)]``)
        return bool(self.value == (other.value if isinstance(other, constexpr) else other))

    def __hash__(self) -> int:
        return hash(self.value)

    def __bool__(self) -> bool:  # ``if tl.constexpr(FLAG):`` tests the value, as Triton's
        return bool(self.value)

    def __index__(self) -> int:
        return int(self.value)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:  # a ``@tl.constexpr`` function
        return self.value(*args, **kwargs)

    @property
    def type(self) -> constexpr_type:
        """The type of a compile-time value: ``constexpr_type(value)``, as in Triton."""
        return constexpr_type(self.value)


class const:  # noqa: N801 - Triton's public name
    """The annotation of a kernel parameter that points to constant data (``x_ptr: tl.const``):
    its type is ``const_pointer<...>``, stores and atomics through it (or through pointers
    made from it) are compile errors, and constness is part of the type, so a value cannot be
    const on one path and not on another."""


class constexpr_type:  # noqa: N801 - Triton's public name
    """The type of a compile-time value; two are equal when their values are."""

    def __init__(self, value: Any):
        self.value: Any = value.value if isinstance(value, constexpr) else value

    def __repr__(self) -> str:
        return f"constexpr_type[{self.value}]"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, constexpr_type) and bool(self.value == other.value)

    def __hash__(self) -> int:
        return hash(("constexpr_type", self.value))


CONSTEXPR_0 = constexpr(0)


def _unwrap(x: Any) -> Any:
    return x.value if isinstance(x, constexpr) else x


def _unwrap_if_constexpr(o: Any) -> Any:
    """``o``'s value if it is a ``constexpr`` (element-wise for lists and tuples), as Triton's
    helper of that name, which library code calls on compile-time arguments."""
    if isinstance(o, list):
        return [_unwrap_if_constexpr(x) for x in o]
    if isinstance(o, tuple):
        return tuple(_unwrap_if_constexpr(x) for x in o)
    return _unwrap(o)
