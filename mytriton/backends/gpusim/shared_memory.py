"""Shared memory: one private copy of each ``memref.global`` (address space 3) per program.

Lockstep execution would hide a missing barrier, so accesses are race-checked: between two
barriers an element may be touched by several threads only if nobody observes a change (a
thread reads only what it wrote itself; stores by others write the value already there).
Reading an element no thread has written is an error too: shared memory is uninitialised on a
GPU (the simulator's copy starts zeroed).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from xdsl.ir import Operation

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

    def store(
        self, m: Machine, op: Operation, lin: np.ndarray, values: np.ndarray, check_races: bool
    ) -> None:
        active = np.flatnonzero(m.mask)
        rows, cols, tids = m.prog[active], lin[active], m.tid[active].astype(np.int32)
        vals = values[active].astype(self.data.dtype)
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
            np.minimum.at(self.writer_lo, (rows, cols), tids)
            np.maximum.at(self.writer_hi, (rows, cols), tids)
        self.data[rows, cols] = vals
        self.written[rows, cols] = True


#: where the simulated shared-memory window places buffers: each at a multiple of this
SHARED_BUFFER_ALIGNMENT = 128


class SharedMemory:
    """All shared buffers of one batch of programs, each at an address of the program's
    shared-memory window (``memref.extract_aligned_pointer_as_index``; ``!llvm.ptr<3>`` values
    are these addresses), in the order given, aligned like the GPU's static buffers."""

    def __init__(self, buffers: dict[str, SharedBuffer]):
        self.buffers = buffers
        self.base: dict[str, int] = {}
        end = 0
        for name, b in buffers.items():
            self.base[name] = end
            end += -(-b.nbytes // SHARED_BUFFER_ALIGNMENT) * SHARED_BUFFER_ALIGNMENT
        self.size = end

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
        for name, b in self.buffers.items():
            base, size = self.base[name], b.nbytes
            if base <= start < base + size:
                break
        else:
            m.fail(op, f"shared address {start} is outside every shared buffer", m.lane_mask(lane))
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
