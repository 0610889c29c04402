"""Each thread's TMA tile stores in flight and its bulk async-groups (``rules_tma_store``).

A TMA store (``nvvm.cp.async.bulk.tensor.global.shared.cta``) reads its box of shared memory
and writes the tensor in global memory *after* it is issued, until the issuing thread's
``nvvm.cp.async.bulk.wait_group ... {read}`` (or a full wait) completes its group. gpusim reads
the box and writes global memory when the store is issued, and counts the store as reading
its shared elements (``SharedBuffer.tma_reads``) until the wait: a store to those elements (a
thread's, a copy's) meanwhile fails, since the GPU may read them at any moment in between, so
data read at issue is what the GPU reads. A thread's stores since its last
``nvvm.cp.async.bulk.commit.group`` are its open group; committing numbers them; ``wait_group
N`` completes all but the newest ``N`` committed groups (the open group never). A thread ending
with a store whose reads are not complete fails (``check_finished``): the CTA's shared memory
may be reused before the copy engine read it.

Not modelled: the order of the global writes against the same kernel's later global accesses
(the GPU makes them visible only after a full ``wait_group``; a kernel that reads what it
stored through TMA without waiting is beyond this model).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from xdsl.ir import Operation

from mytriton.backends.gpusim.shared_memory import SharedBuffer

if TYPE_CHECKING:
    from mytriton.backends.gpusim.machine import Machine

#: the group number of a store not yet committed
OPEN = -1


@dataclass
class BulkStore:
    """One TMA store whose reads of shared memory may not be done: the elements of one
    program's copy of ``buffer`` it reads, the lane that issued it and its group."""

    op: Operation
    buffer: SharedBuffer
    program: int
    elements: np.ndarray
    lane: int
    group: int = OPEN

    def release(self) -> None:
        self.buffer.tma_reads[self.program, self.elements] -= 1


class BulkStores:
    """The stores of every lane whose shared reads are not done, and each lane's committed
    group count."""

    def __init__(self, lanes: int):
        self.stores: list[BulkStore] = []
        self.committed = np.zeros(lanes, np.int64)

    def issue(self, store: BulkStore) -> None:
        store.buffer.tma_reads[store.program, store.elements] += 1
        self.stores.append(store)

    def commit(self, m: Machine) -> None:
        """The active lanes' open stores become their next group."""
        active = m.mask
        for s in self.stores:
            if s.group == OPEN and active[s.lane]:
                s.group = int(self.committed[s.lane])
        self.committed[active] += 1

    def wait(self, m: Machine, pending: int) -> None:
        """Complete, for each active lane, its committed groups but the newest ``pending``."""
        keep = []
        for s in self.stores:
            done = m.mask[s.lane] and s.group != OPEN and s.group < self.committed[s.lane] - pending
            if done:
                s.release()
            else:
                keep.append(s)
        self.stores = keep

    def check_finished(self, m: Machine) -> None:
        """No thread may end with a store still reading shared memory."""
        for s in self.stores:
            why = (
                "never committed (no nvvm.cp.async.bulk.commit.group after it)"
                if s.group == OPEN
                else "not completed by an nvvm.cp.async.bulk.wait_group of its thread"
            )
            m.fail(
                s.op,
                f"the thread ends with this TMA store {why}: the copy engine may still read "
                f"{s.buffer.name} after the program's shared memory is gone",
                m.lane_mask(s.lane),
            )
