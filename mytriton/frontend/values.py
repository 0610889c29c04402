"""Values the frontend manipulates: runtime IR values, and compile-time Python values."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from xdsl.ir import Attribute, SSAValue

from mytriton.dialects.tt.types import is_block, is_pointer, shape_of
from mytriton.frontend.dtypes import from_ir
from mytriton.language import core


@dataclass(frozen=True)
class TensorValue:
    """A runtime value of the kernel: an SSA value (a scalar or a block) in `tt` IR."""

    handle: SSAValue

    @property
    def type(self) -> Attribute:
        return self.handle.type

    @property
    def dtype(self) -> core.dtype:
        return from_ir(self.handle.type)

    @property
    def shape(self) -> tuple[int, ...]:
        return shape_of(self.handle.type)

    @property
    def is_block(self) -> bool:
        return is_block(self.handle.type)

    @property
    def is_pointer(self) -> bool:
        return is_pointer(self.handle.type)

    def __repr__(self) -> str:
        return f"TensorValue({self.dtype}, shape={list(self.shape)})"


class CompositeValue:
    """A compile-time record of runtime scalars plus compile-time facts (a block pointer, a
    tensor descriptor: frontend/block_pointers.py). Runtime control flow carries its ``leaves``
    (one SSA value each) and rebuilds it with ``with_leaves``."""

    def leaves(self) -> tuple[TensorValue, ...]:
        raise NotImplementedError

    def leaf_names(self) -> tuple[str, ...]:
        """Suffixes naming the leaves in the IR (``base``, ``off0``...)."""
        raise NotImplementedError

    def with_leaves(self, leaves: Sequence[TensorValue]) -> CompositeValue:
        raise NotImplementedError

    def static_key(self) -> tuple[Any, ...]:
        """What is fixed at compile time; two values with equal keys and leaf types can flow
        into one variable."""
        raise NotImplementedError

    def same_type(self, other: Any) -> bool:
        return (
            type(other) is type(self)
            and other.static_key() == self.static_key()
            and [v.type for v in other.leaves()] == [v.type for v in self.leaves()]
        )

    def describe(self) -> str:
        raise NotImplementedError

    def __repr__(self) -> str:
        return self.describe()


@dataclass(frozen=True)
class BoundMethod:
    """``x.to`` before it is called: a tensor method resolved at compile time (``receiver`` is a
    ``TensorValue``, or a ``CompositeValue`` whose method ``name`` is a ``tl`` function, or is
    ``function``, a builtin of ``tl.core`` that ``tl`` does not export)."""

    receiver: TensorValue | CompositeValue
    name: str
    function: Any = None


class BlockShape(list[int]):
    """``x.shape`` inside a kernel: a list, as Triton's (``x.shape[:-1] + [2]``,
    ``x.shape == [2]``), that also equals the tuple of its sizes."""

    def __eq__(self, other: object) -> bool:
        if isinstance(other, tuple):
            other = list(other)
        return list.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = None  # type: ignore[assignment]


def unwrap_constexpr(v: Any) -> Any:
    return v.value if isinstance(v, core.constexpr) else v
