"""Cooperative launches (``launch_cooperative_grid=True``): every program of the grid runs at
once, so programs may wait for one another at a grid-wide barrier, the way TorchInductor's
cooperative reductions end each split of a reduction (``triton_helpers.x_grid_barrier``). The
host backends run such a grid as programs taking turns (``backends/cooperative.py``)."""

from __future__ import annotations

import threading
from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.backends import cooperative
from mytriton.backends.cooperative import (
    CooperativeLaunchTooLarge,
    LoopWatch,
    ProgramsWaitForever,
    run_cooperatively,
)
from mytriton.errors import MyTritonError

pytestmark = pytest.mark.execution


@triton.jit
def grid_barrier(sem):
    """Inductor's ``x_grid_barrier``: wait for every program sharing this ``sem``."""
    tl.debug_barrier()
    one_i32 = 1
    one_u32 = one_i32.to(tl.uint32)
    expected = tl.num_programs(0).to(tl.uint32)
    if tl.program_id(0) == 0:  # noqa: SIM108 (Inductor's code, as it is written)
        nb = 0x80000000 - (expected - one_u32)
    else:
        nb = one_u32
    old_arrive = tl.atomic_add(sem, nb, sem="release")
    bar_flipped = False
    while not bar_flipped:
        current_arrive = tl.atomic_add(sem, 0, sem="acquire")
        bar_flipped = ((old_arrive ^ current_arrive) & 0x80000000) != 0
    tl.debug_barrier()


@triton.jit
def split_sum_kernel(x_ptr, ws_ptr, sem_ptr, out_ptr, N, RSPLIT: tl.constexpr, BLOCK: tl.constexpr):
    """Row ``program_id(1)``'s sum, each of ``RSPLIT`` programs summing a chunk: the partial
    sums go through a workspace, and after the barrier every program adds them all up."""
    split, row = tl.program_id(0), tl.program_id(1)
    offs = split * BLOCK + tl.arange(0, BLOCK)
    part = tl.sum(tl.load(x_ptr + row * N + offs, offs < N, other=0.0))
    ws = (ws_ptr + 0).to(tl.pointer_type(tl.float32))  # a byte workspace, as Inductor's
    tl.store(ws + row * RSPLIT + split, part)
    grid_barrier(sem_ptr + row)
    total = tl.sum(tl.load(ws + row * RSPLIT + tl.arange(0, RSPLIT)))
    tl.store(out_ptr + row * RSPLIT + split, total)


@pytest.mark.parametrize(("rsplit", "rows"), [(4, 1), (2, 3)])
def test_programs_meet_at_a_grid_barrier(run: Any, rsplit: int, rows: int) -> None:
    block = 32
    n = rsplit * block - 5
    x = np.random.default_rng(0).integers(-50, 50, (rows, n)).astype(np.float32)
    ws = np.zeros(rows * rsplit * 4, np.uint8)
    sem = np.zeros(rows, np.uint32)
    out = np.zeros((rows, rsplit), np.float32)
    run(
        split_sum_kernel,
        (rsplit, rows),
        x,
        ws,
        sem,
        out,
        n,
        RSPLIT=rsplit,
        BLOCK=block,
        launch_cooperative_grid=True,
    )
    np.testing.assert_array_equal(out, np.repeat(x.sum(axis=1, keepdims=True), rsplit, axis=1))
    assert (sem & 0x7FFFFFFF == 0).all()  # every program arrived: the count wrapped to 0


def cpu_backend(monkeypatch: pytest.MonkeyPatch, backend: str) -> None:
    monkeypatch.setenv("MYTRITON_BACKEND", backend)
    monkeypatch.delenv("MYTRITON_INTERPRET", raising=False)
    monkeypatch.delenv("TRITON_INTERPRET", raising=False)


@pytest.mark.parametrize("backend", ["interpreter", "gpusim"])
def test_an_ordinary_launch_with_a_grid_barrier(
    monkeypatch: pytest.MonkeyPatch, backend: str
) -> None:
    """Without ``launch_cooperative_grid`` (Inductor compiles its cooperative reductions for the
    CPU so), the first program of each row waits for the later ones: they join it."""
    cpu_backend(monkeypatch, backend)
    rsplit, rows, block = 4, 3, 32
    x = np.random.default_rng(1).integers(-50, 50, (rows, rsplit * block)).astype(np.float32)
    ws = np.zeros(rows * rsplit * 4, np.uint8)
    sem = np.zeros(rows, np.uint32)
    out = np.zeros((rows, rsplit), np.float32)
    split_sum_kernel[(rsplit, rows)](x, ws, sem, out, x.shape[1], RSPLIT=rsplit, BLOCK=block)
    np.testing.assert_array_equal(out, np.repeat(x.sum(axis=1, keepdims=True), rsplit, axis=1))


@triton.jit
def wait_for_count_kernel(count_ptr, out_ptr, EXPECTED: tl.constexpr):
    """Every program counts itself in, then waits for ``EXPECTED`` of them."""
    tl.atomic_add(count_ptr, 1)
    seen = tl.atomic_add(count_ptr, 0)
    while seen < EXPECTED:
        seen = tl.atomic_add(count_ptr, 0)
    tl.store(out_ptr + tl.program_id(0), seen)


@pytest.mark.parametrize("backend", ["interpreter", "gpusim"])
@pytest.mark.parametrize("cooperative", [False, True])
def test_waiting_for_programs_that_never_come(
    monkeypatch: pytest.MonkeyPatch, backend: str, cooperative: bool
) -> None:
    """A barrier counting more programs than the grid has would hang: a typed error says so."""
    cpu_backend(monkeypatch, backend)
    count, out = np.zeros(1, np.int32), np.zeros(3, np.int32)
    with pytest.raises(ProgramsWaitForever, match="waits forever"):
        wait_for_count_kernel[(3,)](count, out, EXPECTED=4, launch_cooperative_grid=cooperative)
    assert count[0] == 3
    with pytest.raises(ProgramsWaitForever, match=r"program \(0, 0, 0\) waits forever"):
        wait_for_count_kernel[(1,)](np.zeros(1, np.int32), out, EXPECTED=2)
    count[:] = 0
    wait_for_count_kernel[(3,)](count, out, EXPECTED=3, launch_cooperative_grid=cooperative)
    np.testing.assert_array_equal(out, [3, 3, 3])


@pytest.mark.parametrize("backend", ["interpreter", "gpusim"])
def test_too_many_programs_to_join_a_waiting_one(
    monkeypatch: pytest.MonkeyPatch, backend: str
) -> None:
    cpu_backend(monkeypatch, backend)
    programs = cooperative.MAX_PROGRAMS + 10
    count, out = np.zeros(1, np.int32), np.zeros(programs, np.int32)
    with pytest.raises(
        CooperativeLaunchTooLarge, match=f"waits for later ones, but the {programs}"
    ):
        wait_for_count_kernel[(programs,)](count, out, EXPECTED=programs)


@triton.jit
def lock_kernel(lock_ptr, total_ptr, x_ptr):
    """A spin lock around a read-modify-write: it never waits when programs run in order."""
    while tl.atomic_cas(lock_ptr, 0, 1) == 1:
        pass
    tl.store(total_ptr, tl.load(total_ptr) * 2 + tl.load(x_ptr + tl.program_id(0)))
    tl.atomic_xchg(lock_ptr, 0)


@pytest.mark.parametrize("backend", ["interpreter", "gpusim"])
def test_a_lock_still_runs_programs_in_grid_order(
    monkeypatch: pytest.MonkeyPatch, backend: str
) -> None:
    """An ordinary launch keeps running programs one after another in grid order (the order of
    the updates decides this result)."""
    cpu_backend(monkeypatch, backend)
    total, x = np.zeros(1, np.int64), np.arange(1, 6, dtype=np.int64)
    lock_kernel[(5,)](np.zeros(1, np.int32), total, x)
    assert total[0] == (((1 * 2 + 2) * 2 + 3) * 2 + 4) * 2 + 5


def test_loop_watch_stalls_only_on_an_iteration_that_changes_nothing() -> None:
    memory = np.zeros(4, np.int32)
    watch = LoopWatch()

    def state() -> list[np.ndarray]:
        return [memory.copy()]

    assert not watch.iteration([np.int32(1)], state)
    assert not watch.iteration([np.int32(2)], state)  # the loop value changed
    assert not watch.iteration([np.int32(2)], state)  # memory saved to compare
    memory[0] = 7
    assert not watch.iteration([np.int32(2)], state)  # memory changed
    assert watch.iteration([np.int32(2)], state)  # nothing changed: a stall


@triton.jit
def fail_after_barrier_kernel(sem_ptr, x_ptr, out_ptr):
    grid_barrier(sem_ptr)
    pid = tl.program_id(0)
    tl.store(out_ptr + pid, tl.load(x_ptr + pid * 1000))  # out of bounds but for program 0


@pytest.mark.parametrize("backend", ["interpreter", "gpusim"])
def test_a_failing_program_fails_the_launch(monkeypatch: pytest.MonkeyPatch, backend: str) -> None:
    """An error in one program (an out-of-bounds load past the barrier) is the launch's typed
    error; the programs waiting for their turn stop."""
    monkeypatch.setenv("MYTRITON_BACKEND", backend)
    monkeypatch.delenv("MYTRITON_INTERPRET", raising=False)
    before = threading.active_count()
    with pytest.raises(MyTritonError, match=r"out of bounds|outside"):
        fail_after_barrier_kernel[(3,)](
            np.zeros(1, np.uint32),
            np.ones(4, np.float32),
            np.zeros(3, np.float32),
            launch_cooperative_grid=True,
        )
    assert threading.active_count() == before  # every program's thread ended


@pytest.mark.parametrize("backend", ["interpreter", "gpusim"])
def test_a_grid_too_large_to_run_at_once(monkeypatch: pytest.MonkeyPatch, backend: str) -> None:
    monkeypatch.setenv("MYTRITON_BACKEND", backend)
    monkeypatch.delenv("MYTRITON_INTERPRET", raising=False)
    sem = np.zeros(1, np.uint32)
    with pytest.raises(CooperativeLaunchTooLarge, match="1025 programs"):
        grid_barrier_kernel[(cooperative.MAX_PROGRAMS + 1,)](sem, launch_cooperative_grid=True)
    assert sem[0] == 0  # refused before any program ran


@triton.jit
def grid_barrier_kernel(sem_ptr):
    grid_barrier(sem_ptr)


def test_programs_take_turns_round_robin_at_switch_points() -> None:
    """The running program hands over at each switch point to the next live program in grid
    order; a finished program leaves the ring. The order is the same on every run."""
    trace: list[tuple[int, int]] = []

    def program(i: int) -> None:
        for step in range(i + 1):
            trace.append((i, step))
            cooperative.switch_point()

    run_cooperatively(3, program)
    assert trace == [(0, 0), (1, 0), (2, 0), (1, 1), (2, 1), (2, 2)]
    cooperative.switch_point()  # outside a cooperative launch: nothing happens


def test_the_first_error_is_raised_and_the_others_stop() -> None:
    ran: list[int] = []

    def program(i: int) -> None:
        ran.append(i)
        cooperative.switch_point()
        if i == 1:
            raise ValueError("program 1 failed")
        cooperative.switch_point()
        ran.append(10 + i)

    with pytest.raises(ValueError, match="program 1 failed"):
        run_cooperatively(3, program)
    assert ran == [0, 1, 2]  # program 0 waited for its turn when 1 failed: it stopped
