"""Lowering of a ``tt.dot`` to Hopper's warpgroup MMAs (``nvvm.wgmma.mma_async``), both operands
read by the tensor cores from 128- or 64-byte swizzled tiles (``ttg_nvmma``) through matrix
descriptors, the accumulator in registers.

The dot's ``ttg.mma`` is a warpgroup MMA (``versionMajor = 3``); its accumulator has the
blocked tensor-core layout with every warp along M (``accumulator_layout``):
warp ``w`` (warpgroup ``G = w // 4``) holds rows ``8 w + g + 8 wm r`` and columns ``8 j + 2 q
(+1)`` of the ``[M, N]`` block. One instruction ``m64nNk16`` of warpgroup ``G`` computes 64
*stored* rows of A: warp ``w % 4`` gets the instruction's rows ``16 (w % 4) + g`` and ``+ 8``.
A's tile stores logical row ``8 w + g + 8 wm (2 i + h)`` at row ``64 (i * wm / 4 + G) + 16 (w
% 4) + 8 h + g`` (its ``rotate = 2 wm`` row permutation), so instruction ``i`` of warpgroup
``G`` reads the 64 stored rows from ``64 (i * wm / 4 + G)`` and its fragment ``(h, j, e)`` is
the thread's register of row repetition ``2 i + h``, column ``8 j + e``: exactly the blocked
layout, nothing to convert.

Descriptors (PTX ISA, checked on the H200): start address >> 4 in bits 0-13, the leading byte offset
>> 4 in 16-29, the stride byte offset >> 4 in 32-45, swizzle mode 1 (128 bytes) in 62-63. (A K tile
half a 128-byte row, ``BLOCK_K = 32`` of f16, is stored in 64-byte rows, mode 2: every 128 below is
then 64, every 1024 512.) A is K-major (``layoutA = row``): its K step ``k`` starts ``(k // 64) * M
* 128 + (k % 64) * 2`` bytes in (atom column, then 32 bytes per k16 inside the swizzled row),
eight-row groups 1024 bytes apart (SBO). B is N-major (``layoutB = row``, read transposed): K rows
of 128 bytes, the step ``k`` starts ``k * 128`` bytes in, eight-row groups 1024 apart (SBO),
64-column atoms ``K * 128`` apart (LBO); or, loaded K-contiguous (attention's K^T), K-major like A
(``layoutB = col``: N rows, the K step's atom column ``N * 128`` bytes apart). Every descriptor is
the tile's base descriptor plus its constant byte offset >> 4 (the tile is 1024-byte aligned and
within the 256 KiB the address field holds).

A laid out as the accumulator (``mma_policy.wgmma_register_a``: attention's P) stays in
registers: its layout is the instruction's A fragment (register ``r`` of row repetition ``2 i
+ r % 2``, columns ``8 (r // 2) + 2q``, ``+ 1`` of the k16 step), so each step packs four
pairs of 16-bit elements into i32 words (``vector<2xT>`` bitcasts) for
``ptx.wgmma.mma_async`` and only B is read through a descriptor.

Order: the threads that write an operand tile (stores, or ``cp.async`` then its wait) make the
writes visible to the tensor cores' async proxy (``fence.proxy.async``, ``async_proxy_fence``)
before the barrier after which the MMAs read it; ``wgmma.fence`` orders the accumulator
registers, the MMAs of every K step are one group, and ``wgmma.wait_group 0``
retires it before the registers are read. An asynchronous dot (``ttg_async_dot``: a pipelined
K loop's) leaves its group running: its lowered value is the instructions' result structs,
and ``ttg.dot_wait`` waits and takes the registers out of them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import arith, gpu, llvm, vector
from xdsl.dialects.builtin import FloatAttr, VectorType, f32, i32, i64
from xdsl.ir import Operation, SSAValue

from mytriton.dialects.nvgpu.ptx_wgmma import WgmmaRegisterAOp
from mytriton.dialects.nvgpu.wgmma import (
    WGMMA_FORMS,
    FenceProxyOp,
    WgmmaCommitGroupSyncAlignedOp,
    WgmmaFenceAlignedOp,
    WgmmaForm,
    WgmmaMmaAsyncOp,
    WgmmaWaitGroupSyncAlignedOp,
)
from mytriton.dialects.tt import core as tt
from mytriton.dialects.tt.types import byte_size, element_type, shape_of
from mytriton.dialects.ttg.async_dot import DotWaitOp, is_async_dot
from mytriton.dialects.ttg.layouts import BlockedLayoutAttr, layout_of
from mytriton.dialects.ttg.mma import is_warpgroup_mma
from mytriton.dialects.ttg.nvmma import ATOM_ROWS, NvmmaSharedLayoutAttr
from mytriton.passes.gpu_lowering.context import LoweringContext
from mytriton.passes.gpu_lowering.dot_mma import Source, shared_address
from mytriton.passes.gpu_lowering.op_builders import extract_value, insert_value, vector_insert
from mytriton.passes.gpu_lowering.rules import lowers
from mytriton.passes.ttg.mma_policy import FP8_FORMS, WGMMA_M, instruction_form

WARPGROUP_WARPS = 4
SWIZZLE_MODES = {128: 1, 64: 2}  # the descriptor's swizzle mode field (bits 62-63) per row width
ADDRESS_MASK = 0x3FFFF  # the 18 bits of a shared address the descriptor keeps (>> 4)
UNUSED_LBO = 16  # K-major swizzled operands: the field is unused (1 by convention)


def lower_wgmma_dot(
    ctx: LoweringContext,
    op: tt.DotOp,
    warps: tuple[int, int],
    a_src: Source | None,
    b_src: Source,
    layouts: tuple[NvmmaSharedLayoutAttr, NvmmaSharedLayoutAttr],
    barrier: bool,
) -> None:
    """Replace ``op`` by warpgroup MMAs over its operands' swizzled tiles at ``a_src`` (None:
    A from the threads' registers, ``ptx.wgmma.mma_async``) and ``b_src``; ``barrier``: end
    with one, so the operands' buffer may be rewritten at once."""
    k = shape_of(op.a.type)[1]
    wm = warps[0]
    k_step = wgmma_form(op).k
    issue = _issuer(ctx, op, wm, a_src, b_src, layouts)

    interval = op.promotion_interval
    if interval is not None:  # (at most K: once per dot at the least, as in Triton)
        _promoted(ctx, op, wm, issue, -(-interval // k_step) * k_step, k_step)
        if barrier:
            ctx.emit(gpu.BarrierOp())
        return
    if op.acc in ctx.async_dots:  # in flight: chain onto the earlier dot's structs
        regs, acc = ctx.async_dots[op.acc]
        fragments = list(ctx.get(op.acc))
    else:
        acc = list(ctx.get(op.acc))
        regs = fragment_fields(ctx, op, wm)
        fragments = pack_fragments(ctx, regs, acc)
    issue(fragments, range(0, k, k_step))
    if is_async_dot(op):  # ``ttg.dot_wait`` waits and reads the fragments
        assert not barrier
        ctx.set(op.result, fragments)
        ctx.async_dots[op.result] = (regs, acc)
        return
    ctx.set(op.result, _wait(ctx, 0, fragments, regs, acc))
    if barrier:
        ctx.emit(gpu.BarrierOp())


def _issuer(
    ctx: LoweringContext,
    op: tt.DotOp,
    wm: int,
    a_src: Source | None,
    b_src: Source,
    layouts: tuple[NvmmaSharedLayoutAttr, NvmmaSharedLayoutAttr],
) -> Callable[[list[SSAValue], range], None]:
    """The matrix descriptors of ``op``'s operand tiles (A's words from the registers where
    ``a_src`` is None), and what issues the MMAs of some K steps over them."""
    (m, k), n = shape_of(op.a.type), shape_of(op.b.type)[1]
    groups = wm // WARPGROUP_WARPS
    size = byte_size(element_type(op.a.type))
    a_row, b_row = (layout.row_bytes for layout in layouts)  # bytes of a swizzled row
    form = wgmma_form(op)
    k_step = form.k
    operand = form.operand
    b_operand = _b_type(op)
    assert layouts[0].span == 2 * wm and layouts[0].dim_order == (1, 0)
    b_mn_major = layouts[1].dim_order == (1, 0)
    assert form.transposable or not b_mn_major

    # this warpgroup's first stored A row: 64 G
    group = ctx.at_entry(arith.ShRUIOp(ctx.thread_id, ctx.i32(7)))
    a_rows = ctx.at_entry(arith.MuliOp(group, ctx.i32(WGMMA_M * a_row)))
    a_desc = None
    if a_src is not None:
        a_desc = _descriptor(ctx, a_src, size, layouts[0], UNUSED_LBO, a_rows)
    b_leading = k * b_row if b_mn_major else UNUSED_LBO
    b_desc = _descriptor(ctx, b_src, size, layouts[1], b_leading, None)

    m_blocks = m // (WGMMA_M * groups)
    a_words = None if a_desc is not None else _a_fragments(ctx, op, wm, m_blocks, k, k_step)

    def issue(fragments: list[SSAValue], ks: range) -> None:
        """The MMAs of K steps ``ks``, chained onto ``fragments`` (updated in place)."""
        ctx.emit(WgmmaFenceAlignedOp())  # after the accumulators' (and A's) last writes
        for kk in ks:
            b_bytes = kk * b_row if b_mn_major else _k_major_step(kk, n, b_row, size)
            b_at = _plus(ctx, b_desc, b_bytes)
            for i in range(m_blocks):
                mma: Operation
                if a_words is not None:
                    words = a_words[(i, kk)]
                    mma = WgmmaRegisterAOp(fragments[i], words, b_at, n, operand, b_mn_major)
                else:
                    assert a_desc is not None
                    a_bytes = (i * groups * WGMMA_M) * a_row
                    a_bytes += _k_major_step(kk, m, a_row, size)
                    a_at = _plus(ctx, a_desc, a_bytes)
                    mma = WgmmaMmaAsyncOp(
                        fragments[i], a_at, b_at, n, operand, b_mn_major, b_operand=b_operand
                    )
                fragments[i] = ctx.value(mma)
        ctx.emit(WgmmaCommitGroupSyncAlignedOp())

    return issue


def _promoted(
    ctx: LoweringContext,
    op: tt.DotOp,
    wm: int,
    issue: Callable[[list[SSAValue], range], None],
    chunk: int,
    k_step: int,
) -> None:
    """``op`` with ``max_num_imprecise_acc``: the MMAs of each ``chunk`` of K sum into a zero
    accumulator, waited for and added into the f32 one (Triton's promotion: ``add.f32``)."""
    k = shape_of(op.a.type)[1]
    # ttg-pipeline leaves no promoted dot in flight, nor one chained onto an in-flight value
    assert op.acc not in ctx.async_dots and not is_async_dot(op)
    acc = list(ctx.get(op.acc))
    regs = fragment_fields(ctx, op, wm)
    zeros = [ctx.value(arith.ConstantOp(FloatAttr(0.0, f32)))] * len(acc)
    for start in range(0, k, chunk):
        fragments = pack_fragments(ctx, regs, zeros)
        issue(fragments, range(start, min(start + chunk, k), k_step))
        partial = _wait(ctx, 0, fragments, regs, zeros)
        acc = [ctx.value(arith.AddfOp(total, p)) for total, p in zip(acc, partial, strict=True)]
    ctx.set(op.result, acc)


def wgmma_form(op: tt.DotOp) -> WgmmaForm:
    """The warpgroup MMA form of ``op``'s operands (its ``ttg.mma`` is a warpgroup MMA)."""
    return WGMMA_FORMS[instruction_form(op).ptx_type]


def _b_type(op: tt.DotOp) -> str | None:
    """B's PTX type where it may differ from A's (fp8: either format); None: A's."""
    form = FP8_FORMS.get(element_type(op.b.type))
    return None if form is None else form.ptx_type


def _a_fragments(
    ctx: LoweringContext, op: tt.DotOp, wm: int, m_blocks: int, k: int, k_step: int
) -> dict[tuple[int, int], list[SSAValue]]:
    """Per instruction along M and K step, the four 32-bit words of A this thread gives a
    ``ptx.wgmma.mma_async``: A is laid out as the accumulator, so register ``r`` of block
    ``i`` holds row repetition ``2 i + r % 2`` at columns ``kk + 8 (r // 2) + 2q`` and ``+ 1``
    (the low half the first)."""
    position = {reg: n for n, reg in enumerate(ctx.geometry(op.a.type).registers)}
    values = ctx.get(op.a)
    out = {}
    for i in range(m_blocks):
        for kk in range(0, k, k_step):
            words = []
            for r in range(4):
                row = (2 * i + r % 2) * 8 * wm
                col = kk + 8 * (r // 2)
                lo, hi = (values[position[(row, col + e)]] for e in (0, 1))
                words.append(_pack_halves(ctx, lo, hi))
            out[(i, kk)] = words
    return out


def _pack_halves(ctx: LoweringContext, lo: SSAValue, hi: SSAValue) -> SSAValue:
    """Two 16-bit floats as one i32, ``lo`` in the low half: a ``vector<2xT>`` bitcast, which
    LLVM turns into one ``cvt.rn.f16x2.f32`` where both come from f32 roundings."""
    pair = VectorType(lo.type, [2])
    packed = ctx.value(vector.BroadcastOp(lo, pair))
    packed = ctx.value(vector_insert(hi, packed, 1, pair))
    return ctx.value(llvm.BitcastOp(packed, i32))


def fragment_fields(ctx: LoweringContext, op: tt.DotOp, wm: int) -> list[list[int]]:
    """Per instruction along M (``m_blocks`` of them), the accumulator register (index into
    the thread's registers of ``op.acc``) of each field of its result struct."""
    (m, _), n = shape_of(op.a.type), shape_of(op.b.type)[1]
    m_blocks = m // (WGMMA_M * (wm // WARPGROUP_WARPS))
    position = {reg: i for i, reg in enumerate(ctx.geometry(op.acc.type).registers)}
    return [
        [
            position[((2 * i + h) * 8 * wm, 8 * j + e)]
            for j in range(n // 8)
            for h in (0, 1)
            for e in (0, 1)
        ]
        for i in range(m_blocks)
    ]


def pack_fragments(
    ctx: LoweringContext, regs: Sequence[Sequence[int]], acc: Sequence[SSAValue]
) -> list[SSAValue]:
    """The accumulator registers ``acc`` as the instructions' structs (``fragment_fields``)."""
    struct = llvm.LLVMStructType.from_type_list([acc[0].type] * len(regs[0]))
    fragments = []
    for fields in regs:
        value = ctx.value(llvm.UndefOp(struct))
        for field, r in enumerate(fields):
            value = ctx.value(insert_value(value, acc[r], field))
        fragments.append(value)
    return fragments


def in_flight_init(
    ctx: LoweringContext, dot: tt.DotOp, init: Sequence[SSAValue]
) -> tuple[list[SSAValue], tuple[list[list[int]], list[SSAValue]]]:
    """A loop carrying ``dot``'s result in flight (``ttg_async_dot``) carries its structs:
    the initial accumulator registers ``init`` packed as those, and what reading them takes
    (``LoweringContext.async_dots``)."""
    layout = layout_of(dot.acc.type)
    assert isinstance(layout, BlockedLayoutAttr)
    regs = fragment_fields(ctx, dot, layout.wpc[0])
    return pack_fragments(ctx, regs, init), (regs, list(init))


def _k_major_step(kk: int, rows: int, row_bytes: int, size: int) -> int:
    """The byte offset of K step ``kk`` in a K-major swizzled tile of ``rows`` rows of
    ``row_bytes``: its atom column (``rows`` rows each), then ``kk``'s place inside the row."""
    atom = row_bytes // size  # elements of one swizzled row
    return (kk // atom) * rows * row_bytes + (kk % atom) * size


@lowers(DotWaitOp)
class LowerDotWait:
    """``wgmma.wait_group pendings``, then the accumulator registers out of the dot's
    fragments."""

    def lower(self, ctx: LoweringContext, op: Operation) -> None:
        assert isinstance(op, DotWaitOp)
        regs, acc = ctx.async_dots[op.src]
        pendings = op.pendings.value.data
        if not op.result.uses:  # only the wait (the dot's value stays in flight)
            ctx.emit(WgmmaWaitGroupSyncAlignedOp(pendings))
            ctx.set(op.result, [])
            return
        ctx.set(op.result, _wait(ctx, pendings, ctx.get(op.src), regs, acc))


def _wait(
    ctx: LoweringContext,
    pendings: int,
    fragments: Sequence[SSAValue],
    regs: Sequence[Sequence[int]],
    acc: Sequence[SSAValue],
) -> list[SSAValue]:
    """Wait for all but ``pendings`` wgmma groups; the accumulator's registers (in ``acc``'s
    order) out of the instructions' ``fragments``."""
    ctx.emit(WgmmaWaitGroupSyncAlignedOp(pendings))
    out = list(acc)
    for fragment, fields in zip(fragments, regs, strict=True):
        for field, r in enumerate(fields):
            out[r] = ctx.value(extract_value(fragment, field, acc[r].type))
    return out


def _descriptor(
    ctx: LoweringContext,
    src: Source,
    size: int,
    layout: NvmmaSharedLayoutAttr,
    leading: int,
    extra: SSAValue | None,
) -> SSAValue:
    """The matrix descriptor (i64) of the tile at ``src`` (+ ``extra`` bytes, i32) laid out
    as ``layout``: its 8-row groups ``8 * row`` bytes apart (SBO), its swizzle mode."""
    buf, offset = src
    address = shared_address(ctx, buf)  # i64, at the entry
    stride = ATOM_ROWS * layout.row_bytes
    mode = SWIZZLE_MODES[layout.row_bytes] << 62
    fields = ((leading >> 4) << 16) | ((stride >> 4) << 32) | mode

    def entry_or_here(o: Operation) -> SSAValue:
        return ctx.at_entry(o) if isinstance(offset, int) else ctx.value(o)

    if extra is not None:
        address = ctx.at_entry(arith.AddiOp(address, ctx.at_entry(arith.ExtUIOp(extra, i64))))
    if isinstance(offset, int):
        if offset:
            address = ctx.at_entry(arith.AddiOp(address, ctx.const(offset * size, i64)))
    else:
        bytes_ = ctx.value(arith.MuliOp(offset, ctx.i32(size)))
        address = ctx.value(arith.AddiOp(address, ctx.value(arith.ExtUIOp(bytes_, i64))))
    masked = entry_or_here(arith.AndIOp(address, ctx.const(ADDRESS_MASK, i64)))
    shifted = entry_or_here(arith.ShRUIOp(masked, ctx.const(4, i64)))
    return entry_or_here(arith.OrIOp(shifted, ctx.const(fields, i64)))


def _plus(ctx: LoweringContext, desc: SSAValue, nbytes: int) -> SSAValue:
    """``desc`` moved ``nbytes`` (a multiple of 16) further."""
    if nbytes == 0:
        return desc
    return ctx.value(arith.AddiOp(desc, ctx.const(nbytes >> 4, i64)))


def async_proxy_fence(ctx: LoweringContext) -> None:
    """``fence.proxy.async`` where the kernel has warpgroup MMAs (their operands' writers
    fence before the barrier that publishes the tiles); nothing in other kernels."""
    if ctx.wgmma_kernel is None:
        assert ctx.source is not None
        ctx.wgmma_kernel = any(
            isinstance(op, tt.DotOp) and is_warpgroup_mma(op) for op in ctx.source.walk()
        )
    if ctx.wgmma_kernel:
        ctx.emit(FenceProxyOp())
