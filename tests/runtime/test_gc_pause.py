"""The garbage collector is held off while a kernel compiles (``runtime/gc_pause.py``) and
turned back on after, as it was; a program that turned it off keeps it off."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator

import pytest

import mytriton.runtime.compiler as compiler
from mytriton.runtime.gc_pause import collector_paused
from tests.runtime.test_stages import clean_environment, run_axpy

__all__ = ["clean_environment"]  # the autouse fixture, in force here too


@pytest.fixture(autouse=True)
def collector_on() -> Iterator[None]:
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


def test_paused_inside_and_restored_after() -> None:
    with collector_paused():
        assert not gc.isenabled()
        with collector_paused():  # nested
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_restored_after_an_error() -> None:
    with pytest.raises(ValueError), collector_paused():
        raise ValueError("a failing compile")
    assert gc.isenabled()


def test_a_program_that_turned_it_off_keeps_it_off() -> None:
    gc.disable()
    with collector_paused():
        pass
    assert not gc.isenabled()


def test_concurrent_holders_restore_once_the_last_leaves() -> None:
    """Two threads' compiles overlap: the first to finish leaves it off for the other."""
    entered, first_done = threading.Event(), threading.Event()
    seen: list[bool] = []

    def second() -> None:
        with collector_paused():
            entered.set()
            first_done.wait(10)
            seen.append(gc.isenabled())

    with collector_paused():
        thread = threading.Thread(target=second)
        thread.start()
        assert entered.wait(10)
    first_done.set()
    thread.join(10)
    assert seen == [False]
    assert gc.isenabled()


def test_a_compile_runs_with_the_collector_off(monkeypatch: pytest.MonkeyPatch) -> None:
    """The frontend and every stage run with it off; it is on again after the launch."""
    monkeypatch.setenv("MYTRITON_BACKEND", "gpusim")
    states: list[bool] = []
    frontend, stages = compiler.compile_kernel, compiler.stage_table

    def recording_frontend(*args: object, **kwargs: object) -> object:
        states.append(gc.isenabled())
        return frontend(*args, **kwargs)  # type: ignore[arg-type]

    def recording_stages(*args: object) -> object:
        states.append(gc.isenabled())
        return stages(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(compiler, "compile_kernel", recording_frontend)
    monkeypatch.setattr(compiler, "stage_table", recording_stages)
    run_axpy()
    assert states == [False, False]
    assert gc.isenabled()
