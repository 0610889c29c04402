"""Lowering of ``tt.reduce``: registers, then warp shuffles, then shared memory across warps.

1. Each thread combines its own registers that differ only along the reduced axis.
2. A butterfly of ``gpu.shuffle xor`` over the lanes that own *distinct* elements along the axis
   leaves every such lane with the warp's result (replicated lanes do identical work).
3. If several warps split the axis, each writes its partial per result element to shared
   memory, and after a barrier every thread combines the partials in warp order (then a second
   barrier so the buffer can be reused). Every thread ends holding the result elements of the
   slice layout, so the result is immediately usable without further communication.
"""

from __future__ import annotations

from xdsl.dialects import arith, gpu, memref
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float64Type,
    IndexType,
    IntegerType,
    f32,
    i32,
    i64,
)
from xdsl.ir import Operation, SSAValue

from mytriton.dialects import tt
from mytriton.dialects.tt_types import element_type, is_block, is_float, is_unsigned
from mytriton.dialects.ttg_geometry import Geometry, log2
from mytriton.dialects.upstream import ShuffleMode, ShuffleOp
from mytriton.passes.gpu_lowering.context import LoweringContext
from mytriton.passes.gpu_lowering.elementwise import float_extremum
from mytriton.passes.gpu_lowering.rules import lowers

WARP_SIZE = 32


def combine(
    ctx: LoweringContext, kind: tt.ReduceKind, a: SSAValue, b: SSAValue, unsigned: bool = False
) -> SSAValue:
    """``a (+|max|min) b`` for one element; float max/min ignore NaN (``tl.max``/``tl.min``
    combine with ``tl.maximum``/``tl.minimum``'s default); ``unsigned`` integers order as such."""
    floating = is_float(a.type)
    if kind is tt.ReduceKind.SUM:
        return ctx.value(arith.AddfOp(a, b) if floating else arith.AddiOp(a, b))
    larger = kind is tt.ReduceKind.MAX
    if floating:
        return float_extremum(ctx, a, b, larger, propagate_nan=False)
    if unsigned:
        return ctx.value(arith.MaxUIOp(a, b) if larger else arith.MinUIOp(a, b))
    return ctx.value(arith.MaxSIOp(a, b) if larger else arith.MinSIOp(a, b))


def shuffle_xor(ctx: LoweringContext, value: SSAValue, off: SSAValue, width: SSAValue) -> SSAValue:
    """``gpu.shuffle xor`` of a value of any width: the hardware moves 32 bits, so a narrower
    value travels widened (exactly), a 64-bit one as two halves."""

    def shuffle32(v: SSAValue) -> SSAValue:
        return ctx.emit(ShuffleOp(v, off, width, ShuffleMode.XOR)).results[0]

    t = value.type
    if t == f32 or (isinstance(t, IntegerType) and t.width.data == 32):
        return shuffle32(value)
    if isinstance(t, Float16Type | BFloat16Type):
        wide = shuffle32(ctx.value(arith.ExtFOp(value, f32)))
        return ctx.value(arith.TruncFOp(wide, t))
    if isinstance(t, Float64Type):
        bits = shuffle_xor(ctx, ctx.value(arith.BitcastOp(value, i64)), off, width)
        return ctx.value(arith.BitcastOp(bits, t))
    assert isinstance(t, IntegerType), f"cannot shuffle {t}"
    if t.width.data < 32:
        wide = shuffle32(ctx.value(arith.ExtSIOp(value, i32)))
        return ctx.value(arith.TruncIOp(wide, t))
    lo = shuffle32(ctx.value(arith.TruncIOp(value, i32)))
    high = ctx.value(arith.ShRUIOp(value, ctx.const(32, i64)))
    hi = shuffle32(ctx.value(arith.TruncIOp(high, i32)))
    hi64 = ctx.value(arith.ShLIOp(ctx.value(arith.ExtUIOp(hi, i64)), ctx.const(32, i64)))
    return ctx.value(arith.OrIOp(hi64, ctx.value(arith.ExtUIOp(lo, i64))))


@lowers(tt.ReduceOp)
class LowerReduce:
    def lower(self, ctx: LoweringContext, op: Operation) -> None:
        assert isinstance(op, tt.ReduceOp)
        kind = op.kind.data
        g = ctx.geometry(op.src.type)
        axis = g.kept[op.axis.value.data]
        src = ctx.get(op.src)
        unsigned = is_unsigned(op.src.type)

        # 1. within the thread
        partial: dict[tuple[int, ...], SSAValue] = {}
        for reg, value in zip(g.registers, src, strict=True):
            key = tuple(0 if d == axis else x for d, x in enumerate(reg))
            partial[key] = (
                combine(ctx, kind, partial[key], value, unsigned) if key in partial else value
            )

        # 2. across the lanes of a warp
        width = ctx.i32(WARP_SIZE)
        for offset in g.shuffle_offsets(axis):
            off = ctx.i32(offset)
            for key, value in partial.items():
                other = shuffle_xor(ctx, value, off, width)
                partial[key] = combine(ctx, kind, value, other, unsigned)

        # 3. across warps, through shared memory
        warps = g.distinct_warps(axis)
        if warps > 1:
            partial = self._across_warps(ctx, op, g, axis, warps, partial)

        keys = list(partial)
        if is_block(op.result.type):
            out_g = ctx.geometry(op.result.type)
            ctx.set(op.result, [partial[reg] for reg in out_g.registers])
        else:
            assert len(keys) == 1
            ctx.set(op.result, [partial[keys[0]]])

    def _across_warps(
        self,
        ctx: LoweringContext,
        op: tt.ReduceOp,
        g: Geometry,
        axis: int,
        warps: int,
        partial: dict[tuple[int, ...], SSAValue],
    ) -> dict[tuple[int, ...], SSAValue]:
        kind = op.kind.data
        elem = element_type(op.src.type)
        # result elements, row-major over the root dims other than the axis
        strides = [0] * g.root.rank
        numel = 1
        for d in reversed(range(g.root.rank)):
            if d != axis:
                strides[d] = numel
                numel *= g.full_shape[d]
        buf = ctx.shared_buffer(elem, warps * numel)
        shift = 5 + log2(g.warp_strides[axis])
        warp_idx = ctx.thread_id
        warp_idx = ctx.value(arith.ShRUIOp(warp_idx, ctx.i32(shift)))
        warp_idx = ctx.value(arith.AndIOp(warp_idx, ctx.i32(warps - 1)))
        slot = ctx.value(arith.MuliOp(warp_idx, ctx.i32(numel)))
        slot_index = ctx.value(arith.IndexCastOp(slot, IndexType()))
        for key, value in partial.items():
            lin = ctx.linear_index(g, key, strides)
            ctx.emit(memref.StoreOp.get(value, buf, [ctx.value(arith.AddiOp(slot_index, lin))]))
        ctx.emit(gpu.BarrierOp())
        out: dict[tuple[int, ...], SSAValue] = {}
        for key in partial:
            lin = ctx.linear_index(g, key, strides)
            acc: SSAValue | None = None
            for w in range(warps):
                idx = lin if w == 0 else ctx.value(arith.AddiOp(lin, ctx.index(w * numel)))
                v = ctx.value(memref.LoadOp.get(buf, [idx]))
                acc = v if acc is None else combine(ctx, kind, acc, v, is_unsigned(elem))
            assert acc is not None
            out[key] = acc
        ctx.emit(gpu.BarrierOp())
        return out
