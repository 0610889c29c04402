"""Lowering of pointer arithmetic and global-memory access, register by register.

Pointers are bare ``!llvm.ptr<1>`` values; ``tt.addptr`` is a GEP over the pointee type. A masked
load is an ``scf.if`` yielding the loaded value or ``other``, so masked-off lanes never touch
memory; a masked store is an ``scf.if`` around the store.
"""

from __future__ import annotations

from xdsl.dialects import llvm, scf
from xdsl.dialects.builtin import IntAttr
from xdsl.ir import Attribute, Block, Operation, SSAValue

from mytriton.dialects import tt
from mytriton.dialects.tt_types import PointerType, element_type
from mytriton.passes.gpu_lowering.context import LoweringContext

GLOBAL_POINTER = llvm.LLVMPointerType(IntAttr(1))


def _pointee(ptr_type: Attribute) -> Attribute:
    elem = element_type(ptr_type)
    assert isinstance(elem, PointerType)
    return elem.pointee


def _broadcast(values: list[SSAValue], count: int) -> list[SSAValue]:
    return values if len(values) == count else values * count


class LowerAddPtr:
    def lower(self, ctx: LoweringContext, op: Operation) -> None:
        assert isinstance(op, tt.AddPtrOp)
        ptrs, offs = ctx.get(op.ptr), ctx.get(op.offset)
        pointee = _pointee(op.ptr.type)
        out = [
            ctx.value(
                llvm.GEPOp(
                    p, [llvm.GEP_USE_SSA_VAL], pointee, ssa_indices=[o], result_type=GLOBAL_POINTER
                )
            )
            for p, o in zip(_broadcast(ptrs, len(offs)), _broadcast(offs, len(ptrs)), strict=True)
        ]
        ctx.set(op.result, out)


class LowerLoad:
    def lower(self, ctx: LoweringContext, op: Operation) -> None:
        assert isinstance(op, tt.LoadOp)
        pointee = _pointee(op.ptr.type)
        ptrs = ctx.get(op.ptr)
        if op.mask is None:
            ctx.set(op.result, [ctx.value(llvm.LoadOp(p, pointee)) for p in ptrs])
            return
        masks = ctx.get(op.mask)
        others = ctx.get(op.other) if op.other is not None else None
        out = []
        for i, (p, m) in enumerate(zip(ptrs, masks, strict=True)):
            then = Block()
            with ctx.inside(then):
                loaded = ctx.value(llvm.LoadOp(p, pointee))
                ctx.emit(scf.YieldOp(loaded))
            other = others[i] if others is not None else ctx.const(0, pointee)  # type: ignore[arg-type]
            orelse = Block()
            with ctx.inside(orelse):
                ctx.emit(scf.YieldOp(other))
            out.append(ctx.value(scf.IfOp(m, [pointee], [then], [orelse])))  # type: ignore[list-item]
        ctx.set(op.result, out)


class LowerStore:
    def lower(self, ctx: LoweringContext, op: Operation) -> None:
        assert isinstance(op, tt.StoreOp)
        ptrs, values = ctx.get(op.ptr), ctx.get(op.value)
        if op.mask is None:
            for p, v in zip(ptrs, values, strict=True):
                ctx.emit(llvm.StoreOp(v, p))
            return
        for p, v, m in zip(ptrs, values, ctx.get(op.mask), strict=True):
            then = Block()
            with ctx.inside(then):
                ctx.emit(llvm.StoreOp(v, p))
                ctx.emit(scf.YieldOp())
            ctx.emit(scf.IfOp(m, [], [then]))
