"""Lowering of a tensor-core ``tt.dot`` (``mma_policy``): stage both operands in shared memory,
then per K step load each warp's A and B fragments and issue one ``nvvm.mma.sync`` per 16 x 8
accumulator tile.

The accumulator's blocked layout (``mma_policy``) gives lane ``4g + q`` of warp ``(wm_i, wn_i)``
rows ``8 wm_i + g + 8 wm r`` and columns ``8 wn_i + 2q + 8 wn c`` (+1): instruction tile
``(i, j)`` takes row repetitions ``2i`` and ``2i + 1`` as its fragment rows ``g`` and ``g + 8``
and column repetition ``j`` as its 8 columns. Its A fragment therefore reads rows
``base_row + 8 wm (2i + h)``, its B fragment column ``8 wn_i + g + 8 wn j``; the K positions
of each register follow the PTX ISA (``upstream_nvvm``). Every address is a per-thread base
(computed once) plus a constant, plus the K step's offset.

Fragment registers come from ``nvvm.ldmatrix`` (its matrices are 8 rows of 16 bytes: 8 f16 or
bf16, 4 tf32, 16 int8 elements; a lane's register is 4 bytes of one row): A (K-contiguous),
four registers (one tile) per ``x4``; B two tiles per ``x4`` (``x2`` for an odd last one),
transposed (``.trans``) from an N-contiguous f16/bf16 staging, or as rows of B^T from a
K-contiguous tf32/int8 staging. Lanes ``8j`` to ``8j + 7`` address the rows of matrix ``j``,
the register the instruction fills in every lane.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith, gpu, llvm, memref, scf
from xdsl.dialects.builtin import IndexType, i32, i64
from xdsl.ir import Attribute, Block, SSAValue

from mytriton.dialects.nvgpu.nvvm import SHARED_POINTER, LdMatrixOp, MmaForm, MmaSyncOp
from mytriton.dialects.nvgpu.ptx_mma import Fp8MmaSyncOp
from mytriton.dialects.tt import core as tt
from mytriton.dialects.tt.types import element_type, shape_of
from mytriton.dialects.ttg.geometry import Geometry
from mytriton.dialects.ttg.layouts import SharedLayoutAttr
from mytriton.passes.gpu_lowering.context import LoweringContext
from mytriton.passes.gpu_lowering.fp8 import register_type
from mytriton.passes.gpu_lowering.op_builders import extract_value, gep
from mytriton.passes.ttg.mma_policy import FP8_FORMS, M_TILE, N_TILE

index = IndexType()


Source = tuple[SSAValue, SSAValue | int]  # a shared buffer, the element offset of a tile in it


def lower_mma_dot(
    ctx: LoweringContext,
    op: tt.DotOp,
    form: MmaForm,
    warps: tuple[int, int],
    a_src: Source,
    b_src: Source,
    layouts: tuple[SharedLayoutAttr, SharedLayoutAttr],
    barrier: bool,
) -> None:
    """Replace ``op`` by MMAs over its operands in shared memory (A and B at ``a_src`` and
    ``b_src``, laid out as ``layouts``); ``barrier``: end with one, so the operands' buffer may
    be rewritten at once (the dot's staging buffer)."""
    (m, k), n = shape_of(op.a.type), shape_of(op.b.type)[1]
    wm, wn = warps
    k_step = form.shape[2]
    sa_m, sa_k = layouts[0].strides((m, k))
    sb_k, sb_n = layouts[1].strides((k, n))
    c_g = ctx.geometry(op.acc.type)
    m_tiles, n_tiles = m // (M_TILE * wm), n // (N_TILE * wn)
    b_trans = layouts[1].dim_order[0] == 1  # N-contiguous: read transposed
    strides = (sa_m, sa_k, sb_k, sb_n)
    a_lane, b_lane = _lane_offsets(ctx, c_g, warps, k_step // 2, strides, b_trans)
    a_base, a_lane = _source(ctx, a_src, a_lane)
    b_base, b_lane = _source(ctx, b_src, b_lane)
    element = register_type(element_type(op.a.type))  # an fp8 as its byte

    acc = ctx.get(op.acc)
    body = Block(arg_types=[i32, *(v.type for v in acc)])
    kk, carried = body.args[0], list(body.args[1:])
    with ctx.inside(body):
        a_at = ctx.value(arith.AddiOp(a_lane, ctx.value(arith.MuliOp(kk, ctx.i32(sa_k)))))
        b_at = ctx.value(arith.AddiOp(b_lane, ctx.value(arith.MuliOp(kk, ctx.i32(sb_k)))))
        a_frags = [
            _ldmatrix(ctx, form, a_base, element, a_at, 2 * i * 8 * wm * sa_m, 4, False)
            for i in range(m_tiles)
        ]
        b_frags: list[list[SSAValue]] = []
        for j in range(0, n_tiles, 2):  # two tiles per x4 (x2 for an odd last one)
            count = 4 if j + 1 < n_tiles else 2
            offset = j * N_TILE * wn * sb_n
            pair = _ldmatrix(ctx, form, b_base, element, b_at, offset, count, b_trans)
            b_frags.extend(pair[t : t + 2] for t in range(0, count, 2))
        ctx.emit(scf.YieldOp(*_mmas(ctx, op, form, warps, c_g, a_frags, b_frags, carried)))
    loop = ctx.emit(scf.ForOp(ctx.i32(0), ctx.i32(k), ctx.i32(k_step), acc, body))
    if barrier:
        ctx.emit(gpu.BarrierOp())
    ctx.set(op.result, list(loop.results))


def _lane_offsets(
    ctx: LoweringContext,
    c_g: Geometry,
    warps: tuple[int, int],
    half: int,
    strides: tuple[int, int, int, int],
    b_trans: bool,
) -> tuple[SSAValue, SSAValue]:
    """This thread's element offsets, in A's and B's tiles, of the row its lane gives
    ``ldmatrix`` (lane ``8j + r`` gives row ``r`` of matrix ``j``), at the kernel entry;
    ``half``: the K distance between a fragment's register halves, ``strides``: A's along M
    and K, B's along K and N."""
    wm, wn = warps
    sa_m, sa_k, sb_k, sb_n = strides
    lane = ctx.at_entry(arith.AndIOp(ctx.thread_id, ctx.i32(31)))
    row = ctx.at_entry(arith.AndIOp(lane, ctx.i32(7)))
    matrix = ctx.at_entry(arith.ShRUIOp(lane, ctx.i32(3)))
    low_bit = ctx.at_entry(arith.AndIOp(matrix, ctx.i32(1)))
    high_bit = ctx.at_entry(arith.ShRUIOp(matrix, ctx.i32(1)))
    # A matrix j: rows 8 wm (2i + j % 2) + 8 wm_i + r, K from half * (j // 2)
    a_row = _plus(ctx, _times(ctx, ctx.warp(c_g, 0), 8), row)
    a_row = _plus(ctx, a_row, _times(ctx, low_bit, 8 * wm))
    a_lane = _plus(ctx, _times(ctx, a_row, sa_m), _times(ctx, high_bit, half * sa_k))
    b_col = _plus(ctx, _times(ctx, ctx.warp(c_g, 1), 8), _times(ctx, high_bit, 8 * wn))
    if b_trans:  # B matrix j: K rows 8 (j % 2) + r, the 8 columns of tile j // 2
        b_k = _plus(ctx, row, _times(ctx, low_bit, 8))
        b_lane = _plus(ctx, _times(ctx, b_k, sb_k), _times(ctx, b_col, sb_n))
    else:  # B^T matrix j: column r of tile j // 2 as a row, K from half * (j % 2)
        b_n = _plus(ctx, b_col, row)
        b_lane = _plus(ctx, _times(ctx, b_n, sb_n), _times(ctx, low_bit, half * sb_k))
    return a_lane, b_lane


def _mmas(
    ctx: LoweringContext,
    op: tt.DotOp,
    form: MmaForm,
    warps: tuple[int, int],
    c_g: Geometry,
    a_frags: Sequence[list[SSAValue]],
    b_frags: Sequence[list[SSAValue]],
    carried: Sequence[SSAValue],
) -> list[SSAValue]:
    """One K step's MMAs, one per 16 x 8 accumulator tile ``(i, j)`` (A fragment ``i``, B
    fragment ``j``), over the accumulator registers ``carried``: the registers after them."""
    wm, wn = warps
    position = {reg: i for i, reg in enumerate(c_g.registers)}
    b_form = FP8_FORMS.get(element_type(op.b.type))  # fp8: ``ptx.mma.sync``, B either format
    updated: list[SSAValue] = list(carried)
    for i, a_frag in enumerate(a_frags):
        for j, b_frag in enumerate(b_frags):
            regs = [
                position[((2 * i + h) * 8 * wm, j * N_TILE * wn + e)]
                for h in (0, 1)
                for e in (0, 1)
            ]
            c = [updated[r] for r in regs]
            mma = ctx.value(
                Fp8MmaSyncOp(form, b_form, a_frag, b_frag, c)
                if b_form is not None
                else MmaSyncOp(form, a_frag, b_frag, c)
            )
            for field, r in enumerate(regs):
                updated[r] = ctx.value(extract_value(mma, field, form.accumulator))
    return updated


def _source(ctx: LoweringContext, src: Source, lane: SSAValue) -> tuple[SSAValue, SSAValue]:
    """The buffer's pointer and this lane's element offset in it: a constant tile offset is
    added at the kernel entry, a run-time one (a pipeline stage) where the dot is."""
    buf, offset = src
    if isinstance(offset, int):
        return memref_pointer(ctx, buf), lane if offset == 0 else _plus(ctx, lane, ctx.i32(offset))
    return memref_pointer(ctx, buf), ctx.value(arith.AddiOp(lane, offset))


def memref_pointer(ctx: LoweringContext, buf: SSAValue) -> SSAValue:
    """The ``!llvm.ptr<3>`` of a shared buffer's first element, at the kernel entry, once
    (upstream's way from a ``memref`` to a pointer: its aligned address as an index, then
    ``inttoptr``)."""
    wide = shared_address(ctx, buf)
    key = ("shared_pointer", wide)
    if key not in ctx._derived:  # once per buffer
        ptr = llvm.IntToPtrOp.build(operands=[wide], result_types=[SHARED_POINTER])
        ctx._derived[key] = ctx.at_entry(ptr)
    return ctx._derived[key]


def shared_address(ctx: LoweringContext, buf: SSAValue) -> SSAValue:
    """The shared-window address (i64) of a shared buffer's first element, at the kernel
    entry, once per buffer."""
    get = buf.owner
    assert isinstance(get, memref.GetGlobalOp)
    name = get.name_.root_reference.data
    key = ("shared_address", name)
    if key not in ctx._derived:
        ref = ctx.at_entry(memref.GetGlobalOp(name, get.memref.type))
        address = ctx.at_entry(memref.ExtractAlignedPointerAsIndexOp.get(ref))
        ctx._derived[key] = ctx.at_entry(arith.IndexCastOp(address, i64))
    return ctx._derived[key]


def _times(ctx: LoweringContext, v: SSAValue, c: int) -> SSAValue:
    if c == 1:
        return v
    return ctx.at_entry(arith.MuliOp(v, ctx.i32(c)))


def _plus(ctx: LoweringContext, a: SSAValue, b: SSAValue) -> SSAValue:
    return ctx.at_entry(arith.AddiOp(a, b))


def _ldmatrix(
    ctx: LoweringContext,
    form: MmaForm,
    base: SSAValue,
    element: Attribute,
    at: SSAValue,
    offset: int,
    count: int,
    transposed: bool,
) -> list[SSAValue]:
    """``count`` fragment registers by one ``ldmatrix``: this lane's row at element ``at +
    offset`` of the buffer at ``base``."""
    address = at if offset == 0 else ctx.value(arith.AddiOp(at, ctx.i32(offset)))
    row = ctx.value(gep(base, address, element, SHARED_POINTER))
    loaded = ctx.value(LdMatrixOp(row, count, transposed))
    out = []
    for field in range(count):
        reg = ctx.value(extract_value(loaded, field, i32))
        out.append(ctx.value(llvm.BitcastOp(reg, form.register)) if form.register != i32 else reg)
    return out
