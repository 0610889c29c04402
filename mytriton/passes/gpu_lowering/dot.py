"""Lowering of ``tt.dot``, per the instruction its ``ttg.mma`` names (``ttg-accelerate-matmul``):
none, stage both operands in shared memory, then a register-tile FMA loop; ``versionMajor = 2``,
``dot_mma``'s warp MMAs; ``3``, ``dot_wgmma``'s warpgroup MMAs.

Every thread stores the operand elements it owns (so any pointer expression that produced them
works; edge tiles are already zero-filled by the loads' masks), a barrier, then a loop over K in
which each thread reads the A column entries of its accumulator rows and the B row entries of its
accumulator columns and updates its whole register tile with FMAs. A final barrier lets the
buffers be rewritten by the next iteration of an enclosing K loop. The staging order of each
operand comes from the ``ttg.lhs_shared``/``ttg.rhs_shared`` layouts chosen by layout assignment.

Operands are staged in the type the loop multiplies in: i8 widened to i32 (wrapping i32
multiply-adds, exact like Triton's int8 dot), f16 widened to f32, f32 and f64 as they are. An f16
accumulator (hand-written ``tt`` only: the frontend's ``out_dtype=tl.float16`` is an f32 dot
rounded once) is carried as f16 and each step is an f32 FMA rounded back to f16, as Triton's FMA
dot on f16 accumulates.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects import arith, func, gpu, math, memref, scf, vector
from xdsl.dialects.builtin import (
    IndexType,
    IntegerAttr,
    IntegerType,
    VectorType,
    f16,
    f32,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue

from mytriton.dialects.nvgpu.nvvm import MmaForm
from mytriton.dialects.tt import core as tt
from mytriton.dialects.tt.fp8 import format_of, is_fp8
from mytriton.dialects.tt.types import byte_size, element_type, shape_of
from mytriton.dialects.ttg.async_dot import is_async_dot
from mytriton.dialects.ttg.geometry import Geometry
from mytriton.dialects.ttg.layouts import SharedLayoutAttr
from mytriton.dialects.ttg.mma import dot_mma, is_warpgroup_mma, staged_layout
from mytriton.dialects.ttg.nvmma import NvmmaSharedLayoutAttr
from mytriton.dialects.ttg.shared import LocalLoadOp, MemDescType, SharedEncoding, tile_alignment
from mytriton.passes.analysis.axis_info import MAX_VECTOR_BYTES
from mytriton.passes.gpu_lowering import fp8
from mytriton.passes.gpu_lowering.context import LoweringContext
from mytriton.passes.gpu_lowering.dot_mma import Source, lower_mma_dot
from mytriton.passes.gpu_lowering.dot_wgmma import async_proxy_fence, lower_wgmma_dot
from mytriton.passes.gpu_lowering.op_builders import vector_insert
from mytriton.passes.gpu_lowering.rules import lowers
from mytriton.passes.gpu_lowering.shared_layouts import (
    contiguous_run,
    strided_run,
    tile_offset,
)
from mytriton.passes.ttg.mma_policy import tensor_core_dot, wgmma_register_a

index = IndexType()


STAGING_ORDERS = ((0, 1), (1, 0))  # per operand (A, B), where layout assignment chose none


def _staging(op: tt.DotOp, operand: int) -> SharedEncoding:
    return staged_layout(op, operand) or SharedLayoutAttr(STAGING_ORDERS[operand])


def tile_operand(op: tt.DotOp, operand: int) -> LocalLoadOp | None:
    """The ``ttg.local_load`` whose tile a tensor-core dot reads operand ``operand`` (0: A,
    1: B) from directly, instead of staging its registers: a tile laid out as the dot stages
    that operand (what ``ttg-pipeline`` makes)."""
    if operand not in (0, 1):
        return None
    read = op.operands[operand].owner
    if not isinstance(read, LocalLoadOp) or not isinstance(read.src.type, MemDescType):
        return None
    if read.src.type.layout != _staging(op, operand) or dot_mma(op) is None:
        return None
    return read


@dataclass(frozen=True)
class StagingPlan:
    """Where a dot's operands go in shared memory: A at element 0 of its type's staging buffer,
    B at ``b_offset`` (16-byte aligned), ``total`` elements in all. An operand read from its
    own tile (``tile_operand``; ``a_tile``/``b_tile``) takes no room."""

    compute: Attribute  # the staged element type
    tensor_cores: tuple[MmaForm, tuple[int, int]] | None  # ``mma_policy.tensor_core_dot``
    a_layout: SharedEncoding
    b_layout: SharedEncoding
    a_strides: list[int]
    b_strides: list[int]
    b_offset: int
    total: int
    a_tile: bool = False
    b_tile: bool = False
    a_registers: bool = False  # a warpgroup MMA takes A from registers (``wgmma_register_a``)


def staging_plan(op: tt.DotOp) -> StagingPlan:
    a_shape, b_shape = shape_of(op.a.type), shape_of(op.b.type)
    (m, k), n = a_shape[-2:], b_shape[-1]
    batch = a_shape[:-2]  # () or (B,): each batch element is a matrix staged after another
    a_layout, b_layout = _staging(op, 0), _staging(op, 1)
    a_tile, b_tile = tile_operand(op, 0) is not None, tile_operand(op, 1) is not None
    a_registers = is_warpgroup_mma(op) and wgmma_register_a(op)
    a_size = 0 if a_tile or a_registers else a_layout.size((m, k))
    b_size = 0 if b_tile else b_layout.size((k, n))
    nb = batch[0] if batch else 1
    # tensor cores read the operands in their own type (an fp8 as its byte)
    tensor_cores = tensor_core_dot(op)
    if tensor_cores:
        compute = fp8.register_type(element_type(op.a.type))
    else:
        compute = _compute_type(element_type(op.acc.type))
    align = max(1, tile_alignment(a_layout) // byte_size(compute))
    b_offset = -(-nb * a_size // align) * align
    return StagingPlan(
        compute,
        tensor_cores,
        a_layout,
        b_layout,
        _strides(a_layout, (m, k), a_size, batch),
        _strides(b_layout, (k, n), b_size, batch),
        b_offset,
        b_offset + nb * b_size,
        a_tile,
        b_tile,
        a_registers,
    )


def _strides(
    layout: SharedEncoding, shape: tuple[int, int], size: int, batch: Sequence[int]
) -> list[int]:
    """The element strides of a staged operand (batch matrices one after another); none for a
    swizzled tile, which is no strided layout (``shared_layouts.tile_offset`` places it)."""
    if isinstance(layout, NvmmaSharedLayoutAttr):
        return []
    return [*(size for _ in batch), *layout.strides(shape)]


def staging_buffer(ctx: LoweringContext, op: tt.DotOp, plan: StagingPlan) -> SSAValue:
    """The kernel's staging buffer of ``plan.compute``: one for all its dots of that type,
    sized for the largest (``scratch_buffer``'s contract: each dot ends with a barrier after
    its last read, so the next may write at once)."""
    if ctx.dot_staging is None:
        fn = op.parent_op()
        while fn is not None and not isinstance(fn, func.FuncOp):
            fn = fn.parent_op()
        assert fn is not None
        sizes: dict[Attribute, tuple[int, int]] = {}
        for dot in fn.walk():
            if isinstance(dot, tt.DotOp):
                other = staging_plan(dot)
                if other.total:
                    size, align = sizes.get(other.compute, (0, MAX_VECTOR_BYTES))
                    align = max(align, tile_alignment(other.a_layout))
                    sizes[other.compute] = (max(size, other.total), align)
        ctx.dot_staging = sizes
    size, align = ctx.dot_staging[plan.compute]
    # an asynchronous warpgroup MMA may read its staged operand past its op: live to the end
    local = not any(isinstance(d, tt.DotOp) and is_async_dot(d) for d in ctx.source.walk())  # type: ignore[union-attr]
    return ctx.scratch_buffer(plan.compute, size, align, local)


@lowers(tt.DotOp)
class LowerDot:
    def lower(self, ctx: LoweringContext, op: Operation) -> None:
        assert isinstance(op, tt.DotOp)
        a_shape = shape_of(op.a.type)
        k, batch = a_shape[-1], a_shape[:-2]
        plan = staging_plan(op)
        a_layout, b_layout = plan.a_layout, plan.b_layout
        a_strides, b_strides, compute = plan.a_strides, plan.b_strides, plan.compute
        tensor_cores = plan.tensor_cores
        if tensor_cores is not None and is_warpgroup_mma(op):
            self._lower_wgmma(ctx, op, plan, tensor_cores[1])
            return
        assert isinstance(a_layout, SharedLayoutAttr) and isinstance(b_layout, SharedLayoutAttr)
        if tensor_cores is not None and plan.a_tile and plan.b_tile:
            form, warps = tensor_cores
            a_src: Source = self._tile(ctx, op, 0)
            b_src: Source = self._tile(ctx, op, 1)
            lower_mma_dot(ctx, op, form, warps, a_src, b_src, (a_layout, b_layout), False)
            return
        buf = staging_buffer(ctx, op, plan)
        if not plan.a_tile:
            self.stage(ctx, op.a, compute, buf, 0, a_strides)
        if not plan.b_tile:
            self.stage(ctx, op.b, compute, buf, plan.b_offset, b_strides)
        ctx.emit(gpu.BarrierOp())
        if tensor_cores is not None:
            form, warps = tensor_cores
            staged_b: Source = (buf, plan.b_offset)
            a_src = self._tile(ctx, op, 0) if plan.a_tile else (buf, 0)
            b_src = self._tile(ctx, op, 1) if plan.b_tile else staged_b
            lower_mma_dot(ctx, op, form, warps, a_src, b_src, (a_layout, b_layout), True)
            return

        c_g = ctx.geometry(op.acc.type)
        # a register's A row (batch, m) and B column (batch, n), and their staged offsets
        nbatch = len(batch)

        def row_of(reg: tuple[int, ...]) -> tuple[int, ...]:
            return (*reg[:nbatch], reg[-2], 0)

        def col_of(reg: tuple[int, ...]) -> tuple[int, ...]:
            return (*reg[:nbatch], 0, reg[-1])

        row_strides = (*a_strides[:nbatch], a_strides[-2], 0)
        col_strides = (*b_strides[:nbatch], 0, b_strides[-1])
        row_offset = {
            r: ctx.linear_offset(c_g, r, row_strides) for r in {row_of(g) for g in c_g.registers}
        }
        col_offset = {
            c: ctx.linear_offset(c_g, c, col_strides) for c in {col_of(g) for g in c_g.registers}
        }
        acc = ctx.get(op.acc)

        def element(base: SSAValue, offset: SSAValue) -> SSAValue:
            address = ctx.value(arith.AddiOp(base, offset))
            return ctx.value(memref.LoadOp.get(buf, [ctx.value(arith.IndexCastOp(address, index))]))

        body = Block(arg_types=[i32, *(v.type for v in acc)])
        kk, carried = body.args[0], list(body.args[1:])
        with ctx.inside(body):
            a_k = ctx.value(arith.MuliOp(kk, ctx.i32(a_strides[-1])))
            b_k = ctx.value(arith.MuliOp(kk, ctx.i32(b_strides[-2])))
            if plan.b_offset:
                b_k = ctx.value(arith.AddiOp(b_k, ctx.i32(plan.b_offset)))
            a_vals = {o: element(a_k, off) for o, off in sorted(row_offset.items())}
            b_vals = {o: element(b_k, off) for o, off in sorted(col_offset.items())}
            updated = [
                _multiply_add(ctx, a_vals[row_of(reg)], b_vals[col_of(reg)], c)
                for reg, c in zip(c_g.registers, carried, strict=True)
            ]
            ctx.emit(scf.YieldOp(*updated))
        loop = ctx.emit(scf.ForOp(ctx.i32(0), ctx.i32(k), ctx.i32(1), acc, body))
        ctx.emit(gpu.BarrierOp())
        ctx.set(op.result, list(loop.results))

    def _lower_wgmma(
        self, ctx: LoweringContext, op: tt.DotOp, plan: StagingPlan, warps: tuple[int, int]
    ) -> None:
        """Warpgroup MMAs reading swizzled tiles: the pipeline's, or the operands' registers
        stored into the staging buffer (then a barrier, and one at the end so the buffer may
        be rewritten)."""
        assert isinstance(plan.a_layout, NvmmaSharedLayoutAttr)
        assert isinstance(plan.b_layout, NvmmaSharedLayoutAttr)
        staged = not ((plan.a_tile or plan.a_registers) and plan.b_tile)
        sources: list[Source | None] = []
        if staged:
            buf = staging_buffer(ctx, op, plan)
        for operand, (value, layout, at) in enumerate(
            ((op.a, plan.a_layout, 0), (op.b, plan.b_layout, plan.b_offset))
        ):
            if operand == 0 and plan.a_registers:
                sources.append(None)
            elif plan.a_tile if operand == 0 else plan.b_tile:
                sources.append(self._tile(ctx, op, operand))
            else:
                self.stage(ctx, value, plan.compute, buf, at, layout)
                sources.append((buf, at))
        if staged:
            async_proxy_fence(ctx)
            ctx.emit(gpu.BarrierOp())
        layouts = (plan.a_layout, plan.b_layout)
        b_src = sources[1]
        assert b_src is not None
        lower_wgmma_dot(ctx, op, warps, sources[0], b_src, layouts, staged)

    def _tile(self, ctx: LoweringContext, op: tt.DotOp, operand: int) -> tuple[SSAValue, SSAValue]:
        """The shared buffer and element offset of the tile operand ``operand`` is read from."""
        read = tile_operand(op, operand)
        assert read is not None
        buf, offset = ctx.get(read.src)
        return buf, offset

    def stage(
        self,
        ctx: LoweringContext,
        v: SSAValue,
        compute: Attribute,
        buf: SSAValue,
        offset: int,
        strides: Sequence[int] | SharedEncoding,
    ) -> None:
        """Store ``v``'s registers into ``buf`` from element ``offset`` on, laid out by
        ``strides`` (or as a tile of that shared encoding)."""
        g: Geometry = ctx.geometry(v.type)
        elem = element_type(v.type)
        values = [_widen(ctx, value, elem, compute) for value in ctx.get(v)]
        width = _store_width(g, strides, shape_of(v.type), compute)
        for run in g.register_runs(g.root.dim_order[0], width):
            at = run[0]
            reg = g.registers[at]
            if isinstance(strides, SharedEncoding):
                element = tile_offset(ctx, strides, shape_of(v.type), compute, g, reg)
                if offset:
                    element = ctx.value(arith.AddiOp(element, ctx.i32(offset)))
                where = [ctx.value(arith.IndexCastOp(element, index))]
            else:
                where = [ctx.linear_index(g, reg, strides, offset)]
            if width == 1:
                ctx.emit(memref.StoreOp.get(values[at], buf, where))
                continue
            t = VectorType(compute, [width])
            packed = ctx.value(vector.BroadcastOp(values[at], t))
            for e in range(1, width):
                packed = ctx.value(vector_insert(values[run[e]], packed, e, t))
            store = vector.StoreOp(packed, buf, where)
            store.attributes["alignment"] = IntegerAttr(width * byte_size(compute), i64)
            ctx.emit(store)


def _store_width(
    g: Geometry,
    strides: Sequence[int] | SharedEncoding,
    shape: Sequence[int],
    compute: Attribute,
) -> int:
    """How many registers of each thread go to shared memory as one vector store: its run of
    consecutive elements along the layout's fastest dimension (``Geometry.register_runs``), up
    to 16 bytes (of 8-, 16- or 32-bit elements, as every vector of the lowered IR), where the
    staging keeps the run contiguous and aligned (``strided_run`` for strides,
    ``contiguous_run`` for a tile)."""
    fastest = g.root.dim_order[0]
    per = min(g.root.spt[fastest], g.full_shape[fastest])
    size = byte_size(compute)
    width = min(per, MAX_VECTOR_BYTES // size)
    if size > 4 or width < 2 or per % width or g.full_shape[fastest] % width:
        return 1
    if len(g.kept) != g.root.rank:
        return 1  # a slice's registers
    if isinstance(strides, SharedEncoding):
        return contiguous_run(strides, shape, compute, width, fastest)
    return strided_run(strides, width, fastest)


def _compute_type(accumulator: Attribute) -> Attribute:
    """The type products are formed in: the accumulator's, f32 for an f16 accumulator."""
    return f32 if accumulator == f16 else accumulator


def _widen(ctx: LoweringContext, value: SSAValue, elem: Attribute, to: Attribute) -> SSAValue:
    """An operand element (of type ``elem``) in the compute type (i8 sign-extended, f16
    extended, an fp8 byte decoded; a tensor core's fp8 byte as it is)."""
    if value.type == to:
        return value
    if is_fp8(elem):  # into f32, an fp8 dot's compute type on CUDA cores
        assert to == f32
        return fp8.decode(ctx, value, format_of(elem))
    if isinstance(to, IntegerType):
        return ctx.value(arith.ExtSIOp(value, to))
    return ctx.value(arith.ExtFOp(value, to))


def _multiply_add(ctx: LoweringContext, a: SSAValue, b: SSAValue, c: SSAValue) -> SSAValue:
    """``c + a * b`` in ``c``'s type: an integer multiply-add, an FMA, or for an f16 ``c`` an f32
    FMA rounded to f16."""
    if isinstance(c.type, IntegerType):
        return ctx.value(arith.AddiOp(c, ctx.value(arith.MuliOp(a, b))))
    if c.type == f16:
        wide = ctx.value(math.FmaOp(a, b, ctx.value(arith.ExtFOp(c, f32))))
        return ctx.value(arith.TruncFOp(wide, f16))
    return ctx.value(math.FmaOp(a, b, c))
