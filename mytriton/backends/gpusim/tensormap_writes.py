"""The tensor maps a kernel writes itself (``rules_tensormap``), per program of a batch: where
a map lies in global memory (or in shared memory, where it is built), and whether the copy
engine may read it yet.

A map written with ``ptx.tensormap.replace`` (the generic proxy) is read by TMA copies through
the tensormap proxy, so on a GPU the writing thread's ``nvvm.fence.proxy.release`` must order
its writes before an ``nvvm.fence.proxy.acquire`` of the map's 128 bytes in the program, which
must come before the copy. A map built in shared memory and copied to its global slot by
``ptx.tensormap.cp_fenceproxy`` is released by that copy (the copying warp's release): only the
acquire is left to do. Per map written in the batch, gpusim keeps the program that wrote it,
the threads whose writes no release of theirs has covered yet, whether an acquire of the map
followed the release of the last write, and the map's bytes at that release. A copy through the
map fails if a writer's release is missing, if the acquire is missing, or if the bytes changed
since the release (an ordinary store after it, which no fence orders). Maps the kernel never
writes (the runtime's) need no fence.

A map belongs to the program that writes it: another program of the batch writing or reading it
fails, since programs cannot order their writes (the map's slot is computed wrongly). Maps that
earlier batches wrote are not tracked.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
from xdsl.ir import Operation

from mytriton.backends.gpusim.global_memory import Region
from mytriton.backends.gpusim.shared_memory import SharedBuffer
from mytriton.backends.gpusim.tensor_maps import MAP_ALIGNMENT, MAP_BYTES
from mytriton.backends.gpusim.values import Ptr

if TYPE_CHECKING:
    from mytriton.backends.gpusim.machine import Machine


def where(region: Region, off: int) -> str:
    """A map's place, for messages: from its array's first element."""
    return f"at byte {off - region.origin} of `{region.name}`"


def locate_map(
    m: Machine, op: Operation, lane: int, pointer: Ptr, what: str
) -> tuple[int, Region, int]:
    """The parameter, its memory and the byte offset in that memory of the map ``lane``'s
    ``pointer`` addresses: inside a pointer parameter's memory, ``MAP_ALIGNMENT``-aligned in it
    (a GPU's tensor map must be; gpusim knows no more of the address), all ``MAP_BYTES`` in it.
    ``what`` names the pointer in messages."""
    arg = int(pointer.arg[lane])
    region = m.memory.regions.get(arg)
    if region is None:
        m.fail(op, f"{what} is not a pointer into a pointer parameter", m.lane_mask(lane))
    off = int(pointer.off[lane])
    if off % MAP_ALIGNMENT:
        memory = f" (byte {off} of the memory it views)" if region.origin else ""
        m.fail(
            op,
            f"{what} {where(region, off)}{memory} is not {MAP_ALIGNMENT}-byte aligned: a GPU's "
            "tensor map must be",
            m.lane_mask(lane),
        )
    if off < 0 or off + MAP_BYTES > region.raw.size:
        m.fail(
            op,
            f"{what} {where(region, off)} runs past the array (a map has {MAP_BYTES} bytes)",
            m.lane_mask(lane),
        )
    return arg, region, off


def locate_shared_map(
    m: Machine, op: Operation, lane: int, address: np.ndarray, what: str
) -> tuple[SharedBuffer, int]:
    """The shared buffer and the byte offset in it of the map at ``lane``'s shared ``address``
    (an absolute address of the program's shared window): ``MAP_ALIGNMENT``-aligned, all
    ``MAP_BYTES`` inside one buffer. ``what`` names the address in messages."""
    start = int(address[lane])
    found = m.shared.buffer_at(start)
    if found is None:
        m.fail(
            op,
            f"{what} at shared address {start} is outside every shared buffer",
            m.lane_mask(lane),
        )
    name, buf, base = found
    rel = start - base
    at = f"{what} at shared address {start} (byte {rel} of {name})"
    if start % MAP_ALIGNMENT:
        m.fail(
            op,
            f"{at} is not {MAP_ALIGNMENT}-byte aligned: a GPU's tensor map must be",
            m.lane_mask(lane),
        )
    if rel + MAP_BYTES > buf.nbytes:
        m.fail(
            op,
            f"{at} runs past the end of {name} (bytes {base} to {base + buf.nbytes}; a map has "
            f"{MAP_BYTES} bytes)",
            m.lane_mask(lane),
        )
    return buf, rel


#: what releases a map written in global memory, and what copies and releases one built in
#: shared memory (for messages)
RELEASE = "nvvm.fence.proxy.release"
CP_FENCEPROXY = "ptx.tensormap.cp_fenceproxy"


@dataclass
class MapWrites:
    """The kernel's writes to one map (the module doc)."""

    program: int  #: in the batch
    raw: np.ndarray  #: the map's bytes (a view of the parameter's memory)
    unreleased: set[int] = field(default_factory=set)  #: writer threads not yet released
    released: np.ndarray | None = None  #: the bytes at the release of the last write
    acquired: bool = False  #: an acquire followed that release
    released_by: str = RELEASE  #: the op of that release (for messages)


class TensorMapWrites:
    """The maps a batch's programs wrote, by (parameter, byte offset in its memory)."""

    def __init__(self) -> None:
        self.maps: dict[tuple[int, int], MapWrites] = {}

    def _own(
        self, m: Machine, op: Operation, lane: int, key: tuple[int, int], verb: str, at: str
    ) -> MapWrites | None:
        """The program's writes to the map at ``key``; another program's fail."""
        writes = self.maps.get(key)
        if writes is not None and writes.program != int(m.prog[lane]):
            x, y, z = (int(c) for c in m.coords[writes.program])
            m.fail(
                op,
                f"{verb} the tensor map {at}, which program ({x}, {y}, {z}) wrote in the kernel: "
                "programs cannot order their writes, each must write its own map",
                m.lane_mask(lane),
            )
        return writes

    def wrote(
        self, m: Machine, op: Operation, lane: int, region: Region, arg: int, off: int
    ) -> None:
        """``lane`` wrote a field of the map (``ptx.tensormap.replace``)."""
        key = (arg, off)
        writes = self._own(m, op, lane, key, "writes", where(region, off))
        if writes is None:
            raw = region.raw[off : off + MAP_BYTES]
            writes = self.maps[key] = MapWrites(int(m.prog[lane]), raw)
        writes.unreleased.add(int(m.tid[lane]))
        writes.released, writes.acquired = None, False

    def release(self, m: Machine) -> None:
        """``nvvm.fence.proxy.release`` by the active threads: their writes are released."""
        active = m.by_program(m.mask)
        for writes in self.maps.values():
            if not writes.unreleased:
                continue
            writes.unreleased = {t for t in writes.unreleased if not active[writes.program, t]}
            if not writes.unreleased:
                writes.released, writes.released_by = writes.raw.copy(), RELEASE

    def copied(
        self,
        m: Machine,
        op: Operation,
        lane: int,
        region: Region,
        arg: int,
        off: int,
        threads: set[int],
    ) -> None:
        """``ptx.tensormap.cp_fenceproxy`` by the warp of ``threads`` (``lane`` one of them)
        wrote the whole map and released it with the warp's writes: released unless a thread
        outside the warp wrote fields of it that no release covers yet."""
        key = (arg, off)
        writes = self._own(m, op, lane, key, "writes", where(region, off))
        if writes is None:
            raw = region.raw[off : off + MAP_BYTES]
            writes = self.maps[key] = MapWrites(int(m.prog[lane]), raw)
        writes.unreleased -= threads
        writes.acquired = False
        writes.released = None if writes.unreleased else writes.raw.copy()
        writes.released_by = CP_FENCEPROXY

    def acquire(
        self, m: Machine, op: Operation, lane: int, region: Region, arg: int, off: int
    ) -> None:
        """``nvvm.fence.proxy.acquire`` of the map by ``lane``: what its program released of
        the map is visible to its copies."""
        writes = self._own(m, op, lane, (arg, off), "acquires", where(region, off))
        if writes is not None and writes.released is not None:
            writes.acquired = True

    def check_readable(
        self, m: Machine, op: Operation, lane: int, region: Region, arg: int, off: int
    ) -> None:
        """A copy by ``lane`` may read the map: never written in the kernel, or written,
        released, acquired and unchanged since (the module doc)."""
        at = where(region, off)
        writes = self._own(m, op, lane, (arg, off), "reads", at)
        if writes is None:
            return
        bad = m.lane_mask(lane)
        if writes.unreleased:
            thread = min(writes.unreleased)
            m.fail(
                op,
                f"reads the tensor map {at}, which thread {thread} wrote with "
                "ptx.tensormap.replace, before that thread's nvvm.fence.proxy.release: the copy "
                "engine may not see the writes (a release, then an nvvm.fence.proxy.acquire of "
                "the map, must come between)",
                bad,
            )
        if not writes.acquired:
            m.fail(
                op,
                f"reads the tensor map {at}, written in the kernel and released, without an "
                f"nvvm.fence.proxy.acquire of the map after the {writes.released_by}: the copy "
                "engine may not see the writes",
                bad,
            )
        assert writes.released is not None
        if not np.array_equal(writes.released, writes.raw):
            m.fail(
                op,
                f"reads the tensor map {at}, whose bytes changed after its "
                f"{writes.released_by} (an ordinary store, which no fence orders before the "
                "copy): write it, then release and acquire it again",
                bad,
            )
