"""One batch of programs executing the kernel body in lockstep.

Lane ``l`` is thread ``l % threads`` of the batch's program ``l // threads``. Running several
programs at once is only a schedule: programs never communicate, and every per-block rule
(uniform loop bounds, barriers reached by the whole block, shared memory) is checked per program.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import NoReturn

import numpy as np
from xdsl.ir import Operation, SSAValue

from mytriton.backends.gpusim.bulk_stores import BulkStores
from mytriton.backends.gpusim.errors import SimulationError
from mytriton.backends.gpusim.global_memory import GlobalMemory
from mytriton.backends.gpusim.mbarriers import MBarriers
from mytriton.backends.gpusim.shared_memory import AsyncCopies, SharedMemory
from mytriton.backends.gpusim.tensormap_writes import TensorMapWrites
from mytriton.backends.gpusim.values import Value
from mytriton.backends.gpusim.warpgroups import WgmmaGroups

WARP_SIZE = 32

Step = Callable[["Machine"], None]


@dataclass
class CompiledBlock:
    """A block's ops as closures, and the values its terminator yields."""

    steps: list[Step] = field(default_factory=list)
    results: list[SSAValue] = field(default_factory=list)


class Machine:
    """The state of one batch: SSA values per lane, the active-lane mask, memories (and the
    asynchronous copies in flight to shared memory, the wgmma groups in flight, the mbarriers
    and the TMA copies completing on them, the tensor maps the programs wrote)."""

    def __init__(
        self,
        grid: tuple[int, int, int],
        block_size: tuple[int, int, int],
        programs: Sequence[int],
        memory: GlobalMemory,
        shared: SharedMemory,
    ):
        self.grid = grid
        self.block_size = block_size
        self.threads = block_size[0] * block_size[1] * block_size[2]
        self.num_programs = len(programs)
        self.lanes = self.num_programs * self.threads
        lane = np.arange(self.lanes, dtype=np.int64)
        self.prog = lane // self.threads
        self.tid = lane % self.threads
        pid = np.asarray(programs, dtype=np.int64)
        gx, gy, _ = grid
        self.coords = np.stack([pid % gx, (pid // gx) % gy, pid // (gx * gy)], axis=1)
        self.block_id = tuple(self.coords[:, d][self.prog] for d in range(3))
        bx, by, _ = block_size
        self.thread_id = (self.tid % bx, (self.tid // bx) % by, self.tid // (bx * by))
        self.mask = np.ones(self.lanes, dtype=np.bool_)
        self.env: dict[SSAValue, Value] = {}
        self.memory = memory
        self.shared = shared
        self.async_copies = AsyncCopies(self.lanes)  # each thread's cp.async copies in flight
        self.wgmma = WgmmaGroups(self.lanes)  # each thread's wgmma groups in flight
        self.mbarriers = MBarriers()  # each program's mbarriers and the TMA copies on them
        self.bulk_stores = BulkStores(self.lanes)  # each thread's TMA stores in flight
        self.tensormaps = TensorMapWrites()  # the tensor maps the programs wrote, and fences
        #: whether ``scf.while`` loops watch for a stalled program (``backends/cooperative.py``):
        #: not where copies in flight (TMA, cp.async, wgmma) progress outside of memory
        self.watch_stalls = True

    def state(self) -> list[np.ndarray]:
        """Copies of the memory the programs can change (global regions, shared buffers): a
        loop iteration leaving them and its loop values as they were is a stall."""
        regions = [r.raw.copy() for r in self.memory.regions.values()]
        return regions + [b.data.copy() for b in self.shared.buffers.values()]

    # ---- execution ----

    def run_block(self, block: CompiledBlock, mask: np.ndarray) -> list[Value]:
        """Run ``block`` with only the lanes of ``mask`` active; return its yielded values."""
        saved = self.mask
        self.mask = mask
        try:
            for step in block.steps:
                step(self)
        finally:
            self.mask = saved
        return [self.env[v] for v in block.results]

    # ---- errors ----

    def lane_mask(self, lane: int) -> np.ndarray:
        """A mask selecting only ``lane`` (to name it in an error)."""
        mask = np.zeros(self.lanes, np.bool_)
        mask[lane] = True
        return mask

    def program_of(self, lane: int) -> tuple[int, int, int]:
        x, y, z = self.coords[self.prog[lane]]
        return int(x), int(y), int(z)

    def fail(self, op: Operation | None, message: str, bad: np.ndarray | None = None) -> NoReturn:
        """Raise for the first lane of ``bad`` (a lane mask), naming its program and thread."""
        if bad is None or not bad.any():
            raise SimulationError(message, op)
        lane = int(np.argmax(bad))
        raise SimulationError(message, op, self.program_of(lane), int(self.tid[lane]))

    # ---- per-program checks ----

    def by_program(self, x: np.ndarray) -> np.ndarray:
        """``x`` (one entry per lane) as a (programs, threads) view."""
        return x.reshape(self.num_programs, self.threads)

    def check_uniform(self, op: Operation, value: np.ndarray, what: str) -> None:
        """Every active thread of a program must hold the same ``value`` (loop bounds...)."""
        v = self.by_program(value)
        m = self.by_program(self.mask)
        first = v[np.arange(self.num_programs), np.argmax(m, axis=1)]
        bad = m & (v != first[:, None])
        if bad.any():
            lane = int(np.argmax(bad.reshape(-1)))
            ref = int(np.argmax(m[self.prog[lane]]))
            self.fail(
                op,
                f"{what} differs between threads of one program ({value[lane]} in this thread, "
                f"{v[self.prog[lane], ref]} in thread {ref}): a GPU needs it uniform",
                bad.reshape(-1),
            )

    def active_programs(self) -> np.ndarray:
        """Per program of the batch, whether any of its threads is active."""
        return np.asarray(self.by_program(self.mask).any(axis=1))

    def check_whole_programs(self, op: Operation, what: str) -> np.ndarray:
        """Every program must be fully active or fully inactive here (barriers); returns the
        per-program activity."""
        m = self.by_program(self.mask)
        partial = m.any(axis=1) & ~m.all(axis=1)
        if partial.any():
            p = int(np.argmax(partial))
            idle = int(np.argmax(~m[p]))
            self.fail(
                op,
                f"{what} is reached by {int(m[p].sum())} of the {self.threads} threads of the "
                f"program (thread {idle} skips it): divergent control flow around it deadlocks "
                "or is undefined on a GPU",
                (self.prog == p) & self.mask,
            )
        return np.asarray(m.any(axis=1))

    def partially_active(self, size: int) -> tuple[int, np.ndarray] | None:
        """The first group of ``size`` consecutive threads (a warp, a warpgroup) with some but
        not all threads active: its active count and the mask of its inactive threads."""
        m = self.mask.reshape(-1, size)
        partial = m.any(axis=1) & ~m.all(axis=1)
        if not partial.any():
            return None
        g = int(np.argmax(partial))
        bad = np.zeros_like(m)
        bad[g] = ~m[g]
        return int(m[g].sum()), bad.reshape(-1)

    def check_whole_warps(self, op: Operation, what: str) -> None:
        """Warp-synchronous ops (full-mask shuffles) need every lane of a warp active or none."""
        if self.threads % WARP_SIZE:
            self.fail(op, f"{what} needs a block of whole warps, not {self.threads} threads")
        found = self.partially_active(WARP_SIZE)
        if found is not None:
            active, bad = found
            self.fail(
                op,
                f"{what} with a full lane mask is executed by only {active} lanes of "
                "a warp (the inactive lane named here would have to take part)",
                bad,
            )
