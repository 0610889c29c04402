"""Values the frontend manipulates: runtime IR values, and compile-time Python values."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from xdsl.ir import Attribute, SSAValue

from mytriton.dialects.tt_types import is_block, is_pointer, shape_of
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


@dataclass(frozen=True)
class BoundMethod:
    """``x.to`` before it is called: a tensor method resolved at compile time."""

    receiver: TensorValue
    name: str


def unwrap_constexpr(v: Any) -> Any:
    return v.value if isinstance(v, core.constexpr) else v
