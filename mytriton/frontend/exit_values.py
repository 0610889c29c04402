"""What the early exits carry through the scope (early_exit.py): the flags' and the result's
keys and IR names, the items of a returned tuple, what a ``return`` gives (to check that all of
a function's ``return``s agree), and the words error messages use for them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from xdsl.ir import Attribute

from mytriton.dialects.tt.types import is_block, shape_of
from mytriton.errors import SourceLocation
from mytriton.frontend.ast_scans import BREAK, CONTINUE, RETURN
from mytriton.frontend.dtypes import from_ir
from mytriton.frontend.ir_names import value_name
from mytriton.frontend.values import TensorValue, unwrap_constexpr

RESULT = "$result"
FLAGS = (BREAK, CONTINUE, RETURN)
_IR_NAMES = {BREAK: "broke", CONTINUE: "continued", RETURN: "returned", RESULT: "result"}


def is_result_key(name: str) -> bool:
    return name == RESULT or name.startswith(RESULT + ".")


def ir_name(name: str) -> str | None:
    """The IR name of the value holding variable ``name`` (``returned`` for ``$return``...);
    None where the variable's name makes none (``value_name``)."""
    return _IR_NAMES.get(name) or value_name(name.replace("$", "").replace(".", "_"))


@dataclass(frozen=True)
class ResultItems:
    """``$result`` of a function returning a tuple (or list) of ``count`` items; ``kind``
    rebuilds it: ``tuple``, ``list`` or the ``NamedTuple`` class returned (whose fields the
    caller reads by name, as in Triton)."""

    count: int
    kind: type

    @staticmethod
    def kind_of(value: tuple | list) -> type:
        if hasattr(type(value), "_fields"):
            return type(value)
        return list if isinstance(value, list) else tuple

    def build(self, items: list[Any]) -> Any:
        return self.kind(*items) if hasattr(self.kind, "_fields") else self.kind(items)


@dataclass(frozen=True)
class Returned:
    """What a ``return`` gives: nothing (``types`` None), one value or items; the types of its
    runtime values (None for a compile-time one), to check that all ``return``s agree."""

    loc: SourceLocation | None
    types: tuple[Attribute | None, ...] | None
    items: bool

    @staticmethod
    def of(value: Any, loc: SourceLocation | None) -> Returned:
        def t(v: Any) -> Attribute | None:
            return v.type if isinstance(v, TensorValue) else None

        if value is None:
            return Returned(loc, None, False)
        if isinstance(value, (tuple, list)):
            return Returned(loc, tuple(t(v) for v in value), True)
        return Returned(loc, (t(value),), False)

    def agrees(self, other: Returned) -> bool:
        if self.items != other.items or (self.types is None) != (other.types is None):
            return False
        if self.types is None or other.types is None:
            return True
        return len(self.types) == len(other.types) and all(
            a is None or b is None or a == b for a, b in zip(self.types, other.types, strict=True)
        )

    def describe(self) -> str:
        if self.types is None:
            return "nothing"
        words = ["a compile-time value" if t is None else type_words(t) for t in self.types]
        return f"({', '.join(words)})" if self.items else words[0]


def type_words(t: Attribute) -> str:
    if is_block(t):
        return f"a {from_ir(t)} block of shape {list(shape_of(t))}"
    return f"a {from_ir(t)} scalar"


def value_words(v: Any) -> str:
    if isinstance(v, TensorValue):
        return type_words(v.type)
    if isinstance(v, ResultItems):
        return f"a {v.kind.__name__} of {v.count} items"
    return f"the compile-time {type(unwrap_constexpr(v)).__name__} {unwrap_constexpr(v)!r}"
