"""Global pointers as integers and back: ``llvm.ptrtoint`` and ``llvm.inttoptr`` to
``!llvm.ptr<1>`` (``tt.ptr_to_int``/``tt.int_to_ptr`` lowered).

A pointer's integer is the host address it points at (its region's address plus its offset),
so tables the host filled with ``a.ctypes.data`` work. An address becomes a pointer into the
region it falls in, lane by lane: a parameter's array, else an array the launching code holds
(``host_addresses``, added as a region of its own); a lane whose address is in none points
nowhere, and an access through it fails.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects import llvm
from xdsl.ir import Operation

from mytriton.backends.gpusim.compiler import Compiler
from mytriton.backends.gpusim.global_memory import NOWHERE, GlobalMemory, Region
from mytriton.backends.gpusim.machine import Machine, Step
from mytriton.backends.gpusim.registry import rule
from mytriton.backends.gpusim.values import Ptr
from mytriton.backends.host_addresses import find_host_block


@rule("llvm.ptrtoint")
def _ptrtoint(op: Operation, c: Compiler) -> Step:
    assert isinstance(op, llvm.PtrToIntOp)
    source, out = op.input, op.output

    def step(m: Machine) -> None:
        p = m.env[source]
        if not isinstance(p, Ptr):
            m.fail(op, "llvm.ptrtoint of a shared-memory address is not modelled")
        starts = np.zeros(m.lanes, np.int64)
        for arg in np.unique(p.arg):
            region = m.memory.regions.get(int(arg))
            starts[p.arg == arg] = region.address if region is not None else 0
        m.env[out] = starts + p.off

    return step


def global_inttoptr(op: llvm.IntToPtrOp) -> Step:
    """``llvm.inttoptr`` to a global pointer: each lane's address in its region."""
    source, out = op.input, op.output

    def step(m: Machine) -> None:
        address = m.env[source]
        assert isinstance(address, np.ndarray)
        address = address.astype(np.int64)
        arg, off = _locate(m.memory, address)
        m.env[out] = Ptr(arg, off)

    return step


def _locate(memory: GlobalMemory, address: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    arg = np.full(address.shape, NOWHERE, np.int64)
    off = address.copy()
    for key, region in list(memory.regions.items()):
        inside = (address >= region.address) & (address < region.address + region.raw.size)
        inside &= arg == NOWHERE
        arg[inside] = key
        off[inside] = address[inside] - region.address
    for a in np.unique(address[arg == NOWHERE])[:16]:
        block = find_host_block(int(a))
        if block is None:
            continue
        key = min(min(memory.regions, default=0), 0) - 1  # keys below the parameters'
        memory.regions[key] = Region(block.name, block.raw)
        return _locate(memory, address)
    return arg, off
