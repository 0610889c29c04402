"""Which ``tt.dot``s run on tensor cores (``nvvm.mma.sync``), and the layouts they need.

The decision is made once per dot (``dot_instruction``, called by ``ttg-accelerate-matmul``
only), which writes it on the dot as ``#ttg.nvidia_mma`` (``dialects/ttg/mma.py``); the rest of
this module is the geometry that layout assignment, the pipelining and the lowering apply to the
decision they read from the IR (``tensor_core_dot``, ``mma_staging``, ``wgmma_staging``, ...).
A dot that ``tt-legalize-fp8-dots`` or ``tt-legalize-tf32x3-dots`` will rewrite is decided as it
will run (``DotSignature``): f16 operands, or tf32 ones.

A dot goes to tensor cores when its form exists (``_mma_form``): rank 2, an f32 accumulator
with f16 or bf16 operands, or f32 operands with ``input_precision = "tf32"``, or an i32
accumulator with int8 operands, and M, N, K multiples of the instruction's tile (16 x 8 x 16;
K 8 for tf32, 32 for int8), or an f32 accumulator with fp8e4nv or fp8e5 operands (either
format each; K 32: ``FP8_FORMS``, warpgroup MMAs, or from sm_89 on ``ptx.mma.sync``, where
``tt-legalize-fp8-dots`` left them fp8). Other dots (ieee f32, f64, f16 accumulators, which
the frontend makes only in hand-written ``tt``: ``out_dtype=tl.float16`` is an f32 dot and a
cast, batched) keep the CUDA-core FMA loop.

The accumulator layout (``NvidiaMmaEncodingAttr.accumulator_layout``) is an ordinary blocked
layout, ``sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [wm, wn]``: lane
``4g + q`` owns columns ``2q, 2q + 1`` of row ``g`` of every 8 x 8 piece of its warp's tiles,
which is exactly where an MMA's C/D fragment puts them if each instruction's rows ``g`` and
``g + 8`` are taken as the thread's rows of two consecutive row repetitions (``8 wm`` apart).
So elementwise ops, reductions, stores and conversions of the result need nothing new; the
dot's lowering reads the instruction from ``ttg.mma``.

On Hopper (``capability`` 90: sm_90a) a dot whose tile allows it runs as warpgroup MMAs
(``wgmma_layout``; ``gpu_lowering/dot_wgmma.py``): every warp along M (``warpsPerCTA =
[num_warps, 1]``), its f16/bf16, tf32, int8 or fp8 operands in 128-byte swizzled tiles
(``#ttg.nvmma_shared``; 64-byte rows where K is half of a 128-byte one), A's rows permuted so
that the same blocked accumulator layout holds the instruction's result; an f16/bf16 B
N-contiguous, or K-contiguous where it is loaded so (``k_contiguous``); a tf32, int8 or fp8
B K-contiguous (the only form the instruction has for them). An A laid out as the accumulator
(an earlier warpgroup MMA's rounded result: attention's P) stays in registers
(``wgmma_register_a``): that layout is the instruction's A fragment.

Otherwise operands are staged in shared memory and read with ``ldmatrix``: A K-contiguous
(row-major, as it is loaded: each thread stores its consecutive elements as one vector); f16/bf16 B
N-contiguous (as loaded), read transposed (``ldmatrix.trans``), unless loaded K-contiguous
(``k_contiguous``), then staged so and read untransposed; tf32, int8 and fp8 B K-contiguous
(``ldmatrix.trans`` moves 16-bit elements only, so B^T's rows are read untransposed). Each row
is padded by 16 bytes, so the eight 16-byte rows one ``ldmatrix`` matrix reads (row strides
of an odd number of 16-byte units) hit different banks.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

from xdsl.dialects.builtin import Float8E4M3FNType, Float8E5M2Type, bf16, f16, f32, i8, i32
from xdsl.ir import Attribute, SSAValue

from mytriton.dialects.nvgpu.nvvm import MMA_FORMS, MmaForm
from mytriton.dialects.nvgpu.ptx_mma import FP8_MMA_CAPABILITY, FP8_MMA_FORMS
from mytriton.dialects.tt import core as tt
from mytriton.dialects.tt.fp8 import is_fp8
from mytriton.dialects.tt.types import byte_size, element_type, shape_of
from mytriton.dialects.ttg.layouts import BlockedLayoutAttr, SharedLayoutAttr, layout_of
from mytriton.dialects.ttg.mma import (
    ACC_SIZE_PER_THREAD,
    ACC_THREADS_PER_WARP,
    INSTR_M,
    MMA_SYNC,
    MMA_SYNC_N,
    WGMMA,
    WGMMA_MAX_N,
    NvidiaMmaEncodingAttr,
    dot_mma,
)
from mytriton.dialects.ttg.nvmma import NvmmaSharedLayoutAttr, swizzle_for

M_TILE, N_TILE = INSTR_M, MMA_SYNC_N  # the instruction's accumulator tile (all forms)
WGMMA_CAPABILITY = 90  # sm_90a: wgmma is not forward compatible
WGMMA_M = 64  # rows of one warpgroup MMA
WGMMA_OPERANDS = ("f16", "bf16", "tf32", "e4m3", "e5m2", "s8")  # _mma_form kinds wgmma takes
# fp8e4nv and fp8e5 operands (k = 32, like s8): warpgroup MMAs, or ``ptx.mma.sync`` (sm_89 on;
# ``tt-legalize-fp8-dots`` widens any other fp8 dot to f16)
FP8_FORMS: dict[Attribute, MmaForm] = {
    Float8E4M3FNType(): FP8_MMA_FORMS["e4m3"],
    Float8E5M2Type(): FP8_MMA_FORMS["e5m2"],
}
WGMMA_N_TILE = 64  # N a multiple of one swizzled row of 16-bit elements (an N-major B's atom)
# the largest accumulator tile a store converts to its coalesced layout (bytes of shared memory:
# a 128 x 128 f32 tile; a 128 x 256 one rounded to f16)
EPILOGUE_CONVERSION_BYTES = 64 * 1024


@dataclass(frozen=True)
class DotSignature:
    """What the decision reads of a dot: shapes, element types and input precision. A dot a
    legalization will rewrite is decided as it will run (``widened``, ``as_tf32``)."""

    a_shape: tuple[int, ...]
    b_shape: tuple[int, ...]
    acc_shape: tuple[int, ...]
    a: Attribute
    b: Attribute
    acc: Attribute
    precision: str

    @staticmethod
    def of(op: tt.DotOp) -> DotSignature:
        a, b, acc = op.a.type, op.b.type, op.acc.type
        shapes = tuple(shape_of(a)), tuple(shape_of(b)), tuple(shape_of(acc))
        return DotSignature(
            *shapes, element_type(a), element_type(b), element_type(acc), op.precision
        )

    def widened(self) -> DotSignature:
        """The dot with its fp8 operands cast to f16 (``tt-legalize-fp8-dots``)."""
        return replace(self, a=f16, b=f16)

    def as_tf32(self) -> DotSignature:
        """One of the tf32 dots a ``tf32x3`` one becomes (``tt-legalize-tf32x3-dots``)."""
        return replace(self, precision="tf32")


def dot_instruction(op: tt.DotOp, num_warps: int, capability: int) -> NvidiaMmaEncodingAttr | None:
    """The decision: the tensor-core instruction ``op`` runs as over ``num_warps`` warps on a
    chip of ``capability`` (warpgroup MMAs where they take the tile, else warp ones), or None
    for the CUDA-core FMA loop. An fp8 dot no fp8 MMA runs is decided as the f16 dot
    ``tt-legalize-fp8-dots`` makes of it; a ``tf32x3`` one as the tf32 dots
    ``tt-legalize-tf32x3-dots`` splits it into (where those run on tensor cores)."""
    sig = DotSignature.of(op)
    if is_fp8(op.a.type) and not _native_fp8_dot(sig, num_warps, capability):
        sig = sig.widened()
    if sig.precision == "tf32x3" and sig.a == f32:
        sig = sig.as_tf32()
    return _tensor_core_mma(sig, num_warps, capability)


def _operand_form(sig: DotSignature) -> MmaForm | None:
    """The instruction form of the operand and accumulator types, whatever the tile."""
    if sig.acc == i32:
        return MMA_FORMS["s8"] if sig.a == i8 else None
    if sig.acc != f32:
        return None
    if sig.a == f16:
        return MMA_FORMS["f16"]
    if sig.a == bf16:
        return MMA_FORMS["bf16"]
    if sig.a == f32:
        return MMA_FORMS["tf32"] if sig.precision == "tf32" else None
    return FP8_FORMS.get(sig.a) if sig.b in FP8_FORMS else None  # any two formats


def _mma_form(sig: DotSignature) -> MmaForm | None:
    """The tensor-core instruction form of a dot, or None when it stays on CUDA cores."""
    form = _operand_form(sig) if len(sig.a_shape) == 2 else None
    if form is None:
        return None
    (m, k), n = sig.a_shape, sig.b_shape[1]
    if m % M_TILE or n % N_TILE or k % form.shape[2]:
        return None
    return form


def instruction_form(op: tt.DotOp) -> MmaForm:
    """The form of the instruction ``op``'s ``ttg.mma`` names: its operands' types."""
    form = _operand_form(DotSignature.of(op))
    assert form is not None, "a tt.dot's ttg.mma reads its operand types (verified)"
    return form


def _mma_sync(form: MmaForm, capability: int) -> bool:
    """Whether a chip of ``capability`` has ``form``'s warp MMA (fp8: ``ptx.mma.sync``, sm_89
    on)."""
    return form.ptx_type in MMA_FORMS or capability >= FP8_MMA_CAPABILITY


def _native_fp8_dot(sig: DotSignature, num_warps: int, capability: int) -> bool:
    """Whether a dot of fp8 operands runs as fp8 MMAs (else ``tt-legalize-fp8-dots`` widens
    its operands to f16): warpgroup ones where its tile allows them; else warp ones
    (``ptx.mma.sync``, sm_89 on) where those fit, unless f16 warpgroup MMAs take the widened
    tile (``K`` of 64 bytes as f16, 32 as fp8: Hopper's warp MMAs are the slower kind)."""
    if _wgmma_fits(sig, num_warps, capability):
        return True
    if _wgmma_tile(sig, byte_size(f16), num_warps, capability):
        return False
    return _tensor_core_mma(sig, num_warps, capability) is not None


def _tensor_core_mma(
    sig: DotSignature, num_warps: int, capability: int
) -> NvidiaMmaEncodingAttr | None:
    """The instruction of a dot that runs as it is (``dot_instruction``)."""
    form = _mma_form(sig)
    if form is None:
        return None
    k = form.shape[2]  # a warpgroup MMA's K is its warp MMA's
    if _wgmma_fits(sig, num_warps, capability):
        return NvidiaMmaEncodingAttr(WGMMA, (num_warps, 1), (INSTR_M, sig.b_shape[1], k))
    warps = _mma_sync_warps(sig.acc_shape, num_warps)
    if warps is None or not _mma_sync(form, capability):
        return None
    return NvidiaMmaEncodingAttr(MMA_SYNC, warps, (M_TILE, N_TILE, k))


def _mma_sync_warps(shape: Sequence[int], num_warps: int) -> tuple[int, int] | None:
    """``(wm, wn)`` of an ``[M, N]`` warp-MMA dot over ``num_warps`` warps, or None when the
    warps cannot each own whole instruction tiles. Warps split the larger per-warp extent
    first (as square warp tiles as the shape allows: fewer operand loads per MMA)."""
    m, n = shape
    wm = wn = 1
    while wm * wn < num_warps:
        can_m = m % (2 * wm * M_TILE) == 0
        can_n = n % (2 * wn * N_TILE) == 0
        if can_m and (not can_n or m // wm >= n // wn):
            wm *= 2
        elif can_n:
            wn *= 2
        else:
            return None
    return wm, wn


def mma_warps(layout: Attribute | None, shape: Sequence[int]) -> tuple[int, int] | None:
    """``(wm, wn)`` when ``layout`` is a tensor-core accumulator layout of ``shape``."""
    if not isinstance(layout, BlockedLayoutAttr) or layout.rank != 2 or len(shape) != 2:
        return None
    if layout.spt != ACC_SIZE_PER_THREAD or layout.tpw != ACC_THREADS_PER_WARP:
        return None
    if layout.dim_order != (1, 0):
        return None
    wm, wn = layout.wpc
    if shape[0] % (wm * M_TILE) or shape[1] % (wn * N_TILE):
        return None
    return wm, wn


def widens_accumulator_store(
    known: Attribute | None, coalesced: BlockedLayoutAttr, value: SSAValue
) -> bool:
    """Whether a store of ``value``, held in a tensor-core accumulator layout ``known`` (two
    consecutive columns a thread), moves wider vectors in its ``coalesced`` layout along the
    same contiguous dimension, and the tile is small enough to convert through shared memory
    (``EPILOGUE_CONVERSION_BYTES``). Then, as Triton's coalescing does, the value is converted
    (16-byte ``st.global.v4`` of f32/i32 rather than 8-byte ``v2``); a loop's tiles shrink their
    stages to leave the room (``pipelining.async_copies``)."""
    if mma_warps(known, shape_of(value.type)) is None:
        return False
    assert isinstance(known, BlockedLayoutAttr)
    fastest = coalesced.dim_order[0]
    if fastest != known.dim_order[0] or coalesced.spt[fastest] <= known.spt[fastest]:
        return False
    numel = math.prod(shape_of(value.type))
    return numel * byte_size(element_type(value.type)) <= EPILOGUE_CONVERSION_BYTES


def tensor_core_dot(op: tt.DotOp) -> tuple[MmaForm, tuple[int, int]] | None:
    """The instruction form and ``(wm, wn)`` of ``op``'s ``ttg.mma`` (None: the FMA loop):
    what layout assignment stages for and the lowering emits."""
    mma = dot_mma(op)
    if mma is None:
        return None
    wm, wn = mma.warps
    return instruction_form(op), (wm, wn)


def k_contiguous(operand: Attribute | None) -> bool:
    """Whether a B operand's registers are laid out K first (``order = [0, 1]``: loaded from
    memory contiguous along K, e.g. K^T read through strides), so that a K-major tile takes
    them (and their copies) in runs."""
    return isinstance(operand, BlockedLayoutAttr) and operand.dim_order == (0, 1)


def mma_staging(
    operand: Attribute, b_layout: Attribute | None = None
) -> tuple[SharedLayoutAttr, SharedLayoutAttr]:
    """Shared-memory layouts of A ``[M, K]`` and B ``[K, N]`` of warp MMAs (see the module
    doc); an f16/bf16 B laid out K first (``k_contiguous``) is staged K-contiguous too."""
    pad = 16 // byte_size(operand)
    n_major = operand in (f16, bf16) and not k_contiguous(b_layout)
    b_order = [1, 0] if n_major else [0, 1]
    return SharedLayoutAttr([1, 0], pad=pad), SharedLayoutAttr(b_order, pad=pad)


def _wgmma_fits(sig: DotSignature, num_warps: int, capability: int) -> bool:
    """Whether warpgroup MMAs on a chip of ``capability`` run a dot: f16/bf16, tf32, int8 or
    fp8 operands, whole warpgroups all along M (each warpgroup 64-row instructions: ``M`` a
    multiple of ``16 num_warps``), ``N`` a multiple of 64 up to one instruction's 256, ``K``
    whole 128- or 64-byte swizzled rows (64 or 32 f16/bf16 elements, 32 or 16 tf32, 128 or 64
    int8 or fp8)."""
    form = _mma_form(sig)
    if form is None or form.ptx_type not in WGMMA_OPERANDS:
        return False
    return _wgmma_tile(sig, byte_size(sig.a), num_warps, capability)


def _wgmma_tile(sig: DotSignature, element_bytes: int, num_warps: int, capability: int) -> bool:
    """Whether warpgroup MMAs take a dot's tile on a chip of ``capability`` with operands of
    ``element_bytes`` (``_wgmma_fits``)."""
    if capability != WGMMA_CAPABILITY or num_warps % 4 or len(sig.a_shape) != 2:
        return False
    (m, k), n = sig.a_shape, sig.b_shape[1]
    k_bytes = k * element_bytes  # whole 128- or 64-byte swizzled rows
    return not (
        m % (M_TILE * num_warps) or n % WGMMA_N_TILE or n > WGMMA_MAX_N or not swizzle_for(k_bytes)
    )


def k_major_copies(op: tt.DotOp) -> bool:
    """Whether ``op``'s B goes into a K-major tile whatever order it is loaded in: a tf32 B of
    warpgroup MMAs (``wgmma_staging``), which a B loaded N-contiguous reaches an element at a
    time (``k_major_copy_layout``)."""
    mma = dot_mma(op)
    return mma is not None and mma.is_wgmma and byte_size(element_type(op.b.type)) == 4


def k_major_copy_layout(shape: Sequence[int], num_warps: int) -> BlockedLayoutAttr:
    """The layout of a ``[K, N]`` block of 4-byte elements, contiguous along N in memory, that
    is copied an element at a time into a K-major swizzled tile: each warp access takes 4 rows
    of K by 8 consecutive columns of N (four whole 32-byte sectors), which land in 8 tile rows
    whose swizzle (with 64-byte rows: and the halves of 128 bytes that two rows share) puts them
    in 8 different 16-byte bank groups, 4 words of K each: the 32 lanes hit 32 different banks
    (N-contiguous vectors would put a warp's 32 elements in 4)."""
    k, _ = shape
    tk = min(4, k)
    wk = min(num_warps, max(1, k // tk))
    return BlockedLayoutAttr((1, 1), (tk, 32 // tk), (wk, num_warps // wk), (1, 0))


def wgmma_register_a(op: tt.DotOp) -> bool:
    """Whether a warpgroup-MMA dot takes A from the threads' registers
    (``ptx.wgmma.mma_async``): f16/bf16 A laid out as the dot's accumulator, where the rounded
    result of an earlier warpgroup MMA of the same rows is (attention's P), so each thread
    already holds its share of A's fragments."""
    acc = layout_of(op.acc.type)
    return (
        isinstance(acc, BlockedLayoutAttr)
        and layout_of(op.a.type) == acc
        and element_type(op.a.type) in (f16, bf16)
    )


def wgmma_staging(
    op: tt.DotOp, b_layout: Attribute | None = None
) -> tuple[NvmmaSharedLayoutAttr, NvmmaSharedLayoutAttr] | None:
    """The swizzled tiles of A (K-contiguous, rows rotated for ``wm`` warps) and B when ``op``
    runs as warpgroup MMAs (its ``ttg.mma``); None otherwise. An f16/bf16 B is N-contiguous
    (read transposed), or K-contiguous where its registers are laid out K first
    (``k_contiguous``: attention's K^T); a tf32, int8 or fp8 B is K-contiguous always (the
    instruction reads 32- and 8-bit operands K-major only: a tf32 B loaded N-contiguous is
    copied an element at a time, an 8-bit one staged from registers by the dot)."""
    mma = dot_mma(op)
    if mma is None or not mma.is_wgmma:
        return None
    wm = mma.warps[0]
    size = byte_size(element_type(op.b.type))
    (_, k), n = shape_of(op.a.type), shape_of(op.b.type)[1]
    k_swizzle = swizzle_for(k * size)  # _wgmma_tile: 128 or 64
    assert k_swizzle is not None
    a = NvmmaSharedLayoutAttr([1, 0], rotate=2 * wm, swizzle=k_swizzle)
    if size != 2 or k_contiguous(b_layout):  # tf32, int8, fp8: the MMA reads B K-major only
        return a, NvmmaSharedLayoutAttr([0, 1], swizzle=k_swizzle)
    n_swizzle = swizzle_for(n * size)
    assert n_swizzle is not None
    return a, NvmmaSharedLayoutAttr([1, 0], swizzle=n_swizzle)
