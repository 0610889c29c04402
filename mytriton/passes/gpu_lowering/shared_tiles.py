"""Lowering of ``ttg_shared``: shared tiles and the asynchronous copies that fill them.

A ``!ttg.memdesc`` value lowers to two values, the shared buffer (``memref.get_global``) and the
element offset of the tile in it (i32): ``ttg.local_alloc`` is a fresh buffer at offset 0
(given a block, its registers stored as ``tt.dot`` stages an operand, fenced for the async
proxy where a wgmma or a TMA store reads it, then a barrier),
``ttg.memdesc_index`` adds ``index * tile_stride``.

``ttg.async_copy_global_to_local`` is one ``nvvm.cp.async.shared.global`` per run of a thread's
consecutive elements that are contiguous and aligned both in global memory (the axis analysis,
as for vector loads) and in the tile, 4, 8 or 16 bytes (``.cg`` for 16, ``.ca`` else); the
source size operand is 0 where the mask is off, so the copy writes zeros and reads nothing.
A run that cannot be copied so (fewer than 4 bytes) is loaded and stored synchronously, which
lands earlier than the wait, as a pipeline allows. Replicated elements are copied by their
owner thread only. ``ttg.async_commit_group`` and ``ttg.async_wait`` are
``nvvm.cp.async.commit.group`` and ``nvvm.cp.async.wait.group`` (then ``gpu.barrier``: the
copies of every thread become visible to all). ``ttg.local_load`` reads the tile into the
result's registers element by element, except for a dot operand: the dot reads the tile
itself (``dot.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith, gpu, memref, scf
from xdsl.dialects.builtin import IndexType
from xdsl.ir import Attribute, Block, Operation, SSAValue

from mytriton.dialects.nvgpu.nvvm import (
    SHARED_POINTER,
    CpAsyncCommitGroupOp,
    CpAsyncOp,
    CpAsyncWaitGroupOp,
)
from mytriton.dialects.nvgpu.wgmma import FenceProxyOp
from mytriton.dialects.tt import core as tt
from mytriton.dialects.tt.types import byte_size
from mytriton.dialects.ttg.geometry import Geometry
from mytriton.dialects.ttg.shared import (
    AsyncCommitGroupOp,
    AsyncCopyGlobalToLocalOp,
    AsyncWaitOp,
    LocalAllocOp,
    LocalLoadOp,
    MemDescIndexOp,
    MemDescType,
)
from mytriton.dialects.ttg.tma_store import AsyncTMACopyLocalToGlobalOp
from mytriton.passes.gpu_lowering.context import LoweringContext
from mytriton.passes.gpu_lowering.dot import LowerDot, tile_operand
from mytriton.passes.gpu_lowering.dot_mma import memref_pointer
from mytriton.passes.gpu_lowering.dot_wgmma import async_proxy_fence
from mytriton.passes.gpu_lowering.fp8 import register_type
from mytriton.passes.gpu_lowering.memory import (
    access_runs,
    masked_load,
    vector_dims,
    vector_width,
)
from mytriton.passes.gpu_lowering.op_builders import gep
from mytriton.passes.gpu_lowering.rules import lowers
from mytriton.passes.gpu_lowering.shared_alloc import tile_range
from mytriton.passes.gpu_lowering.shared_layouts import contiguous_run, tile_offset

index = IndexType()
CP_ASYNC_BYTES = (4, 8, 16)


def tile_of(ctx: LoweringContext, v: SSAValue) -> tuple[SSAValue, SSAValue]:
    """A memdesc value's shared buffer and the i32 element offset of its tile."""
    buf, offset = ctx.get(v)
    return buf, offset


def read_tile(v: SSAValue) -> LocalLoadOp | None:
    """The ``ttg.local_load`` that produced ``v``, if one did."""
    op = v.owner
    return op if isinstance(op, LocalLoadOp) else None


@lowers(LocalAllocOp)
class LowerLocalAlloc:
    def lower(self, ctx: LoweringContext, op: Operation) -> None:
        assert isinstance(op, LocalAllocOp)
        t = op.result.type
        assert isinstance(t, MemDescType)
        element = register_type(t.element)
        buf = ctx.shared_buffer(element, t.numel, t.alignment)
        if ctx.units is not None:
            ctx.buffers[-1].first, ctx.buffers[-1].last = tile_range(op, ctx.units)
        ctx.set(op.result, [buf, ctx.i32(0)])
        if op.src is not None:  # the block's registers, stored as a dot stages an operand
            LowerDot().stage(ctx, op.src, element, buf, 0, t.layout)
            if any(isinstance(u.operation, AsyncTMACopyLocalToGlobalOp) for u in op.result.uses):
                ctx.emit(FenceProxyOp())  # the copy engine reads the tile: the async proxy
            else:
                async_proxy_fence(ctx)
            ctx.emit(gpu.BarrierOp())


@lowers(MemDescIndexOp)
class LowerMemDescIndex:
    def lower(self, ctx: LoweringContext, op: Operation) -> None:
        assert isinstance(op, MemDescIndexOp)
        t = op.src.type
        assert isinstance(t, MemDescType)
        buf, base = tile_of(ctx, op.src)
        step = ctx.value(arith.MuliOp(ctx.scalar(op.index), ctx.i32(t.tile_stride)))
        ctx.set(op.result, [buf, ctx.value(arith.AddiOp(base, step))])


def _copy_width(ctx: LoweringContext, op: AsyncCopyGlobalToLocalOp, t: MemDescType) -> int:
    """Consecutive registers per copy: a vector access's width (``memory.vector_width``),
    kept only where the run is contiguous in the tile too (``contiguous_run``)."""
    element = register_type(t.element)
    fastest = vector_dims(ctx.geometry(op.ptr.type))[1]
    return contiguous_run(t.layout, t.tile_shape, element, vector_width(ctx, op), fastest)


@lowers(AsyncCopyGlobalToLocalOp)
class LowerAsyncCopy:
    def lower(self, ctx: LoweringContext, op: Operation) -> None:
        assert isinstance(op, AsyncCopyGlobalToLocalOp)
        g = ctx.geometry(op.ptr.type)
        owner = ctx.is_owner(g.replica_bits)
        if owner is None:
            self._copies(ctx, op, g)
            return
        then = Block()
        with ctx.inside(then):
            self._copies(ctx, op, g)
            ctx.emit(scf.YieldOp())
        ctx.emit(scf.IfOp(owner, [], [then]))

    def _copies(self, ctx: LoweringContext, op: AsyncCopyGlobalToLocalOp, g: Geometry) -> None:
        t = op.dst.type
        assert isinstance(t, MemDescType)
        element = register_type(t.element)
        size = byte_size(element)
        buf, base = tile_of(ctx, op.dst)
        ptrs = ctx.get(op.ptr)
        masks = ctx.get(op.mask) if op.mask is not None else None
        width = _copy_width(ctx, op, t)
        nbytes = width * size
        shared = memref_pointer(ctx, buf) if nbytes in CP_ASYNC_BYTES else None
        for run in access_runs(ctx, op, width):
            first = run[0]
            offset = tile_offset(ctx, t.layout, t.tile_shape, element, g, g.registers[first])
            at = ctx.value(arith.AddiOp(base, offset))
            mask = masks[first] if masks is not None else None
            if shared is None:
                self._synchronous(ctx, buf, at, run, ptrs, masks, element)
                continue
            dst = ctx.value(gep(shared, at, element, SHARED_POINTER))
            src_bytes = None
            if mask is not None:
                src_bytes = ctx.value(arith.SelectOp(mask, ctx.i32(nbytes), ctx.i32(0)))
            ctx.emit(CpAsyncOp(dst, ptrs[first], nbytes, nbytes == 16, src_bytes))

    def _synchronous(
        self,
        ctx: LoweringContext,
        buf: SSAValue,
        at: SSAValue,
        run: Sequence[int],
        ptrs: Sequence[SSAValue],
        masks: Sequence[SSAValue] | None,
        element: Attribute,
    ) -> None:
        """The registers of ``run`` one by one: ``mask ? *ptr : 0`` stored into the tile at
        once."""
        for e, r in enumerate(run):
            ptr = ptrs[r]
            mask = masks[r] if masks is not None else None
            zero = ctx.const(0, element) if mask is not None else None  # type: ignore[arg-type]
            value = masked_load(ctx, ptr, element, mask, zero)
            where = at if e == 0 else ctx.value(arith.AddiOp(at, ctx.i32(e)))
            ctx.emit(memref.StoreOp.get(value, buf, [ctx.value(arith.IndexCastOp(where, index))]))


@lowers(AsyncCommitGroupOp)
class LowerAsyncCommitGroup:
    def lower(self, ctx: LoweringContext, op: Operation) -> None:
        ctx.emit(CpAsyncCommitGroupOp())


@lowers(AsyncWaitOp)
class LowerAsyncWait:
    def lower(self, ctx: LoweringContext, op: Operation) -> None:
        assert isinstance(op, AsyncWaitOp)
        ctx.emit(CpAsyncWaitGroupOp(op.pending))
        async_proxy_fence(ctx)  # the landed copies, for wgmma
        ctx.emit(gpu.BarrierOp())


def feeds_dots_only(op: LocalLoadOp) -> bool:
    """Whether every use of the tile's registers is a dot operand that reads the tile itself
    (``dot.tile_operand``)."""
    return all(
        isinstance(u.operation, tt.DotOp) and tile_operand(u.operation, u.index) is not None
        for u in op.result.uses
    )


@lowers(LocalLoadOp)
class LowerLocalLoad:
    def lower(self, ctx: LoweringContext, op: Operation) -> None:
        assert isinstance(op, LocalLoadOp)
        if feeds_dots_only(op):
            ctx.set(op.result, [])  # the dots read the tile (dot.py)
            return
        t = op.src.type
        assert isinstance(t, MemDescType)
        buf, base = tile_of(ctx, op.src)
        element = register_type(t.element)
        g = ctx.geometry(op.result.type)
        out: list[SSAValue] = []
        for reg in g.registers:
            offset = tile_offset(ctx, t.layout, t.tile_shape, element, g, reg)
            at = ctx.value(arith.AddiOp(base, offset))
            where = [ctx.value(arith.IndexCastOp(at, index))]
            out.append(ctx.value(memref.LoadOp.get(buf, where)))
        ctx.set(op.result, out)
