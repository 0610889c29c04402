"""``tl.atomic_add`` ... ``tl.atomic_cas``: Triton 3.6's argument rules, then one `tt` op.

As in Triton's ``semantic.py``: the value (and mask) broadcast to the pointers' shape and the
value is cast to the pointee type; f16/bf16 only add; 8- and 16-bit integers take no
read-modify-write; float max/min only f32/f64; ``sem`` and ``scope`` are compile-time strings
(None: ``acq_rel`` and ``gpu``). Dtypes Triton would only reject deep in its backend (a float
``atomic_and``) are typed errors here, at the call. ``atomic_cas`` also casts and broadcasts
``cmp`` and ``val`` (Triton requires them to match already).
"""

from __future__ import annotations

from typing import Any

from mytriton.dialects.tt import atomic as ta
from mytriton.errors import KernelTypeError, KernelValueError
from mytriton.frontend.dtypes import to_ir
from mytriton.frontend.semantic import Semantic
from mytriton.frontend.values import TensorValue
from mytriton.language import core

_SEMANTICS = {s.value: s for s in ta.MemSemantic}
_SCOPES = {s.value: s for s in ta.MemScope}


class AtomicBuiltins:
    """The ``tl.atomic_*`` builtins (mixed into ``Builtins``)."""

    sem: Semantic

    # ---- argument rules ----

    def _atomic_options(
        self, what: str, sem: Any, scope: Any
    ) -> tuple[ta.MemSemantic, ta.MemScope]:
        return (
            self._atomic_choice(what, "sem", sem, _SEMANTICS, ta.DEFAULT_SEM),
            self._atomic_choice(what, "scope", scope, _SCOPES, ta.DEFAULT_SCOPE),
        )

    def _atomic_choice(
        self, what: str, name: str, value: Any, choices: dict[str, Any], default: Any
    ) -> Any:
        loc = self.sem.b.loc
        if isinstance(value, TensorValue):
            raise KernelTypeError(f"{what}: {name} must be a compile-time string", loc)
        if isinstance(value, core.constexpr):
            value = value.value
        if value is None or value == "":
            return default
        if not isinstance(value, str) or value not in choices:
            raise KernelValueError(
                f"{what}: {name}={value!r} is not supported; use one of "
                f"{', '.join(repr(c) for c in choices)}",
                loc,
            )
        return choices[value]

    def _atomic_pointer(self, what: str, pointer: Any) -> TensorValue:
        if not isinstance(pointer, TensorValue) or not pointer.is_pointer:
            raise KernelTypeError(
                f"{what}: expected a pointer (an array argument plus offsets), got {pointer!r}",
                self.sem.b.loc,
            )
        pointee = pointer.dtype.element_ty  # type: ignore[attr-defined]
        if isinstance(pointee, core.pointer_type):
            raise KernelTypeError(f"{what}: atomics on pointers to pointers", self.sem.b.loc)
        if pointer.dtype.const:  # type: ignore[attr-defined]
            raise KernelTypeError(
                f"Cannot store to a constant pointer: {what} through a {pointer.dtype} (a "
                "parameter annotated tl.const, or pointers made from one)",
                self.sem.b.loc,
            )
        return pointer

    def _atomic_operand(self, what: str, role: str, v: Any, ptr: TensorValue) -> TensorValue:
        """``v`` cast to the pointee type and broadcast to the pointers' shape."""
        loc = self.sem.b.loc
        if isinstance(v, TensorValue):
            t = v
        elif isinstance(v, (bool, int, float)):
            t = self.sem.to_tensor(v)
        else:
            raise KernelTypeError(f"{what}: {role} must be a value, got {v!r}", loc)
        if len(t.shape) > len(ptr.shape) or (t.is_block and not ptr.is_block):
            raise KernelTypeError(
                f"{what}: {role} of shape {list(t.shape)} does not fit pointers of shape "
                f"{list(ptr.shape)}",
                loc,
            )
        pointee = ptr.dtype.element_ty  # type: ignore[attr-defined]
        t = self.sem.to_bool(t) if role == "mask" else self.sem.cast(t, pointee)
        return self.sem.broadcast_to(t, ptr.shape)

    def _atomic_rmw(
        self, kind: ta.AtomicKind, pointer: Any, val: Any, mask: Any, sem: Any, scope: Any
    ) -> TensorValue:
        what = f"tl.atomic_{kind.value}"
        ptr = self._atomic_pointer(what, pointer)
        pointee = ptr.dtype.element_ty  # type: ignore[attr-defined]
        if not ta.kind_accepts(kind, to_ir(pointee, self.sem.b.loc)):
            raise KernelTypeError(f"{what} does not support {pointee}", self.sem.b.loc)
        order, where = self._atomic_options(what, sem, scope)
        v = self._atomic_operand(what, "the value", val, ptr)
        if isinstance(mask, core.constexpr):
            mask = mask.value
        m = None if mask is None else self._atomic_operand(what, "mask", mask, ptr).handle
        op = ta.AtomicRMWOp(kind, ptr.handle, v.handle, m, order, where)
        return TensorValue(self.sem.b.insert(op).result)

    # ---- the builtins ----

    def atomic_add(self, pointer: Any, val: Any, mask: Any, sem: Any, scope: Any) -> TensorValue:
        return self._atomic_rmw(ta.AtomicKind.ADD, pointer, val, mask, sem, scope)

    def atomic_max(self, pointer: Any, val: Any, mask: Any, sem: Any, scope: Any) -> TensorValue:
        return self._atomic_rmw(ta.AtomicKind.MAX, pointer, val, mask, sem, scope)

    def atomic_min(self, pointer: Any, val: Any, mask: Any, sem: Any, scope: Any) -> TensorValue:
        return self._atomic_rmw(ta.AtomicKind.MIN, pointer, val, mask, sem, scope)

    def atomic_and(self, pointer: Any, val: Any, mask: Any, sem: Any, scope: Any) -> TensorValue:
        return self._atomic_rmw(ta.AtomicKind.AND, pointer, val, mask, sem, scope)

    def atomic_or(self, pointer: Any, val: Any, mask: Any, sem: Any, scope: Any) -> TensorValue:
        return self._atomic_rmw(ta.AtomicKind.OR, pointer, val, mask, sem, scope)

    def atomic_xor(self, pointer: Any, val: Any, mask: Any, sem: Any, scope: Any) -> TensorValue:
        return self._atomic_rmw(ta.AtomicKind.XOR, pointer, val, mask, sem, scope)

    def atomic_xchg(self, pointer: Any, val: Any, mask: Any, sem: Any, scope: Any) -> TensorValue:
        return self._atomic_rmw(ta.AtomicKind.XCHG, pointer, val, mask, sem, scope)

    def atomic_cas(self, pointer: Any, cmp: Any, val: Any, sem: Any, scope: Any) -> TensorValue:
        what = "tl.atomic_cas"
        ptr = self._atomic_pointer(what, pointer)
        pointee = ptr.dtype.element_ty  # type: ignore[attr-defined]
        if not ta.cas_accepts(to_ir(pointee, self.sem.b.loc)):
            raise KernelTypeError(
                f"{what} only supports elements of 16, 32 or 64 bits, not {pointee}",
                self.sem.b.loc,
            )
        order, where = self._atomic_options(what, sem, scope)
        c = self._atomic_operand(what, "cmp", cmp, ptr)
        v = self._atomic_operand(what, "val", val, ptr)
        op = ta.AtomicCASOp(ptr.handle, c.handle, v.handle, order, where)
        return TensorValue(self.sem.b.insert(op).result)
