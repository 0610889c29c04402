"""``triton.AsyncCompileMode``: compiles handed to an executor (Triton 3.6's async compile).

Inside ``with AsyncCompileMode(executor):`` a compile that misses the caches is submitted to
``executor`` instead of running in the caller: ``warmup`` returns at once with a
``FutureKernel``, and the same compile submitted again (another warmup, a launch) is the same
future. The compiled kernel enters the ``@jit`` function's cache (``device_caches``), and the
post-compile hook runs, when the future's result is first taken, in the taking thread: by a
launch, which waits for its compile, or at the end of the ``with`` block, which waits for every
compile submitted (their errors raised there, unless ``ignore_errors``; a block left by an
exception does not wait: the compiles not started are cancelled). Compiles still run one
at a time in the process (``compile_on_miss.COMPILING``): the executor overlaps them with the
caller's work, not with each other. One mode is active at a time.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from concurrent.futures import Executor, Future, as_completed
from contextvars import ContextVar
from types import TracebackType
from typing import Any

#: the mode of the ``with`` block this context is in (None: compiles run in the caller)
active_mode: ContextVar[AsyncCompileMode | None] = ContextVar(
    "mytriton_async_compile", default=None
)


class FutureKernel:
    """A compile submitted to the executor; ``result()`` waits for it and finalizes it once:
    ``finalize`` takes what the compile returned, keeps the kernel in its cache and returns
    it."""

    def __init__(self, finalize: Callable[[Any], Any], future: Future[Any]):
        self.finalize = finalize
        self.future = future
        self.kernel: Any = None

    def result(self, ignore_errors: bool = False) -> Any:
        if self.kernel is not None:
            return self.kernel
        try:
            made = self.future.result()
        except Exception:
            if ignore_errors:
                return None
            raise
        self.kernel = self.finalize(made)
        return self.kernel


class AsyncCompileMode:
    """``with AsyncCompileMode(executor, ignore_errors=False):`` (Triton's API)."""

    def __init__(self, executor: Executor, *, ignore_errors: bool = False):
        self.executor = executor
        self.ignore_errors = ignore_errors
        self.futures: dict[Hashable, FutureKernel] = {}
        self._order: list[tuple[Future[Any], Hashable]] = []

    def submit(
        self, key: Hashable, compile_fn: Callable[[], Any], finalize: Callable[[Any], Any]
    ) -> FutureKernel:
        """The future of the compile ``key``: submitted now, or the one submitted before."""
        found = self.futures.get(key)
        if found is not None:
            return found
        future = self.executor.submit(compile_fn)
        self._order.append((future, key))
        kernel = self.futures[key] = FutureKernel(finalize, future)
        return kernel

    def __enter__(self) -> AsyncCompileMode:
        if active_mode.get() is not None:
            raise RuntimeError("Another AsyncCompileMode is already active")
        active_mode.set(self)
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        try:
            keys = dict(self._order)
            if exc is not None:  # leaving on an error: compiles not started are dropped
                for future in keys:
                    future.cancel()
                return
            for future in as_completed(keys):  # every compile submitted, finalized here
                self.futures[keys[future]].result(self.ignore_errors)
        finally:
            active_mode.set(None)
