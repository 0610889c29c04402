"""Lowering of the ops that move elements between positions (``tt_shape``): ``trans``,
``reshape``, ``join``, ``split``, ``cat`` and ``gather``, all through one shared-memory
*redistribution*.

Every thread stores the elements of the operand(s) it holds at their row-major position (operand
``i`` after the elements of the operands before it), a barrier, then every thread loads each
element of its result layout from the position it comes from, a barrier (so the buffer can be
written again, in a loop). The position of a result element is affine in its coordinates
(``sum(coord_d * stride_d) + offset``) for every op but ``gather``, which adds the index value
times the source's stride along the gathered axis. ``histogram`` stages its operand the same
way, then every thread loops over it counting the values of its own bins.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.dialects import arith, gpu, memref, scf
from xdsl.dialects.builtin import IndexType, IntegerType, Signedness, i32
from xdsl.ir import Attribute, Block, Operation, SSAValue

from mytriton.dialects.tt import shape as tt_shape
from mytriton.dialects.tt.types import element_type, is_bool, is_pointer, shape_of
from mytriton.dialects.ttg.geometry import Geometry, log2
from mytriton.dialects.ttg.layouts import WARP_SIZE, layout_of
from mytriton.errors import BackendError
from mytriton.passes.gpu_lowering.context import LoweringContext
from mytriton.passes.gpu_lowering.fp8 import register_type
from mytriton.passes.gpu_lowering.rules import lowers

index = IndexType()

#: the shared-memory position of one result register: ``(geometry, register, number) -> i32``
Position = Callable[[Geometry, tuple[int, ...], int], SSAValue]


def row_major(shape: Sequence[int]) -> list[int]:
    """Row-major strides of ``shape``."""
    strides = [0] * len(shape)
    s = 1
    for d in reversed(range(len(shape))):
        strides[d] = s
        s *= shape[d]
    return strides


def on_root(g: Geometry, strides: Sequence[int]) -> list[int]:
    """Strides of the block's own dimensions placed on the root dimensions of ``g``."""
    out = [0] * g.root.rank
    for d, s in zip(g.kept, strides, strict=True):
        out[d] = s
    return out


@dataclass(frozen=True)
class Affine:
    """Result element at coordinates ``c`` comes from position ``sum(c_d * strides[d]) +
    offset`` (a ``Position``, known at compile time for a given thread)."""

    ctx: LoweringContext
    strides: tuple[int, ...]
    offset: int = 0

    def __call__(self, g: Geometry, reg: tuple[int, ...], _: int) -> SSAValue:
        p = self.ctx.linear_offset(g, reg, on_root(g, self.strides))
        return self.ctx.value(arith.AddiOp(p, self.ctx.i32(self.offset))) if self.offset else p

    def of(self, coords: Sequence[int]) -> int:
        return sum(c * s for c, s in zip(coords, self.strides, strict=True)) + self.offset


def affine(ctx: LoweringContext, strides: Sequence[int], offset: int = 0) -> Affine:
    return Affine(ctx, tuple(strides), offset)


def thread_coords(g: Geometry, tid: int) -> list[tuple[int, ...]]:
    """The block coordinates of each register of thread ``tid`` (what ``LoweringContext.bases``
    computes at run time, here for one concrete thread)."""
    r = g.root
    base = []
    for d in range(r.rank):
        n = g.full_shape[d]
        lane = (tid >> log2(g.lane_strides[d])) & (r.tpw[d] - 1)
        warp = (tid >> (log2(WARP_SIZE) + log2(g.warp_strides[d]))) & (r.wpc[d] - 1)
        v = (warp * r.tpw[d] + lane) * r.spt[d]
        base.append(0 if n == 1 else (v & (n - 1) if g.tile(d) > n else v))
    return [tuple(base[d] + reg[d] for d in g.kept) for reg in g.registers]


def in_registers(
    ctx: LoweringContext, sources: Sequence[SSAValue], results: Sequence[tuple[SSAValue, Affine]]
) -> list[list[int]] | None:
    """Per result, the index (into the sources' registers, concatenated) of the register that
    holds each of its elements, when every thread holds them itself at the same register
    indices: the op is then a renaming of registers. None when some element lives in another
    thread (decided by enumerating the threads, once per set of types and positions: a sort's
    network asks the same question hundreds of times)."""
    for v in [*sources, *(r for r, _ in results)]:
        ctx.geometry(v.type)  # the layouts' warps are the kernel's
    moves = _register_moves(
        tuple(s.type for s in sources),
        tuple((r.type, p.strides, p.offset) for r, p in results),
        ctx.num_warps,
    )
    return None if moves is None else [list(m) for m in moves]


@functools.lru_cache(maxsize=4096)
def _register_moves(
    source_types: tuple[Attribute, ...],
    result_positions: tuple[tuple[Attribute, tuple[int, ...], int], ...],
    num_warps: int,
) -> tuple[tuple[int, ...], ...] | None:
    """``in_registers`` for sources and results of these types (a result's position: its
    row-major strides and offset in the sources)."""
    found: tuple[tuple[int, ...], ...] | None = None
    for tid in range(WARP_SIZE * num_warps):
        where: dict[int, int] = {}
        start = count = 0
        for t in source_types:
            g = _geometry(t)
            strides = row_major(shape_of(t))
            for j, c in enumerate(thread_coords(g, tid)):
                where.setdefault(
                    start + sum(x * y for x, y in zip(c, strides, strict=True)), count + j
                )
            start += tt_shape.numel(shape_of(t))
            count += g.num_registers
        moves = []
        for t, position_strides, offset in result_positions:
            held = [
                where.get(sum(x * y for x, y in zip(c, position_strides, strict=True)) + offset)
                for c in thread_coords(_geometry(t), tid)
            ]
            if any(h is None for h in held):
                return None
            moves.append(tuple(h for h in held if h is not None))
        if found is None:
            found = tuple(moves)
        elif tuple(moves) != found:
            return None
    return found


def _geometry(t: Attribute) -> Geometry:
    layout = layout_of(t)
    assert layout is not None  # checked by the caller (LoweringContext.geometry)
    return Geometry.of(layout, shape_of(t))


def _stored_type(t: Attribute) -> Attribute:
    if is_pointer(t):
        raise BackendError("moving blocks of pointers between threads is not supported")
    return i32 if is_bool(t) else register_type(element_type(t))


def stage(ctx: LoweringContext, sources: Sequence[SSAValue]) -> SSAValue:
    """Store ``sources`` at their row-major positions, one after the other, in a scratch
    buffer (booleans as i32), then a barrier; the caller's last access must be followed by a
    barrier too (the buffer is shared with the next user)."""
    t = sources[0].type
    stored = _stored_type(t)
    sizes = [tt_shape.numel(shape_of(s.type)) for s in sources]
    buf = ctx.scratch_buffer(stored, sum(sizes))
    start = 0
    for src, size in zip(sources, sizes, strict=True):
        g = ctx.geometry(src.type)
        strides = on_root(g, row_major(shape_of(src.type)))
        for reg, value in zip(g.registers, ctx.get(src), strict=True):
            at = ctx.linear_offset(g, reg, strides)
            if start:
                at = ctx.value(arith.AddiOp(at, ctx.i32(start)))
            v = ctx.value(arith.ExtUIOp(value, i32)) if is_bool(t) else value
            ctx.emit(memref.StoreOp.get(v, buf, [ctx.value(arith.IndexCastOp(at, index))]))
        start += size
    ctx.emit(gpu.BarrierOp())
    return buf


def redistribute(
    ctx: LoweringContext,
    sources: Sequence[SSAValue],
    results: Sequence[tuple[SSAValue, Position | Affine]],
) -> None:
    """Each result register gets the element at the position its ``Position`` computes (in
    the sources, row-major, one after the other): a renaming of registers when every thread
    holds the elements of its results already (``in_registers``), else through shared memory
    (store, barrier, load, barrier)."""
    t = sources[0].type
    if all(isinstance(p, Affine) for _, p in results):
        moves = in_registers(ctx, sources, results)  # type: ignore[arg-type]
        if moves is not None:
            regs = [r for src in sources for r in ctx.get(src)]
            for (result, _), held in zip(results, moves, strict=True):
                ctx.set(result, [regs[i] for i in held])
            return
    buf = stage(ctx, sources)
    for result, position in results:
        g = ctx.geometry(result.type)
        out = []
        for i, reg in enumerate(g.registers):
            at = ctx.value(arith.IndexCastOp(position(g, reg, i), index))
            v = ctx.value(memref.LoadOp.get(buf, [at]))
            if is_bool(t):
                v = ctx.value(arith.CmpiOp(v, ctx.i32(0), "ne"))
            out.append(v)
        ctx.set(result, out)
    ctx.emit(gpu.BarrierOp())


@lowers(tt_shape.TransOp)
class LowerTrans:
    """Result dimension ``i`` is source dimension ``order[i]``: its stride is that one's."""

    def lower(self, ctx: LoweringContext, op: Operation) -> None:
        assert isinstance(op, tt_shape.TransOp)
        src_strides = row_major(shape_of(op.src.type))
        strides = [src_strides[d] for d in op.permutation]
        redistribute(ctx, [op.src], [(op.result, affine(ctx, strides))])


@lowers(tt_shape.ReshapeOp, tt_shape.CatOp)
class LowerReshape:
    """Row-major positions are kept (``cat``: the operands are stored one after the other)."""

    def lower(self, ctx: LoweringContext, op: Operation) -> None:
        result = op.results[0]
        strides = row_major(shape_of(result.type))
        redistribute(ctx, list(op.operands), [(result, affine(ctx, strides))])


@lowers(tt_shape.JoinOp)
class LowerJoin:
    """Element ``(c, k)`` is element ``c`` of operand ``k`` (stored ``numel`` after operand 0)."""

    def lower(self, ctx: LoweringContext, op: Operation) -> None:
        assert isinstance(op, tt_shape.JoinOp)
        shape = shape_of(op.lhs.type)
        strides = [*row_major(shape), tt_shape.numel(shape)]
        redistribute(ctx, [op.lhs, op.rhs], [(op.result, affine(ctx, strides))])


@lowers(tt_shape.SplitOp)
class LowerSplit:
    """Half ``k`` at ``c`` is source element ``(c, k)``: position ``2 * row_major(c) + k``."""

    def lower(self, ctx: LoweringContext, op: Operation) -> None:
        assert isinstance(op, tt_shape.SplitOp)
        strides = [2 * s for s in row_major(shape_of(op.out_lhs.type))]
        redistribute(
            ctx,
            [op.src],
            [(op.out_lhs, affine(ctx, strides)), (op.out_rhs, affine(ctx, strides, 1))],
        )


@lowers(tt_shape.GatherOp)
class LowerGather:
    """The source position of result element ``c`` is ``c``'s with the coordinate along
    ``axis`` replaced by the index held in the same register of ``indices`` (same layout)."""

    def lower(self, ctx: LoweringContext, op: Operation) -> None:
        assert isinstance(op, tt_shape.GatherOp)
        src_strides = row_major(shape_of(op.src.type))
        axis_stride = src_strides[op.dim]
        strides = [0 if d == op.dim else s for d, s in enumerate(src_strides)]
        if ctx.geometry(op.indices.type) != ctx.geometry(op.result.type):
            raise BackendError(
                "internal lowering error: tt.gather indices not in the result layout"
            )
        indices = [_as_i32(ctx, v) for v in ctx.get(op.indices)]
        rest = affine(ctx, strides)

        def position(g: Geometry, reg: tuple[int, ...], i: int) -> SSAValue:
            along = indices[i]
            if axis_stride != 1:
                along = ctx.value(arith.MuliOp(along, ctx.i32(axis_stride)))
            return ctx.value(arith.AddiOp(rest(g, reg, i), along))

        redistribute(ctx, [op.src], [(op.result, position)])


def _as_i32(ctx: LoweringContext, v: SSAValue) -> SSAValue:
    """An index value as i32 (narrower ones sign-extended, wider ones truncated)."""
    t = v.type
    assert isinstance(t, IntegerType)
    width = t.width.data
    if width == 32:
        return v
    if width < 32:
        unsigned = t.signedness.data == Signedness.UNSIGNED
        return ctx.value((arith.ExtUIOp if unsigned else arith.ExtSIOp)(v, i32))
    return ctx.value(arith.TruncIOp(v, i32))


@lowers(tt_shape.HistogramOp)
class LowerHistogram:
    """The operand is staged in shared memory; a loop over its elements adds 1 to each of the
    thread's bins the element equals (no atomics: every thread counts its own bins)."""

    def lower(self, ctx: LoweringContext, op: Operation) -> None:
        assert isinstance(op, tt_shape.HistogramOp)
        buf = stage(ctx, [op.src])
        g = ctx.geometry(op.result.type)
        value_type = element_type(op.src.type)
        assert isinstance(value_type, IntegerType)
        bins = []
        for reg in g.registers:
            b = ctx.linear_offset(g, reg, on_root(g, [1]))
            if value_type != i32:
                b = ctx.value(arith.ExtSIOp(b, value_type))
            bins.append(b)
        zero = ctx.i32(0)
        body = Block(arg_types=[i32, *(i32 for _ in bins)])
        i, counts = body.args[0], list(body.args[1:])
        with ctx.inside(body):
            v = ctx.value(memref.LoadOp.get(buf, [ctx.value(arith.IndexCastOp(i, index))]))
            updated = []
            for b, count in zip(bins, counts, strict=True):
                hit = ctx.value(arith.ExtUIOp(ctx.value(arith.CmpiOp(v, b, "eq")), i32))
                updated.append(ctx.value(arith.AddiOp(count, hit)))
            ctx.emit(scf.YieldOp(*updated))
        n = tt_shape.numel(shape_of(op.src.type))
        loop = ctx.emit(scf.ForOp(zero, ctx.i32(n), ctx.i32(1), [zero] * len(bins), body))
        ctx.emit(gpu.BarrierOp())
        ctx.set(op.result, list(loop.results))
