"""Tuples through runtime control flow: a variable holding a tuple (or ``NamedTuple``) of runtime
values may be reassigned under a runtime ``if`` or in a runtime loop, as in Triton 3.6, which
flattens a ``tl.tuple`` into its IR values. Only at those merge points is a tuple a
``TupleValue``, a ``CompositeValue`` whose leaves are the runtime values of its elements
(nested tuples, block pointers and descriptors included); its compile-time elements and its
kind (``tuple`` or the ``NamedTuple`` class) must agree on every path. ``carried.rebuild``
turns it back into the tuple the kernel's code sees.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from mytriton.frontend.values import CompositeValue, TensorValue, unwrap_constexpr


class TupleValue(CompositeValue):
    """A tuple of the kernel's values, as the variables runtime control flow carries."""

    def __init__(self, kind: type, items: Sequence[Any]):
        self.kind = kind
        self.items = tuple(items)

    @staticmethod
    def of(value: tuple) -> TupleValue:
        kind = type(value) if hasattr(type(value), "_fields") else tuple
        return TupleValue(kind, [carriable(v) for v in value])

    def leaves(self) -> tuple[TensorValue, ...]:
        out: list[TensorValue] = []
        for v in self.items:
            if isinstance(v, TensorValue):
                out.append(v)
            elif isinstance(v, CompositeValue):
                out.extend(v.leaves())
        return tuple(out)

    def leaf_names(self) -> tuple[str, ...]:
        out: list[str] = []
        for i, v in enumerate(self.items):
            if isinstance(v, TensorValue):
                out.append(str(i))
            elif isinstance(v, CompositeValue):
                out.extend(f"{i}_{name}" for name in v.leaf_names())
        return tuple(out)

    def with_leaves(self, leaves: Sequence[TensorValue]) -> TupleValue:
        it = iter(leaves)
        items: list[Any] = []
        for v in self.items:
            if isinstance(v, TensorValue):
                items.append(next(it))
            elif isinstance(v, CompositeValue):
                items.append(v.with_leaves([next(it) for _ in v.leaves()]))
            else:
                items.append(v)
        assert next(it, None) is None, "more leaves than the tuple's runtime values"
        return TupleValue(self.kind, items)

    def static_key(self) -> tuple[Any, ...]:
        def key(v: Any) -> Any:
            if isinstance(v, TensorValue):
                return "runtime"
            if isinstance(v, CompositeValue):
                return (type(v).__name__, v.static_key())
            return ("constant", type(v).__name__, repr(v))

        return (self.kind, tuple(key(v) for v in self.items))

    def describe(self) -> str:
        def words(v: Any) -> str:
            if isinstance(v, TensorValue):
                shape = f" block of shape {list(v.shape)}" if v.is_block else " scalar"
                return f"{v.dtype}{shape}"
            if isinstance(v, CompositeValue):
                return v.describe()
            return repr(v)

        return f"a {self.kind.__name__} ({', '.join(words(v) for v in self.items)})"

    def as_python(self) -> tuple:
        """The tuple the kernel's code sees (nested ones too)."""
        items = [v.as_python() if isinstance(v, TupleValue) else v for v in self.items]
        return self.kind(*items) if hasattr(self.kind, "_fields") else tuple(items)


def align(
    a: Any, b: Any, numbers: Callable[[Any, Any], tuple[TensorValue, TensorValue]]
) -> tuple[Any, Any]:
    """Two paths' tuples of one shape with their Python numbers made runtime values where the
    other path has a runtime value or another number there (``numbers`` converts a pair, each
    in its own branch, as for a plain variable), so ``(x, 0)`` and ``(y, 1)`` merge."""
    if not (isinstance(a, TupleValue) and isinstance(b, TupleValue)):
        return a, b
    if a.kind is not b.kind or len(a.items) != len(b.items):
        return a, b
    xs, ys = [], []
    for x, y in zip(a.items, b.items, strict=True):
        if isinstance(x, TupleValue) or isinstance(y, TupleValue):
            x, y = align(x, y, numbers)
        elif _number_pair(x, y):
            x, y = numbers(x, y)
        xs.append(x)
        ys.append(y)
    return TupleValue(a.kind, xs), TupleValue(b.kind, ys)


def _number_pair(x: Any, y: Any) -> bool:
    """A number and a runtime scalar or block, or two different numbers."""

    def number(v: Any) -> bool:
        return isinstance(unwrap_constexpr(v), (bool, int, float))

    if number(x) and number(y):
        return type(x) is not type(y) or x != y
    return (number(x) and isinstance(y, TensorValue)) or (number(y) and isinstance(x, TensorValue))


def holds_runtime_values(value: Any) -> bool:
    """Whether a tuple holds a runtime value somewhere (else it is a compile-time value)."""
    return isinstance(value, tuple) and any(
        isinstance(v, (TensorValue, CompositeValue)) or holds_runtime_values(v) for v in value
    )


def carriable(value: Any) -> Any:
    """``value`` as runtime control flow carries it: a tuple of runtime values as a
    ``TupleValue``, anything else unchanged."""
    return TupleValue.of(value) if holds_runtime_values(value) else value


def plain(value: Any) -> Any:
    """The value the kernel's code sees for one control flow carried (``carriable``'s
    inverse)."""
    return value.as_python() if isinstance(value, TupleValue) else value
