"""Hopper's TMA tile loads and their mbarriers (``upstream_tma``), per program (a CTA); the
state lives in ``Machine.mbarriers`` (``mbarriers``, which says when copies land).

* ``nvvm.mbarrier.init %bar, %count``: a fresh barrier at that shared address (8 bytes, inside a
  shared buffer, 8-byte aligned), in phase 0, expecting ``count`` (1 to 2^20 - 1) arrivals;
  threads initialising one barrier at once must agree on the count.
* ``nvvm.fence.mbarrier.init``: nothing to simulate.
* ``nvvm.mbarrier.arrive.expect_tx %bar, %bytes``: per active thread, the phase expects
  ``bytes`` more transaction bytes, then the thread arrives (more arrivals than the count in one
  phase fail).
* ``nvvm.cp.async.bulk.tensor.shared.cluster.global``: per active thread (the lowering issues it
  from one), read the gpusim tensor map (``tensor_maps``: 128 bytes, 64-byte aligned in a
  pointer parameter's memory; one the program wrote must be fenced, ``rules_tensormap``) through
  the map pointer, read the box from global memory now (elements outside the tensor, negative
  coordinates included, read as zero), and queue its write to shared memory on the barrier: the
  box's rows (all outer coordinates, innermost dimension contiguous) at
  ``dst + row * box_inner_bytes``, swizzled on the absolute shared address
  (``tensor_maps.swizzle_addresses``). The destination must be 128-byte aligned and, swizzled,
  aligned to the swizzle's period (8 x its span: 1024 bytes for 128-byte swizzle): gpusim's
  shared addresses agree with the GPU's modulo a buffer's declared alignment, so the swizzle
  lands where it does on the GPU. No other thread may have read or written the destination since
  the last barrier (a missing barrier before a buffer is reloaded), and no copy may be in flight
  to it.
* ``nvvm.mbarrier.try_wait.parity %bar, %phase``: the copies queued on the barrier land (their
  bytes complete), then the wait returns if the phase of parity ``%phase`` has completed (the
  barrier's current parity differs); otherwise it fails as a deadlock: in lockstep every
  arrival and copy the program makes before the wait has happened (a kernel whose threads
  arrive in a branch that lockstep runs after the waiting one is beyond this model).
* ``llvm.addrspacecast``: the value unchanged (a shared address stays an int, a global ``Ptr``
  a ``Ptr``).

Global reads of a copy are bounds-checked against the tensor map's array (the whole tensor the
map describes must lie in it) but not race-logged.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
from xdsl.ir import Operation, SSAValue

from mytriton.backends.gpusim.compiler import Compiler
from mytriton.backends.gpusim.machine import Machine, Step
from mytriton.backends.gpusim.mbarriers import BulkCopy
from mytriton.backends.gpusim.registry import rule
from mytriton.backends.gpusim.shared_aliases import check_aliases
from mytriton.backends.gpusim.shared_memory import SharedBuffer
from mytriton.backends.gpusim.tensor_maps import (
    MAP_BYTES,
    TMA_ALIGNMENT,
    TensorMap,
    decode_gpusim_tensor_map,
    swizzle_addresses,
)
from mytriton.backends.gpusim.tensormap_writes import locate_map, where
from mytriton.backends.gpusim.values import Ptr
from mytriton.dialects.nvgpu.tma import (
    AddrSpaceCastOp,
    CpAsyncBulkTensorGlobalToSharedClusterOp,
    FenceMBarrierInitOp,
    MBarrierArriveExpectTxOp,
    MBarrierInitOp,
    MBarrierInvalOp,
    MBarrierTryWaitParityOp,
)

MBARRIER_BYTES = 8
#: an mbarrier's arrival count, and its transaction count, lie in 0 to 2^20 - 1
MAX_COUNT = (1 << 20) - 1
#: a bulk tensor copy's shared destination alignment
DESTINATION_ALIGNMENT = 128
#: the modelled address-space casts: (source, result) spaces
CASTS = ((3, 7), (1, 0), (0, 1))


def _ints(m: Machine, value: SSAValue) -> np.ndarray:
    x = m.env[value]
    assert isinstance(x, np.ndarray)
    return x.astype(np.int64)


def _barriers(m: Machine, op: Operation, addr: SSAValue) -> Iterator[tuple[np.ndarray, int]]:
    """The active lanes grouped by the barrier they address: (lanes, address) per (program,
    address); every address must be 8 bytes inside a shared buffer, 8-byte aligned."""
    active = np.flatnonzero(m.mask)
    if active.size == 0:
        return
    address = _ints(m, addr)
    m.shared.locate(m, op, address, MBARRIER_BYTES)
    keys = m.prog[active] * (1 << 32) + address[active]
    order = np.argsort(keys, kind="stable")
    sorted_keys = keys[order]
    starts = np.flatnonzero(np.r_[True, sorted_keys[1:] != sorted_keys[:-1]])
    for group in np.split(order, starts[1:]):
        lanes = active[group]
        yield lanes, int(address[lanes[0]])


@rule("nvvm.mbarrier.init")
def _mbarrier_init(op: Operation, c: Compiler) -> Step:
    assert isinstance(op, MBarrierInitOp)
    addr, count = op.addr, op.count

    def step(m: Machine) -> None:
        counts = _ints(m, count)
        bad = m.mask & ((counts < 1) | (counts > MAX_COUNT))
        if bad.any():
            m.fail(op, f"an mbarrier's count must be 1 to {MAX_COUNT}, not {counts[bad][0]}", bad)
        for lanes, address in _barriers(m, op, addr):
            mine = counts[lanes]
            if (mine != mine[0]).any():
                other = int(lanes[np.argmax(mine != mine[0])])
                m.fail(
                    op,
                    f"threads {int(m.tid[lanes[0]])} and {int(m.tid[other])} initialise the "
                    f"mbarrier at shared address {address} with different counts ({mine[0]} and "
                    f"{counts[other]})",
                    m.lane_mask(other),
                )
            m.mbarriers.init(m, op, int(lanes[0]), int(m.prog[lanes[0]]), address, int(mine[0]))

    return step


@rule("nvvm.mbarrier.inval")
def _mbarrier_inval(op: Operation, c: Compiler) -> Step:
    assert isinstance(op, MBarrierInvalOp)
    addr = op.addr

    def step(m: Machine) -> None:
        for lanes, address in _barriers(m, op, addr):
            m.mbarriers.inval(m, op, int(lanes[0]), int(m.prog[lanes[0]]), address)

    return step


@rule("nvvm.fence.mbarrier.init")
def _fence_mbarrier_init(op: Operation, c: Compiler) -> Step:
    """Orders the inits before the async proxy's uses: nothing to simulate."""
    assert isinstance(op, FenceMBarrierInitOp)

    def step(m: Machine) -> None:
        pass

    return step


@rule("nvvm.mbarrier.arrive.expect_tx")
def _expect_tx(op: Operation, c: Compiler) -> Step:
    assert isinstance(op, MBarrierArriveExpectTxOp)
    addr, txcount = op.addr, op.txcount

    def step(m: Machine) -> None:
        counts = _ints(m, txcount)
        bad = m.mask & ((counts < 0) | (counts > MAX_COUNT))
        if bad.any():
            m.fail(
                op, f"a transaction count must be 0 to {MAX_COUNT} bytes, not {counts[bad][0]}", bad
            )
        for lanes, address in _barriers(m, op, addr):
            barrier = m.mbarriers.get(m, op, int(lanes[0]), address)
            barrier.tx += int(counts[lanes].sum())
            barrier.pending -= lanes.size
            if barrier.pending < 0:
                m.fail(
                    op,
                    f"{lanes.size} threads arrive on the mbarrier at shared address "
                    f"{barrier.address}, more than the {barrier.count} arrivals left in its phase "
                    "(its count)",
                    m.lane_mask(int(lanes[-1])),
                )
            barrier.complete_if_done()

    return step


def checked_map(
    m: Machine,
    op: Operation,
    lane: int,
    pointer: Ptr,
    rank: int,
    inner_coordinate: int,
    what: str,
    consequence: str = "",
) -> TensorMap:
    """The tensor map a TMA ``what`` (copy, store) of ``rank`` coordinates reads, checked: its
    rank, and the innermost coordinate's start at a multiple of ``INNER_ALIGNMENT`` bytes."""
    tm = _read_map(m, op, lane, pointer)
    if tm.rank != rank:
        m.fail(
            op,
            f"a {what} of {rank} coordinates through a rank-{tm.rank} tensor map",
            m.lane_mask(lane),
        )
    inner = inner_coordinate * tm.element_bytes
    if inner % INNER_ALIGNMENT:
        m.fail(
            op,
            f"the innermost coordinate {inner_coordinate} starts {inner} bytes into "
            f"the rows, not a multiple of {INNER_ALIGNMENT}{consequence}",
            m.lane_mask(lane),
        )
    return tm


def _read_map(m: Machine, op: Operation, lane: int, pointer: Ptr) -> TensorMap:
    """The tensor map ``lane``'s map pointer points to, which the program must have fenced if
    it wrote it (``tensormap_writes``)."""
    arg, region, off = locate_map(m, op, lane, pointer, "the tensor map")
    m.tensormaps.check_readable(m, op, lane, region, arg, off)
    try:
        return decode_gpusim_tensor_map(region.raw[off : off + MAP_BYTES])
    except ValueError as e:
        m.fail(op, f"bad tensor map {where(region, off)}: {e}", m.lane_mask(lane))


def _read_box(
    m: Machine, op: Operation, lane: int, tm: TensorMap, coordinates: list[int]
) -> np.ndarray:
    """The box at ``coordinates`` as raw bytes, rows (outer coordinates) in order, zeros
    outside the tensor."""
    raw_bytes, first, inside = box_bytes(m, op, lane, tm, coordinates)
    raw = raw_bytes[first[:, None] + np.arange(tm.element_bytes)]
    raw[~inside] = 0
    return raw.reshape(-1)


def box_bytes(
    m: Machine,
    op: Operation,
    lane: int,
    tm: TensorMap,
    coordinates: list[int],
    granule: int = 1,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The raw bytes of the array behind ``tm``, the byte offset in them of each element of the
    box at ``coordinates`` (rows in order; a place inside the array where the element is
    outside the tensor) and whether it is inside the tensor, its innermost extent rounded up
    to whole ``granule`` bytes (a TMA store's writes: ``rules_tma_store``)."""
    region = m.memory.regions.get(tm.base_param)
    if region is None:
        m.fail(
            op,
            f"the tensor map's base parameter {tm.base_param} is not a pointer parameter",
            m.lane_mask(lane),
        )
    lo = region.origin + tm.base_offset
    if lo < 0 or lo + tm.extent > region.raw.size:
        m.fail(
            op,
            f"the tensor the map describes (bytes {tm.base_offset} to "
            f"{tm.base_offset + tm.extent} of `{region.name}`) runs past the array",
            m.lane_mask(lane),
        )
    if (region.address + lo) % TMA_ALIGNMENT:
        m.fail(
            op,
            f"the tensor's base address (byte {tm.base_offset} of `{region.name}`) is not "
            f"{TMA_ALIGNMENT}-byte aligned",
            m.lane_mask(lane),
        )
    # box positions, outermost dimension first (the innermost is the last axis)
    grid = np.indices(tm.box[::-1], dtype=np.int64)
    inside = np.ones(grid.shape[1:], np.bool_)
    offset = np.full(grid.shape[1:], lo, np.int64)
    for k in range(tm.rank):
        coordinate = coordinates[k] + grid[tm.rank - 1 - k]
        bound = tm.dims[k]
        if k == 0:  # (the base and the row strides are 16-byte aligned)
            bound = -(-bound * tm.element_bytes // granule) * granule // tm.element_bytes
        inside &= (coordinate >= 0) & (coordinate < bound)
        offset += coordinate * tm.strides[k]
    offsets = np.where(inside, offset, lo).reshape(-1)
    if granule > 1 and inside.any() and int(offsets.max()) + tm.element_bytes > region.raw.size:
        m.fail(
            op,
            f"a TMA store writes whole {granule}-byte chunks: the last row's chunk past the "
            f"tensor's innermost extent runs past `{region.name}`",
            m.lane_mask(lane),
        )
    return region.raw, offsets, inside.reshape(-1)


def _destination(
    m: Machine, op: Operation, lane: int, dst: int, tm: TensorMap, role: str = "destination"
) -> tuple[SharedBuffer, np.ndarray]:
    """The buffer a copy of ``tm``'s box to shared address ``dst`` writes (or, ``role``
    "source", a store reads), and the element of it each of its units (the buffer's element
    size) lands in, swizzled."""
    found = m.shared.buffer_at(dst)
    if found is None:
        m.fail(op, f"the {role} {dst} is outside every shared buffer", m.lane_mask(lane))
    name, buf, base = found
    if dst % DESTINATION_ALIGNMENT:
        m.fail(
            op,
            f"the {role} (shared address {dst}, in {name}) must be "
            f"{DESTINATION_ALIGNMENT}-byte aligned",
            m.lane_mask(lane),
        )
    period = 8 * tm.swizzle
    if tm.swizzle and dst % period:
        m.fail(
            op,
            f"a {tm.swizzle}-byte swizzled {role} (shared address {dst}, in {name}) must be "
            f"{period}-byte aligned: the swizzle repeats every {period} bytes, and only so does "
            "the tile land where the GPU puts it",
            m.lane_mask(lane),
        )
    unit = buf.data.dtype.itemsize
    addresses = swizzle_addresses(dst + unit * np.arange(tm.box_bytes // unit), tm.swizzle)
    rel = addresses - base
    if rel.min() < 0 or rel.max() + unit > buf.nbytes:
        m.fail(
            op,
            f"the {tm.box_bytes}-byte box at shared address {dst} runs past the end of {name} "
            f"(bytes {base} to {base + buf.nbytes})",
            m.lane_mask(lane),
        )
    return buf, rel // unit


def _check_free(
    m: Machine, op: Operation, lane: int, buf: SharedBuffer, elements: np.ndarray, check: bool
) -> None:
    """Nothing in flight to the destination, nothing reading it; no other thread touched it
    since the last barrier (it would race with the copy landing at any moment)."""
    p, tid = int(m.prog[lane]), int(m.tid[lane])
    saved = m.mask
    m.mask = m.lane_mask(lane)
    try:  # the in-flight checks of a store, for one lane and many elements
        lanes = np.full(elements.size, lane)
        buf._check_settled(m, op, "copies to", np.full(elements.size, p), elements, lanes)
    finally:
        m.mask = saved
    if buf.aliases:
        saved = m.mask
        m.mask = m.lane_mask(lane)
        try:
            rows, lanes = np.full(elements.size, p), np.full(elements.size, lane)
            check_aliases(buf, m, op, "copies to", rows, elements, lanes, True, check)
        finally:
            m.mask = saved
    if (buf.wgmma_reads[p, elements] > 0).any():
        i = int(elements[np.argmax(buf.wgmma_reads[p, elements] > 0)])
        m.fail(
            op,
            f"copies to {buf.name}[{i}] while an nvvm.wgmma.mma_async reading it is in flight",
            m.lane_mask(lane),
        )
    buf.check_not_stored(m, op, "copies to", np.full(elements.size, p), elements, lanes)
    if not check:
        return
    for lo, hi, verb in (
        (buf.writer_lo, buf.writer_hi, "wrote"),
        (buf.reader_lo, buf.reader_hi, "read"),
    ):
        low, high = lo[p, elements], hi[p, elements]
        other = (high >= 0) & ((low != tid) | (high != tid))
        if other.any():
            i = int(np.argmax(other))
            who = int(low[i]) if low[i] != tid else int(high[i])
            m.fail(
                op,
                f"data race: a TMA copy to {buf.name}[{int(elements[i])}], which thread {who} "
                f"{verb} since the last barrier (a barrier is missing before the buffer is "
                "reloaded)",
                m.lane_mask(lane),
            )


#: bytes: where a copy's innermost coordinate must start (checked on the H200, 2026-12-03)
INNER_ALIGNMENT = 16


@rule("nvvm.cp.async.bulk.tensor.shared.cluster.global")
def _bulk_tensor(op: Operation, c: Compiler) -> Step:
    assert isinstance(op, CpAsyncBulkTensorGlobalToSharedClusterOp)
    dst, tmap, mbar, coordinates = op.dstMem, op.tmaDescriptor, op.mbar, list(op.coordinates)
    rank, check = op.rank, c.check_races

    def step(m: Machine) -> None:
        active = np.flatnonzero(m.mask)
        if active.size == 0:
            return
        pointer = m.env[tmap]
        assert isinstance(pointer, Ptr)
        destination, barrier_address = _ints(m, dst), _ints(m, mbar)
        coords = [_ints(m, x) for x in coordinates]
        for lane in active.tolist():
            barrier = m.mbarriers.get(m, op, lane, int(barrier_address[lane]))
            tm = checked_map(
                m, op, lane, pointer, rank, int(coords[0][lane]), "copy",
                ": the H200 stops such a copy with an illegal instruction",
            )  # fmt: skip
            raw = _read_box(m, op, lane, tm, [int(x[lane]) for x in coords])
            buf, elements = _destination(m, op, lane, int(destination[lane]), tm)
            _check_free(m, op, lane, buf, elements, check)
            p = int(m.prog[lane])
            buf.tma_pending[p, elements] += 1
            values = raw.view(buf.data.dtype)
            barrier.copies.append(BulkCopy(op, buf, p, elements, values, tm.box_bytes, lane))

    return step


@rule("nvvm.mbarrier.try_wait.parity")
def _try_wait_parity(op: Operation, c: Compiler) -> Step:
    assert isinstance(op, MBarrierTryWaitParityOp)
    addr, phase = op.addr, op.phase

    def step(m: Machine) -> None:
        parity = _ints(m, phase) & 1
        for lanes, at in _barriers(m, op, addr):
            barrier = m.mbarriers.get(m, op, int(lanes[0]), at)
            m.mbarriers.land(barrier)
            if barrier.tx < 0:
                m.fail(
                    op,
                    f"the TMA copies on the mbarrier at shared address {at} completed "
                    f"{-barrier.tx} bytes more than nvvm.mbarrier.arrive.expect_tx announced: "
                    f"{barrier.describe()}",
                    m.lane_mask(int(lanes[0])),
                )
            barrier.complete_if_done()
            stuck = parity[lanes] == barrier.parity
            if stuck.any():
                lane = int(lanes[np.argmax(stuck)])
                m.fail(
                    op,
                    "deadlock: waits on an mbarrier phase that never completes (phase parity "
                    f"{int(parity[lane])}, but {barrier.describe()}, and its copies have landed: "
                    "an nvvm.mbarrier.arrive.expect_tx or TMA copy is missing before the wait)",
                    m.lane_mask(lane),
                )

    return step


@rule("llvm.addrspacecast")
def _addrspacecast(op: Operation, c: Compiler) -> Step:
    assert isinstance(op, AddrSpaceCastOp)
    if op.spaces not in CASTS:
        source, result = op.spaces
        c.unsupported(
            op,
            "only !llvm.ptr<3> -> !llvm.ptr<7> and global <-> generic casts are modelled, not "
            f"{source} -> {result}",
        )
    arg, out = op.arg, op.res

    def step(m: Machine) -> None:
        m.env[out] = m.env[arg]

    return step
