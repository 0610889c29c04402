"""Lowering of ``tt.scan``: registers, then a warp scan with shuffles, then shared memory.

Along the axis a block splits into *chunks* of one layout tile (``sizePerThread * lanes *
warps`` elements; one chunk when the block is no longer than the tile). Within a chunk, a
thread owns ``sizePerThread`` consecutive elements, lanes come in order, then warps. With
``reverse`` every position is mirrored (the last element is the first one scanned).

1. Each thread scans its own elements of each chunk, sequentially.
2. Hillis-Steele over the lanes that own distinct elements along the axis: ``log2(lanes)``
   rounds of ``gpu.shuffle up`` (``down`` when reversed) of each thread's chunk total, a lane
   combining what it receives only when the sender is ``k`` positions before it (replicated
   lanes and lanes of other lines are masked out by their position). Then the inclusive total
   of the lane before (one more shuffle) is combined into each of the thread's elements.
3. If several warps or chunks split the axis, the last lane of each warp stores its chunk's
   warp total in shared memory; after a barrier each thread combines, in scan order, the totals
   of every earlier (chunk, warp) and combines that carry into its elements; a second barrier
   lets the buffer be reused.

``combine(earlier, later)`` keeps the scan order, so a non-commutative associative combine
function gives the sequential result.
"""

from __future__ import annotations

from xdsl.dialects import arith, gpu, memref, scf
from xdsl.dialects.builtin import IndexType
from xdsl.ir import Block, Operation, SSAValue

from mytriton.dialects.nvgpu.upstream import ShuffleMode
from mytriton.dialects.tt import core as tt
from mytriton.dialects.tt.types import element_type
from mytriton.dialects.ttg.geometry import Geometry, log2
from mytriton.passes.gpu_lowering.context import LoweringContext
from mytriton.passes.gpu_lowering.reduce import (
    WARP_SIZE,
    Key,
    combine,
    coordinate_bits,
    result_strides,
    shuffle,
)
from mytriton.passes.gpu_lowering.rules import lowers


def _select(
    ctx: LoweringContext, cond: SSAValue, a: list[SSAValue], b: list[SSAValue]
) -> list[SSAValue]:
    return [ctx.value(arith.SelectOp(cond, x, y)) for x, y in zip(a, b, strict=True)]


def _position(ctx: LoweringContext, shift: int, count: int, reverse: bool) -> SSAValue:
    """This thread's lane (warp) position along the axis, in scan order."""
    coord = coordinate_bits(ctx, shift, count)
    if not reverse:
        return coord
    return ctx.value(arith.SubiOp(ctx.i32(count - 1), coord))


@lowers(tt.ScanOp)
class LowerScan:
    def lower(self, ctx: LoweringContext, op: Operation) -> None:
        assert isinstance(op, tt.ScanOp)
        g = ctx.geometry(op.srcs[0].type)
        axis = g.kept[op.axis.value.data]
        reverse = op.is_reverse
        srcs = [ctx.get(s) for s in op.srcs]
        out = [list(s) for s in srcs]
        tile = g.tile(axis)
        chunks = max(1, g.full_shape[axis] // tile)

        # registers by line (the coordinates off the axis) and chunk, in scan order
        groups: dict[Key, dict[int, list[int]]] = {}
        for i, reg in enumerate(g.registers):
            key = tuple(0 if d == axis else x for d, x in enumerate(reg))
            chunk = reg[axis] // tile if chunks > 1 else 0
            if reverse:
                chunk = chunks - 1 - chunk
            groups.setdefault(key, {}).setdefault(chunk, []).append(i)
        for by_chunk in groups.values():
            for regs in by_chunk.values():
                regs.sort(key=lambda i: g.registers[i][axis], reverse=reverse)

        def values(i: int) -> list[SSAValue]:
            return [o[i] for o in out]

        def assign(i: int, vs: list[SSAValue]) -> None:
            for o, v in zip(out, vs, strict=True):
                o[i] = v

        # 1. within the thread
        totals: dict[tuple[Key, int], list[SSAValue]] = {}
        for key, by_chunk in groups.items():
            for chunk, regs in by_chunk.items():
                running: list[SSAValue] | None = None
                for i in regs:
                    running = values(i) if running is None else combine(ctx, op, running, values(i))
                    assign(i, running)
                assert running is not None
                totals[(key, chunk)] = running

        # 2. across the lanes of a warp
        lanes = g.distinct_lanes(axis)
        lane_pos: SSAValue | None = None
        if lanes > 1:
            stride = g.lane_strides[axis]
            lane_pos = _position(ctx, log2(stride), lanes, reverse)
            mode = ShuffleMode.DOWN if reverse else ShuffleMode.UP
            width = ctx.i32(WARP_SIZE)
            for k in [1 << b for b in range(log2(lanes))]:
                off = ctx.i32(k * stride)
                receives = ctx.value(arith.CmpiOp(lane_pos, ctx.i32(k), "sge"))
                for at, total in totals.items():
                    before = [shuffle(ctx, v, off, width, mode) for v in total]
                    totals[at] = _select(ctx, receives, combine(ctx, op, before, total), total)
            off = ctx.i32(stride)
            has_before = ctx.value(arith.CmpiOp(lane_pos, ctx.i32(0), "ne"))
            for (key, chunk), total in totals.items():
                before = [shuffle(ctx, v, off, width, mode) for v in total]
                for i in groups[key][chunk]:
                    assign(
                        i, _select(ctx, has_before, combine(ctx, op, before, values(i)), values(i))
                    )

        # 3. across warps and chunks, through shared memory
        warps = g.distinct_warps(axis)
        if warps > 1 or chunks > 1:
            self._carry(ctx, op, g, axis, warps, chunks, lanes, lane_pos, groups, totals, out)

        for result, registers in zip(op.results, out, strict=True):
            ctx.set(result, registers)

    def _carry(
        self,
        ctx: LoweringContext,
        op: tt.ScanOp,
        g: Geometry,
        axis: int,
        warps: int,
        chunks: int,
        lanes: int,
        lane_pos: SSAValue | None,
        groups: dict[Key, dict[int, list[int]]],
        totals: dict[tuple[Key, int], list[SSAValue]],
        out: list[list[SSAValue]],
    ) -> None:
        """Step 3: slot ``(chunk * warps + warp) * numel + line`` holds a warp's chunk total."""
        reverse = op.is_reverse
        strides, numel = result_strides(g, axis)
        segments = chunks * warps
        bufs = [
            ctx.shared_buffer(element_type(s.type), segments * numel, local=True) for s in op.srcs
        ]
        warp_pos = (
            _position(ctx, 5 + log2(g.warp_strides[axis]), warps, reverse)
            if warps > 1
            else ctx.i32(0)
        )

        # the last lane of the warp holds the warp's total of each chunk
        def store_totals() -> None:
            base = ctx.i32(0)
            if warps > 1:
                base = ctx.value(arith.MuliOp(warp_pos, ctx.i32(numel)))
            for (key, chunk), total in totals.items():
                seg = base
                if chunk:
                    first = ctx.i32(chunk * warps * numel)
                    seg = ctx.value(arith.AddiOp(base, first)) if warps > 1 else first
                at = ctx.value(
                    arith.AddiOp(
                        ctx.value(arith.IndexCastOp(seg, IndexType())),
                        ctx.linear_index(g, key, strides),
                    )
                )
                for buf, v in zip(bufs, total, strict=True):
                    ctx.emit(memref.StoreOp.get(v, buf, [at]))

        if lane_pos is None:
            store_totals()
        else:
            block = Block()
            with ctx.inside(block):
                store_totals()
                ctx.emit(scf.YieldOp())
            last = ctx.value(arith.CmpiOp(lane_pos, ctx.i32(lanes - 1), "eq"))
            ctx.emit(scf.IfOp(last, [], [block]))
        ctx.emit(gpu.BarrierOp())

        self._apply_carries(ctx, op, g, warps, chunks, warp_pos, bufs, groups, out, strides, numel)
        ctx.emit(gpu.BarrierOp())

    def _apply_carries(
        self,
        ctx: LoweringContext,
        op: tt.ScanOp,
        g: Geometry,
        warps: int,
        chunks: int,
        warp_pos: SSAValue,
        bufs: list[SSAValue],
        groups: dict[Key, dict[int, list[int]]],
        out: list[list[SSAValue]],
        strides: list[int],
        numel: int,
    ) -> None:
        """Step 3, second half: each element combines the totals of the warps (and chunks)
        before its own into its inclusive scan (``strides``, ``numel``: ``_carry``'s slots)."""
        for key, by_chunk in groups.items():
            lin = ctx.linear_index(g, key, strides)
            earlier: list[SSAValue] | None = None  # all segments of the chunks before
            for chunk in range(chunks):
                loaded = []
                needed = warps if chunk + 1 < chunks else warps - 1  # the last: nobody after
                for w in range(needed):
                    s = (chunk * warps + w) * numel
                    idx = lin if s == 0 else ctx.value(arith.AddiOp(lin, ctx.index(s)))
                    loaded.append([ctx.value(memref.LoadOp.get(buf, [idx])) for buf in bufs])
                # the carry into this warp: `earlier`, then the warps before it in this chunk
                carry = earlier
                valid: SSAValue | None = None  # None: always (a chunk before exists)
                for w in range(warps - 1):
                    after_w = ctx.value(arith.CmpiOp(warp_pos, ctx.i32(w), "sgt"))
                    if carry is None:
                        carry, valid = loaded[w], after_w
                    else:
                        carry = _select(ctx, after_w, combine(ctx, op, carry, loaded[w]), carry)
                if carry is not None and chunk in by_chunk:
                    for i in by_chunk[chunk]:
                        vs = [o[i] for o in out]
                        new = combine(ctx, op, carry, vs)
                        if valid is not None:
                            new = _select(ctx, valid, new, vs)
                        for o, v in zip(out, new, strict=True):
                            o[i] = v
                if chunk + 1 < chunks:
                    for seg in loaded:
                        earlier = seg if earlier is None else combine(ctx, op, earlier, seg)
