"""Rules of ``tt.ptr_to_int`` and ``tt.int_to_ptr``: pointers as host addresses and back.

A pointer's integer is the host address of the element it points at, as on a GPU, so an address
table the host filled (``a.ctypes.data``, ``t.data_ptr()``) and one the kernel stored agree. An
address becomes a pointer into the memory block it falls in (an argument's, else an array the
launching code holds: ``host_addresses``), seen as the new pointee's elements; lanes outside
that block keep their distance from it, so an access through them is out of bounds; addresses
in no known block keep their exact byte distance from an empty one (``Pointers.byte_offsets``),
so converting them back gives the same integers. A pointer value holds one array, so all lanes
of one program must point into the same one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from mytriton.backends.host_addresses import HostBlock, find_host_block
from mytriton.backends.interpreter.batching import BatchDiverged
from mytriton.backends.interpreter.errors import InterpreterError
from mytriton.backends.interpreter.registry import rule
from mytriton.backends.interpreter.values import Pointers, Value, as_array, dtype_of
from mytriton.dialects.tt.pointer_casts import IntToPtrOp, PtrToIntOp
from mytriton.dialects.tt.types import PointerType, element_type

if TYPE_CHECKING:
    from mytriton.backends.interpreter.engine import Executor

Array = np.ndarray


@rule(PtrToIntOp)
def ptr_to_int(ex: Executor, op: PtrToIntOp) -> Sequence[Value]:
    p = ex.get(op.src)
    if not isinstance(p, Pointers):
        raise InterpreterError("expected pointers", op)
    buf = ex.memory.buffers[p.base]
    start = int(buf.flat.__array_interface__["data"][0])
    if ex.debug:
        ex.set_poison(op.result, ex.poison(op.src))
    return (start + p.offsets * (1 if p.byte_offsets else buf.flat.dtype.itemsize),)


@rule(IntToPtrOp)
def int_to_ptr(ex: Executor, op: IntToPtrOp) -> Sequence[Value]:
    addresses = as_array(ex.get(op.src), "tt.int_to_ptr address").astype(np.int64)
    pointee = element_type(op.result.type)
    assert isinstance(pointee, PointerType)
    dtype = dtype_of(pointee.pointee)
    block = _block_of(ex, op, addresses)
    if ex.debug:
        ex.set_poison(op.result, ex.poison(op.src))
    if block is None:  # points nowhere we know: every access through it is out of bounds
        block = HostBlock(f"the memory at address {int(addresses.reshape(-1)[0]):#x}", _NOWHERE)
        base = ex.memory.view_of(block, dtype)
        return (Pointers(base, addresses - block.address, byte_offsets=True),)
    distance = addresses - block.address
    inside = (distance >= 0) & (distance < block.raw.size)
    if (distance[inside] % dtype.itemsize).any():
        raise InterpreterError(
            f"an address inside '{block.name}' that is not a multiple of {dtype.itemsize} bytes "
            f"from its start: no {dtype.name} element starts there",
            op,
        )
    base = ex.memory.view_of(block, dtype)
    return (Pointers(base, distance // dtype.itemsize),)


_NOWHERE = np.zeros(0, np.uint8)


def _block_of(ex: Executor, op: IntToPtrOp, addresses: Array) -> HostBlock | None:
    """The one memory block the addresses of each program point into (None: no known one)."""
    blocks = ex.memory.blocks
    hits = np.full(addresses.shape, -1)
    for i, b in enumerate(blocks):
        hits[(addresses >= b.address) & (addresses < b.address + b.raw.size) & (hits < 0)] = i
    if (hits < 0).all():
        for address in np.unique(addresses)[:16]:
            found = find_host_block(int(address))
            if found is not None:
                blocks.append(found)
                return _block_of(ex, op, addresses)
        return None
    used = np.unique(hits[hits >= 0])
    if len(used) > 1:
        per_program = [np.unique(row[row >= 0]) for row in hits.reshape(len(hits), -1)]
        if all(len(r) <= 1 for r in per_program):
            raise BatchDiverged()  # each program points into one array, not the same one
        raise InterpreterError(
            "the interpreter cannot hold a block of pointers into different arrays "
            f"('{blocks[int(used[0])].name}' and '{blocks[int(used[1])].name}') in one value",
            op,
        )
    return blocks[int(used[0])]
