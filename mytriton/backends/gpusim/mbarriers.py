"""Each program's mbarriers, and the TMA copies in flight on them (``rules_tma``).

An mbarrier is 8 bytes of a program's shared memory; gpusim keeps its state here, keyed by the
program (of the batch) and the barrier's shared address: the arrivals that complete a phase
(``count``), those still pending in the current phase, the transaction bytes it still expects,
how many phases completed (the current phase's parity is its low bit), and the copies queued on
it. A phase completes when no arrival is pending and no transaction byte outstanding; the
barrier then starts the next phase, expecting ``count`` arrivals again.

A TMA copy reads global memory when issued but lands in shared memory, counting its bytes off
the barrier's transactions, only when a thread waits on the barrier: as late as the GPU may,
so a kernel that reads the tile without waiting reads it while it is in flight, which the
shared buffers' checks refuse (``SharedBuffer.tma_pending``). A copy lands as the async proxy's
write, not a thread's store: the waiting threads see it (the wait is an acquire), so it leaves
no writer for the race checks. A barrier's state lives as long as the batch (programs never
share shared memory).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
from xdsl.ir import Operation

from mytriton.backends.gpusim.shared_aliases import clobber
from mytriton.backends.gpusim.shared_memory import SharedBuffer

if TYPE_CHECKING:
    from mytriton.backends.gpusim.machine import Machine


@dataclass
class BulkCopy:
    """One TMA copy in flight: the elements it writes in one program's copy of ``buffer`` and
    their values (of the buffer's type), its bytes, and who issued it."""

    op: Operation
    buffer: SharedBuffer
    program: int
    elements: np.ndarray
    values: np.ndarray
    nbytes: int
    lane: int

    def land(self) -> None:
        """Write the data: the async proxy's write, visible to the threads that waited."""
        buf, p, at = self.buffer, self.program, self.elements
        buf.tma_pending[p, at] -= 1
        buf.data[p, at] = self.values
        buf.written[p, at] = True
        clobber(buf, np.full(at.size, p), at)


@dataclass
class MBarrier:
    """One mbarrier's state (the module doc)."""

    address: int
    count: int
    pending: int
    tx: int = 0
    phases: int = 0  #: completed phases: the current phase's parity is ``phases & 1``
    copies: list[BulkCopy] = field(default_factory=list)

    @property
    def parity(self) -> int:
        return self.phases & 1

    def complete_if_done(self) -> None:
        """Start the next phase if the current one has no arrival or transaction left."""
        if self.pending == 0 and self.tx == 0:
            self.phases += 1
            self.pending = self.count

    def describe(self) -> str:
        return (
            f"the mbarrier at shared address {self.address} is in phase {self.phases} (parity "
            f"{self.parity}) with {self.pending} of {self.count} arrivals and {self.tx} "
            "transaction bytes outstanding"
        )


class MBarriers:
    """The mbarriers of a batch's programs, by (program in the batch, shared address)."""

    def __init__(self) -> None:
        self.barriers: dict[tuple[int, int], MBarrier] = {}

    def init(
        self, m: Machine, op: Operation, lane: int, program: int, address: int, count: int
    ) -> None:
        """``mbarrier.init``: a fresh barrier in phase 0 (none of its copies may be in flight:
        they would complete on a barrier that no longer counts them)."""
        old = self.barriers.get((program, address))
        if old is not None and old.copies:
            m.fail(
                op,
                f"re-initialises the mbarrier at shared address {address} while a TMA copy "
                "completing on it is in flight (no wait on it has landed the copy)",
                m.lane_mask(lane),
            )
        self.barriers[(program, address)] = MBarrier(address, count, count)

    def inval(self, m: Machine, op: Operation, lane: int, program: int, address: int) -> None:
        """``mbarrier.inval``: the barrier is gone (none of its copies may be in flight)."""
        barrier = self.get(m, op, lane, address)
        if barrier.copies:
            m.fail(
                op,
                f"invalidates the mbarrier at shared address {address} while a TMA copy "
                "completing on it is in flight (no wait on it has landed the copy)",
                m.lane_mask(lane),
            )
        del self.barriers[(program, address)]

    def get(self, m: Machine, op: Operation, lane: int, address: int) -> MBarrier:
        """The initialised barrier at ``address`` of ``lane``'s program."""
        barrier = self.barriers.get((int(m.prog[lane]), address))
        if barrier is None:
            m.fail(
                op,
                f"uses the mbarrier at shared address {address}, which no nvvm.mbarrier.init of "
                "the program has initialised",
                m.lane_mask(lane),
            )
        return barrier

    def land(self, barrier: MBarrier) -> None:
        """Land every copy queued on ``barrier``, completing their bytes (``complete_tx``)."""
        for copy in barrier.copies:
            copy.land()
            barrier.tx -= copy.nbytes
        barrier.copies = []

    def check_finished(self, m: Machine) -> None:
        """At the kernel's end every TMA copy must have landed: one still in flight writes
        shared memory at an undefined time (no thread waited on its barrier)."""
        for barrier in self.barriers.values():
            for copy in barrier.copies:
                m.fail(
                    copy.op,
                    "the program ends before any nvvm.mbarrier.try_wait.parity on its mbarrier "
                    f"(shared address {barrier.address}) completed this TMA copy: it writes "
                    f"{copy.buffer.name} at an undefined time",
                    m.lane_mask(copy.lane),
                )
