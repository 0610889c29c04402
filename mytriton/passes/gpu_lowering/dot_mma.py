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

Registers are built from scalar shared-memory loads: two f16 into a ``vector<2xf16>``, two bf16
into an i32 (the lower K index in the low half), an f32's bits as an i32 (tf32).
"""

from __future__ import annotations

from xdsl.dialects import arith, gpu, llvm, memref, scf, vector
from xdsl.dialects.builtin import DenseArrayBase, IndexType, f32, i16, i32, i64
from xdsl.ir import Block, SSAValue

from mytriton.dialects import tt
from mytriton.dialects.tt_types import shape_of
from mytriton.dialects.ttg import SharedLayoutAttr
from mytriton.dialects.upstream_nvvm import F16_PAIR, MmaForm, MmaSyncOp
from mytriton.passes.gpu_lowering.context import LoweringContext
from mytriton.passes.mma_policy import M_TILE, N_TILE

index = IndexType()


def lower_mma_dot(
    ctx: LoweringContext,
    op: tt.DotOp,
    form: MmaForm,
    warps: tuple[int, int],
    staged: tuple[SSAValue, SSAValue],
    layouts: tuple[SharedLayoutAttr, SharedLayoutAttr],
) -> None:
    """Replace ``op`` by MMAs over the staged operands ``staged`` (laid out as ``layouts``)."""
    (m, k), n = shape_of(op.a.type), shape_of(op.b.type)[1]
    wm, wn = warps
    k_step = form.shape[2]
    sa_m, sa_k = layouts[0].strides((m, k))
    sb_k, sb_n = layouts[1].strides((k, n))
    c_g = ctx.geometry(op.acc.type)
    position = {reg: i for i, reg in enumerate(c_g.registers)}

    # per-thread bases: A row base_row, B column 8 wn_i + g; K position q * per_register
    g, q = ctx.lane(c_g, 0), ctx.lane(c_g, 1)
    base_row = ctx.bases(c_g)[0]
    col = ctx.at_entry(arith.AddiOp(ctx.at_entry(arith.MuliOp(ctx.warp(c_g, 1), ctx.i32(8))), g))
    k_lane = ctx.at_entry(arith.MuliOp(q, ctx.i32(form.per_register)))
    a_base = _plus(ctx, _times(ctx, base_row, sa_m), _times(ctx, k_lane, sa_k))
    b_base = _plus(ctx, _times(ctx, col, sb_n), _times(ctx, k_lane, sb_k))

    half = k_step // 2  # K distance between a fragment's register halves
    a_regs = [  # per m tile: per register, per element: constant offset
        [
            [
                (2 * i + r % 2) * 8 * wm * sa_m + (half * (r // 2) + e) * sa_k
                for e in range(form.per_register)
            ]
            for r in range(form.a_registers)
        ]
        for i in range(m // (M_TILE * wm))
    ]
    b_regs = [
        [
            [j * N_TILE * wn * sb_n + (half * r + e) * sb_k for e in range(form.per_register)]
            for r in range(form.b_registers)
        ]
        for j in range(n // (N_TILE * wn))
    ]

    acc = ctx.get(op.acc)
    body = Block(arg_types=[i32, *(v.type for v in acc)])
    kk, carried = body.args[0], list(body.args[1:])
    with ctx.inside(body):
        a_at = ctx.value(arith.AddiOp(a_base, ctx.value(arith.MuliOp(kk, ctx.i32(sa_k)))))
        b_at = ctx.value(arith.AddiOp(b_base, ctx.value(arith.MuliOp(kk, ctx.i32(sb_k)))))
        a_frags = [[_register(ctx, form, staged[0], a_at, r) for r in tile] for tile in a_regs]
        b_frags = [[_register(ctx, form, staged[1], b_at, r) for r in tile] for tile in b_regs]
        updated: list[SSAValue] = list(carried)
        for i, a_frag in enumerate(a_frags):
            for j, b_frag in enumerate(b_frags):
                regs = [
                    position[((2 * i + h) * 8 * wm, j * N_TILE * wn + e)]
                    for h in (0, 1)
                    for e in (0, 1)
                ]
                mma = ctx.value(MmaSyncOp(form, a_frag, b_frag, [updated[r] for r in regs]))
                for field, r in enumerate(regs):
                    updated[r] = ctx.value(
                        llvm.ExtractValueOp(DenseArrayBase.from_list(i64, [field]), mma, f32)
                    )
        ctx.emit(scf.YieldOp(*updated))
    loop = ctx.emit(scf.ForOp(ctx.i32(0), ctx.i32(k), ctx.i32(k_step), acc, body))
    ctx.emit(gpu.BarrierOp())
    ctx.set(op.result, list(loop.results))


def _times(ctx: LoweringContext, v: SSAValue, c: int) -> SSAValue:
    if c == 1:
        return v
    return ctx.at_entry(arith.MuliOp(v, ctx.i32(c)))


def _plus(ctx: LoweringContext, a: SSAValue, b: SSAValue) -> SSAValue:
    return ctx.at_entry(arith.AddiOp(a, b))


def _register(
    ctx: LoweringContext, form: MmaForm, buf: SSAValue, at: SSAValue, offsets: list[int]
) -> SSAValue:
    """One fragment register: its elements loaded from ``buf`` at ``at + offset``, packed."""
    elements = []
    for offset in offsets:
        address = at if offset == 0 else ctx.value(arith.AddiOp(at, ctx.i32(offset)))
        i = ctx.value(arith.IndexCastOp(address, index))
        elements.append(ctx.value(memref.LoadOp.get(buf, [i])))
    if form.ptx_type == "tf32":
        return ctx.value(arith.BitcastOp(elements[0], i32))
    if form.register == F16_PAIR:
        pair = ctx.value(vector.BroadcastOp(elements[0], F16_PAIR))
        return ctx.value(vector.InsertOp(elements[1], pair, [1]))
    low, high = (
        ctx.value(arith.ExtUIOp(ctx.value(arith.BitcastOp(e, i16)), i32)) for e in elements
    )
    shifted = ctx.value(arith.ShLIOp(high, ctx.i32(16)))
    return ctx.value(arith.OrIOp(low, shifted))
