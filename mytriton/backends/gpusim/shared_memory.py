"""Shared memory: one private copy of each ``memref.global`` (address space 3) per program.

Past 48 KiB the lowering cuts the buffers out of the kernel's *dynamic* shared memory instead
(``gpu.dynamic_shared_memory``, then ``memref.view`` at a constant byte offset, then
``memref.memory_space_cast`` to address space 3: ``mytriton/passes/gpu_lowering/
dynamic_shared.py``). Each view is a buffer like a static one (``dynamic_views``: named by its
cast's name hint, fresh per program, race-checked on its own), placed in the program's
shared-memory window at the dynamic region's start plus its offset, so addresses agree with the
offsets; views must not run past the kernel's ``mytriton.dynamic_shared_memory`` bytes. Views
of buffers never live at once may overlap: accesses are then checked against the views sharing
their bytes too (``shared_aliases``), and each overlapping view gets shared addresses of its own
(``SharedMemory``).

Lockstep execution would hide a missing barrier, so accesses are race-checked: between two
barriers an element may be touched by several threads only if nobody observes a change (a
thread reads only what it wrote itself; stores by others write the value already there).
Reading an element no thread has written is an error too: shared memory is uninitialised on a
GPU (the simulator's copy starts zeroed).

TMA copies (``nvvm.cp.async.bulk.tensor``, ``mbarriers``) are in flight the same way until a
wait on their mbarrier lands them.

Asynchronous copies (``nvvm.cp.async.shared.global``, ``AsyncCopies``) read global memory when
issued but write shared memory only when a ``nvvm.cp.async.wait.group`` of the issuing thread
completes their group, as late as the GPU may. Until then the destination is *in flight*: any
access to it (a load, a store, another copy), by any thread, the issuer included, fails, since
the data may land at any moment in between; so does a copy to an element another thread read
or wrote since the last barrier (the race check of a store, done both when the copy is issued
and when it lands), and a thread ending with copies not yet completed (``check_finished``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from xdsl.ir import Operation

from mytriton.backends.gpusim.shared_aliases import Alias, check_aliases, clobber, link
from mytriton.backends.gpusim.values import first_conflict, same_number

if TYPE_CHECKING:
    from mytriton.backends.gpusim.machine import Machine

NOBODY = np.iinfo(np.int32).max  # "no thread" for the minimum trackers


class SharedBuffer:
    """One ``memref.global`` in address space 3: a private copy per program of the batch, plus
    which threads wrote/read each element since that program's last barrier."""

    def __init__(self, name: str, dtype: np.dtype, shape: tuple[int, ...], programs: int):
        self.name = name
        self.shape = shape
        size = int(np.prod(shape))
        self.data = np.zeros((programs, size), dtype)
        self.written = np.zeros((programs, size), np.bool_)
        self.writer_lo = np.full((programs, size), NOBODY, np.int32)
        self.writer_hi = np.full((programs, size), -1, np.int32)
        self.reader_lo = np.full((programs, size), NOBODY, np.int32)
        self.reader_hi = np.full((programs, size), -1, np.int32)
        # cp.async copies in flight to each element (0 or 1), and the thread that issued it
        self.pending = np.zeros((programs, size), np.int32)
        self.pending_thread = np.full((programs, size), -1, np.int32)
        # in-flight wgmma ops reading each element (``warpgroups``): it must not change
        self.wgmma_reads = np.zeros((programs, size), np.int32)
        # TMA copies in flight to each element (``mbarriers``): it may change at any moment
        self.tma_pending = np.zeros((programs, size), np.int32)
        # TMA stores reading each element (``bulk_stores``): it must not change
        self.tma_reads = np.zeros((programs, size), np.int32)
        #: the views sharing bytes with this one (``shared_aliases``)
        self.aliases: list[Alias] = []

    @property
    def nbytes(self) -> int:
        """The size of one program's copy."""
        return int(self.data.shape[1]) * self.data.dtype.itemsize

    def barrier(self, programs: np.ndarray) -> None:
        """Forget who touched what, in the programs that passed a barrier."""
        for tracker, fill in (
            (self.writer_lo, NOBODY),
            (self.writer_hi, -1),
            (self.reader_lo, NOBODY),
            (self.reader_hi, -1),
        ):
            tracker[programs] = fill

    def linear(self, m: Machine, op: Operation, indices: list[np.ndarray]) -> np.ndarray:
        """Row-major element index per active lane, bounds-checked."""
        active = m.mask
        lin = np.zeros(m.lanes, np.int64)
        bad = np.zeros(m.lanes, np.bool_)
        for idx, n in zip(indices, self.shape, strict=True):
            bad |= active & ((idx < 0) | (idx >= n))
            lin = lin * n + idx
        if bad.any():
            lane = int(np.argmax(bad))
            coords = ", ".join(str(int(i[lane])) for i in indices)
            m.fail(op, f"out-of-bounds access {self.name}[{coords}] of shape {self.shape}", bad)
        return lin

    @staticmethod
    def _only(lo: np.ndarray, hi: np.ndarray, tid: np.ndarray) -> np.ndarray:
        """Nobody, or only thread ``tid``, is recorded in (lo, hi)."""
        return np.asarray((hi < 0) | ((lo == tid) & (hi == tid)))

    def load(self, m: Machine, op: Operation, lin: np.ndarray, check_races: bool) -> np.ndarray:
        out = np.zeros(m.lanes, self.data.dtype)
        active = np.flatnonzero(m.mask)
        rows, cols, tids = m.prog[active], lin[active], m.tid[active].astype(np.int32)
        self._check_settled(m, op, "reads", rows, cols, active)
        if self.aliases:
            check_aliases(self, m, op, "reads", rows, cols, active, False, check_races)
        unwritten = ~self.written[rows, cols]
        if unwritten.any():
            i = int(np.argmax(unwritten))
            m.fail(
                op,
                f"reads {self.name}[{int(cols[i])}], which no thread of the program has written "
                "(shared memory is uninitialised on a GPU)",
                m.lane_mask(active[i]),
            )
        if check_races:
            race = ~self._only(self.writer_lo[rows, cols], self.writer_hi[rows, cols], tids)
            if race.any():
                i = int(np.argmax(race))
                w = int(self.writer_lo[rows[i], cols[i]])
                if w == tids[i]:
                    w = int(self.writer_hi[rows[i], cols[i]])
                m.fail(
                    op,
                    f"data race: reads {self.name}[{int(cols[i])}] written by thread {w} since "
                    "the last barrier (a barrier is missing between the store and this load)",
                    m.lane_mask(active[i]),
                )
            np.minimum.at(self.reader_lo, (rows, cols), tids)
            np.maximum.at(self.reader_hi, (rows, cols), tids)
        out[active] = self.data[rows, cols]
        return out

    def _check_settled(
        self,
        m: Machine,
        op: Operation,
        verb: str,
        rows: np.ndarray,
        cols: np.ndarray,
        active: np.ndarray,
    ) -> None:
        """No ``cp.async`` copy is in flight to the elements: it may write them at any moment
        until the ``nvvm.cp.async.wait.group`` that completes it; nor a TMA copy, until a wait
        on its mbarrier (``mbarriers``)."""
        tma = self.tma_pending[rows, cols] > 0
        if tma.any():
            i = int(np.argmax(tma))
            m.fail(
                op,
                f"{verb} {self.name}[{int(cols[i])}] while a TMA copy to it "
                "(nvvm.cp.async.bulk.tensor) is in flight (no nvvm.mbarrier.try_wait.parity on "
                "its mbarrier has completed it yet, so the element may change at any moment)",
                m.lane_mask(active[i]),
            )
        busy = self.pending[rows, cols] > 0
        if busy.any():
            i = int(np.argmax(busy))
            issuer = int(self.pending_thread[rows[i], cols[i]])
            m.fail(
                op,
                f"{verb} {self.name}[{int(cols[i])}] while a cp.async copy to it by thread "
                f"{issuer} is in flight (no nvvm.cp.async.wait.group of that thread has completed "
                "it yet, so the element may change at any moment)",
                m.lane_mask(active[i]),
            )

    def check_store(
        self,
        m: Machine,
        op: Operation,
        lin: np.ndarray,
        values: np.ndarray,
        check_races: bool,
        verb: str = "writes",
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Check that the active lanes may store ``values`` at ``lin`` now (no in-flight copy
        there, no two threads storing different values, no race); returns the active lanes'
        (rows, columns, threads, values)."""
        active = np.flatnonzero(m.mask)
        rows, cols, tids = m.prog[active], lin[active], m.tid[active].astype(np.int32)
        vals = values[active].astype(self.data.dtype)
        self._check_settled(m, op, verb, rows, cols, active)
        if self.aliases:
            check_aliases(self, m, op, verb, rows, cols, active, True, check_races)
        read = self.wgmma_reads[rows, cols] > 0
        if read.any():
            i = int(np.argmax(read))
            m.fail(
                op,
                f"{verb} {self.name}[{int(cols[i])}] while an nvvm.wgmma.mma_async reading it is "
                "in flight (no nvvm.wgmma.wait.group.sync.aligned has retired it yet)",
                m.lane_mask(active[i]),
            )
        self.check_not_stored(m, op, verb, rows, cols, active)
        clash = first_conflict(rows * self.data.shape[1] + cols, vals)
        if clash is not None:
            a, b = (active[i] for i in clash)
            m.fail(
                op,
                f"threads {int(m.tid[a])} and {int(m.tid[b])} store different values "
                f"({vals[clash[0]]} and {vals[clash[1]]}) to {self.name}[{int(cols[clash[0]])}] "
                "at once",
                m.lane_mask(b),
            )
        if check_races:
            others = ~(
                self._only(self.writer_lo[rows, cols], self.writer_hi[rows, cols], tids)
                & self._only(self.reader_lo[rows, cols], self.reader_hi[rows, cols], tids)
            )
            changes = ~(self.written[rows, cols] & same_number(self.data[rows, cols], vals))
            race = others & changes
            if race.any():
                i = int(np.argmax(race))
                m.fail(
                    op,
                    f"data race: overwrites {self.name}[{int(cols[i])}] (with a different value) "
                    "after another thread read or wrote it since the last barrier (a barrier "
                    "is missing)",
                    m.lane_mask(active[i]),
                )
        return rows, cols, tids, vals

    def check_not_stored(
        self,
        m: Machine,
        op: Operation,
        verb: str,
        rows: np.ndarray,
        cols: np.ndarray,
        active: np.ndarray,
    ) -> None:
        """No TMA store reads the elements (``bulk_stores``): until a ``wait_group ... {read}``
        completes it, the copy engine may read them at any moment."""
        read = self.tma_reads[rows, cols] > 0
        if read.any():
            i = int(np.argmax(read))
            m.fail(
                op,
                f"{verb} {self.name}[{int(cols[i])}] while a TMA store reading it "
                "(nvvm.cp.async.bulk.tensor.global.shared.cta) is in flight (no "
                "nvvm.cp.async.bulk.wait_group of its thread has completed its reads yet)",
                m.lane_mask(active[i]),
            )

    def store(
        self, m: Machine, op: Operation, lin: np.ndarray, values: np.ndarray, check_races: bool
    ) -> None:
        rows, cols, tids, vals = self.check_store(m, op, lin, values, check_races)
        if check_races:
            np.minimum.at(self.writer_lo, (rows, cols), tids)
            np.maximum.at(self.writer_hi, (rows, cols), tids)
        self.data[rows, cols] = vals
        self.written[rows, cols] = True
        clobber(self, rows, cols)


#: where the simulated shared-memory window places buffers: each at a multiple of this, or of
#: its ``memref.global``'s larger ``alignment`` (wgmma's swizzled tiles ask for 1024)
SHARED_BUFFER_ALIGNMENT = 128
#: where the dynamic region starts: views at 1024-aligned offsets are 1024-aligned addresses,
#: as wgmma's 128-byte swizzle needs (the CUDA printer aligns ``extern __shared__`` so)
DYNAMIC_REGION_ALIGNMENT = 1024


def _round_up(x: int, alignment: int) -> int:
    return -(-x // alignment) * alignment


class SharedMemory:
    """All shared buffers of one batch of programs, each at an address of the program's
    shared-memory window (``memref.extract_aligned_pointer_as_index``; ``!llvm.ptr<3>`` values
    are these addresses): the static buffers in the order given, aligned like the GPU's static
    buffers (to ``SHARED_BUFFER_ALIGNMENT``, or the larger alignment ``alignments`` gives), then
    the dynamic region (``DYNAMIC_REGION_ALIGNMENT``-aligned), in which the buffers named in
    ``dynamic`` (views of dynamic shared memory) sit at their byte offsets.

    Views sharing bytes (the lowering reuses the bytes of buffers never live at once) are
    linked as aliases by those offsets (``shared_aliases``), but a view overlapping one placed
    before it gets addresses of its own, past the others, at the same offset modulo
    ``DYNAMIC_REGION_ALIGNMENT`` (so swizzles and alignments read the same address bits): a
    shared address then tells its buffer, as the pointer it derives from does."""

    def __init__(
        self,
        buffers: dict[str, SharedBuffer],
        dynamic: dict[str, int] | None = None,
        alignments: dict[str, int] | None = None,
    ):
        self.buffers = buffers
        dynamic = dynamic or {}
        alignments = alignments or {}
        self.base: dict[str, int] = {}
        end = 0
        for name, b in buffers.items():
            if name not in dynamic:
                align = max(SHARED_BUFFER_ALIGNMENT, alignments.get(name, 0))
                self.base[name] = _round_up(end, align)
                end = _round_up(self.base[name] + b.nbytes, SHARED_BUFFER_ALIGNMENT)
        #: where the dynamic region starts (after the static buffers, as on a GPU)
        self.dynamic_base = _round_up(end, DYNAMIC_REGION_ALIGNMENT) if dynamic else end
        placed: list[tuple[str, int]] = []  # dynamic views and their offsets
        end = max([end] + [self.dynamic_base + o + buffers[n].nbytes for n, o in dynamic.items()])
        for name, offset in sorted(dynamic.items(), key=lambda item: item[1]):
            b = buffers[name]
            for other, at in placed:
                link(b, offset, buffers[other], at)
            if b.aliases:  # a window of its own
                window = _round_up(end, DYNAMIC_REGION_ALIGNMENT)
                self.base[name] = window + offset % DYNAMIC_REGION_ALIGNMENT
                end = self.base[name] + b.nbytes
            else:
                self.base[name] = self.dynamic_base + offset
            placed.append((name, offset))
        self.size = end

    def buffer_at(self, address: int) -> tuple[str, SharedBuffer, int] | None:
        """The buffer (its name, itself and its base) holding the byte at shared ``address``,
        or None where no buffer does."""
        for name, b in self.buffers.items():
            base = self.base[name]
            if base <= address < base + b.nbytes:
                return name, b, base
        return None

    def locate(
        self, m: Machine, op: Operation, address: np.ndarray, nbytes: int
    ) -> tuple[SharedBuffer, np.ndarray]:
        """The buffer the active lanes' ``nbytes``-byte accesses at ``address`` fall in (one for
        all of them, as every access of a kernel's ops reads one buffer) and each lane's first
        element index; an address outside every buffer, misaligned, or spanning two buffers
        fails."""
        active = np.flatnonzero(m.mask)
        if active.size == 0:
            first = next(iter(self.buffers.values()))
            return first, np.zeros(m.lanes, np.int64)
        lane = int(active[0])
        start = int(address[lane])
        found = self.buffer_at(start)
        if found is None:
            m.fail(op, f"shared address {start} is outside every shared buffer", m.lane_mask(lane))
        name, b, base = found
        size = b.nbytes
        rel = address.astype(np.int64) - base
        item = b.data.dtype.itemsize
        bad = m.mask & ((rel < 0) | (rel + nbytes > size) | (rel % nbytes != 0))
        if bad.any():
            i = int(np.argmax(bad))
            m.fail(
                op,
                f"a {nbytes}-byte shared access at address {int(address[i])} is misaligned or "
                f"outside {name} (bytes {base} to {base + size})",
                bad,
            )
        return b, np.where(m.mask, rel // item, 0)

    def barrier(self, programs: np.ndarray) -> None:
        for b in self.buffers.values():
            b.barrier(programs)


#: ``AsyncCopy.group`` of a lane whose copy waits for a ``commit.group``
UNCOMMITTED = -1
#: ``AsyncCopy.group`` of a lane whose copy has landed, or that did not issue it
SETTLED = -2


@dataclass
class AsyncCopy:
    """One execution of ``nvvm.cp.async.shared.global``: per lane, the data it read (of the
    buffer's element type) and where it goes; ``group`` says whether the lane's copy is
    uncommitted, in the lane's committed group number ``group``, or settled."""

    op: Operation
    buffer: SharedBuffer
    first: np.ndarray  # (lanes,) the first element written
    values: np.ndarray  # (lanes, elements)
    group: np.ndarray  # (lanes,) int64
    check_races: bool

    def land(self, m: Machine, lanes: np.ndarray) -> None:
        """Write the data of ``lanes`` (a lane mask) to shared memory, as stores of the threads
        that issued it."""
        rows, first = m.prog[lanes], self.first[lanes]
        for e in range(self.values.shape[1]):
            self.buffer.pending[rows, first + e] -= 1  # one copy per element: issue() checks it
        saved = m.mask
        m.mask = lanes
        try:
            for e in range(self.values.shape[1]):
                self.buffer.store(m, self.op, self.first + e, self.values[:, e], self.check_races)
        finally:
            m.mask = saved
        self.group[lanes] = SETTLED


class AsyncCopies:
    """Each thread's ``cp.async`` copies in flight: not yet committed, or in one of its committed
    groups (numbered from 0 in commit order), of which the first ``completed`` have landed."""

    def __init__(self, lanes: int):
        self.copies: list[AsyncCopy] = []
        self.committed = np.zeros(lanes, np.int64)  # groups committed per lane
        self.completed = np.zeros(lanes, np.int64)  # of which completed (landed)

    def issue(
        self,
        m: Machine,
        op: Operation,
        buffer: SharedBuffer,
        first: np.ndarray,
        values: np.ndarray,
        check_races: bool,
    ) -> None:
        """The active lanes start copying ``values`` to ``buffer[first:first + elements]``: it
        must be free of copies in flight, written by no other thread since the last barrier
        (unless with these values) and not overlap another lane's copy."""
        active = np.flatnonzero(m.mask)
        if active.size == 0:
            return
        n = values.shape[1]
        for e in range(n):
            buffer.check_store(m, op, first + e, values[:, e], check_races, "copies to")
        rows = np.repeat(m.prog[active], n)
        cols = (first[active][:, None] + np.arange(n)).reshape(-1)
        keys = rows * buffer.data.shape[1] + cols
        order = np.argsort(keys, kind="stable")
        twice = np.flatnonzero(keys[order][1:] == keys[order][:-1])
        if twice.size:
            a, b = (int(active[order[i] // n]) for i in (twice[0], twice[0] + 1))
            m.fail(
                op,
                f"threads {int(m.tid[a])} and {int(m.tid[b])} start cp.async copies to "
                f"{buffer.name}[{int(cols[order[twice[0]]])}] at once (each element must have "
                "one writer)",
                m.lane_mask(b),
            )
        buffer.pending[rows, cols] += 1
        buffer.pending_thread[rows, cols] = np.repeat(m.tid[active], n)
        group = np.full(m.lanes, SETTLED, np.int64)
        group[active] = UNCOMMITTED
        self.copies.append(AsyncCopy(op, buffer, first, values, group, check_races))

    def commit(self, m: Machine) -> None:
        """``cp.async.commit_group``: each active lane's uncommitted copies (possibly none)
        become its newest group."""
        for copy in self.copies:
            mine = m.mask & (copy.group == UNCOMMITTED)
            copy.group[mine] = self.committed[mine]
        self.committed[m.mask] += 1

    def wait(self, m: Machine, pending: int) -> None:
        """``cp.async.wait_group pending``: each active lane's oldest groups land until at most
        ``pending`` of its groups are left (waiting with fewer pending is no error: a pipeline's
        first and last iterations do); its uncommitted copies stay in flight."""
        target = np.where(
            m.mask, np.maximum(self.completed, self.committed - pending), self.completed
        )
        for copy in self.copies:
            lanes = (copy.group >= 0) & (copy.group < target)
            if lanes.any():
                copy.land(m, lanes)
        self.completed = target
        self.copies = [c for c in self.copies if (c.group != SETTLED).any()]

    def check_finished(self, m: Machine) -> None:
        """At the kernel's end every copy must have landed: one still in flight would write
        shared memory at an undefined time (a wait is missing after the last commit, or a
        commit after the last copies)."""
        for copy in self.copies:
            left = copy.group != SETTLED
            if not left.any():
                continue
            lane = int(np.argmax(left))
            if copy.group[lane] == UNCOMMITTED:
                why = (
                    "the thread ends with this cp.async copy never committed (no "
                    "nvvm.cp.async.commit.group after it, so no wait can complete it)"
                )
            else:
                why = (
                    "the thread ends before an nvvm.cp.async.wait.group completed this cp.async "
                    "copy"
                )
            m.fail(
                copy.op,
                f"{why}: it writes {copy.buffer.name} at an undefined time",
                m.lane_mask(lane),
            )
