"""Lowering of pointer arithmetic and global-memory access.

Pointers are bare ``!llvm.ptr<1>`` values; ``tt.addptr`` is a GEP over the pointee type. A masked
load is an ``scf.if`` yielding the loaded value or ``other``, so masked-off lanes never touch
memory; a masked store is an ``scf.if`` around the store, and a replicated element (or a
scalar) is stored by one owner thread, under an ``scf.if`` too. When the axis analysis proves
a thread's consecutive registers contiguous in memory, aligned, and under one mask value, they
move as one vector of up to 16 bytes (``vector<4xf32>``, ``vector<8xf16>``, ``vector<16xi8>``:
one ``ld.global.v4.b32``); otherwise one by one. In a slice layout the runs lie along the
fastest of the parent's dimensions the slice keeps (``vector_dims``): a thread holds the parent's
``sizePerThread`` consecutive elements along it, the removed dimensions only replicate them.
"""

from __future__ import annotations

from xdsl.dialects import llvm, scf, vector
from xdsl.dialects.builtin import IntAttr, StringAttr, UnitAttr, VectorType
from xdsl.ir import Attribute, Block, Operation, SSAValue

from mytriton.dialects.tt import core as tt
from mytriton.dialects.tt import debug as tt_debug
from mytriton.dialects.tt.types import PointerType, byte_size, element_type, is_block, is_bool
from mytriton.dialects.ttg.geometry import Geometry
from mytriton.dialects.ttg.layouts import WARP_SIZE
from mytriton.dialects.ttg.shared import AsyncCopyGlobalToLocalOp
from mytriton.passes.analysis.axis_info import MAX_VECTOR_BYTES
from mytriton.passes.gpu_lowering.context import LoweringContext
from mytriton.passes.gpu_lowering.fp8 import register_type
from mytriton.passes.gpu_lowering.op_builders import gep, vector_extract, vector_insert
from mytriton.passes.gpu_lowering.rules import lowers

GLOBAL_POINTER = llvm.LLVMPointerType(IntAttr(1))

#: bytes of the elements a vector access may hold (docs/gpu-ir.md: never ``i1``, nor 64-bit)
VECTOR_ELEMENT_BYTES = (1, 2, 4)


def _pointee(ptr_type: Attribute) -> Attribute:
    """The type memory holds behind ``ptr_type`` (an fp8's byte)."""
    elem = element_type(ptr_type)
    assert isinstance(elem, PointerType)
    return register_type(elem.pointee)


def _broadcast(values: list[SSAValue], count: int) -> list[SSAValue]:
    return values if len(values) == count else values * count


@lowers(tt.AddPtrOp)
class LowerAddPtr:
    def lower(self, ctx: LoweringContext, op: Operation) -> None:
        assert isinstance(op, tt.AddPtrOp)
        ptrs, offs = ctx.get(op.ptr), ctx.get(op.offset)
        pointee = _pointee(op.ptr.type)
        out = [
            ctx.value(gep(p, o, pointee, GLOBAL_POINTER))
            for p, o in zip(_broadcast(ptrs, len(offs)), _broadcast(offs, len(ptrs)), strict=True)
        ]
        ctx.set(op.result, out)


def access_hints(op: tt.LoadOp | tt.StoreOp) -> dict[str, Attribute]:
    """``tl.load``/``tl.store``'s options as attributes of the ``llvm.load``/``llvm.store``
    (``tt_debug.LOWERED_*``): the cache modifier, the eviction policy and volatile."""
    hints: dict[str, Attribute] = {}
    cache = op.attributes.get(tt_debug.CACHE_ATTR)
    evict = op.attributes.get(tt_debug.EVICT_ATTR)
    if isinstance(cache, StringAttr):
        hints[tt_debug.LOWERED_CACHE_ATTR] = cache
    if isinstance(evict, StringAttr):
        hints[tt_debug.LOWERED_EVICT_ATTR] = evict
    if tt_debug.VOLATILE_ATTR in op.attributes:
        hints[tt_debug.LOWERED_VOLATILE_ATTR] = UnitAttr()
    return hints


def _hinted(access: Operation, hints: dict[str, Attribute]) -> Operation:
    access.attributes.update(hints)
    return access


def vector_dims(g: Geometry) -> tuple[int, int]:
    """The dimension a vector access runs along: the fastest of the layout's root dimensions
    that the block keeps (a slice removes some), as an index into the root's dimensions and
    into the block's own. Along it a thread's registers are ``sizePerThread`` consecutive
    elements, in a slice as in its parent."""
    root = next(d for d in g.root.dim_order if d in g.kept)
    return root, g.kept.index(root)


def vector_width(
    ctx: LoweringContext, op: tt.LoadOp | tt.StoreOp | AsyncCopyGlobalToLocalOp
) -> int:
    """How many registers of ``op``, consecutive along ``vector_dims``, can
    move in one aligned vector access (1 when the axis analysis cannot prove their addresses
    contiguous and aligned and their mask uniform, or for a volatile access); ``access_runs``
    groups them."""
    if ctx.axis is None or not is_block(op.ptr.type) or tt_debug.VOLATILE_ATTR in op.attributes:
        return 1
    pointee = _pointee(op.ptr.type)
    size = byte_size(pointee)
    if size not in VECTOR_ELEMENT_BYTES or is_bool(pointee):
        return 1  # the contract's vectors hold 8-, 16- and 32-bit elements (docs/gpu-ir.md)
    g = ctx.geometry(op.ptr.type)
    d, own = vector_dims(g)
    uniform = [op.mask, op.other if isinstance(op, tt.LoadOp) else None]
    # all four are powers of two: so is their minimum
    limit = MAX_VECTOR_BYTES // size
    access = ctx.axis.access_width(op.ptr, uniform, own)
    width = min(g.root.spt[d], g.full_shape[d], access, limit)
    return width if width >= 2 else 1


def access_runs(
    ctx: LoweringContext, op: tt.LoadOp | tt.StoreOp | AsyncCopyGlobalToLocalOp, width: int
) -> list[list[int]]:
    """``op``'s registers in groups of ``width`` consecutive along ``vector_dims``
    (``vector_width``): one access each."""
    if width == 1:  # scalars too
        return [[i] for i in range(len(ctx.get(op.ptr)))]
    g = ctx.geometry(op.ptr.type)
    return g.register_runs(vector_dims(g)[0], width)


@lowers(tt.LoadOp)
class LowerLoad:
    def lower(self, ctx: LoweringContext, op: Operation) -> None:
        assert isinstance(op, tt.LoadOp)
        pointee = _pointee(op.ptr.type)
        ptrs = ctx.get(op.ptr)
        masks = ctx.get(op.mask) if op.mask is not None else None
        others = ctx.get(op.other) if op.other is not None else None
        width = vector_width(ctx, op)
        hints = access_hints(op)
        out: list[SSAValue | None] = [None] * len(ptrs)
        for group in access_runs(ctx, op, width):
            first = group[0]
            mask = masks[first] if masks is not None else None
            other = None
            if mask is not None:
                other = others[first] if others is not None else ctx.const(0, pointee)  # type: ignore[arg-type]
            if width == 1:
                out[first] = masked_load(ctx, ptrs[first], pointee, mask, other, hints=hints)
                continue
            vt = VectorType(pointee, [width])
            fill = ctx.value(vector.BroadcastOp(other, vt)) if other is not None else None
            align = width * byte_size(pointee)
            loaded = masked_load(ctx, ptrs[first], vt, mask, fill, align, hints)
            for i, r in enumerate(group):
                out[r] = ctx.value(vector_extract(loaded, i, pointee))
        loaded_all = [v for v in out if v is not None]
        assert len(loaded_all) == len(out), "every register is in one run"
        ctx.set(op.result, loaded_all)


def masked_load(
    ctx: LoweringContext,
    ptr: SSAValue,
    t: Attribute,
    mask: SSAValue | None,
    other: SSAValue | None,
    align: int | None = None,
    hints: dict[str, Attribute] | None = None,
) -> SSAValue:
    """``*ptr``, or ``mask ? *ptr : other`` without touching memory when masked off."""
    if mask is None:
        return ctx.value(_hinted(llvm.LoadOp(ptr, t, alignment=align), hints or {}))
    assert other is not None
    then = Block()
    with ctx.inside(then):
        load = _hinted(llvm.LoadOp(ptr, t, alignment=align), hints or {})
        ctx.emit(scf.YieldOp(ctx.value(load)))
    orelse = Block()
    with ctx.inside(orelse):
        ctx.emit(scf.YieldOp(other))
    return ctx.value(scf.IfOp(mask, [t], [then], [orelse]))


@lowers(tt.StoreOp)
class LowerStore:
    """Stores each element once: an element a layout replicates over several threads (a block
    smaller than the threads, a reduction's slice) is stored only by its owner, and a scalar
    only by thread 0, as in Triton. All replicas storing would race in a read-modify-write: a
    thread that loads after another's store would store the element modified twice."""

    def lower(self, ctx: LoweringContext, op: Operation) -> None:
        assert isinstance(op, tt.StoreOp)
        if is_block(op.ptr.type):
            replicas = ctx.geometry(op.ptr.type).replica_bits
        else:
            replicas = ctx.num_warps * WARP_SIZE - 1  # every thread but thread 0
        owner = ctx.is_owner(replicas)
        if owner is None:
            self._stores(ctx, op)
            return
        then = Block()
        with ctx.inside(then):
            self._stores(ctx, op)
            ctx.emit(scf.YieldOp())
        ctx.emit(scf.IfOp(owner, [], [then]))

    def _stores(self, ctx: LoweringContext, op: tt.StoreOp) -> None:
        pointee = _pointee(op.ptr.type)
        ptrs, values = ctx.get(op.ptr), ctx.get(op.value)
        masks = ctx.get(op.mask) if op.mask is not None else None
        width = vector_width(ctx, op)
        hints = access_hints(op)
        for group in access_runs(ctx, op, width):
            first = group[0]
            value = values[first]
            align = None
            if width > 1:
                value = ctx.value(vector.BroadcastOp(value, VectorType(pointee, [width])))
                for i in range(1, width):
                    value = ctx.value(vector_insert(values[group[i]], value, i))
                align = width * byte_size(pointee)
            store = _hinted(llvm.StoreOp(value, ptrs[first], alignment=align), hints)
            if masks is None:
                ctx.emit(store)
                continue
            then = Block()
            with ctx.inside(then):
                ctx.emit(store)
                ctx.emit(scf.YieldOp())
            ctx.emit(scf.IfOp(masks[first], [], [then]))
