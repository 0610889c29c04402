"""Lowering of ``ttg_tma_store``: TMA stores and their waits, as upstream's ``nvvm`` ops
(``dialects/nvgpu/tma_store.py``).

``ttg.async_tma_copy_local_to_global``: thread 0 of the program issues one copy a column of
swizzle atoms of the tile (boxes of ``R x E``: ``E`` the elements of one swizzled row), copy
``j`` from the tile's ``j``-th atom column, ``j R S`` bytes on, to coordinates ``(col + j E,
row)`` (innermost first), then commits them as one bulk group; the tile was written and
published (``fence.proxy.async`` and a barrier) by its ``ttg.local_alloc``. Where the map is one
the kernel wrote, thread 0 first stops where it is of no tensor (as a load's copies do).
``ttg.async_tma_store_wait``: every thread waits for its groups' shared reads (only thread 0
has any), then a barrier.
"""

from __future__ import annotations

from xdsl.dialects import arith, gpu, scf
from xdsl.ir import Block, Operation

from mytriton.dialects.nvgpu.nvvm import SHARED_POINTER
from mytriton.dialects.nvgpu.tma import GENERIC_POINTER, AddrSpaceCastOp
from mytriton.dialects.nvgpu.tma_store import (
    CpAsyncBulkCommitGroupOp,
    CpAsyncBulkTensorSharedCTAToGlobalOp,
    CpAsyncBulkWaitGroupOp,
)
from mytriton.dialects.tt.types import byte_size
from mytriton.dialects.ttg.nvmma import NvmmaSharedLayoutAttr
from mytriton.dialects.ttg.tma import tensor_map_box
from mytriton.dialects.ttg.tma_store import AsyncTMACopyLocalToGlobalOp, AsyncTMAStoreWaitOp
from mytriton.passes.gpu_lowering.context import LoweringContext
from mytriton.passes.gpu_lowering.fp8 import register_type
from mytriton.passes.gpu_lowering.op_builders import gep
from mytriton.passes.gpu_lowering.rules import lowers
from mytriton.passes.gpu_lowering.tma import thread_zero, tile_address


@lowers(AsyncTMACopyLocalToGlobalOp)
class LowerTMAStore:
    def lower(self, ctx: LoweringContext, op: Operation) -> None:
        assert isinstance(op, AsyncTMACopyLocalToGlobalOp)
        then = Block()
        with ctx.inside(then):
            self._copies(ctx, op)
            ctx.emit(CpAsyncBulkCommitGroupOp())
            ctx.emit(scf.YieldOp())
        ctx.emit(scf.IfOp(thread_zero(ctx, None), [], [then]))

    def _copies(self, ctx: LoweringContext, op: AsyncTMACopyLocalToGlobalOp) -> None:
        t = op.tile
        layout = t.layout
        found = tensor_map_box(t)
        assert found is not None and isinstance(layout, NvmmaSharedLayoutAttr), "verified"
        (box_rows, columns), _ = found
        rows, cols = layout.rows_cols(t.tile_shape)
        check = ctx.tensor_map_checks.get(op.tensor_map)
        if check is not None:  # a map the kernel wrote: stop where it is of no tensor
            check()
        tensor_map = ctx.value(AddrSpaceCastOp(ctx.scalar(op.tensor_map), GENERIC_POINTER))
        src = tile_address(ctx, op.src)
        row, col = (ctx.scalar(c) for c in op.coords)
        element = register_type(t.element)
        for r in range(0, rows, box_rows):
            y = row if not r else ctx.value(arith.AddiOp(row, ctx.i32(r)))
            for c in range(0, cols, columns):
                x = col if not c else ctx.value(arith.AddiOp(col, ctx.i32(c)))
                step = layout.offset((r, c), t.tile_shape, byte_size(t.element))
                at = src
                if step:
                    at = ctx.value(gep(src, ctx.i32(step), element, SHARED_POINTER))
                ctx.emit(CpAsyncBulkTensorSharedCTAToGlobalOp(tensor_map, at, [x, y]))


@lowers(AsyncTMAStoreWaitOp)
class LowerTMAStoreWait:
    def lower(self, ctx: LoweringContext, op: Operation) -> None:
        assert isinstance(op, AsyncTMAStoreWaitOp)
        ctx.emit(CpAsyncBulkWaitGroupOp(op.pending, read=True))
        ctx.emit(gpu.BarrierOp())
