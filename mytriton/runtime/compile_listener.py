"""``knobs.compilation.listener``: told of every compile, with its times (Triton's
``CompileTimes``) and whether the disk cache had it.

Triton calls it from ``triton.compile`` with the ``ASTSource``, the kernel's metadata (its
``hash`` and ``target`` among them), the cache files and the times; profilers and caches built
for Triton read these. ``CompileClock`` measures the three phases of ``compile_stages``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping
from typing import Any

from mytriton import knobs
from mytriton.frontend.signature import ArgSpec, ConstexprArg


def _microseconds(start_ns: int) -> int:
    """Microseconds since ``start_ns``, rounded up: a phase that ran took more than 0."""
    return math.ceil((time.perf_counter_ns() - start_ns) / 1000)


class CompileClock:
    """The phases of one compile: IR (or cache look-up), each lowering stage, storing."""

    def __init__(self) -> None:
        self.start = time.perf_counter_ns()
        self.ir_initialization = 0
        self.stages: list[tuple[str, int]] = []
        self.store_results = 0

    def ir_done(self) -> None:
        self.ir_initialization = _microseconds(self.start)

    def timed_stage(self, name: str, run: Callable[..., Any], *args: Any) -> Any:
        start = time.perf_counter_ns()
        result = run(*args)
        self.stages.append((name, _microseconds(start)))
        return result

    def timed_store(self, store: Callable[[], Any]) -> None:
        start = time.perf_counter_ns()
        store()
        self.store_results = _microseconds(start)

    def times(self) -> knobs.CompileTimes:
        return knobs.CompileTimes(self.ir_initialization, list(self.stages), self.store_results)


def notify(
    fn: Callable[..., Any],
    specs: Mapping[str, ArgSpec],
    kernel: Any,
    capability: int,
    clock: CompileClock,
    cache_hit: bool,
    files: Mapping[str, str],
) -> None:
    """Call the listener, if one is set, as Triton does after a compile or a cache hit;
    ``files`` names the disk-cache files of the kernel (name -> path)."""
    listener = knobs.compilation.listener
    if listener is None:
        return
    from mytriton.compat.compiler import ASTSource, GPUTarget
    from mytriton.runtime.jit_hooks import signature_text

    names = list(specs)
    src = ASTSource(
        fn,
        {n: signature_text(s) for n, s in specs.items()},
        {(names.index(n),): s.value for n, s in specs.items() if isinstance(s, ConstexprArg)},
    )
    metadata = {
        "hash": kernel.hash,
        "target": GPUTarget("cuda", capability, 32),
        "name": kernel.name,
        **{k: v for k, v in kernel.metadata.items() if isinstance(k, str)},
    }
    listener(
        src=src,
        metadata=metadata,
        metadata_group=dict(files),
        times=clock.times(),
        cache_hit=cache_hit,
    )
