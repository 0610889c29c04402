"""``desc.atomic_add(offsets, value)`` and ``atomic_min``/``max``/``and``/``or``/``xor``: a
block combined into a tensor descriptor's block at ``offsets``, element by element, atomically.

Triton 3.6 builds one ``tt.descriptor_reduce`` (a TMA reduction, ``cp.reduce.async.bulk.tensor``
on Hopper). Here, as the descriptor's loads and stores (``tensor_descriptors.py``), it expands into
one masked ``tt.atomic_rmw`` of the block's pointers, so every backend runs it::

    pointer = base + sum_d (offset_d + arange(B_d)) * stride_d
    mask    = AND over d of 0 <= offset_d + arange(B_d) < shape_d    (out of bounds dropped)

with ``relaxed`` order at ``gpu`` scope: a TMA reduction orders nothing else either, and
programs combining into the same element still get every contribution.

The checks are Triton's (``semantic.validate_store_like`` and ``descriptor_atomic_*``): one
offset per dimension, a value of the block's shape, and the element types of the native (Hopper)
path, but for 16-bit float ``min``/``max``, which ``tt.atomic_rmw`` does not do (Triton's own
non-TMA fallback rejects them too). Triton does not convert the value and leaves a value of
another element type undefined; that is a typed error here.
"""

from __future__ import annotations

from typing import Any

from mytriton.dialects.tt import atomic as ta
from mytriton.frontend.tensor_descriptors import TensorDescriptorBuiltins
from mytriton.language import core

_INTEGERS = (core.uint32, core.int32, core.uint64, core.int64)

# Per kind, the element types Triton 3.6 accepts on Hopper (``descriptor_atomic_*``), less
# f16/bf16 min/max (see the module's doc)
SUPPORTED: dict[ta.AtomicKind, tuple[core.dtype, ...]] = {
    ta.AtomicKind.ADD: (
        core.uint32,
        core.int32,
        core.uint64,
        core.float32,
        core.float16,
        core.bfloat16,
    ),
    ta.AtomicKind.MIN: _INTEGERS,
    ta.AtomicKind.MAX: _INTEGERS,
    ta.AtomicKind.AND: _INTEGERS,
    ta.AtomicKind.OR: _INTEGERS,
    ta.AtomicKind.XOR: _INTEGERS,
}


class DescriptorAtomicBuiltins(TensorDescriptorBuiltins):
    """``desc.atomic_*`` (``tl.core.descriptor_atomic_*``, a mixin of ``Builtins``)."""

    def _descriptor_atomic(self, kind: ta.AtomicKind, desc: Any, offsets: Any, value: Any) -> None:
        what = f"tensor descriptor atomic_{kind.value}"
        d = self._descriptor(desc, what)
        value = self._block_value(d, value, what)
        element = d.element_dtype
        if element not in SUPPORTED[kind]:
            names = ", ".join(str(t) for t in SUPPORTED[kind])
            raise self._type_error(
                f"{what} does not support a descriptor of {element} (supported: {names})"
            )
        if value.dtype != element:
            raise self._type_error(
                f"{what}: the descriptor holds {element} but the value is {value.dtype}; "
                f"convert it with .to(tl.{element.codegen_name()})"
            )
        pointers, in_bounds = self._descriptor_window(d, offsets, what)
        mask = None if in_bounds is None else in_bounds.handle
        op = ta.AtomicRMWOp(
            kind, pointers.handle, value.handle, mask, ta.MemSemantic.RELAXED, ta.MemScope.GPU
        )
        self.sem.b.insert(op)

    def descriptor_atomic_add(self, desc: Any, offsets: Any, value: Any) -> None:
        self._descriptor_atomic(ta.AtomicKind.ADD, desc, offsets, value)

    def descriptor_atomic_min(self, desc: Any, offsets: Any, value: Any) -> None:
        self._descriptor_atomic(ta.AtomicKind.MIN, desc, offsets, value)

    def descriptor_atomic_max(self, desc: Any, offsets: Any, value: Any) -> None:
        self._descriptor_atomic(ta.AtomicKind.MAX, desc, offsets, value)

    def descriptor_atomic_and(self, desc: Any, offsets: Any, value: Any) -> None:
        self._descriptor_atomic(ta.AtomicKind.AND, desc, offsets, value)

    def descriptor_atomic_or(self, desc: Any, offsets: Any, value: Any) -> None:
        self._descriptor_atomic(ta.AtomicKind.OR, desc, offsets, value)

    def descriptor_atomic_xor(self, desc: Any, offsets: Any, value: Any) -> None:
        self._descriptor_atomic(ta.AtomicKind.XOR, desc, offsets, value)
