"""``triton.AsyncCompileMode``: warmups hand their compiles to an executor and return at once;
the same compile is submitted once; a launch waits for its own; the kernel enters the cache
when its result is taken; the end of the block finalizes the rest (Triton 3.6's semantics)."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton import knobs
from mytriton.errors import CompilationError


class QueuedExecutor(Executor):
    """Runs its work only when told (``run_one``, ``run_all``)."""

    def __init__(self) -> None:
        self.queue: list[Callable[[], None]] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()

        def task() -> None:
            if future.set_running_or_notify_cancel():
                try:
                    future.set_result(fn(*args, **kwargs))
                except Exception as e:
                    future.set_exception(e)

        self.queue.append(task)
        return future

    def run_one(self) -> None:
        self.queue.pop(0)()

    def run_all(self) -> None:
        while self.queue:
            self.run_one()

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self.run_all()


@pytest.fixture(autouse=True)
def _interpreter(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MYTRITON_BACKEND", "interpreter")


def store_kernel() -> triton.JITFunction:
    @triton.jit
    def kernel(Y, a: tl.constexpr):
        tl.store(Y, a)

    return kernel


def test_warmups_are_queued_once_and_a_launch_takes_its_own() -> None:
    kernel = store_kernel()
    a, b = np.zeros(4, np.float32), np.zeros(4, np.int32)
    hooked: list[Any] = []
    knobs.runtime.jit_post_compile_hook = lambda **kw: hooked.append(kw["key"])
    try:
        with QueuedExecutor() as pool, triton.AsyncCompileMode(pool):
            futures = [kernel.warmup(x, v, grid=(1,)) for x in (a, b) for v in (0, 1)]
            assert all(isinstance(f, triton.FutureKernel) for f in futures)
            assert len(kernel.cache) == 0 and len(pool.queue) == 4
            assert kernel.warmup(a, 0, grid=(1,)) is futures[0]  # submitted once
            assert len(pool.queue) == 4 and not hooked
            pool.run_one()
            kernel[(1,)](a, 0)  # the (a, 0) compile: done, finalized now
            assert len(kernel.cache) == 1 and len(hooked) == 1 and a[0] == 0.0
            pool.run_all()
        assert len(kernel.cache) == 4 and len(hooked) == 4  # finalized by the block's end
    finally:
        knobs.runtime.jit_post_compile_hook = None
    assert futures[1].result().asm["tt"] in [k.asm["tt"] for k in kernel.cache.values()]


def test_launches_wait_for_compiles_on_threads() -> None:
    kernel = store_kernel()
    a, b = np.zeros(4, np.float32), np.zeros(4, np.int32)
    with ThreadPoolExecutor(2) as pool, triton.AsyncCompileMode(pool):
        for x in (a, b):
            for v in (0, 1):
                kernel.warmup(x, v, grid=(1,))
        kernel[(1,)](b, 1)
        assert b[0] == 1
        kernel[(1,)](a, 1)
        assert a[0] == 1
        kernel[(1,)](a, 2)  # not warmed up: compiled on the pool, waited for
        assert a[0] == 2
    assert len(kernel.cache) == 5


def test_errors_surface_at_the_end_unless_ignored() -> None:
    @triton.jit
    def broken(Y, a: tl.constexpr):
        tl.store(Y, undefined_name)  # noqa: F821

    y = np.zeros(1, np.float32)
    with (
        pytest.raises(CompilationError, match="undefined_name"),
        QueuedExecutor() as pool,
        triton.AsyncCompileMode(pool),
    ):
        broken.warmup(y, 0, grid=(1,))  # no error yet
        pool.run_all()
    with QueuedExecutor() as pool, triton.AsyncCompileMode(pool, ignore_errors=True):
        broken.warmup(y, 1, grid=(1,))
        pool.run_all()
    assert len(broken.cache) == 0


def test_one_mode_at_a_time() -> None:
    with (
        QueuedExecutor() as pool,
        triton.AsyncCompileMode(pool),
        pytest.raises(RuntimeError, match="already active"),
        triton.AsyncCompileMode(pool),
    ):
        pass
    with QueuedExecutor() as pool, triton.AsyncCompileMode(pool):  # the first one ended
        pass
