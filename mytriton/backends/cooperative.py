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

A grid whose programs wait for a program that never comes (a barrier counting more programs
than the grid has) runs forever here, as it hangs on a GPU. A cooperative grid has at most
``MAX_PROGRAMS`` programs (a GPU allows as many as are resident at once; CUDA says
``CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE`` beyond).
"""

from __future__ import annotations

import contextvars
import threading
from collections.abc import Callable

from mytriton.errors import LaunchError

#: the most programs a cooperative launch runs here (an H100 holds 132 SMs x a few programs)
MAX_PROGRAMS = 1024

_local = threading.local()


class CooperativeLaunchTooLarge(LaunchError):
    """A cooperative launch of more programs than can run at once (CUDA's
    ``CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE``)."""


class _Aborted(BaseException):
    """Unwinds the other programs once one failed (not an ``Exception``: no rule catches it)."""


def switch_point() -> None:
    """Where a program of a cooperative launch lets the next one run (a no-op elsewhere):
    the backends call it at every atomic op and ``scf.while`` iteration."""
    grid = getattr(_local, "grid", None)
    if grid is not None:
        grid.switch()


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
    _Grid(programs).run(program)


class _Grid:
    """The programs' threads and whose turn it is. Only the running thread changes the state;
    it hands the turn over by setting the next program's event, then waits on its own."""

    def __init__(self, programs: int):
        self.live = list(range(programs))
        self.turn = 0
        self.go = [threading.Event() for _ in range(programs)]
        self.error: BaseException | None = None
        #: programs unwinding after an error leave at once
        self.leaving = threading.Lock()

    def run(self, program: Callable[[int], None]) -> None:
        # each thread runs in a copy of the caller's context (NumPy's errstate, knobs...)
        threads = [
            threading.Thread(
                target=contextvars.copy_context().run,
                args=(self._program, i, program),
                name=f"mytriton cooperative program {i}",
                daemon=True,
            )
            for i in self.live
        ]
        for t in threads:
            t.start()
        self.go[0].set()
        for t in threads:
            t.join()
        if self.error is not None:
            raise self.error

    def _program(self, i: int, program: Callable[[int], None]) -> None:
        _local.grid = self
        try:
            self.go[i].wait()
            if self.error is None:
                program(i)
        except _Aborted:
            pass
        except BaseException as e:  # re-raised by ``run``, in the launching thread
            self.error = e
            for event in self.go:
                event.set()  # the others unwind (``switch`` raises ``_Aborted``)
        finally:
            _local.grid = None
            self._leave(i)

    def _leave(self, i: int) -> None:
        """Program ``i`` is done: the next live program runs."""
        with self.leaving:
            k = self.live.index(i)
            self.live.pop(k)
            if self.live and self.error is None:
                self.turn = self.live[k % len(self.live)]
                self.go[self.turn].set()

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
