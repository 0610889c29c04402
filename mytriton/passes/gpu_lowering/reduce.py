"""Lowering of ``tt.reduce``: registers, then warp shuffles, then shared memory across warps.

1. Each thread combines its own registers that differ only along the reduced axis.
2. A butterfly of ``gpu.shuffle xor`` over the lanes that own *distinct* elements along the axis
   leaves every such lane with the warp's result (replicated lanes do identical work).
3. If several warps split the axis, each writes its partial per result element to shared
   memory, and after a barrier every thread combines the partials in warp order (then a second
   barrier so the buffer can be reused). Every thread ends holding the result elements of the
   slice layout, so the result is immediately usable without further communication.

Every "combine" is the op's region inlined on scalar registers (``combine``); with N operands
each step moves and combines N values (``tl.argmax`` shuffles the value and its index).
"""

from __future__ import annotations

from collections.abc import Sequence

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

from mytriton.dialects.nvgpu.upstream import ShuffleMode, ShuffleOp
from mytriton.dialects.tt import core as tt
from mytriton.dialects.tt import elementwise as ew
from mytriton.dialects.tt.reduce import ReduceReturnOp, ScanReturnOp
from mytriton.dialects.tt.types import element_type, is_block
from mytriton.dialects.ttg.geometry import Geometry, log2
from mytriton.passes.gpu_lowering.context import LoweringContext
from mytriton.passes.gpu_lowering.rules import lowers

WARP_SIZE = 32

Key = tuple[int, ...]


def combine(
    ctx: LoweringContext,
    op: tt.ReduceOp | tt.ScanOp,
    acc: Sequence[SSAValue],
    new: Sequence[SSAValue],
) -> list[SSAValue]:
    """The combine region inlined on scalar registers: ``acc`` (the values combined so far,
    earlier along the axis) with ``new``. Its registers stay unnamed, so the op's results get
    the op's name."""
    block = op.combine_block
    for arg, v in zip(block.args, [*acc, *new], strict=True):
        ctx.regs[arg] = [v]
    location = ctx.location
    out: list[SSAValue] = []
    for inner in block.ops:
        if isinstance(inner, ReduceReturnOp | ScanReturnOp):
            out = [ctx.scalar(v) for v in inner.operands]
            break
        ctx.lower_op(inner)
        for r in inner.results:
            for reg in ctx.get(r):
                if r.name_hint is not None and reg.name_hint == r.name_hint:
                    reg.name_hint = None
    ctx.location = location
    return out


_COMMUTATIVE = (ew.AddOp, ew.MulOp, ew.MaximumOp, ew.MinimumOp, ew.AndOp, ew.OrOp, ew.XorOp)


def is_commutative(op: tt.ReduceOp | tt.ScanOp) -> bool:
    """Whether the region is one commutative op of its two arguments (``tl.sum``, ``tl.max``,
    ...): ``combine(a, b)`` and ``combine(b, a)`` are then the same bits."""
    ops = list(op.combine_block.ops)
    args = set(op.combine_block.args)
    return (
        len(ops) == 2
        and isinstance(ops[0], _COMMUTATIVE)
        and set(ops[0].operands) == args
        and len(args) == 2
        and list(ops[1].operands) == list(ops[0].results)
    )


def shuffle(
    ctx: LoweringContext, value: SSAValue, off: SSAValue, width: SSAValue, mode: ShuffleMode
) -> SSAValue:
    """``gpu.shuffle`` of a value of any width: the hardware moves 32 bits, so a narrower
    value travels widened (exactly), a 64-bit one as two halves."""

    def shuffle32(v: SSAValue) -> SSAValue:
        return ctx.emit(ShuffleOp(v, off, width, mode)).results[0]

    t = value.type
    if t == f32 or (isinstance(t, IntegerType) and t.width.data == 32):
        return shuffle32(value)
    if isinstance(t, Float16Type | BFloat16Type):
        wide = shuffle32(ctx.value(arith.ExtFOp(value, f32)))
        return ctx.value(arith.TruncFOp(wide, t))
    if isinstance(t, Float64Type):
        bits = shuffle(ctx, ctx.value(arith.BitcastOp(value, i64)), off, width, mode)
        return ctx.value(arith.BitcastOp(bits, t))
    assert isinstance(t, IntegerType), f"cannot shuffle {t}"
    if t.width.data < 32:
        wide = shuffle32(ctx.value(arith.ExtSIOp(value, i32)))
        return ctx.value(arith.TruncIOp(wide, t))
    if t != i64:  # ui64: shuffle the signless bits, so the halves rejoin as the same type
        bits = shuffle(ctx, ctx.value(arith.BitcastOp(value, i64)), off, width, mode)
        return ctx.value(arith.BitcastOp(bits, t))
    lo = shuffle32(ctx.value(arith.TruncIOp(value, i32)))
    high = ctx.value(arith.ShRUIOp(value, ctx.const(32, i64)))
    hi = shuffle32(ctx.value(arith.TruncIOp(high, i32)))
    hi64 = ctx.value(arith.ShLIOp(ctx.value(arith.ExtUIOp(hi, i64)), ctx.const(32, i64)))
    return ctx.value(arith.OrIOp(hi64, ctx.value(arith.ExtUIOp(lo, i64))))


def result_strides(g: Geometry, axis: int) -> tuple[list[int], int]:
    """Row-major strides over the root dimensions other than ``axis`` (0 for ``axis``) and
    their element count: where a line along the axis keeps its partials in shared memory."""
    strides = [0] * g.root.rank
    numel = 1
    for d in reversed(range(g.root.rank)):
        if d != axis:
            strides[d] = numel
            numel *= g.full_shape[d]
    return strides, numel


def coordinate_bits(ctx: LoweringContext, shift: int, count: int) -> SSAValue:
    """``(thread_id >> shift) & (count - 1)``: a lane or warp coordinate modulo ``count``."""
    v = ctx.thread_id
    if shift:
        v = ctx.value(arith.ShRUIOp(v, ctx.i32(shift)))
    return ctx.value(arith.AndIOp(v, ctx.i32(count - 1)))


@lowers(tt.ReduceOp)
class LowerReduce:
    def lower(self, ctx: LoweringContext, op: Operation) -> None:
        assert isinstance(op, tt.ReduceOp)
        g = ctx.geometry(op.srcs[0].type)
        axis = g.kept[op.axis.value.data]
        srcs = [ctx.get(s) for s in op.srcs]

        # 1. within the thread
        partial: dict[Key, list[SSAValue]] = {}
        for i, reg in enumerate(g.registers):
            key = tuple(0 if d == axis else x for d, x in enumerate(reg))
            values = [s[i] for s in srcs]
            partial[key] = combine(ctx, op, partial[key], values) if key in partial else values

        # 2. across the lanes of a warp; unless the combine function is commutative, the lane
        # of the pair's upper half swaps the operands, so both lanes compute combine(lower,
        # upper), the same bits (replicas must agree) in element order
        width = ctx.i32(WARP_SIZE)
        ordered = not is_commutative(op)
        for offset in g.shuffle_offsets(axis):
            off = ctx.i32(offset)
            upper: SSAValue | None = None
            if ordered:
                bit = ctx.value(arith.AndIOp(ctx.thread_id, off))
                upper = ctx.value(arith.CmpiOp(bit, ctx.i32(0), "ne"))
            for key, values in partial.items():
                others = [shuffle(ctx, v, off, width, ShuffleMode.XOR) for v in values]
                if upper is None:
                    partial[key] = combine(ctx, op, values, others)
                    continue
                lower = [
                    ctx.value(arith.SelectOp(upper, o, v))
                    for v, o in zip(values, others, strict=True)
                ]
                higher = [
                    ctx.value(arith.SelectOp(upper, v, o))
                    for v, o in zip(values, others, strict=True)
                ]
                partial[key] = combine(ctx, op, lower, higher)

        # 3. across warps, through shared memory
        warps = g.distinct_warps(axis)
        if warps > 1:
            partial = self._across_warps(ctx, op, g, axis, warps, partial)

        for n, result in enumerate(op.results):
            if is_block(result.type):
                out_g = ctx.geometry(result.type)
                ctx.set(result, [partial[reg][n] for reg in out_g.registers])
            else:
                assert len(partial) == 1
                ctx.set(result, [next(iter(partial.values()))[n]])

    def _across_warps(
        self,
        ctx: LoweringContext,
        op: tt.ReduceOp,
        g: Geometry,
        axis: int,
        warps: int,
        partial: dict[Key, list[SSAValue]],
    ) -> dict[Key, list[SSAValue]]:
        strides, numel = result_strides(g, axis)
        bufs = [ctx.shared_buffer(element_type(s.type), warps * numel) for s in op.srcs]
        warp_idx = coordinate_bits(ctx, 5 + log2(g.warp_strides[axis]), warps)
        slot = ctx.value(arith.MuliOp(warp_idx, ctx.i32(numel)))
        slot_index = ctx.value(arith.IndexCastOp(slot, IndexType()))
        for key, values in partial.items():
            lin = ctx.linear_index(g, key, strides)
            at = ctx.value(arith.AddiOp(slot_index, lin))
            for buf, value in zip(bufs, values, strict=True):
                ctx.emit(memref.StoreOp.get(value, buf, [at]))
        ctx.emit(gpu.BarrierOp())
        out: dict[Key, list[SSAValue]] = {}
        for key in partial:
            lin = ctx.linear_index(g, key, strides)
            acc: list[SSAValue] | None = None
            for w in range(warps):
                idx = lin if w == 0 else ctx.value(arith.AddiOp(lin, ctx.index(w * numel)))
                vs = [ctx.value(memref.LoadOp.get(buf, [idx])) for buf in bufs]
                acc = vs if acc is None else combine(ctx, op, acc, vs)
            assert acc is not None
            out[key] = acc
        ctx.emit(gpu.BarrierOp())
        return out
