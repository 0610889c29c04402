"""A ``ttg.convert_layout`` of 16- or 32-bit elements through shared memory in 16-byte accesses:
every thread stores whole 16-byte chunks (one ``st.shared.v4`` each) and reads its result with
``ldmatrix`` (sm_75 on), where the plain round trip of ``convert`` stores and loads element by
element (an mma accumulator's pairs: 32-bit stores, 8-way bank conflicts on its rows).

The scratch is laid out by the *result* layout, in ``ldmatrix``'s terms: lane ``l`` of warp ``w``
holds its registers as 32-bit units (two 16-bit or one 32-bit element), four ``ldmatrix.x4``
matrices per group of four units; unit ``4g + m`` of lane ``l`` lies at byte ``4 (l % 4)`` of the
16-byte chunk ``(w G + g) 32 + 8 m + l // 4`` (``G`` groups per thread), so lane ``l``'s row
address of group ``g`` is chunk ``(w G + g) 32 + l`` and ``ldmatrix`` hands every lane its own
units. The source layout suits when each of its threads holds whole chunks (an mma
accumulator's thread holds column pairs 8 apart: four of its pairs make one chunk of a result
row) and every address is ``thread part XOR register part``, the thread part linear in the
thread id's bits (blocked layouts with power-of-two shapes, nothing replicated); ``plan_wide``
checks both for every thread and register at compile time, and returns None otherwise (an
accumulator over warps along N holds pairs 16 columns apart; an f32 chunk takes 4 columns 4
apart: both stay element by element).
A swizzle (the 16-byte chunk's index within its 128 bytes XOR some higher address bits) keeps
the eight stores of each quarter warp on distinct banks; ``ldmatrix`` reads eight chunks of one
128-byte row per phase whatever the swizzle.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from xdsl.dialects import arith, gpu, llvm, vector
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    IndexType,
    IntegerAttr,
    VectorType,
    i32,
    i64,
)
from xdsl.ir import Attribute, SSAValue

from mytriton.dialects.nvgpu.nvvm import SHARED_POINTER, LdMatrixOp
from mytriton.dialects.ttg.geometry import Geometry, log2
from mytriton.dialects.ttg.layouts import WARP_SIZE
from mytriton.passes.gpu_lowering.context import LoweringContext
from mytriton.passes.gpu_lowering.dot_mma import memref_pointer
from mytriton.passes.gpu_lowering.op_builders import (
    extract_value,
    gep,
    vector_extract,
    vector_insert,
)

index = IndexType()

CHUNK = 16  #: bytes of one ``st.shared.v4`` and of one ``ldmatrix`` row
UNIT = 4  #: bytes of one ``ldmatrix`` register
X4 = 4  #: matrices (registers) per ``ldmatrix.x4``
LDMATRIX_CAPABILITY = 75


@dataclass(frozen=True)
class WidePlan:
    """Byte addresses in the scratch, in element units (``elem_bytes`` each): a thread's is
    the XOR of the contributions of its id's set bits and of the access's register part."""

    elem_bytes: int
    store_thread: tuple[int, ...]  # per thread-id bit
    stores: tuple[tuple[int, tuple[int, ...]], ...]  # register part, registers in chunk order
    load_thread: tuple[int, ...]  # per thread-id bit
    loads: tuple[int, ...]  # register part of each ``ldmatrix.x4``'s row address

    @property
    def store_adds(self) -> bool:
        """Whether the stores' thread and register parts share no bit (XOR is then an add)."""
        return _disjoint(self.store_thread, [a for a, _ in self.stores])

    @property
    def load_adds(self) -> bool:
        return _disjoint(self.load_thread, self.loads)


def _disjoint(a: Sequence[int], b: Sequence[int]) -> bool:
    x = y = 0
    for v in a:
        x |= v
    for v in b:
        y |= v
    return x & y == 0


def wide_element(t: Attribute) -> bool:
    """The element types the wide round trip moves: 16- and 32-bit floats, i32."""
    return isinstance(t, (Float16Type, BFloat16Type, Float32Type)) or t == i32


def plan_wide(src: Geometry, dst: Geometry, elem_bytes: int, numel: int) -> WidePlan | None:
    """The wide round trip from ``src`` to ``dst`` (``numel`` elements of ``elem_bytes``), or
    None where it does not apply (see the module docstring). Every thread and register is
    checked, in NumPy (a 128 x 256 block: 32768 of each)."""
    threads, regs = dst.num_threads, dst.num_registers
    if src.num_threads != threads or src.num_registers * threads != numel:
        return None
    if regs * elem_bytes % (X4 * UNIT) or regs * threads != numel or threads & (threads - 1):
        return None
    per_unit = UNIT // elem_bytes
    groups = regs // per_unit // X4
    if groups & (groups - 1):
        return None
    where = np.full(numel, -1, np.int64)
    at = _flat(dst)
    if not _each_once(at, numel):
        return None  # the result replicates elements
    t = np.arange(threads)[:, None]
    u, e = np.divmod(np.arange(regs)[None, :], per_unit)
    lane = t % WARP_SIZE
    chunk = (t // WARP_SIZE * groups + u // X4) * WARP_SIZE + 8 * (u % X4) + lane // 4
    where[at] = chunk * CHUNK + (lane % 4) * UNIT + e * elem_bytes
    stored = where[_flat(src)]
    if stored.min() < 0 or not _each_once(stored // elem_bytes, numel):
        return None  # the source replicates elements
    swizzle = _swizzle([int(stored[1 << b, 0] ^ stored[0, 0]) for b in range(3)])
    stored = swizzle(stored)
    store_thread = _thread_part(stored)
    if store_thread is None or any(c % CHUNK for c in store_thread):
        return None
    rows = (t // WARP_SIZE * groups + np.arange(groups)[None, :]) * WARP_SIZE + t % WARP_SIZE
    loaded = swizzle(rows * CHUNK)
    load_thread = _thread_part(loaded)
    stores = _chunks([int(a) for a in stored[0]], elem_bytes)
    if load_thread is None or stores is None:
        return None
    return WidePlan(
        elem_bytes,
        tuple(c // elem_bytes for c in store_thread),
        tuple((a // elem_bytes, run) for a, run in stores),
        tuple(c // elem_bytes for c in load_thread),
        tuple(int(a) // elem_bytes for a in loaded[0]),
    )


def _each_once(values: np.ndarray, n: int) -> bool:
    """Whether ``values`` hold each of ``0 .. n - 1`` exactly once."""
    return values.size == n and bool((np.bincount(values.ravel(), minlength=n) == 1).all())


def _flat(g: Geometry) -> np.ndarray:
    """The row-major position of every thread's (rows) every register's (columns) element:
    ``redistribute.thread_coords`` for all threads at once."""
    r = g.root
    tid = np.arange(g.num_threads)
    offsets = np.array(g.registers, np.int64).reshape(len(g.registers), r.rank)
    flat = np.zeros((g.num_threads, len(g.registers)), np.int64)
    stride = 1
    for d in reversed(g.kept):
        n = g.full_shape[d]
        lane = (tid >> log2(g.lane_strides[d])) & (r.tpw[d] - 1)
        warp = (tid >> (log2(WARP_SIZE) + log2(g.warp_strides[d]))) & (r.wpc[d] - 1)
        base = (warp * r.tpw[d] + lane) * r.spt[d]
        if n == 1:
            base = base * 0
        elif g.tile(d) > n:
            base = base & (n - 1)
        flat += (base[:, None] + offsets[None, :, d]) * stride
        stride *= n
    return flat


def _swizzle(steps: Sequence[int]) -> _Swizzle:
    """The swizzle that puts the chunks of quarter-warp lanes ``0..7`` (their addresses differ
    by XORs of ``steps``) on distinct 16-byte bank groups: the chunk's index within its 128
    bytes XOR up to three higher address bits (none where no choice separates them)."""
    highs = sorted({b for s in steps for b in range(7, s.bit_length()) if s >> b & 1})
    for picks in itertools.product([None, *highs], repeat=3):
        sw = _Swizzle(tuple(picks))
        if _independent([sw(s) >> 4 & 7 for s in steps]):
            return sw
    return _Swizzle((None, None, None))


@dataclass(frozen=True)
class _Swizzle:
    """Address bit ``4 + i`` XOR bit ``picks[i]`` (a linear, bijective map on addresses)."""

    picks: tuple[int | None, ...]

    def __call__(self, a: Any) -> Any:  # an int or an integer array
        for i, p in enumerate(self.picks):
            if p is not None:
                a = a ^ ((a >> p & 1) << (4 + i))
        return a


def _independent(vs: Sequence[int]) -> bool:
    """Whether the 3-bit vectors ``vs`` are linearly independent over GF(2)."""
    for n in range(1, len(vs) + 1):
        for combo in itertools.combinations(vs, n):
            x = 0
            for v in combo:
                x ^= v
            if x == 0:
                return False
    return True


def _thread_part(table: np.ndarray) -> tuple[int, ...] | None:
    """Per thread-id bit, its contribution to the address, when every ``table[t, k]`` is
    ``thread part XOR table[0, k]`` and the thread part is linear in the id's bits (the XOR of
    its set bits' contributions); else None."""
    threads = table.shape[0]
    part = table[:, 0] ^ table[0, 0]
    contrib = [int(part[1 << b]) for b in range(threads.bit_length() - 1)]
    t = np.arange(threads)
    linear = np.zeros(threads, np.int64)
    for b, c in enumerate(contrib):
        linear ^= ((t >> b) & 1) * c
    if not np.array_equal(linear, part) or not np.array_equal(table, part[:, None] ^ table[0]):
        return None
    return tuple(contrib)


def _chunks(addresses: Sequence[int], elem_bytes: int) -> list[tuple[int, tuple[int, ...]]] | None:
    """Thread 0's registers grouped into whole 16-byte chunks (chunk address, the registers
    by their byte in it), or None when some chunk is not all its own."""
    by_chunk: dict[int, dict[int, int]] = {}
    for k, a in enumerate(addresses):
        by_chunk.setdefault(a - a % CHUNK, {})[a % CHUNK] = k
    out = []
    for base, run in sorted(by_chunk.items()):
        if sorted(run) != list(range(0, CHUNK, elem_bytes)):
            return None
        out.append((base, tuple(run[o] for o in sorted(run))))
    return out


def lower_wide(
    ctx: LoweringContext, plan: WidePlan, buf: SSAValue, values: Sequence[SSAValue], elem: Attribute
) -> list[SSAValue]:
    """Store ``values`` (the source registers) by ``plan``, a barrier, load the result's
    registers by ``ldmatrix``, a barrier; the result's registers."""
    at, adds = _at_thread(ctx, plan.store_thread), plan.store_adds
    width = CHUNK // plan.elem_bytes
    t = VectorType(elem, [width])
    for offset, run in plan.stores:
        packed = ctx.value(vector.BroadcastOp(values[run[0]], t))
        for e in range(1, width):
            packed = ctx.value(vector_insert(values[run[e]], packed, e, t))
        where = ctx.value(arith.IndexCastOp(_combine(ctx, at, offset, adds), index))
        store = vector.StoreOp(packed, buf, [where])
        store.attributes["alignment"] = IntegerAttr(CHUNK, i64)
        ctx.emit(store)
    ctx.emit(gpu.BarrierOp())
    base = memref_pointer(ctx, buf)
    row_at, adds = _at_thread(ctx, plan.load_thread), plan.load_adds
    out: list[SSAValue] = []
    for offset in plan.loads:
        address = _combine(ctx, row_at, offset, adds)
        row = ctx.value(gep(base, address, elem, SHARED_POINTER))
        loaded = ctx.value(LdMatrixOp(row, X4, False))
        for field in range(X4):
            reg = ctx.value(extract_value(loaded, field, i32))
            out.extend(_unpack(ctx, reg, elem, plan.elem_bytes))
    ctx.emit(gpu.BarrierOp())
    return out


def _unpack(
    ctx: LoweringContext, reg: SSAValue, elem: Attribute, elem_bytes: int
) -> list[SSAValue]:
    """The elements one ``ldmatrix`` register holds, the low bytes first."""
    if elem_bytes == UNIT:
        return [reg if elem == i32 else ctx.value(arith.BitcastOp(reg, elem))]
    pair = ctx.value(llvm.BitcastOp(reg, VectorType(elem, [2])))
    return [ctx.value(vector_extract(pair, e, elem)) for e in (0, 1)]


def _combine(ctx: LoweringContext, at: SSAValue, offset: int, adds: bool) -> SSAValue:
    """``at XOR offset`` where the access is; ``adds``: as an add (they share no bit), which
    folds into the address."""
    if offset == 0:
        return at
    op = arith.AddiOp if adds else arith.XOrIOp
    return ctx.value(op(at, ctx.i32(offset)))


def _at_thread(ctx: LoweringContext, contrib: Sequence[int]) -> SSAValue:
    """The XOR of ``contrib[b]`` over the set bits ``b`` of the thread id (a run of bits whose
    contributions double as one field, shifted or multiplied), where the op is: a few integer
    instructions, kept out of the registers live across the kernel's main loop."""
    tid = ctx.thread_id
    total: SSAValue | None = None
    b = 0
    while b < len(contrib):
        c, run = contrib[b], 1
        if c == 0:
            b += 1
            continue
        bits = c  # a run of bits whose contributions double, none sharing a bit: one field
        while b + run < len(contrib) and contrib[b + run] == c << run and not bits & c << run:
            bits |= c << run
            run += 1
        field = ctx.value(arith.ShRUIOp(tid, ctx.i32(b))) if b else tid
        field = ctx.value(arith.AndIOp(field, ctx.i32((1 << run) - 1)))
        if c & (c - 1) == 0:
            shift = c.bit_length() - 1
            term = ctx.value(arith.ShLIOp(field, ctx.i32(shift))) if shift else field
        else:
            term = ctx.value(arith.MuliOp(field, ctx.i32(c)))
        total = term if total is None else ctx.value(arith.XOrIOp(total, term))
        b += run
    return total if total is not None else ctx.i32(0)
