"""Global memory: the arrays passed for pointer parameters, addressed through ``Ptr`` values.

Every access of an active lane must stay inside the array its pointer derives from (aligned to
the accessed type); a store by several threads of one program to one element must agree.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
from xdsl.ir import Operation

from mytriton.backends.gpusim.values import Ptr, first_conflict

if TYPE_CHECKING:
    from mytriton.backends.gpusim.machine import Machine


@dataclass
class Region:
    """The array passed for one pointer parameter, as raw bytes (writes go to the caller's)."""

    name: str
    raw: np.ndarray
    _typed: dict[np.dtype, np.ndarray] = field(default_factory=dict)

    def typed(self, dtype: np.dtype) -> np.ndarray:
        view = self._typed.get(dtype)
        if view is None:
            usable = self.raw.size - self.raw.size % dtype.itemsize
            view = self._typed[dtype] = self.raw[:usable].view(dtype)
        return view


class GlobalMemory:
    """Loads and stores through ``Ptr`` values, bounds-checked per parameter array."""

    def __init__(self, regions: dict[int, Region]):
        self.regions = regions

    def _accesses(
        self, m: Machine, op: Operation, ptr: Ptr, dtype: np.dtype, verb: str
    ) -> Iterator[tuple[Region, np.ndarray, np.ndarray]]:
        """Per parameter array the active lanes address: (region, lanes, element indices)."""
        active = np.flatnonzero(m.mask)
        args = ptr.arg[active]
        first = int(args[0])
        groups = [first] if (args == first).all() else [int(a) for a in np.unique(args)]
        for arg in groups:
            lanes = active if len(groups) == 1 else active[args == arg]
            region = self.regions.get(arg)
            if region is None:
                m.fail(op, f"{verb} through a pointer that is not a pointer parameter")
            yield region, lanes, self._check(m, op, region, ptr.off[lanes], lanes, dtype, verb)

    @staticmethod
    def _check(
        m: Machine,
        op: Operation,
        region: Region,
        off: np.ndarray,
        lanes: np.ndarray,
        dtype: np.dtype,
        verb: str,
    ) -> np.ndarray:
        size = dtype.itemsize
        idx = off // size
        n = region.typed(dtype).size
        bad = (off % size != 0) | (idx < 0) | (idx >= n)
        if bad.any():
            i = int(np.argmax(bad))
            what = "misaligned" if off[i] % size else "out-of-bounds"
            m.fail(
                op,
                f"{what} {verb} of `{region.name}`: byte offset {int(off[i])} (element "
                f"{int(off[i]) / size:g} of {dtype.name}), but the array holds {n} such elements",
                m.lane_mask(int(lanes[i])),
            )
        return idx

    def load(self, m: Machine, op: Operation, ptr: Ptr, dtype: np.dtype) -> np.ndarray:
        out = np.zeros(m.lanes, dtype)
        if m.mask.any():
            for region, lanes, idx in self._accesses(m, op, ptr, dtype, "load"):
                out[lanes] = region.typed(dtype)[idx]
        return out

    def store(self, m: Machine, op: Operation, ptr: Ptr, values: np.ndarray) -> None:
        if not m.mask.any():
            return
        for region, lanes, idx in self._accesses(m, op, ptr, values.dtype, "store"):
            vals = values[lanes]
            # only threads of one program conflict: programs are ordered like a sequential run
            clash = first_conflict(m.prog[lanes] * region.raw.size + idx, vals)
            if clash is not None:
                a, b = (int(lanes[i]) for i in clash)
                m.fail(
                    op,
                    f"threads {int(m.tid[a])} and {int(m.tid[b])} store different values "
                    f"({vals[clash[0]]} and {vals[clash[1]]}) to element {int(idx[clash[0]])} "
                    f"of `{region.name}` at once",
                    m.lane_mask(b),
                )
            region.typed(values.dtype)[idx] = vals
