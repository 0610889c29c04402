"""Warpgroups (4 consecutive warps, threads ``128G`` to ``128G + 127`` of a block) and the
``wgmma`` groups each thread has in flight: what ``rules_wgmma`` checks between
``nvvm.wgmma.fence.aligned``, ``nvvm.wgmma.mma_async``, ``nvvm.wgmma.commit.group.sync.aligned``
and ``nvvm.wgmma.wait.group.sync.aligned``.

A ``wgmma`` is computed when issued (its shared-memory operands read then), but its result is
*in flight* until a wait retires its group: per thread, the ``wgmma`` ops since the last commit
form its open group (numbered ``committed``, counting from 0), and ``wait N`` retires all but the
newest ``N`` committed groups. The accumulator struct a ``wgmma`` returns carries, beside its
fields ``f0``, ``f1``, ..., a hidden field ``GROUP_FIELD``: per thread the group that computes
it, or ``SETTLED`` (-1) for a struct built by ``llvm.mlir.undef`` and ``llvm.insertvalue``. Any
read of an in-flight struct (``llvm.extractvalue``, ``llvm.insertvalue``) fails; feeding it to
another ``wgmma`` as its accumulator does not (the hardware chains those). Because the stamp
travels with the value, loop-carried and ``scf.if``-merged accumulators keep it, per thread.

The shared memory an in-flight ``wgmma`` reads must not change before its group retires: each
element read counts in ``SharedBuffer.wgmma_reads`` until then, and a store (or ``cp.async``
copy) to it fails. Nor before a barrier after the retiring wait: a wait retires the groups of
its own warp only (the other warps of the warpgroup may not have passed theirs, and another
warpgroup's ``wgmma`` ops read the same tile on their own), so the read counts as one by every
thread of the issuing warpgroup since the last barrier, and the race checks refuse a store or
copy to it by any thread until the next barrier (the barrier Triton's pipeliner puts between
``wgmma.wait_group 1`` and the copies into the tile the previous iteration's dot read).

A ``wgmma`` needs a ``wgmma.fence`` since the thread's last wait (a fence must separate the
accumulator registers' other writes, and the shared tiles' generic-proxy writes, from the
``wgmma`` ops that follow), and a thread must not end with ``wgmma`` ops not retired.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from xdsl.ir import Operation

if TYPE_CHECKING:
    from mytriton.backends.gpusim.machine import Machine
    from mytriton.backends.gpusim.shared_memory import SharedBuffer

WARPGROUP_SIZE = 128
#: the hidden field of a struct value: the thread's wgmma group computing it, or ``SETTLED``
GROUP_FIELD = "wgmma_group"
SETTLED = -1


def struct_dtype(fields: list[np.dtype]) -> np.dtype:
    """The NumPy structured dtype of a struct of scalars ``f0``, ``f1``, ... built by
    ``llvm.mlir.undef``/``llvm.insertvalue`` or returned by a ``wgmma``: its fields and the
    in-flight stamp."""
    return np.dtype([*((f"f{i}", d) for i, d in enumerate(fields)), (GROUP_FIELD, np.int64)])


def scalar_fields(struct: np.ndarray) -> list[str]:
    """The struct's fields (``f0``, ``f1``, ...), without the in-flight stamp."""
    names = struct.dtype.names or ()
    return [n for n in names if n != GROUP_FIELD]


def check_whole_warpgroups(m: Machine, op: Operation, what: str) -> None:
    """Warpgroup-wide ops need blocks of whole warpgroups and all 128 threads of a warpgroup
    active, or none (the ``.sync.aligned`` of the PTX instructions)."""
    if m.threads % WARPGROUP_SIZE:
        m.fail(
            op,
            f"{what} needs a block of whole warpgroups (a multiple of {WARPGROUP_SIZE} threads), "
            f"not {m.threads} threads",
        )
    found = m.partially_active(WARPGROUP_SIZE)
    if found is not None:
        active, bad = found
        m.fail(
            op,
            f"{what} is executed by only {active} of the {WARPGROUP_SIZE} threads "
            "of a warpgroup (the inactive thread named here would have to take part: all four "
            "warps execute it together)",
            bad,
        )


@dataclass
class InFlightReads:
    """The shared-memory elements one ``wgmma`` issue read, each with the thread (lane) whose
    group retires it and that group."""

    buffer: SharedBuffer
    rows: np.ndarray  # the program of each element read
    cols: np.ndarray  # its element index in the buffer
    lanes: np.ndarray  # a lane of the issuing warpgroup
    group: np.ndarray  # that lane's group of the wgmma
    op: Operation
    check_races: bool  # whether the retired reads count as the warpgroup's (``retire``)


class WgmmaGroups:
    """Per thread of the batch: its committed and retired ``wgmma`` groups, whether a
    ``wgmma.fence`` came since its last wait, whether its open group holds a ``wgmma``; and the
    shared-memory reads of the ``wgmma`` ops in flight."""

    def __init__(self, lanes: int):
        self.committed = np.zeros(lanes, np.int64)
        self.retired = np.zeros(lanes, np.int64)
        self.fenced = np.zeros(lanes, np.bool_)
        self.open = np.zeros(lanes, np.bool_)
        self.reads: list[InFlightReads] = []
        self.last_op: Operation | None = None  # the last wgmma issued

    def fence(self, m: Machine) -> None:
        self.fenced[m.mask] = True

    def issue(self, m: Machine, op: Operation) -> np.ndarray:
        """A ``wgmma`` of the active lanes: each lane's group for it (its open group), after
        checking that a fence came since the lane's last wait."""
        missing = m.mask & ~self.fenced
        if missing.any():
            m.fail(
                op,
                "nvvm.wgmma.mma_async without an nvvm.wgmma.fence.aligned since the warpgroup's "
                "last nvvm.wgmma.wait.group.sync.aligned (or the kernel's start): the fence must "
                "order the accumulator registers' and shared tiles' earlier writes before the "
                "first wgmma of a sequence",
                missing,
            )
        self.open[m.mask] = True
        self.last_op = op
        return self.committed.copy()

    def record_reads(
        self,
        op: Operation,
        buffer: SharedBuffer,
        rows: np.ndarray,
        cols: np.ndarray,
        lanes: np.ndarray,
        check_races: bool,
    ) -> None:
        """Elements ``op`` (a ``wgmma`` of ``lanes``' open groups) read: none may change until
        their group retires (nor, where races are checked, before the next barrier)."""
        if rows.size == 0:
            return
        np.add.at(buffer.wgmma_reads, (rows, cols), 1)
        group = self.committed[lanes]
        self.reads.append(InFlightReads(buffer, rows, cols, lanes, group, op, check_races))

    def commit(self, m: Machine) -> None:
        """``wgmma.commit_group``: each active lane's open group (possibly empty) is committed."""
        self.committed[m.mask] += 1
        self.open[m.mask] = False

    def wait(self, m: Machine, pending: int) -> None:
        """``wgmma.wait_group pending``: all but the newest ``pending`` committed groups of each
        active lane retire (their results become readable, their shared tiles free)."""
        mask = m.mask
        self.retired = np.where(
            mask, np.maximum(self.retired, self.committed - pending), self.retired
        )
        self.fenced[mask] = False
        kept = []
        for r in self.reads:
            done = r.group < self.retired[r.lanes]
            if done.any():
                retire(m, r, done)
                keep = ~done
                r = InFlightReads(
                    r.buffer,
                    r.rows[keep],
                    r.cols[keep],
                    r.lanes[keep],
                    r.group[keep],
                    r.op,
                    r.check_races,
                )
            if r.rows.size:
                kept.append(r)
        self.reads = kept

    def check_settled(self, m: Machine, op: Operation, struct: np.ndarray) -> None:
        """Reading a struct the active lanes' pending ``wgmma`` ops still compute fails."""
        if GROUP_FIELD not in (struct.dtype.names or ()):
            return
        group = struct[GROUP_FIELD]
        bad = m.mask & (group != SETTLED) & (group >= self.retired)
        if bad.any():
            lane = int(np.argmax(bad))
            state = (
                "not committed yet"
                if group[lane] >= self.committed[lane]
                else f"committed, {int(self.committed[lane] - group[lane])} group(s) ago"
            )
            m.fail(
                op,
                "read before wgmma.wait_group: reads the result of an nvvm.wgmma.mma_async whose "
                f"group ({state}) no nvvm.wgmma.wait.group.sync.aligned has retired yet (the "
                "accumulator registers may still change)",
                bad,
            )

    def check_finished(self, m: Machine) -> None:
        """At the kernel's end every thread's ``wgmma`` ops must be committed and retired: one
        still in flight may read shared memory at an undefined time."""
        if self.open.any():
            lane = int(np.argmax(self.open))
            m.fail(
                self.last_op,
                "the thread ends with an nvvm.wgmma.mma_async never committed (no "
                "nvvm.wgmma.commit.group.sync.aligned after it, so no wait can retire it)",
                m.lane_mask(lane),
            )
        for r in self.reads:
            m.fail(
                r.op,
                "the thread ends before an nvvm.wgmma.wait.group.sync.aligned retired this "
                "nvvm.wgmma.mma_async: it may still read shared memory",
                m.lane_mask(int(r.lanes[0])),
            )


def retire(m: Machine, reads: InFlightReads, done: np.ndarray) -> None:
    """The elements ``done`` of ``reads`` no longer count as in flight, but (race checks on)
    as read since the last barrier by every thread of the issuing warpgroup: the ``wgmma`` may
    have read them until now, and only a barrier tells the other warps (module doc)."""
    rows, cols = reads.rows[done], reads.cols[done]
    np.subtract.at(reads.buffer.wgmma_reads, (rows, cols), 1)
    if not reads.check_races:
        return
    first = (m.tid[reads.lanes[done]] // WARPGROUP_SIZE * WARPGROUP_SIZE).astype(np.int32)
    np.minimum.at(reads.buffer.reader_lo, (rows, cols), first)
    np.maximum.at(reads.buffer.reader_hi, (rows, cols), first + WARPGROUP_SIZE - 1)
