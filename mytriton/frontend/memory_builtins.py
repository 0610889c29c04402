"""``tl.load`` and ``tl.store`` of ``Builtins``: through a block of pointers (with a mask and
the value of masked-off lanes), or through a block pointer (``block_pointers.py``), with
their cache and eviction options (``DebugBuiltins.memory_options``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mytriton.dialects.tt import core as tt
from mytriton.errors import KernelTypeError, KernelValueError
from mytriton.frontend.block_pointer_values import BlockPointer, Options
from mytriton.frontend.builder import IRBuilder
from mytriton.frontend.semantic import Semantic
from mytriton.frontend.values import TensorValue
from mytriton.language import core

if TYPE_CHECKING:
    from xdsl.ir import Operation


class MemoryBuiltins:
    """``tl.load`` and ``tl.store`` (mixed into ``Builtins``)."""

    sem: Semantic
    b: IRBuilder

    if TYPE_CHECKING:  # Builtins' helper, and the block pointers' and options' mixins

        def _tensor(self, v: Any, what: str) -> TensorValue: ...

        def memory_options(
            self,
            what: str,
            op: Operation,
            cache_modifier: Any,
            eviction_policy: Any,
            volatile: Any,
        ) -> None: ...

        def no_block_pointer_options(
            self, what: str, boundary_check: Any, padding: Any
        ) -> None: ...

        def load_block_pointer(
            self,
            ptr: BlockPointer,
            mask: Any,
            other: Any,
            boundary_check: Any,
            padding_option: Any,
            options: Options = ...,
        ) -> TensorValue: ...

        def store_block_pointer(
            self,
            ptr: BlockPointer,
            value: Any,
            mask: Any,
            boundary_check: Any,
            options: Options = ...,
        ) -> None: ...

    def _pointer(self, pointer: Any) -> TensorValue:
        if not isinstance(pointer, TensorValue) or not pointer.is_pointer:
            raise KernelTypeError(
                f"expected a pointer (an array argument plus offsets), got {pointer!r}", self.b.loc
            )
        return pointer

    def _writable_pointer(self, pointer: Any, what: str) -> TensorValue:
        """``pointer``, which must not point to constant data (a ``tl.const`` parameter's)."""
        ptr = self._pointer(pointer)
        if ptr.dtype.const:  # type: ignore[attr-defined]
            raise KernelTypeError(
                f"Cannot store to a constant pointer: {what} through a {ptr.dtype} (a parameter "
                "annotated tl.const, or pointers made from one)",
                self.b.loc,
            )
        return ptr

    def load(
        self,
        pointer: Any,
        mask: Any,
        other: Any,
        boundary_check: Any,
        padding_option: Any,
        cache_modifier: Any,
        eviction_policy: Any,
        volatile: Any,
    ) -> TensorValue:
        if isinstance(pointer, BlockPointer):
            return self.load_block_pointer(
                pointer,
                mask,
                other,
                boundary_check,
                padding_option,
                lambda op: self.memory_options(
                    "tl.load", op, cache_modifier, eviction_policy, volatile
                ),
            )
        self.no_block_pointer_options("tl.load", boundary_check, padding_option)
        ptr = self._pointer(pointer)
        pointee = ptr.dtype.element_ty  # type: ignore[attr-defined]
        if mask is None:
            if other is not None:
                raise KernelValueError(
                    "tl.load: `other` cannot be given without `mask`", self.b.loc
                )
            op = self.b.insert(tt.LoadOp(ptr.handle))
            self.memory_options("tl.load", op, cache_modifier, eviction_policy, volatile)
            return TensorValue(op.result)
        m = self.sem.to_bool(self._tensor(mask, "tl.load's mask"))
        ptr, m = self.sem.broadcast_all(ptr, m)
        if other is None and not isinstance(pointee, core.pointer_type):
            o = self.sem.constant(0, pointee)  # a zero of any dtype (fp8 has no int -> fp8 cast)
        else:
            o = self.sem.cast(self.sem.to_tensor(0 if other is None else other), pointee)
        if o.is_block and len(o.shape) > len(ptr.shape):
            raise KernelTypeError(
                f"tl.load: `other` of shape {list(o.shape)} does not fit pointers of shape "
                f"{list(ptr.shape)}",
                self.b.loc,
            )
        o = self.sem.broadcast_to(o, ptr.shape)
        op = self.b.insert(tt.LoadOp(ptr.handle, m.handle, o.handle))
        self.memory_options("tl.load", op, cache_modifier, eviction_policy, volatile)
        return TensorValue(op.result)

    def store(
        self,
        pointer: Any,
        value: Any,
        mask: Any,
        boundary_check: Any,
        cache_modifier: Any,
        eviction_policy: Any,
    ) -> None:
        if isinstance(pointer, BlockPointer):
            return self.store_block_pointer(
                pointer,
                value,
                mask,
                boundary_check,
                lambda op: self.memory_options(
                    "tl.store", op, cache_modifier, eviction_policy, False
                ),
            )
        self.no_block_pointer_options("tl.store", boundary_check, "")
        ptr = self._writable_pointer(pointer, "tl.store")
        pointee = ptr.dtype.element_ty  # type: ignore[attr-defined]
        v = self.sem.cast(self.sem.to_tensor(value), pointee)
        if len(v.shape) > len(ptr.shape) or (v.is_block and not ptr.is_block):
            raise KernelTypeError(
                f"tl.store: a value of shape {list(v.shape)} cannot be stored through pointers of "
                f"shape {list(ptr.shape)}",
                self.b.loc,
            )
        v = self.sem.broadcast_to(v, ptr.shape)
        if mask is None:
            op = self.b.insert(tt.StoreOp(ptr.handle, v.handle))
            self.memory_options("tl.store", op, cache_modifier, eviction_policy, False)
            return None
        m = self.sem.to_bool(self._tensor(mask, "tl.store's mask"))
        if len(m.shape) > len(ptr.shape):
            raise KernelTypeError(
                f"tl.store: mask of shape {list(m.shape)} does not fit pointers of shape "
                f"{list(ptr.shape)}",
                self.b.loc,
            )
        m = self.sem.broadcast_to(m, ptr.shape)
        op = self.b.insert(tt.StoreOp(ptr.handle, v.handle, m.handle))
        self.memory_options("tl.store", op, cache_modifier, eviction_policy, False)
        return None
