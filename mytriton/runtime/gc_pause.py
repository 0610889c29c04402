"""Python's cyclic garbage collector held off while a kernel compiles.

A compile allocates some hundred thousand objects (xDSL ops, values, attributes), nearly all
alive until it ends. The collector, run every 700 allocations, walks them again and again: on
the heaviest kernels, ~150-200 young collections, ~15 middle ones and one full one over every
object of the process, 35-70 ms of a 0.8 s compile, freeing little (the ops a pass erases).
Held off, the compile's garbage (its stages' dead modules: cyclic, as xDSL's ops point to
their parents) waits for the first collection after it, which walks those objects once; the
peak memory of the heaviest kernels here grows by 1-2 MB.

Process-wide, as the collector is: nested and concurrent compiles (threads) hold it off
together, and the last one to finish turns it back on, only if it was on when the first began
(a program that turned it off keeps it off).
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_holders = 0
_was_enabled = False


@contextmanager
def collector_paused() -> Iterator[None]:
    """No automatic garbage collection inside the block (``gc.collect()`` still works)."""
    global _holders, _was_enabled
    with _lock:
        if _holders == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _holders += 1
    try:
        yield
    finally:
        with _lock:
            _holders -= 1
            if _holders == 0 and _was_enabled:
                gc.enable()
