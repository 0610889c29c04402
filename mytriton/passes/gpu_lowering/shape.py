"""Lowering of ops that create blocks or reshape them without moving data between threads.

Layout assignment guarantees these are register-local: a broadcast keeps its operand's layout
(the stretched dimensions reuse the same register), ``expand_dims`` consumes the slice of its
result's layout (identical registers).
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.ir import Operation

from mytriton.dialects.tt import core as tt
from mytriton.dialects.tt.types import element_type
from mytriton.errors import BackendError
from mytriton.passes.gpu_lowering.context import LoweringContext
from mytriton.passes.gpu_lowering.rules import lowers


@lowers(tt.MakeRangeOp)
class LowerMakeRange:
    def lower(self, ctx: LoweringContext, op: Operation) -> None:
        assert isinstance(op, tt.MakeRangeOp)
        g = ctx.geometry(op.result.type)
        (dim,) = g.kept
        start = op.start.value.data
        out = []
        for reg in g.registers:
            coord = ctx.coordinate(g, dim, reg[dim])
            out.append(coord if start == 0 else ctx.value(arith.AddiOp(coord, ctx.i32(start))))
        ctx.set(op.result, out)


@lowers(tt.SplatOp, tt.FullOp)
class LowerSplat:
    def lower(self, ctx: LoweringContext, op: Operation) -> None:
        assert isinstance(op, (tt.SplatOp, tt.FullOp))
        value = ctx.scalar(op.operands[0])
        ctx.set(op.results[0], [value] * ctx.geometry(op.results[0].type).num_registers)


@lowers(tt.ZerosOp, tt.EmptyOp)
class LowerZeros:
    """``tt.zeros``; also ``tt.empty``, whose undefined contents may as well be zeros."""

    def lower(self, ctx: LoweringContext, op: Operation) -> None:
        t = op.results[0].type
        zero = ctx.const(0, element_type(t))
        ctx.set(op.results[0], [zero] * ctx.geometry(t).num_registers)


@lowers(tt.BroadcastOp)
class LowerBroadcast:
    def lower(self, ctx: LoweringContext, op: Operation) -> None:
        assert isinstance(op, tt.BroadcastOp)
        src_g, dst_g = ctx.geometry(op.src.type), ctx.geometry(op.result.type)
        if src_g.root != dst_g.root:
            raise BackendError("internal lowering error: tt.broadcast changes the layout")
        stretched = [
            d for d in range(dst_g.root.rank) if src_g.full_shape[d] != dst_g.full_shape[d]
        ]
        index = {reg: i for i, reg in enumerate(src_g.registers)}
        src = ctx.get(op.src)
        out = []
        for reg in dst_g.registers:
            key = tuple(0 if d in stretched else x for d, x in enumerate(reg))
            out.append(src[index[key]])
        ctx.set(op.result, out)


@lowers(tt.ExpandDimsOp)
class LowerExpandDims:
    def lower(self, ctx: LoweringContext, op: Operation) -> None:
        assert isinstance(op, tt.ExpandDimsOp)
        src_g, dst_g = ctx.geometry(op.src.type), ctx.geometry(op.result.type)
        if src_g.root != dst_g.root or src_g.full_shape != dst_g.full_shape:
            raise BackendError(
                "internal lowering error: tt.expand_dims operand is not the slice of its result"
            )
        ctx.set(op.result, ctx.get(op.src))
