"""Cooperative launches on the host backends (interpreter, gpusim): every program of the grid
runs at once, as ``launch_cooperative_grid=True`` promises.

Programs of a cooperative launch may wait for one another: TorchInductor's cooperative
reductions end each split of a reduction at a grid-wide barrier (``x_grid_barrier``: an atomic
add, then atomic reads in a loop until the last program has arrived). The host backends run
programs one after another, where the first program would wait forever. So a cooperative launch
runs each program in a thread of its own, one thread at a time: the running program hands over
to the next live one (round robin in grid order) at each *switch point*, an atomic op or a
``scf.while`` iteration (every wait on another program is a loop of loads or atomics). Each
program keeps its own order and only one runs at a time, so the result is that of one
interleaving a GPU could run, and the switches happen at the same points on every run.

A program *stalls* when an iteration of a ``scf.while`` loop changes nothing: its loop values
and memory are the same after it as before (``LoopWatch``), so, while no other program runs,
it repeats forever. In an ordinary launch (programs one after another) that is a program
waiting for a later one, which a GPU may well run at the same time (TorchInductor compiles its
cooperative reductions for the CPU without telling ``triton.compile``): the rest of the grid
then joins the stalled program as a cooperative grid (``InOrder``), which is again a schedule a
GPU could run. When every live program of a cooperative grid stalls, nothing can ever change:
``ProgramsWaitForever`` says so instead of hanging.

A cooperative grid has at most ``MAX_PROGRAMS`` programs (a GPU allows as many as are resident
at once; CUDA says ``CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE`` beyond).
"""

from __future__ import annotations

import contextvars
import dataclasses
import threading
from collections.abc import Callable, Sequence

import numpy as np

from mytriton.errors import LaunchError

#: the most programs a cooperative launch runs here (an H100 holds 132 SMs x a few programs)
MAX_PROGRAMS = 1024

_local = threading.local()


class CooperativeLaunchTooLarge(LaunchError):
    """A cooperative launch of more programs than can run at once (CUDA's
    ``CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE``)."""


class ProgramsWaitForever(LaunchError):
    """Every live program of the grid waits in a loop that changes nothing (a grid-wide barrier
    or a lock waiting for a program that never comes): the launch would never end."""


class _Aborted(BaseException):
    """Unwinds the other programs once one failed (not an ``Exception``: no rule catches it)."""


def switch_point() -> None:
    """Where a program of a cooperative launch lets the next one run (a no-op elsewhere):
    the backends call it at every atomic op and ``scf.while`` iteration."""
    grid = getattr(_local, "grid", None)
    if grid is not None:
        grid.switch()


class LoopWatch:
    """Watches one run of a ``scf.while`` loop for a stall: ``iteration(carried, state)`` at
    the start of each iteration says whether the previous one changed nothing. Only after an
    iteration that kept the loop values is the memory (``state()``: copies of every array the
    program can change) saved, to compare after the next one: a loop making progress costs one
    comparison of its loop values per iteration."""

    __slots__ = ("previous", "snapshot")

    def __init__(self) -> None:
        self.previous: list[np.ndarray] | None = None
        self.snapshot: list[np.ndarray] | None = None

    def iteration(self, carried: Sequence[object], state: Callable[[], list[np.ndarray]]) -> bool:
        values = _arrays(carried)
        stalled = False
        if self.previous is not None and _same(self.previous, values):
            now = state()
            stalled = self.snapshot is not None and _same(self.snapshot, now)
            self.snapshot = now
        else:
            self.snapshot = None
        self.previous = values
        return stalled


def _arrays(values: Sequence[object]) -> list[np.ndarray]:
    """Copies of ``values`` as arrays, a value record (a pointer: base and offsets) field by
    field; anything else compares by identity (never equal to a new one: no stall claimed)."""
    out: list[np.ndarray] = []
    for v in values:
        if dataclasses.is_dataclass(v) and not isinstance(v, type):
            out.extend(_arrays([getattr(v, f.name) for f in dataclasses.fields(v)]))
        else:
            out.append(np.array(v, copy=True))
    return out


def _same(a: Sequence[np.ndarray], b: Sequence[np.ndarray]) -> bool:
    return len(a) == len(b) and all(
        x.shape == y.shape and x.dtype == y.dtype and x.tobytes() == y.tobytes()
        for x, y in zip(a, b, strict=True)
    )


def loop_iteration(stalled: bool, where: Callable[[], str]) -> None:
    """Called at the start of every ``scf.while`` iteration: a switch point of a cooperative
    grid, where ``stalled`` (``LoopWatch``) is recorded; a program stalled in an ordinary
    launch has the rest of the grid join it as a cooperative grid where it can (``InOrder``),
    else its launch is ``ProgramsWaitForever``."""
    grid = getattr(_local, "grid", None)
    if grid is None:
        if not stalled:
            return
        order = getattr(_local, "order", None)
        if order is None or not order.escalate():
            raise ProgramsWaitForever(
                f"{where()} waits forever: an iteration of a `while` loop changed nothing, and "
                "no other program can run (a barrier or lock waiting for a program that has "
                "finished or never comes)"
            )
        grid = _local.grid
    grid.iteration(stalled, where)


def check_size(programs: int) -> None:
    """A ``CooperativeLaunchTooLarge`` for a grid of more than ``MAX_PROGRAMS`` programs."""
    if programs > MAX_PROGRAMS:
        raise CooperativeLaunchTooLarge(
            f"a cooperative launch runs every program at once; {programs} programs are more "
            f"than the {MAX_PROGRAMS} the host backends run together"
        )


def run_cooperatively(programs: int, program: Callable[[int], None]) -> None:
    """Run ``program(i)`` for every ``i`` of ``range(programs)`` as a cooperative grid;
    the first error a program raises is raised here once every program has stopped."""
    check_size(programs)
    if programs <= 0:
        return
    if programs == 1:
        program(0)
        return
    _Grid(list(range(programs))).run(program)


class InOrder:
    """Runs programs one after another (an ordinary launch on a host backend) in the calling
    thread, until one stalls waiting for another: the programs after it then start as threads
    of a cooperative grid that the stalled one, still running here, belongs to."""

    def __init__(
        self,
        total: int,
        program: Callable[[int], None],
        spawned: Callable[[int], None] | None = None,
    ):
        self.total = total
        self.program = program
        #: how a program started by ``escalate`` runs (default: as ``program``)
        self.spawned = spawned or program
        self.current = -1
        self.grid: _Grid | None = None

    def run(self, start: int, stop: int) -> bool:
        """Run programs ``start`` to ``stop - 1``; True when a stall made the rest of the grid
        (up to ``total``) run as well."""
        _local.order = self
        try:
            for p in range(start, stop):
                self.current = p
                try:
                    self.program(p)
                except BaseException as e:
                    if self.grid is None:
                        raise
                    self.grid.adopted_failed(p, e)
                if self.grid is not None:
                    self.grid.adopted_done(p)
                    return True
        finally:
            _local.order = None
        return False

    def escalate(self) -> bool:
        """Start the programs after the current one as a cooperative grid it belongs to
        (False: there are none; ``CooperativeLaunchTooLarge``: too many)."""
        rest = list(range(self.current + 1, self.total))
        if not rest:
            return False
        if len(rest) + 1 > MAX_PROGRAMS:
            raise CooperativeLaunchTooLarge(
                f"program {self.current} of the grid waits for later ones, but the "
                f"{len(rest) + 1} programs from it on are more than the {MAX_PROGRAMS} the host "
                "backends run together"
            )
        self.grid = _Grid([self.current, *rest])
        self.grid.adopt(self.spawned)
        return True


class _Grid:
    """The programs' threads and whose turn it is. Only the running thread changes the state;
    it hands the turn over by setting the next program's event, then waits on its own."""

    def __init__(self, programs: list[int]):
        self.live = list(programs)
        self.turn = programs[0]
        self.go = {p: threading.Event() for p in programs}
        self.error: BaseException | None = None
        #: the live programs whose last loop iteration stalled, since one made progress
        self.stalled: set[int] = set()
        self.threads: list[threading.Thread] = []
        #: programs unwinding after an error leave at once
        self.leaving = threading.Lock()

    def run(self, program: Callable[[int], None]) -> None:
        self._start(self.live, program)
        self.go[self.turn].set()
        self._finish()

    def _start(self, programs: list[int], program: Callable[[int], None]) -> None:
        # each thread runs in a copy of the caller's context (NumPy's errstate, knobs...)
        self.threads = [
            threading.Thread(
                target=contextvars.copy_context().run,
                args=(self._program, i, program),
                name=f"mytriton cooperative program {i}",
                daemon=True,
            )
            for i in programs
        ]
        for t in self.threads:
            t.start()

    def _finish(self) -> None:
        for t in self.threads:
            t.join()
        if self.error is not None:
            raise self.error

    def adopt(self, program: Callable[[int], None]) -> None:
        """The first program is the calling thread's, running already; the others start."""
        self._start(self.live[1:], program)
        _local.grid = self

    def adopted_done(self, i: int) -> None:
        """The calling thread's program ended: wait for the others."""
        _local.grid = None
        self._leave(i)
        self._finish()

    def adopted_failed(self, i: int, error: BaseException) -> None:
        """The calling thread's program failed (or was stopped): the others stop, and the
        first error is raised."""
        _local.grid = None
        if not isinstance(error, _Aborted) and self.error is None:
            self.error = error
            for event in self.go.values():
                event.set()
        self._leave(i)
        self._finish()
        raise error

    def _program(self, i: int, program: Callable[[int], None]) -> None:
        _local.grid = self
        try:
            self.go[i].wait()
            if self.error is None:
                program(i)
        except _Aborted:
            pass
        except BaseException as e:  # re-raised by ``run``, in the launching thread
            if self.error is None:
                self.error = e
            for event in self.go.values():
                event.set()  # the others unwind (``switch`` raises ``_Aborted``)
        finally:
            _local.grid = None
            self._leave(i)

    def _leave(self, i: int) -> None:
        """Program ``i`` is done: the next live program runs."""
        with self.leaving:
            k = self.live.index(i)
            self.live.pop(k)
            self.stalled.clear()
            if self.live and self.error is None:
                self.turn = self.live[k % len(self.live)]
                self.go[self.turn].set()

    def iteration(self, stalled: bool, where: Callable[[], str]) -> None:
        """A loop iteration of the running program: recorded, then the next program runs.
        When every live program's last iteration stalled, none can ever change anything."""
        if stalled:
            self.stalled.add(self.turn)
            if self.stalled.issuperset(self.live):
                raise ProgramsWaitForever(
                    f"every program of the grid waits forever ({where()} and "
                    f"{len(self.live) - 1} others loop without changing anything: a barrier "
                    "or lock waiting for a program that has finished or never comes)"
                )
        else:
            self.stalled.clear()
        self.switch()

    def switch(self) -> None:
        """The running program lets the next live one run, and waits for its turn again."""
        if self.error is not None:
            raise _Aborted()
        i = self.turn
        if len(self.live) == 1:
            return
        nxt = self.live[(self.live.index(i) + 1) % len(self.live)]
        self.go[i].clear()
        self.turn = nxt
        self.go[nxt].set()
        self.go[i].wait()
        if self.error is not None:
            raise _Aborted()
