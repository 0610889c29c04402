"""Lowering of ``tt.reduce``: registers, then warp shuffles, then shared memory across warps.

1. Each thread combines its own registers that differ only along the reduced axis.
2. A butterfly of ``gpu.shuffle xor`` over the lanes that own *distinct* elements along the axis
   leaves every such lane with the warp's result (replicated lanes do identical work). An
   ordered combine whose warp partials are then combined in turn leaves it in the warp's first
   lane only, which alone writes it (no operand swaps: Welford's var/mean 536 -> 512 SASS).
3. If several warps split the axis, each writes its partial per result element to shared
   memory, and after a barrier the partials are combined: where the block reduces to one
   element with a commutative combine, by a butterfly over the lanes, each lane reading one
   warp's partial (``across_warps_shuffled``); by every thread, in warp order, where a thread
   holds one result element (``across_warps_in_turn``); spread over the threads, each
   combining a few with its lanes, where it holds several (``across_warps_spread``, Triton's
   scheme). Every thread ends holding the result elements of the slice layout, so the result
   is immediately usable without further communication.

Every "combine" is the op's region inlined on scalar registers (``combine``); with N operands
each step moves and combines N values (``tl.argmax`` shuffles the value and its index).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith, gpu, memref, scf
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
from xdsl.ir import Block, Operation, SSAValue

from mytriton.dialects.nvgpu.upstream import ShuffleMode, ShuffleOp
from mytriton.dialects.tt import core as tt
from mytriton.dialects.tt import elementwise as ew
from mytriton.dialects.tt.reduce import ReduceReturnOp, ScanReturnOp
from mytriton.dialects.tt.types import element_type, is_block
from mytriton.dialects.ttg.geometry import Geometry, log2
from mytriton.passes.gpu_lowering.context import LoweringContext
from mytriton.passes.gpu_lowering.debug import guarded
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


def butterfly(
    ctx: LoweringContext,
    op: tt.ReduceOp,
    partial: dict[Key, list[SSAValue]],
    offsets: Sequence[int],
    agree: bool = True,
) -> None:
    """Combine each entry of ``partial`` with the same entry of the lanes ``offsets`` apart
    (xor, ascending), in place: every lane of a group ends with the group's result. Unless the
    combine function is commutative, the lane of the pair's upper half swaps the operands, so
    both lanes compute combine(lower, upper), the same bits (replicas must agree) in element
    order. Without ``agree`` no lane swaps: each computes combine(own, other), and only the
    group's first lane (its ``offsets`` bits zero: the lower lane at every step) holds the
    result in element order, the same bits, without two selects per value and step."""
    width = ctx.i32(WARP_SIZE)
    ordered = agree and not is_commutative(op)
    for offset in offsets:
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
                ctx.value(arith.SelectOp(upper, o, v)) for v, o in zip(values, others, strict=True)
            ]
            higher = [
                ctx.value(arith.SelectOp(upper, v, o)) for v, o in zip(values, others, strict=True)
            ]
            partial[key] = combine(ctx, op, lower, higher)


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

        # 2. across the lanes of a warp (where only the warp's partial in shared memory is
        # read afterwards, an ordered combine's result is its first lane's: ``butterfly``)
        warps = g.distinct_warps(axis)
        one = len(partial) == 1 and result_strides(g, axis)[1] == 1
        offsets = g.shuffle_offsets(axis)
        shuffled = warps > 1 and one and is_commutative(op)
        in_turn = warps > 1 and len(partial) == 1 and not shuffled
        first_lanes = in_turn and not is_commutative(op)
        butterfly(ctx, op, partial, offsets, agree=not first_lanes)

        # 3. across warps, through shared memory
        if shuffled:
            partial = across_warps_shuffled(ctx, op, g, axis, warps, partial)
        elif in_turn:
            writers = sum(offsets) if first_lanes else 0
            partial = across_warps_in_turn(ctx, op, g, axis, warps, partial, writers)
        elif warps > 1:
            partial = across_warps_spread(ctx, op, g, axis, warps, partial)

        for n, result in enumerate(op.results):
            if is_block(result.type):
                out_g = ctx.geometry(result.type)
                ctx.set(result, [partial[reg][n] for reg in out_g.registers])
            else:
                assert len(partial) == 1
                ctx.set(result, [next(iter(partial.values()))[n]])


def across_warps_shuffled(
    ctx: LoweringContext,
    op: tt.ReduceOp,
    g: Geometry,
    axis: int,
    warps: int,
    partial: dict[Key, list[SSAValue]],
) -> dict[Key, list[SSAValue]]:
    """Step 3 where the whole block reduces to one element (a row's scalar, as in a softmax)
    with a commutative combine (``tl.sum``, ``tl.max``): each warp writes its partial to slot
    ``warp``; after a barrier lane ``l`` reads slot ``l % warps`` and a butterfly over the low
    lane bits combines the ``warps`` partials, so every lane of every warp ends with the
    result. One shared load and ``log2(warps)`` shuffles, where reading all the partials in
    every thread (``across_warps_in_turn``) kept ``warps`` more registers live beside the
    block's own values, costing occupancy (softmax 35 -> 32 registers). An ordered combine
    (``tl.argmax``'s value and index) keeps ``across_warps_in_turn``: its butterfly's
    operand swaps cost more registers than they save (argmax 48 -> 64 on the mlir backend)."""
    bufs = [ctx.shared_buffer(element_type(s.type), warps, local=True) for s in op.srcs]
    warp_idx = coordinate_bits(ctx, 5 + log2(g.warp_strides[axis]), warps)
    (key, values), *_ = partial.items()
    at = ctx.value(arith.IndexCastOp(warp_idx, IndexType()))
    for buf, value in zip(bufs, values, strict=True):
        ctx.emit(memref.StoreOp.get(value, buf, [at]))
    ctx.emit(gpu.BarrierOp())
    slot = ctx.value(arith.IndexCastOp(coordinate_bits(ctx, 0, warps), IndexType()))
    group: dict[Key, list[SSAValue]] = {
        key: [ctx.value(memref.LoadOp.get(buf, [slot])) for buf in bufs]
    }
    butterfly(ctx, op, group, [1 << b for b in range(log2(warps))])
    ctx.emit(gpu.BarrierOp())
    return group


def across_warps_in_turn(
    ctx: LoweringContext,
    op: tt.ReduceOp,
    g: Geometry,
    axis: int,
    warps: int,
    partial: dict[Key, list[SSAValue]],
    writers: int = 0,
) -> dict[Key, list[SSAValue]]:
    """Step 3 where the thread holds one result element (a row's scalar, as in a softmax):
    every thread reads the ``warps`` partials of it and combines them in warp order, which
    costs less than ``across_warps_spread``'s extra barrier and shared-memory round trip.
    ``writers``: the lane bits that must be zero in a lane writing its warp's partial (the
    first lanes of ``butterfly`` without ``agree``); 0: every lane writes the same bits."""
    strides, numel = result_strides(g, axis)
    bufs = [ctx.shared_buffer(element_type(s.type), warps * numel, local=True) for s in op.srcs]
    warp_idx = coordinate_bits(ctx, 5 + log2(g.warp_strides[axis]), warps)
    slot = ctx.value(arith.MuliOp(warp_idx, ctx.i32(numel)))
    slot_index = ctx.value(arith.IndexCastOp(slot, IndexType()))
    stores = Block()
    for key, values in partial.items():
        lin = ctx.linear_index(g, key, strides)
        at = ctx.value(arith.AddiOp(slot_index, lin))
        with ctx.inside(stores):
            for buf, value in zip(bufs, values, strict=True):
                ctx.emit(memref.StoreOp.get(value, buf, [at]))
    writer = None
    if writers:
        bits = ctx.value(arith.AndIOp(ctx.thread_id, ctx.i32(writers)))
        writer = ctx.value(arith.CmpiOp(bits, ctx.i32(0), "eq"))
    guarded(ctx, writer, stores)
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


def across_warps_spread(
    ctx: LoweringContext,
    op: tt.ReduceOp,
    g: Geometry,
    axis: int,
    warps: int,
    partial: dict[Key, list[SSAValue]],
) -> dict[Key, list[SSAValue]]:
    """Step 3 where the thread holds several result elements (Triton's scheme). Combining all
    ``warps`` partials of each of them in every thread made code that grows with elements x
    warps (a Welford var/mean over 64 x 1024 rows: 448 of a thread's 960 combines). Instead
    the ``warps`` partials of a result element lie side by side in shared memory, each thread
    takes ``warps * numel / threads`` of them, and groups of ``warps`` lanes combine theirs
    with a butterfly; the results go back to shared memory for every thread to read its own."""
    strides, numel = result_strides(g, axis)
    bufs = [ctx.shared_buffer(element_type(s.type), warps * numel, local=True) for s in op.srcs]
    warp_idx = coordinate_bits(ctx, 5 + log2(g.warp_strides[axis]), warps)
    spaced = [s * warps for s in strides]  # element e's partial of warp w: e * warps + w
    for key, values in partial.items():
        at = ctx.value(arith.AddiOp(ctx.linear_offset(g, key, spaced), warp_idx))
        at_index = ctx.value(arith.IndexCastOp(at, IndexType()))
        for buf, value in zip(bufs, values, strict=True):
            ctx.emit(memref.StoreOp.get(value, buf, [at_index]))
    ctx.emit(gpu.BarrierOp())
    _combine_spread(ctx, op, bufs, warps * numel, warps, next(iter(partial.values())))
    ctx.emit(gpu.BarrierOp())
    out: dict[Key, list[SSAValue]] = {}
    for key in partial:
        at_index = ctx.linear_index(g, key, spaced)
        out[key] = [ctx.value(memref.LoadOp.get(buf, [at_index])) for buf in bufs]
    ctx.emit(gpu.BarrierOp())
    return out


def _combine_spread(
    ctx: LoweringContext,
    op: tt.ReduceOp,
    bufs: Sequence[SSAValue],
    total: int,
    warps: int,
    spare: Sequence[SSAValue],
) -> None:
    """Each thread combines slots ``thread_id + k * threads`` with its group of ``warps``
    lanes and writes the result back to its slots (slot ``e * warps`` then holds element
    ``e``'s result). Where there are fewer slots than threads, the threads past ``total``
    read nothing and write nothing: they shuffle ``spare`` values (of the operands' types)."""
    threads = ctx.num_warps * WARP_SIZE
    offsets = [1 << b for b in range(log2(warps))]
    busy = None
    if total < threads:
        busy = ctx.value(arith.CmpiOp(ctx.thread_id, ctx.i32(total), "ult"))
    for first in range(0, max(total, threads), threads):
        slot = ctx.value(arith.AddiOp(ctx.thread_id, ctx.i32(first))) if first else ctx.thread_id
        at = ctx.value(arith.IndexCastOp(slot, IndexType()))
        loads = Block()
        with ctx.inside(loads):
            values = [ctx.value(memref.LoadOp.get(buf, [at])) for buf in bufs]
        if busy is None:
            guarded(ctx, None, loads)
        else:
            with ctx.inside(loads):
                ctx.emit(scf.YieldOp(*values))
            idle = Block([scf.YieldOp(*spare)])
            read = ctx.emit(scf.IfOp(busy, [v.type for v in values], [loads], [idle]))
            values = list(read.results)
        group: dict[Key, list[SSAValue]] = {(): values}
        butterfly(ctx, op, group, offsets)
        stores = Block()
        with ctx.inside(stores):
            for buf, value in zip(bufs, group[()], strict=True):
                ctx.emit(memref.StoreOp.get(value, buf, [at]))
        guarded(ctx, busy, stores)
