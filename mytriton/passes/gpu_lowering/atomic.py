"""Lowering of ``tt.atomic_rmw`` and ``tt.atomic_cas`` to ``llvm.atomicrmw``/``llvm.cmpxchg``.

Each element is updated once: a layout that replicates an element over several threads (a
block smaller than the threads, a scalar held by all of them) leaves the atomic to the owner
thread (``Geometry.replica_bits``, thread 0 for a scalar), as stores are; the user's mask
joins that condition in one ``scf.if`` per register, which yields the old value (0 where
nothing was done). When the old values are used, the owners pass them to their replicas
through shared memory (store, barrier, load, barrier), so every thread holds them.

``sem`` is the LLVM ordering (``relaxed`` is ``monotonic``) and ``scope`` the NVPTX sync scope
(``cta`` ``"block"``, ``gpu`` ``"device"``, ``sys`` the default one). Float max/min are
Triton's integer atomics on the bits: a value with the sign bit clear takes the signed max
(min), one with it set the unsigned min (max). Float exchange and compare-exchange move the
bits as integers (``cmpxchg`` takes integers only).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from xdsl.dialects import arith, gpu, llvm, memref, scf
from xdsl.dialects.builtin import DenseArrayBase, IntegerType, i64
from xdsl.ir import Attribute, Block, Operation, SSAValue

from mytriton.dialects.nvgpu.atomic import (
    AtomicBinOp,
    AtomicOrdering,
    AtomicRMWOp,
    CmpXchgOp,
    cmpxchg_result_type,
)
from mytriton.dialects.tt import atomic as ta
from mytriton.dialects.tt.types import byte_size, is_block, is_float, is_unsigned, shape_of
from mytriton.dialects.ttg.layouts import WARP_SIZE
from mytriton.passes.gpu_lowering.context import LoweringContext
from mytriton.passes.gpu_lowering.convert import _root_strides
from mytriton.passes.gpu_lowering.memory import _pointee
from mytriton.passes.gpu_lowering.rules import lowers

ORDERINGS = {
    ta.MemSemantic.RELAXED: AtomicOrdering.MONOTONIC,
    ta.MemSemantic.ACQUIRE: AtomicOrdering.ACQUIRE,
    ta.MemSemantic.RELEASE: AtomicOrdering.RELEASE,
    ta.MemSemantic.ACQ_REL: AtomicOrdering.ACQ_REL,
}
SYNC_SCOPES: dict[ta.MemScope, str | None] = {
    ta.MemScope.CTA: "block",
    ta.MemScope.GPU: "device",
    ta.MemScope.SYS: None,
}
_INTEGER_OPS = {
    ta.AtomicKind.ADD: AtomicBinOp.ADD,
    ta.AtomicKind.AND: AtomicBinOp.AND,
    ta.AtomicKind.OR: AtomicBinOp.OR,
    ta.AtomicKind.XOR: AtomicBinOp.XOR,
    ta.AtomicKind.XCHG: AtomicBinOp.XCHG,
}

#: emits the atomic of register ``i`` and returns its old value
Emit = Callable[[int], SSAValue]


def _bits_type(t: Attribute) -> IntegerType:
    return IntegerType(8 * byte_size(t))


class _Atomic:
    """What both atomics share: ownership, masks, and passing old values to replicas."""

    def run(
        self,
        ctx: LoweringContext,
        op: ta.AtomicRMWOp | ta.AtomicCASOp,
        masks: list[SSAValue] | None,
        emit: Emit,
    ) -> None:
        t = _pointee(op.ptr.type)
        if is_block(op.ptr.type):
            replicas = ctx.geometry(op.ptr.type).replica_bits
        else:
            replicas = ctx.num_warps * WARP_SIZE - 1  # every thread but thread 0
        owner = ctx.is_owner(replicas)
        old = []
        for i in range(len(ctx.get(op.ptr))):
            cond = owner
            if masks is not None:
                mask = masks[i]
                cond = mask if cond is None else ctx.value(arith.AndIOp(cond, mask))
            old.append(self._guarded(ctx, cond, t, partial(emit, i)))
        if owner is not None and op.result.first_use is not None:
            old = self._share(ctx, op, owner, old, t)
        ctx.set(op.result, old)

    @staticmethod
    def _guarded(
        ctx: LoweringContext, cond: SSAValue | None, t: Attribute, emit: Callable[[], SSAValue]
    ) -> SSAValue:
        if cond is None:
            return emit()
        then = Block()
        with ctx.inside(then):
            ctx.emit(scf.YieldOp(emit()))
        orelse = Block()
        with ctx.inside(orelse):
            ctx.emit(scf.YieldOp(ctx.const(0, t)))
        return ctx.value(scf.IfOp(cond, [t], [then], [orelse]))

    @staticmethod
    def _share(
        ctx: LoweringContext,
        op: Operation,
        owner: SSAValue,
        old: list[SSAValue],
        t: Attribute,
    ) -> list[SSAValue]:
        """Every replica gets its owner's old values: through shared memory."""
        ptr_type = op.operands[0].type
        shape = shape_of(ptr_type)
        numel = 1
        for d in shape:
            numel *= d
        buf = ctx.shared_buffer(t, numel, local=True)
        if is_block(ptr_type):
            g = ctx.geometry(ptr_type)
            strides = _root_strides(g, shape)
            places = [ctx.linear_index(g, reg, strides) for reg in g.registers]
        else:
            places = [ctx.index(0)]
        then = Block()
        with ctx.inside(then):
            for v, place in zip(old, places, strict=True):
                ctx.emit(memref.StoreOp.get(v, buf, [place]))
            ctx.emit(scf.YieldOp())
        ctx.emit(scf.IfOp(owner, [], [then]))
        ctx.emit(gpu.BarrierOp())
        shared = [ctx.value(memref.LoadOp.get(buf, [place])) for place in places]
        ctx.emit(gpu.BarrierOp())
        return shared


def _as_bits(ctx: LoweringContext, v: SSAValue) -> SSAValue:
    return ctx.value(arith.BitcastOp(v, _bits_type(v.type)))


def _from_bits(ctx: LoweringContext, v: SSAValue, t: Attribute) -> SSAValue:
    return ctx.value(arith.BitcastOp(v, t))


@lowers(ta.AtomicRMWOp)
class LowerAtomicRMW(_Atomic):
    def lower(self, ctx: LoweringContext, op: Operation) -> None:
        assert isinstance(op, ta.AtomicRMWOp)
        ptrs, vals = ctx.get(op.ptr), ctx.get(op.val)
        masks = ctx.get(op.mask) if op.mask is not None else None
        t = _pointee(op.ptr.type)
        kind = op.kind.data
        ordering, scope = ORDERINGS[op.sem.data], SYNC_SCOPES[op.scope.data]

        def rmw(bin_op: AtomicBinOp, ptr: SSAValue, v: SSAValue) -> SSAValue:
            return ctx.value(AtomicRMWOp(bin_op, ptr, v, ordering, scope))

        def emit(i: int) -> SSAValue:
            ptr, v = ptrs[i], vals[i]
            if not is_float(t):
                if kind in (ta.AtomicKind.MAX, ta.AtomicKind.MIN):
                    larger = kind is ta.AtomicKind.MAX
                    if is_unsigned(t):
                        return rmw(AtomicBinOp.UMAX if larger else AtomicBinOp.UMIN, ptr, v)
                    return rmw(AtomicBinOp.MAX if larger else AtomicBinOp.MIN, ptr, v)
                return rmw(_INTEGER_OPS[kind], ptr, v)
            if kind is ta.AtomicKind.ADD:
                return rmw(AtomicBinOp.FADD, ptr, v)
            bits = _as_bits(ctx, v)
            if kind is ta.AtomicKind.XCHG:
                return _from_bits(ctx, rmw(AtomicBinOp.XCHG, ptr, bits), t)
            return _from_bits(ctx, self._float_extremum(ctx, kind, ptr, bits, rmw), t)

        self.run(ctx, op, masks, emit)

    @staticmethod
    def _float_extremum(
        ctx: LoweringContext,
        kind: ta.AtomicKind,
        ptr: SSAValue,
        bits: SSAValue,
        rmw: Callable[[AtomicBinOp, SSAValue, SSAValue], SSAValue],
    ) -> SSAValue:
        """Triton's sign split: the signed max (min) of the bits for a value with the sign bit
        clear, the unsigned min (max) for one with it set."""
        larger = kind is ta.AtomicKind.MAX
        negative = ctx.value(arith.CmpiOp(bits, ctx.const(0, bits.type), "slt"))
        then = Block()
        with ctx.inside(then):
            ctx.emit(scf.YieldOp(rmw(AtomicBinOp.UMIN if larger else AtomicBinOp.UMAX, ptr, bits)))
        orelse = Block()
        with ctx.inside(orelse):
            ctx.emit(scf.YieldOp(rmw(AtomicBinOp.MAX if larger else AtomicBinOp.MIN, ptr, bits)))
        return ctx.value(scf.IfOp(negative, [bits.type], [then], [orelse]))


@lowers(ta.AtomicCASOp)
class LowerAtomicCAS(_Atomic):
    def lower(self, ctx: LoweringContext, op: Operation) -> None:
        assert isinstance(op, ta.AtomicCASOp)
        ptrs, cmps, vals = ctx.get(op.ptr), ctx.get(op.cmp), ctx.get(op.val)
        t = _pointee(op.ptr.type)
        ordering, scope = ORDERINGS[op.sem.data], SYNC_SCOPES[op.scope.data]

        def emit(i: int) -> SSAValue:
            cmp, v = cmps[i], vals[i]
            if is_float(t):
                cmp, v = _as_bits(ctx, cmp), _as_bits(ctx, v)
            pair = ctx.value(CmpXchgOp(ptrs[i], cmp, v, ordering, scope))
            assert pair.type == cmpxchg_result_type(v.type)
            old = ctx.value(llvm.ExtractValueOp(DenseArrayBase.from_list(i64, [0]), pair, v.type))
            return _from_bits(ctx, old, t) if is_float(t) else old

        self.run(ctx, op, None, emit)
