"""Which host array an integer address points into, for the CPU backends' ``tt.int_to_ptr``.

A kernel may load addresses from memory and use them as pointers (a grouped GEMM reads a table
of ``x.data_ptr()`` values). The interpreter and gpusim check every access against the array a
pointer points into, so they map an address back to an array: first the arrays passed to the
kernel, then the NumPy arrays and CPU torch tensors the launching code holds (the local
variables of its frames, and the lists, tuples, dicts and objects they hold, a few levels
down). An address in none of them points nowhere the backend knows: any access through it is
reported, never performed.
"""

from __future__ import annotations

import sys
import types
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from mytriton.backends.arrays import as_host_numpy, host_memory

_LEAVES = (str, bytes, int, float, type, types.ModuleType, types.FunctionType)

#: how deep to look into what the frames hold, and at most how many objects
_DEPTH = 3
_MAX_OBJECTS = 20_000


@dataclass(frozen=True)
class HostBlock:
    """A memory block of the host: its bytes (``raw``, the caller's memory) and address."""

    name: str
    raw: np.ndarray

    @property
    def address(self) -> int:
        return int(self.raw.__array_interface__["data"][0])

    def holds(self, address: int) -> bool:
        return self.address <= address < self.address + self.raw.size


def find_host_block(address: int) -> HostBlock | None:
    """The memory block of a host array the launching code holds that contains ``address``."""
    for name, array in _held_arrays():
        try:
            raw = host_memory(array).raw
        except (ValueError, TypeError):
            continue
        block = HostBlock(name, raw)
        if block.holds(address):
            return block
    return None


def _held_arrays() -> Iterator[tuple[str, np.ndarray]]:
    seen: set[int] = set()
    frame: types.FrameType | None = sys._getframe(1)
    budget = _MAX_OBJECTS
    while frame is not None and budget > 0:
        pending: list[tuple[str, Any, int]] = [(n, v, 0) for n, v in frame.f_locals.items()]
        while pending and budget > 0:
            name, value, depth = pending.pop()
            if id(value) in seen:
                continue
            seen.add(id(value))
            budget -= 1
            array = _as_array(value)
            if array is not None:
                yield name, array
                continue
            if depth >= _DEPTH or isinstance(value, _LEAVES):
                continue
            pending.extend((name, v, depth + 1) for v in _children(value))
        frame = frame.f_back


def _as_array(value: Any) -> np.ndarray | None:
    if isinstance(value, np.ndarray):
        return value
    if type(value).__module__.startswith("torch") and type(value).__name__ in (
        "Tensor",
        "Parameter",
    ):
        if getattr(value, "device", None) is None or value.device.type != "cpu":
            return None
        try:
            return as_host_numpy(value)
        except Exception:  # a tensor NumPy cannot view: not an array we can address
            return None
    return None


def _children(value: Any) -> list[Any]:
    if isinstance(value, (list, tuple, set, frozenset)):
        return list(value)
    if isinstance(value, dict):
        return list(value.values())
    fields = getattr(value, "__dict__", None)
    return list(fields.values()) if isinstance(fields, dict) else []
