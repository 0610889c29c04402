"""The frontend's values of a block pointer (``tl.make_block_ptr``) and of a tensor descriptor
(``tl.make_tensor_descriptor``, or a host descriptor argument): records of runtime scalars plus
their compile-time block shape, carried through runtime loops and ``if``s as their scalars
(``CompositeValue``); what ``x.<name>`` gives on them; the addressing of a window."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from xdsl.ir import Operation

from mytriton.frontend.values import BlockShape, BoundMethod, CompositeValue, TensorValue
from mytriton.language import core

# What ``tl.load``/``tl.store`` does to the memory op it built (its cache options).
Options = Callable[[Operation], None]


@dataclass(frozen=True, repr=False)
class BlockPointer(CompositeValue):
    """``tl.make_block_ptr(...)``: a ``block_shape`` window at ``offsets`` of a strided tensor."""

    base: TensorValue  # a scalar pointer
    shape: tuple[TensorValue, ...]  # int64
    strides: tuple[TensorValue, ...]  # int64
    offsets: tuple[TensorValue, ...]  # int64 (given as int32; advanced without wrapping)
    block_shape: tuple[int, ...]
    order: tuple[int, ...]

    @property
    def element_dtype(self) -> core.dtype:
        return self.base.dtype.element_ty  # type: ignore[attr-defined,no-any-return]

    def leaves(self) -> tuple[TensorValue, ...]:
        return (self.base, *self.shape, *self.strides, *self.offsets)

    def leaf_names(self) -> tuple[str, ...]:
        r = range(len(self.block_shape))
        return (
            "base",
            *(f"shape{d}" for d in r),
            *(f"stride{d}" for d in r),
            *(f"off{d}" for d in r),
        )

    def with_leaves(self, leaves: Sequence[TensorValue]) -> BlockPointer:
        n = len(self.block_shape)
        return replace(
            self,
            base=leaves[0],
            shape=tuple(leaves[1 : 1 + n]),
            strides=tuple(leaves[1 + n : 1 + 2 * n]),
            offsets=tuple(leaves[1 + 2 * n : 1 + 3 * n]),
        )

    def static_key(self) -> tuple[Any, ...]:
        return (self.block_shape, self.order)

    def describe(self) -> str:
        return f"a block pointer to {self.element_dtype}{list(self.block_shape)}"

    def attribute(self, name: str) -> Any:
        if name in ("advance", "store"):  # Triton's tensor methods that take a block pointer
            return BoundMethod(self, name)
        if name == "dtype":
            return core.pointer_type(core.block_type(self.element_dtype, list(self.block_shape)))
        return None


# ``desc.<name>`` that is ``tl.core.descriptor_<name>(desc, ...)``
_DESCRIPTOR_BUILTINS = frozenset(
    ["gather", "scatter", *(f"atomic_{k}" for k in ("add", "min", "max", "and", "or", "xor"))]
)


@dataclass(frozen=True, repr=False)
class TensorDescriptor(CompositeValue):
    """``tl.make_tensor_descriptor(...)``: loads and stores ``block_shape`` blocks of a tensor."""

    base: TensorValue
    shape: tuple[TensorValue, ...]  # int32
    strides: tuple[TensorValue, ...]  # int64
    block_shape: tuple[int, ...]
    padding: str  # "zero" or "nan"
    # the tensor map TMA copies of its blocks may read: a host descriptor's argument, or the
    # ``tt.make_tensor_map`` of a 2-d one made in the kernel; None for other ranks
    tensor_map: TensorValue | None = None

    @property
    def element_dtype(self) -> core.dtype:
        return self.base.dtype.element_ty  # type: ignore[attr-defined,no-any-return]

    def leaves(self) -> tuple[TensorValue, ...]:
        mapped = () if self.tensor_map is None else (self.tensor_map,)
        return (self.base, *self.shape, *self.strides, *mapped)

    def leaf_names(self) -> tuple[str, ...]:
        r = range(len(self.block_shape))
        mapped = () if self.tensor_map is None else ("tensor_map",)
        return ("base", *(f"shape{d}" for d in r), *(f"stride{d}" for d in r), *mapped)

    def with_leaves(self, leaves: Sequence[TensorValue]) -> TensorDescriptor:
        n = len(self.block_shape)
        return replace(
            self,
            base=leaves[0],
            shape=tuple(leaves[1 : 1 + n]),
            strides=tuple(leaves[1 + n : 1 + 2 * n]),
            tensor_map=None if self.tensor_map is None else leaves[1 + 2 * n],
        )

    def static_key(self) -> tuple[Any, ...]:
        return (self.block_shape, self.padding, self.tensor_map is not None)

    def describe(self) -> str:
        return f"a tensor descriptor of {self.element_dtype}{list(self.block_shape)}"

    def attribute(self, name: str) -> Any:
        if name in ("load", "store"):
            return BoundMethod(self, f"{name}_tensor_descriptor")
        if name in _DESCRIPTOR_BUILTINS:  # tl.core builtins that tl does not export
            return BoundMethod(self, name, getattr(core, f"descriptor_{name}"))
        if name == "shape":  # runtime int32 scalars, as Triton's
            return self.shape
        if name == "strides":  # runtime int64 scalars
            return self.strides
        if name == "block_shape":  # ints, equal to a list or a tuple of them (Triton's tl.tuple)
            return BlockShape(self.block_shape)
        if name == "dtype":
            return self.element_dtype
        if name == "block_type":
            return core.block_type(self.element_dtype, list(self.block_shape))
        return None


@dataclass
class Addressing:
    """The element offsets and in-bounds mask of a window, summed one dimension at a time."""

    offset: TensorValue | None = None
    mask: TensorValue | None = None


def no_options(op: Operation) -> None:
    return None
