"""Lowering of ``ttg_tma``: TMA copies and the mbarriers they complete on, as upstream's
``nvvm`` ops (``dialects/upstream_tma.py``).

A barrier is a ``!ttg.memdesc<1xi64>`` tile (its shared buffer and element offset, as every
tile lowers: ``shared_tiles.py``), addressed as an ``!llvm.ptr<3>``. Thread 0 of the program
initialises, invalidates, arms (``mbarrier.arrive.expect_tx``) and issues the copies, inside
``scf.if``; every thread waits (``mbarrier.try_wait.parity``, a loop until the phase has
completed). A tile of ``R`` rows and ``C`` columns swizzled over ``S`` bytes is filled by
``C / E`` copies of boxes ``E x R`` (``E``: the elements of ``S`` bytes), copy ``j`` at
coordinates ``(col + j E, row)`` (innermost first, as the tensor map orders them) into the
tile's ``j``-th column of swizzle atoms, ``j R S`` bytes on (``ttg_nvmma``'s layout, which is
what the copy engine writes); a tile whose 8-row groups the layout rotates (a warpgroup MMA's
A) by ``R / 8`` times as many copies of ``E x 8`` boxes, each at its group's place.
"""

from __future__ import annotations

from xdsl.dialects import arith, llvm, scf
from xdsl.ir import Block, Operation, SSAValue

from mytriton.dialects.tt_types import byte_size
from mytriton.dialects.ttg_nvmma import NvmmaSharedLayoutAttr
from mytriton.dialects.ttg_shared import MemDescType
from mytriton.dialects.ttg_tma import (
    AsyncTMACopyGlobalToLocalOp,
    BarrierExpectOp,
    InitBarrierOp,
    InvalBarrierOp,
    WaitBarrierOp,
    tensor_map_box,
)
from mytriton.dialects.upstream_nvvm import SHARED_POINTER
from mytriton.dialects.upstream_tma import (
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
from mytriton.passes.gpu_lowering.context import LoweringContext
from mytriton.passes.gpu_lowering.dot_mma import memref_pointer
from mytriton.passes.gpu_lowering.fp8 import register_type
from mytriton.passes.gpu_lowering.rules import lowers
from mytriton.passes.gpu_lowering.shared_tiles import tile_of

#: how long a waiting thread may be suspended before it checks the barrier again (ns; CUTLASS's)
SUSPEND_HINT_NS = 0x989680


def _address(ctx: LoweringContext, tile: SSAValue) -> SSAValue:
    """The ``!llvm.ptr<3>`` of a tile's first element."""
    t = tile.type
    assert isinstance(t, MemDescType)
    buf, offset = tile_of(ctx, tile)
    element = register_type(t.element)
    return ctx.value(
        llvm.GEPOp(
            memref_pointer(ctx, buf), [llvm.GEP_USE_SSA_VAL], element, [offset], SHARED_POINTER
        )
    )


def _thread_zero(ctx: LoweringContext, pred: SSAValue | None) -> SSAValue:
    """Whether this thread is thread 0 of the program (and ``pred`` holds)."""
    first = ctx.is_owner(ctx.num_warps * 32 - 1)
    assert first is not None
    return first if pred is None else ctx.value(arith.AndIOp(first, pred))


def _by_thread_zero(ctx: LoweringContext, pred: SSAValue | None, ops: list[Operation]) -> None:
    then = Block()
    with ctx.inside(then):
        for op in ops:
            ctx.emit(op)
        ctx.emit(scf.YieldOp())
    ctx.emit(scf.IfOp(_thread_zero(ctx, pred), [], [then]))


@lowers(InitBarrierOp)
class LowerInitBarrier:
    def lower(self, ctx: LoweringContext, op: Operation) -> None:
        assert isinstance(op, InitBarrierOp)
        bar = _address(ctx, op.bar)
        count = ctx.i32(op.count.value.data)
        _by_thread_zero(ctx, None, [MBarrierInitOp(bar, count), FenceMBarrierInitOp()])


@lowers(InvalBarrierOp)
class LowerInvalBarrier:
    def lower(self, ctx: LoweringContext, op: Operation) -> None:
        assert isinstance(op, InvalBarrierOp)
        _by_thread_zero(ctx, None, [MBarrierInvalOp(_address(ctx, op.bar))])


@lowers(BarrierExpectOp)
class LowerBarrierExpect:
    def lower(self, ctx: LoweringContext, op: Operation) -> None:
        assert isinstance(op, BarrierExpectOp)
        bar = _address(ctx, op.bar)
        size = ctx.i32(op.bytes)
        _by_thread_zero(ctx, ctx.scalar(op.pred), [MBarrierArriveExpectTxOp(bar, size)])


@lowers(AsyncTMACopyGlobalToLocalOp)
class LowerAsyncTMACopy:
    def lower(self, ctx: LoweringContext, op: Operation) -> None:
        assert isinstance(op, AsyncTMACopyGlobalToLocalOp)
        t = op.tile
        layout = t.layout
        found = tensor_map_box(t)
        assert found is not None and isinstance(layout, NvmmaSharedLayoutAttr), "verified"
        (box_rows, columns), _ = found
        rows, cols = layout.rows_cols(t.tile_shape)
        size = byte_size(t.element)
        element = register_type(t.element)
        bar = _address(ctx, op.barrier)
        dst = _address(ctx, op.result)
        row, col = (ctx.scalar(c) for c in op.coords)
        then = Block()
        with ctx.inside(then):
            tensor_map = ctx.value(AddrSpaceCastOp(ctx.scalar(op.tensor_map), GENERIC_POINTER))
            for r in range(0, rows, box_rows):
                y = row if not r else ctx.value(arith.AddiOp(row, ctx.i32(r)))
                for c in range(0, cols, columns):
                    # the box's first element: row r (where the layout puts it), column c
                    step = layout.offset((r, c), t.tile_shape, size)
                    at = dst
                    if step:
                        at = ctx.value(
                            llvm.GEPOp(
                                dst,
                                [llvm.GEP_USE_SSA_VAL],
                                element,
                                [ctx.i32(step)],
                                SHARED_POINTER,
                            )
                        )
                    into = ctx.value(AddrSpaceCastOp(at, SHARED_CLUSTER_POINTER))
                    x = col if not c else ctx.value(arith.AddiOp(col, ctx.i32(c)))
                    ctx.emit(
                        CpAsyncBulkTensorGlobalToSharedClusterOp(into, tensor_map, bar, [x, y])
                    )
            ctx.emit(scf.YieldOp())
        ctx.emit(scf.IfOp(_thread_zero(ctx, ctx.scalar(op.pred)), [], [then]))


@lowers(WaitBarrierOp)
class LowerWaitBarrier:
    def lower(self, ctx: LoweringContext, op: Operation) -> None:
        assert isinstance(op, WaitBarrierOp)
        bar = _address(ctx, op.bar)
        ticks = ctx.i32(SUSPEND_HINT_NS)
        ctx.emit(MBarrierTryWaitParityOp(bar, ctx.scalar(op.phase), ticks))
