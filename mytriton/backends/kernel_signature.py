"""What launching a lowered kernel needs, apart from its binary: a plain record, so that a
kernel taken from the disk cache is launched without importing the lowering or xDSL's
dialects (``passes/gpu_lowering/abi.py`` reads it off a ``gpu`` module)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class KernelSignature:
    """What launching the kernel needs: its name, parameter kinds and thread-block shape.

    ``params`` holds ``"ptr"``, ``"i32"``, ``"i64"``, ``"f32"`` or ``"f64"`` per parameter.
    """

    name: str
    params: tuple[str, ...]
    block: tuple[int, int, int]
