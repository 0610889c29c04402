"""Tensor maps written in the kernel (``ptx_tensormap``, ``upstream_tensormap``); what the
copies may read of them is tracked in ``Machine.tensormaps`` (``tensormap_writes``).

* ``ptx.tensormap.replace %map, %value``: per active thread, the map (a pointer into a pointer
  parameter's memory, 64-byte aligned in it, its 128 bytes inside) gets the field in gpusim's
  packed layout (``tensor_maps``), and the magic: ``global_address`` (a ``Ptr``) its parameter
  and byte offset from that parameter's first element, which the copy reads the tensor from;
  an i32 field its value's 32 bits as unsigned, an i64 field (``global_stride``) its value. A
  value that does not fit gpusim's field fails; one that breaks CUDA's limits (a box dim of
  300, an unknown elemtype) fails when a copy reads the map, which only then must be complete.
  Threads of a program writing one field of one map at once must agree.
* ``ptx.tensormap.replace %smem, %value`` (``!llvm.ptr<3>``): the same in the program's shared
  memory, the map 64-byte aligned (its absolute shared address) and its 128 bytes inside one
  shared buffer. The field's bytes are a store of the thread to the buffer's elements they lie
  in (race-checked like a ``memref.store``, at the granularity of the buffer's elements), which
  must have been written before (the map zeroed: shared memory is uninitialised on a GPU); the
  magic is gpusim's bookkeeping, no access. The global address keeps its encoding (parameter
  and offset), valid wherever the bytes are copied.
* ``ptx.tensormap.cp_fenceproxy %dst, %src``: warp-wide (``.sync.aligned``): every thread of
  a warp executing it must be active and give the same ``dst`` and ``src``. Per warp, the 128
  bytes at ``src`` (checked as a shared map above) are read: all written, no copy in flight to
  them, and written since the last barrier only by threads of the warp (they wrote them before
  the instruction, which every thread of the warp reaches; another warp's writes race). The
  read is recorded as the warp's first thread's, the thread that builds maps, which may write
  the slot again without a barrier. The bytes go to ``dst`` (checked as a global map above, in
  a writable array), and the map counts as written by the warp's threads and released
  (``tensormap_writes``): a copy through it needs only an acquire. Warps of a program copying
  different bytes to one map at once fail.
* ``nvvm.fence.proxy.release <gpu>``: the active threads' map writes are released.
* ``nvvm.fence.proxy.acquire <gpu> %map, 128``: per active thread, the program's copies may
  read what was released of the map at ``%map`` (same checks of the address as a write).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from xdsl.ir import Operation

from mytriton.backends.gpusim.compiler import Compiler
from mytriton.backends.gpusim.errors import ReadOnlyArgument
from mytriton.backends.gpusim.global_memory import Region
from mytriton.backends.gpusim.machine import WARP_SIZE, Machine, Step
from mytriton.backends.gpusim.registry import rule
from mytriton.backends.gpusim.shared_memory import SharedBuffer
from mytriton.backends.gpusim.tensor_maps import (
    MAP_BYTES,
    field_bytes,
    write_address,
    write_field,
)
from mytriton.backends.gpusim.tensormap_writes import locate_map, locate_shared_map, where
from mytriton.backends.gpusim.values import Ptr, Value
from mytriton.dialects.nvgpu.ptx_tensormap import TensormapCpFenceproxyOp, TensormapReplaceOp
from mytriton.dialects.nvgpu.tensormap import FenceProxyAcquireOp, FenceProxyReleaseOp

#: what an i32 field's value means: its bits, unsigned (PTX's ``.b32``)
_U32 = (1 << 32) - 1


def _value(m: Machine, op: Operation, lane: int, value: Value) -> tuple[int, ...]:
    """``lane``'s value for the field: (parameter, byte offset from its first element) of a
    global address, else (the integer,)."""
    if isinstance(value, Ptr):
        arg = int(value.arg[lane])
        region = m.memory.regions.get(arg)
        if region is None:
            m.fail(
                op,
                "the global_address is not a pointer into a pointer parameter",
                m.lane_mask(lane),
            )
        return arg, int(value.off[lane]) - region.origin
    assert isinstance(value, np.ndarray)
    x = int(value[lane])
    return (x & _U32,) if value.dtype.itemsize == 4 else (x,)


def _writable(m: Machine, op: Operation, lane: int, region: Region) -> None:
    if not region.raw.flags.writeable:
        raise ReadOnlyArgument(
            f"writes a tensor map into argument `{region.name}`, a read-only array",
            op,
            m.program_of(lane),
            int(m.tid[lane]),
        )


def _patch(
    m: Machine,
    op: Operation,
    lane: int,
    raw: np.ndarray,
    field: str,
    ordinal: int | None,
    new: tuple[int, ...],
) -> None:
    """Write the field (and the magic) into the map's bytes ``raw``."""
    try:
        if field == "global_address":
            write_address(raw, *new)
        else:
            write_field(raw, field, ordinal, new[0])
    except ValueError as e:
        m.fail(op, str(e), m.lane_mask(lane))


def _replace_shared(
    m: Machine,
    op: Operation,
    lane: int,
    buf: SharedBuffer,
    rel: int,
    field: str,
    ordinal: int | None,
    new: tuple[int, ...],
    check: bool,
) -> None:
    """``lane``'s replace of the field of the map at byte ``rel`` of ``buf``: a store of the
    thread to the buffer's elements holding the field's bytes (the module doc)."""
    p = int(m.prog[lane])
    raw = buf.data[p].view(np.uint8)[rel : rel + MAP_BYTES]
    after = raw.copy()
    _patch(m, op, lane, after, field, ordinal, new)
    lo, hi = field_bytes(field, ordinal)
    item = buf.data.dtype.itemsize
    first, last = (rel + lo) // item, (rel + hi - 1) // item + 1
    unwritten = ~buf.written[p, first:last]
    if unwritten.any():
        i = first + int(np.argmax(unwritten))
        m.fail(
            op,
            f"replaces {field} of the tensor map at byte {rel} of {buf.name}, in {buf.name}[{i}], "
            "which no thread of the program has written: zero the map's "
            f"{MAP_BYTES} bytes first (shared memory is uninitialised on a GPU)",
            m.lane_mask(lane),
        )
    # the elements holding the field, the field's bytes replaced
    elements = buf.data[p, first:last].copy()
    elements.view(np.uint8)[rel + lo - first * item : rel + hi - first * item] = after[lo:hi]
    saved = m.mask
    m.mask = m.lane_mask(lane)
    try:
        values = np.zeros(m.lanes, buf.data.dtype)
        for k, value in enumerate(elements):
            values[lane] = value
            buf.store(m, op, np.full(m.lanes, first + k, np.int64), values, check)
    finally:
        m.mask = saved
    raw[:] = after  # the magic too (bookkeeping); the field's bytes are stored already


@rule("ptx.tensormap.replace")
def _replace(op: Operation, c: Compiler) -> Step:
    assert isinstance(op, TensormapReplaceOp)
    addr, value, field, ordinal = op.addr, op.value, op.field_name, op.dimension
    shared, check = op.shared, c.check_races

    def step(m: Machine) -> None:
        active = np.flatnonzero(m.mask)
        if active.size == 0:
            return
        pointer, v = m.env[addr], m.env[value]
        written: dict[tuple[int, ...], tuple[tuple[int, ...], int]] = {}

        def agree(key: tuple[int, ...], new: tuple[int, ...], lane: int) -> None:
            earlier = written.setdefault(key, (new, lane))
            if earlier[0] != new:
                m.fail(
                    op,
                    f"threads {int(m.tid[earlier[1]])} and {int(m.tid[lane])} write different "
                    f"values of {field} to one tensor map at once",
                    m.lane_mask(lane),
                )

        for lane in active.tolist():
            if shared:
                assert isinstance(pointer, np.ndarray)
                buf, rel = locate_shared_map(m, op, lane, pointer, "the tensor map")
                new = _value(m, op, lane, v)
                agree((int(m.prog[lane]), -1, int(pointer[lane])), new, lane)
                _replace_shared(m, op, lane, buf, rel, field, ordinal, new, check)
                continue
            assert isinstance(pointer, Ptr)
            arg, region, off = locate_map(m, op, lane, pointer, "the tensor map")
            _writable(m, op, lane, region)
            new = _value(m, op, lane, v)
            agree((int(m.prog[lane]), arg, off), new, lane)
            _patch(m, op, lane, region.raw[off : off + MAP_BYTES], field, ordinal, new)
            m.tensormaps.wrote(m, op, lane, region, arg, off)

    return step


def _check_warps(m: Machine, op: Operation) -> None:
    """Every warp with an active thread has all its threads active."""
    if m.threads % WARP_SIZE:
        m.fail(
            op,
            f"{op.name} is warp-wide (.sync.aligned): it needs a block of whole warps, not "
            f"{m.threads} threads",
            m.mask,
        )
    found = m.partially_active(WARP_SIZE)
    if found is not None:
        active, bad = found
        warp = int(m.tid[int(np.argmax(bad))]) // WARP_SIZE
        m.fail(
            op,
            f"{op.name} is executed by only {active} of the {WARP_SIZE} threads of warp {warp} "
            "(the thread named here skips it): the instruction is .sync.aligned, every thread "
            "of the warp must execute it",
            bad,
        )


def _check_same(
    m: Machine,
    op: Operation,
    lanes: np.ndarray,
    what: str,
    values: list[np.ndarray],
    show: Callable[[int], str],
) -> None:
    """The ``lanes`` of a warp agree on the operand ``values`` (one array per component)."""
    differs = np.zeros(lanes.size, np.bool_)
    for x in values:
        differs |= x[lanes] != x[lanes[0]]
    if differs.any():
        other = int(lanes[np.argmax(differs)])
        first = int(lanes[0])
        m.fail(
            op,
            f"the threads of warp {int(m.tid[first]) // WARP_SIZE} give different {what}s "
            f"(thread {int(m.tid[first])}: {show(first)}, thread {int(m.tid[other])}: "
            f"{show(other)}): {op.name} is .sync.aligned, every thread of the warp must give the "
            "same operands",
            m.lane_mask(other),
        )


def _read_map_bytes(
    m: Machine, op: Operation, lanes: np.ndarray, buf: SharedBuffer, rel: int, check: bool
) -> np.ndarray:
    """The warp of ``lanes`` reads the map at byte ``rel`` of ``buf`` (the module doc): a copy of
    its bytes."""
    lead = int(lanes[0])
    p = int(m.prog[lead])
    item = buf.data.dtype.itemsize
    cols = np.arange(rel // item, (rel + MAP_BYTES) // item)
    rows = np.full(cols.size, p)
    buf._check_settled(m, op, "copies from", rows, cols, np.full(cols.size, lead))
    unwritten = ~buf.written[p, cols]
    if unwritten.any():
        i = int(cols[np.argmax(unwritten)])
        m.fail(
            op,
            f"copies the tensor map at byte {rel} of {buf.name}, whose {buf.name}[{i}] no thread "
            "of the program has written (shared memory is uninitialised on a GPU): zero the "
            "map and replace its fields before copying it",
            m.lane_mask(lead),
        )
    if check:
        tids = m.tid[lanes]
        low, high = int(tids.min()), int(tids.max())
        lo, hi = buf.writer_lo[p, cols], buf.writer_hi[p, cols]
        outside = (hi >= 0) & ((lo < low) | (hi > high))
        if outside.any():
            k = int(np.argmax(outside))
            who = int(lo[k]) if lo[k] < low else int(hi[k])
            m.fail(
                op,
                f"data race: warp {low // WARP_SIZE} copies the tensor map at byte {rel} of "
                f"{buf.name}, whose {buf.name}[{int(cols[k])}] thread {who} of another warp wrote "
                "since the last barrier (a barrier is missing between the writes and the copy)",
                m.lane_mask(lead),
            )
        np.minimum.at(buf.reader_lo, (rows, cols), low)
        np.maximum.at(buf.reader_hi, (rows, cols), low)
    return buf.data[p].view(np.uint8)[rel : rel + MAP_BYTES].copy()


@rule("ptx.tensormap.cp_fenceproxy")
def _cp_fenceproxy(op: Operation, c: Compiler) -> Step:
    assert isinstance(op, TensormapCpFenceproxyOp)
    dst, src, check = op.dst, op.src, c.check_races

    def step(m: Machine) -> None:
        if not m.mask.any():
            return
        _check_warps(m, op)
        pointer, address = m.env[dst], m.env[src]
        assert isinstance(pointer, Ptr) and isinstance(address, np.ndarray)

        def global_at(lane: int) -> str:
            arg, off = int(pointer.arg[lane]), int(pointer.off[lane])
            region = m.memory.regions.get(arg)
            return f"parameter {arg} + {off}" if region is None else where(region, off)

        copied: dict[tuple[int, int, int], tuple[np.ndarray, int]] = {}
        warps = np.flatnonzero(m.mask.reshape(-1, WARP_SIZE).any(axis=1))
        for w in warps.tolist():
            lanes = np.arange(w * WARP_SIZE, (w + 1) * WARP_SIZE)
            lead = int(lanes[0])
            _check_same(m, op, lanes, "destination", [pointer.arg, pointer.off], global_at)
            _check_same(
                m,
                op,
                lanes,
                "source",
                [address],
                lambda lane: f"shared address {int(address[lane])}",
            )
            arg, region, off = locate_map(m, op, lead, pointer, "the destination tensor map")
            _writable(m, op, lead, region)
            buf, rel = locate_shared_map(m, op, lead, address, "the source tensor map")
            data = _read_map_bytes(m, op, lanes, buf, rel, check)
            key = (int(m.prog[lead]), arg, off)
            earlier = copied.setdefault(key, (data, lead))
            if not np.array_equal(earlier[0], data):
                m.fail(
                    op,
                    f"warps {int(m.tid[earlier[1]]) // WARP_SIZE} and "
                    f"{int(m.tid[lead]) // WARP_SIZE} copy different tensor maps to "
                    f"{where(region, off)} at once",
                    m.lane_mask(lead),
                )
            region.raw[off : off + MAP_BYTES] = data
            threads = {int(t) for t in m.tid[lanes]}
            m.tensormaps.copied(m, op, lead, region, arg, off, threads)

    return step


@rule("nvvm.fence.proxy.release")
def _release(op: Operation, c: Compiler) -> Step:
    assert isinstance(op, FenceProxyReleaseOp)

    def step(m: Machine) -> None:
        m.tensormaps.release(m)

    return step


@rule("nvvm.fence.proxy.acquire")
def _acquire(op: Operation, c: Compiler) -> Step:
    assert isinstance(op, FenceProxyAcquireOp)
    addr = op.addr

    def step(m: Machine) -> None:
        active = np.flatnonzero(m.mask)
        if active.size == 0:
            return
        pointer = m.env[addr]
        if not isinstance(pointer, Ptr):
            m.fail(op, "the acquired address is not a global pointer", m.mask)
        # one check per (program, map): every thread of a program may acquire
        keys = np.stack([m.prog[active], pointer.arg[active], pointer.off[active]])
        _, first = np.unique(keys, axis=1, return_index=True)
        for lane in sorted(active[first].tolist()):
            arg, region, off = locate_map(m, op, lane, pointer, "the acquired tensor map")
            m.tensormaps.acquire(m, op, lane, region, arg, off)

    return step
