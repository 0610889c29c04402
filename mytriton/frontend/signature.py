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


@dataclass(frozen=True)
class DescriptorArg:
    """A host-side tensor descriptor (``triton.tools.tensor_descriptor.TensorDescriptor``):
    passed as its base pointer (``divisibility`` as a ``PointerArg``'s), its int32 shape and
    its int64 strides but the last (1, compiled in); ``block_shape`` and ``padding`` are part
    of the specialization, and so is the power of two (up to 16) each shape entry and stride
    is a multiple of (``shape_divisibility``, ``stride_divisibility``), as for integer
    arguments: the bounds masks and row addresses of its blocks then move 16 bytes at a time."""

    dtype: dtype
    block_shape: tuple[int, ...]
    padding: str
    divisibility: int = 1
    shape_divisibility: tuple[int, ...] = ()
    stride_divisibility: tuple[int, ...] = ()

    @property
    def rank(self) -> int:
        return len(self.block_shape)


@dataclass(frozen=True)
class TupleArg:
    r"""A tuple argument (Triton passes them, nested, and ``NamedTuple``\ s too): one spec per
    element, each specialized as an argument of its own; its runtime elements are function
    arguments in order, and the kernel sees a tuple of ``kind`` (``tuple`` or the
    ``NamedTuple`` class) rebuilt from them and the compile-time elements."""

    elements: tuple[ArgSpec, ...]
    kind: type = tuple

    def leaves(self, prefix: str) -> list[tuple[str, PointerArg | ScalarArg]]:
        """The runtime elements, depth first, named ``prefix.i.j``."""
        out: list[tuple[str, PointerArg | ScalarArg]] = []
        for i, spec in enumerate(self.elements):
            if isinstance(spec, TupleArg):
                out.extend(spec.leaves(f"{prefix}.{i}"))
            elif isinstance(spec, (PointerArg, ScalarArg)):
                out.append((f"{prefix}.{i}", spec))
        return out

    def rebuild(self, prefix: str, leaves: dict[str, Any]) -> tuple[Any, ...]:
        """The kernel's value: the tuple with ``leaves`` (by name) and the constants in place."""
        items: list[Any] = []
        for i, spec in enumerate(self.elements):
            if isinstance(spec, TupleArg):
                items.append(spec.rebuild(f"{prefix}.{i}", leaves))
            elif isinstance(spec, ConstexprArg):
                items.append(spec.value)
            else:
                items.append(leaves[f"{prefix}.{i}"])
        return tuple(items) if self.kind is tuple else self.kind(*items)


ArgSpec = PointerArg | ScalarArg | ConstexprArg | DescriptorArg | TupleArg
