"""``tl.extra.cuda``: the CUDA-specific extras: ``libdevice``, the special registers
``globaltimer()`` and ``smid()``, and the launch's ``num_threads()`` and ``num_warps()``."""

from __future__ import annotations

from typing import Any

from mytriton.language.core import builtin
from mytriton.language.extra.cuda import libdevice


@builtin
def globaltimer() -> Any:
    """The GPU's global nanosecond timer (PTX ``%globaltimer``), an int64; each call reads it
    again. The CPU backends read the host's ``time.perf_counter_ns()``."""


@builtin
def smid() -> Any:
    """The index of the multiprocessor running this program (PTX ``%smid``), an int32; 0 on
    the CPU backends."""


@builtin
def num_threads() -> Any:
    """The threads of a program, ``num_warps * 32``: a compile-time constant."""


@builtin
def num_warps() -> Any:
    """The launch's ``num_warps``: a compile-time constant."""


__all__ = ["globaltimer", "libdevice", "num_threads", "num_warps", "smid"]
