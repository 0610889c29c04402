"""Global memory: the arrays passed for pointer parameters, addressed through ``Ptr`` values.

Every access of an active lane must stay inside the array its pointer derives from (aligned to
the accessed type, and to the op's ``alignment``); a store by several threads of one program to
one element must agree (be the same number), and a stored-to array must be writable. Vector
accesses (``vector<4xf32>``) touch N consecutive elements.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
from xdsl.ir import Operation

from mytriton.backends.gpusim.errors import ReadOnlyArgument
from mytriton.backends.gpusim.global_races import GlobalAccessLog
from mytriton.backends.gpusim.values import Ptr, first_conflict

if TYPE_CHECKING:
    from mytriton.backends.gpusim.machine import Machine


@dataclass
class Region:
    """The memory block the array passed for one pointer parameter points into (a view's whole
    base array), as raw bytes (writes go to the caller's); the parameter's pointer starts at
    byte ``origin``, the array's first element."""

    name: str
    raw: np.ndarray
    origin: int = 0
    _typed: dict[np.dtype, np.ndarray] = field(default_factory=dict)

    @property
    def address(self) -> int:
        return int(self.raw.__array_interface__["data"][0])

    def typed(self, dtype: np.dtype) -> np.ndarray:
        view = self._typed.get(dtype)
        if view is None:
            usable = self.raw.size - self.raw.size % dtype.itemsize
            view = self._typed[dtype] = self.raw[:usable].view(dtype)
        return view


#: the region key of a pointer made from an address in no array the simulator knows
NOWHERE = -(1 << 40)

#: the most alignment a launch specializes a pointer on (``tt.divisibility``)
_SPECIALIZED_ALIGNMENT = 16


def _holds(region: Region, n: int, dtype: np.dtype) -> str:
    """What memory the region offers, from the array's first element."""
    if region.origin == 0:
        return f"the array holds {n} such elements"
    first = -(region.origin // dtype.itemsize)
    return (
        f"the memory the array views holds {n} such elements, from element {first} to "
        f"{first + n - 1}"
    )


@dataclass(frozen=True)
class Access:
    """How one ``llvm.load``/``llvm.store`` touches memory: ``vector`` elements per lane (0 for a
    scalar access) and the byte alignment its ``alignment`` attribute promises (0: none)."""

    verb: str
    vector: int = 0
    align: int = 0

    def elements(self, idx: np.ndarray) -> np.ndarray:
        """Element indices per lane: ``idx`` itself, or ``(lanes, N)`` consecutive ones."""
        if not self.vector:
            return idx
        return idx[:, None] + np.arange(self.vector)


SCALAR_LOAD = Access("load")
SCALAR_STORE = Access("store")


class GlobalMemory:
    """Loads and stores through ``Ptr`` values, bounds-checked per parameter array.

    ``vector`` N > 0 makes an access read or write N consecutive elements per lane (values of
    shape ``(lanes, N)``); ``align`` is the byte alignment the op promises, checked too since a
    GPU faults on a misaligned vector access.
    """

    def __init__(self, regions: dict[int, Region], check_races: bool = True):
        self.regions = regions
        self.log = GlobalAccessLog() if check_races else None

    def _accesses(
        self, m: Machine, op: Operation, ptr: Ptr, dtype: np.dtype, access: Access
    ) -> Iterator[tuple[int, Region, np.ndarray, np.ndarray]]:
        """Per parameter array the active lanes address: (its parameter, region, lanes, element
        indices)."""
        active = np.flatnonzero(m.mask)
        args = ptr.arg[active]
        first = int(args[0])
        groups = [first] if (args == first).all() else [int(a) for a in np.unique(args)]
        for arg in groups:
            lanes = active if len(groups) == 1 else active[args == arg]
            region = self.regions.get(arg)
            if region is None:
                bad = np.zeros(m.lanes, bool)
                bad[lanes] = True
                if arg == NOWHERE:
                    address = int(ptr.off[lanes[0]])
                    m.fail(
                        op,
                        f"{access.verb} through a pointer made from address {address:#x}, which "
                        "is in no array passed to the kernel nor held by the launching code",
                        bad,
                    )
                m.fail(op, f"{access.verb} through a pointer that is not a pointer parameter")
            idx = self._check(m, op, region, ptr.off[lanes], lanes, dtype, access)
            yield arg, region, lanes, idx

    @staticmethod
    def _check(
        m: Machine,
        op: Operation,
        region: Region,
        off: np.ndarray,
        lanes: np.ndarray,
        dtype: np.dtype,
        access: Access,
    ) -> np.ndarray:
        """Index of each lane's (first) element; all its elements must lie in the region, at an
        offset from the array's first element aligned to the element and to the op's alignment
        (and at an address so aligned, up to the 16 bytes a launch can know of)."""
        size = dtype.itemsize
        align = max(size, access.align)
        idx = off // size
        n = region.typed(dtype).size
        misaligned = (off - region.origin) % align != 0
        if access.align > size:  # the address itself: what a launch specializes on
            misaligned |= (off + region.address) % min(align, _SPECIALIZED_ALIGNMENT) != 0
        bad = misaligned | (idx < 0) | (idx + max(access.vector, 1) > n)
        if bad.any():
            i = int(np.argmax(bad))
            lane = m.lane_mask(int(lanes[i]))
            rel = int(off[i]) - region.origin  # from the array's first element
            where = f"{access.verb} of `{region.name}`: byte offset {rel}"
            if misaligned[i] and (access.vector or off[i] % size == 0):
                why = "a GPU faults on a misaligned vector access" if access.vector else None
                address = region.address + int(off[i])
                # the array's first element unaligned: the offset alone does not say why
                at = "" if address % align == rel % align else f" (address {address:#x})"
                m.fail(
                    op,
                    f"misaligned {where}{at} is not a multiple of {align} bytes, the alignment the "
                    f"op promises ({why or 'LLVM may compile the access relying on it'})",
                    lane,
                )
            first = region.origin // size  # element indices from the array's first element
            holds = _holds(region, n, dtype)
            if access.vector:
                m.fail(
                    op,
                    f"out-of-bounds {where} (elements {int(idx[i]) - first} to "
                    f"{int(idx[i]) - first + access.vector - 1} of {dtype.name}), but {holds}",
                    lane,
                )
            what = "misaligned" if misaligned[i] else "out-of-bounds"
            m.fail(
                op,
                f"{what} {where} (element {rel / size:g} of {dtype.name}), but {holds}",
                lane,
            )
        return idx

    def load(
        self, m: Machine, op: Operation, ptr: Ptr, dtype: np.dtype, access: Access = SCALAR_LOAD
    ) -> np.ndarray:
        shape = (m.lanes, access.vector) if access.vector else (m.lanes,)
        out = np.zeros(shape, dtype)
        if m.mask.any():
            for arg, region, lanes, idx in self._accesses(m, op, ptr, dtype, access):
                typed, elements = region.typed(dtype), access.elements(idx)
                out[lanes] = typed[elements]
                if self.log is not None:
                    self.log.loaded(m, op, arg, region.name, typed, lanes, elements)
        return out

    def store(
        self, m: Machine, op: Operation, ptr: Ptr, values: np.ndarray, access: Access = SCALAR_STORE
    ) -> None:
        if not m.mask.any():
            return
        for arg, region, lanes, idx in self._accesses(m, op, ptr, values.dtype, access):
            if not region.raw.flags.writeable:
                lane = int(lanes[0])
                raise ReadOnlyArgument(
                    f"store into argument `{region.name}`, a read-only array",
                    op,
                    m.program_of(lane),
                    int(m.tid[lane]),
                )
            elements = access.elements(idx).reshape(-1)
            vals = values[lanes].reshape(-1)
            programs = np.repeat(m.prog[lanes], max(access.vector, 1))
            # only threads of one program conflict: programs are ordered like a sequential run
            clash = first_conflict(programs * region.raw.size + elements, vals)
            if clash is not None:
                a, b = (int(lanes[i // max(access.vector, 1)]) for i in clash)
                m.fail(
                    op,
                    f"threads {int(m.tid[a])} and {int(m.tid[b])} store different values "
                    f"({vals[clash[0]]} and {vals[clash[1]]}) to element "
                    f"{int(elements[clash[0]])} of `{region.name}` at once",
                    m.lane_mask(b),
                )
            typed = region.typed(values.dtype)
            if self.log is not None:
                self.log.stored(m, op, arg, region.name, typed, lanes, elements, vals)
            typed[elements] = vals
