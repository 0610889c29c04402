"""Lowering of ``ttg_tma``: TMA copies and the mbarriers they complete on, as upstream's
``nvvm`` ops (``dialects/nvgpu/tma.py``).

A barrier is a ``!ttg.memdesc<1xi64>`` tile (its shared buffer and element offset, as every
tile lowers: ``shared_tiles.py``), addressed as an ``!llvm.ptr<3>``. Thread 0 of the program
initialises, invalidates, arms (``mbarrier.arrive.expect_tx``) and issues the copies, inside
``scf.if``; every thread waits (``mbarrier.try_wait.parity``, a loop until the phase has
completed). A tile of ``R`` rows and ``C`` columns swizzled over ``S`` bytes is filled by
``C / E`` copies of boxes ``E x R`` (``E``: the elements of ``S`` bytes), copy ``j`` at
coordinates ``(col + j E, row)`` (innermost first, as the tensor map orders them) into the
tile's ``j``-th column of swizzle atoms, ``j R S`` bytes on (``ttg_nvmma``'s layout, which is
what the copy engine writes). A tile whose 8-row groups the layout rotates over spans of
``S`` groups (a warpgroup MMA's A) is copied a span at a time: a span inside the tensor's rows
(the op's ``rows``) in one copy through the span map 128 bytes after the tensor map (``ttg_tma``,
coordinates ``(col, 0, 0, 0, row)``), one that crosses its edge in ``S`` copies of ``E x 8``
boxes, each at its group's place (rows outside the tensor read as zeros).
"""

from __future__ import annotations

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IntegerType
from xdsl.ir import Block, Operation, SSAValue

from mytriton.dialects.nvgpu.nvvm import GLOBAL_POINTER, SHARED_POINTER
from mytriton.dialects.nvgpu.tma import (
    GENERIC_POINTER,
    SHARED_CLUSTER_POINTER,
    AddrSpaceCastOp,
    CpAsyncBulkTensorGlobalToSharedClusterOp,
    FenceMBarrierInitOp,
    MBarrierArriveExpectTxOp,
    MBarrierInitOp,
    MBarrierInvalOp,
    MBarrierTryWaitParityOp,
)
from mytriton.dialects.tt.types import byte_size
from mytriton.dialects.ttg.nvmma import ATOM_ROWS, NvmmaSharedLayoutAttr
from mytriton.dialects.ttg.shared import MemDescType
from mytriton.dialects.ttg.tma import (
    SPAN_MAP_OFFSET,
    AsyncTMACopyGlobalToLocalOp,
    BarrierExpectOp,
    InitBarrierOp,
    InvalBarrierOp,
    WaitBarrierOp,
    rotated_span,
    tensor_map_box,
)
from mytriton.passes.gpu_lowering.context import LoweringContext
from mytriton.passes.gpu_lowering.dot_mma import memref_pointer
from mytriton.passes.gpu_lowering.fp8 import register_type
from mytriton.passes.gpu_lowering.op_builders import gep
from mytriton.passes.gpu_lowering.rules import lowers
from mytriton.passes.gpu_lowering.shared_tiles import tile_of

#: how long a waiting thread may be suspended before it checks the barrier again (ns; CUTLASS's)
SUSPEND_HINT_NS = 0x989680


def tile_address(ctx: LoweringContext, tile: SSAValue) -> SSAValue:
    """The ``!llvm.ptr<3>`` of a tile's first element."""
    t = tile.type
    assert isinstance(t, MemDescType)
    buf, offset = tile_of(ctx, tile)
    element = register_type(t.element)
    return ctx.value(gep(memref_pointer(ctx, buf), offset, element, SHARED_POINTER))


def thread_zero(ctx: LoweringContext, pred: SSAValue | None) -> SSAValue:
    """Whether this thread is thread 0 of the program (and ``pred`` holds)."""
    first = ctx.is_owner(ctx.num_warps * 32 - 1)
    assert first is not None
    return first if pred is None else ctx.value(arith.AndIOp(first, pred))


def by_thread_zero(ctx: LoweringContext, pred: SSAValue | None, ops: list[Operation]) -> None:
    then = Block()
    with ctx.inside(then):
        for op in ops:
            ctx.emit(op)
        ctx.emit(scf.YieldOp())
    ctx.emit(scf.IfOp(thread_zero(ctx, pred), [], [then]))


@lowers(InitBarrierOp)
class LowerInitBarrier:
    def lower(self, ctx: LoweringContext, op: Operation) -> None:
        assert isinstance(op, InitBarrierOp)
        bar = tile_address(ctx, op.bar)
        count = ctx.i32(op.count.value.data)
        by_thread_zero(ctx, None, [MBarrierInitOp(bar, count), FenceMBarrierInitOp()])


@lowers(InvalBarrierOp)
class LowerInvalBarrier:
    def lower(self, ctx: LoweringContext, op: Operation) -> None:
        assert isinstance(op, InvalBarrierOp)
        by_thread_zero(ctx, None, [MBarrierInvalOp(tile_address(ctx, op.bar))])


@lowers(BarrierExpectOp)
class LowerBarrierExpect:
    def lower(self, ctx: LoweringContext, op: Operation) -> None:
        assert isinstance(op, BarrierExpectOp)
        bar = tile_address(ctx, op.bar)
        size = ctx.i32(op.bytes)
        by_thread_zero(ctx, ctx.scalar(op.pred), [MBarrierArriveExpectTxOp(bar, size)])


@lowers(AsyncTMACopyGlobalToLocalOp)
class LowerAsyncTMACopy:
    def lower(self, ctx: LoweringContext, op: Operation) -> None:
        assert isinstance(op, AsyncTMACopyGlobalToLocalOp)
        copy = _TileCopy(ctx, op)
        then = Block()
        with ctx.inside(then):
            copy.emit()
            ctx.emit(scf.YieldOp())
        ctx.emit(scf.IfOp(thread_zero(ctx, ctx.scalar(op.pred)), [], [then]))


class _TileCopy:
    """The copies one thread issues for ``op``'s tile (the module doc)."""

    def __init__(self, ctx: LoweringContext, op: AsyncTMACopyGlobalToLocalOp):
        t = op.tile
        layout = t.layout
        found = tensor_map_box(t)
        assert found is not None and isinstance(layout, NvmmaSharedLayoutAttr), "verified"
        (self.box_rows, self.columns), _ = found
        self.ctx, self.op, self.layout = ctx, op, layout
        self.rows, self.cols = layout.rows_cols(t.tile_shape)
        self.bar = tile_address(ctx, op.barrier)
        self.dst = tile_address(ctx, op.result)
        self.row, self.col = (ctx.scalar(c) for c in op.coords)

    def emit(self) -> None:
        ctx, span = self.ctx, rotated_span(self.op.tile)
        check = ctx.tensor_map_checks.get(self.op.tensor_map)
        if check is not None and not _steady(self.op):  # a map the kernel wrote: stop where
            check()  # it is of no tensor (the copies ahead of a loop precede its steady state)
        tensor_map = ctx.value(AddrSpaceCastOp(ctx.scalar(self.op.tensor_map), GENERIC_POINTER))
        if not span:
            self._boxes(tensor_map, range(0, self.rows, self.box_rows))
            return
        assert self.op.rows is not None, "verified"
        span_rows = span * ATOM_ROWS
        span_map = ctx.value(
            AddrSpaceCastOp(
                ctx.value(
                    gep(
                        ctx.scalar(self.op.tensor_map),
                        SPAN_MAP_OFFSET,
                        IntegerType(8),
                        GLOBAL_POINTER,
                    )
                ),
                GENERIC_POINTER,
            )
        )
        # the last first row of a span inside the tensor
        last = ctx.value(arith.SubiOp(ctx.scalar(self.op.rows), ctx.i32(span_rows)))
        for first in range(0, self.rows, span_rows):
            y = self._offset(self.row, first)
            lower = ctx.value(arith.CmpiOp(y, ctx.i32(0), "sge"))
            upper = ctx.value(arith.CmpiOp(y, last, "sle"))
            inside, crossing = Block(), Block()
            with ctx.inside(inside):
                zero = ctx.i32(0)
                for c in range(0, self.cols, self.columns):
                    x = self._offset(self.col, c)
                    self._copy(span_map, first, c, [x, zero, zero, zero, y])
                ctx.emit(scf.YieldOp())
            with ctx.inside(crossing):
                self._boxes(tensor_map, range(first, first + span_rows, self.box_rows))
                ctx.emit(scf.YieldOp())
            ctx.emit(scf.IfOp(ctx.value(arith.AndIOp(lower, upper)), [], [inside], [crossing]))

    def _boxes(self, tensor_map: SSAValue, rows: range) -> None:
        """The 2-d boxes at the tile's ``rows`` (each where the layout puts it)."""
        for r in rows:
            y = self._offset(self.row, r)
            for c in range(0, self.cols, self.columns):
                self._copy(tensor_map, r, c, [self._offset(self.col, c), y])

    def _offset(self, base: SSAValue, by: int) -> SSAValue:
        return base if not by else self.ctx.value(arith.AddiOp(base, self.ctx.i32(by)))

    def _copy(self, tensor_map: SSAValue, r: int, c: int, coordinates: list[SSAValue]) -> None:
        """A box copied to where the tile's row ``r``, column ``c`` is (the box's first element;
        ``coordinates`` innermost first)."""
        ctx, t = self.ctx, self.op.tile
        step = self.layout.offset((r, c), t.tile_shape, byte_size(t.element))
        at = self.dst
        if step:
            element = register_type(t.element)
            at = ctx.value(gep(self.dst, ctx.i32(step), element, SHARED_POINTER))
        into = ctx.value(AddrSpaceCastOp(at, SHARED_CLUSTER_POINTER))
        ctx.emit(CpAsyncBulkTensorGlobalToSharedClusterOp(into, tensor_map, self.bar, coordinates))


def _steady(op: AsyncTMACopyGlobalToLocalOp) -> bool:
    """Whether ``op`` is a copy of a pipelined loop's steady state (in the body that waits on
    the barriers): the copies of the loop's first ``stages - 1`` iterations, ahead of it,
    precede it whenever the loop runs (``pipelining.async_copies``)."""
    loop = op.parent_op()
    return isinstance(loop, scf.ForOp) and any(
        isinstance(o, WaitBarrierOp) for o in loop.body.block.ops
    )


@lowers(WaitBarrierOp)
class LowerWaitBarrier:
    def lower(self, ctx: LoweringContext, op: Operation) -> None:
        assert isinstance(op, WaitBarrierOp)
        bar = tile_address(ctx, op.bar)
        ticks = ctx.i32(SUSPEND_HINT_NS)
        ctx.emit(MBarrierTryWaitParityOp(bar, ctx.scalar(op.phase), ticks))
