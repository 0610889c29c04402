"""Rules of pointer arithmetic and of masked loads and stores.

Masked-off lanes are never read or written, so their addresses may be anything; an active lane
outside the memory block its argument points into (the array, or a view's base array) raises
``OutOfBoundsAccess`` naming the program and the first bad offset.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from mytriton.backends.interpreter.errors import (
    InterpreterError,
    OutOfBoundsAccess,
    PoisonUse,
    ReadOnlyArgument,
    describe_line,
    describe_program,
)
from mytriton.backends.interpreter.memory import (
    BadOffset,
    Buffer,
    check_bounds,
    gather,
    scatter_indices,
)
from mytriton.backends.interpreter.poison import Poison, make_poison, mask_of, poison_scalar, union
from mytriton.backends.interpreter.registry import rule
from mytriton.backends.interpreter.values import Pointers, Value, as_array
from mytriton.dialects.tt import core as tt
from mytriton.dialects.tt.tensor_map import MakeTensorMapOp

if TYPE_CHECKING:
    from xdsl.ir import Operation, SSAValue

    from mytriton.backends.interpreter.engine import Executor

Array = np.ndarray


def _pointers(ex: Executor, v: SSAValue, op: Operation) -> Pointers:
    value = ex.get(v)
    if not isinstance(value, Pointers):
        raise InterpreterError("expected pointers", op)
    return value


@rule(tt.AddPtrOp)
def addptr(ex: Executor, op: tt.AddPtrOp) -> Sequence[Value]:
    ptr_v, offset_v = op.operands
    ptr = _pointers(ex, ptr_v, op)
    offset = as_array(ex.get(offset_v), "tt.addptr offset")
    if ex.debug:
        ex.set_poison(op.results[0], union([ex.poison(ptr_v), ex.poison(offset_v)]))
    step = offset.astype(np.int64)
    if ptr.byte_offsets:
        step = step * ex.memory.buffers[ptr.base].flat.dtype.itemsize
    return (ptr.with_offsets(ptr.offsets + step),)


def _lane(shape: tuple[int, ...], index: int) -> tuple[int, tuple[int, ...]]:
    """Program row and in-block index of flat position ``index`` of a ``shape`` array."""
    program, *element = np.unravel_index(index, shape)
    return int(program), tuple(int(e) for e in element)


def _where(element: tuple[int, ...]) -> str:
    return f" (element {list(element)} of the block)" if element else ""


def _out_of_bounds(
    ex: Executor, op: Operation, kind: str, buf: Buffer, offsets: Array, bad: BadOffset
) -> OutOfBoundsAccess:
    program, element = _lane(offsets.shape, bad.index)
    # offsets from the argument's first element: a view's block may start before it
    offset = int(offsets.reshape(-1)[bad.index]) - buf.origin
    first, last = -buf.origin, buf.size - 1 - buf.origin
    return OutOfBoundsAccess(
        f"out-of-bounds {kind} in {describe_program(ex.pid_of_lane(program))} of kernel "
        f"'{ex.launch.kernel_name}': offset {offset}{_where(element)} is outside argument "
        f"'{buf.name}' ({buf.size} elements, valid offsets {first}..{last})",
        op,
    )


def _check_poisoned_use(
    ex: Executor,
    op: Operation,
    what: str,
    poison: Poison | None,
    active: Array | None,
    shape: tuple[int, ...],
) -> None:
    """In debug mode, raise ``PoisonUse`` when an active lane of a poisoned operand is used."""
    if poison is None:
        return
    bad = np.broadcast_to(poison.mask, shape)
    if active is not None:
        bad = bad & active
    if bad.any():
        program, element = _lane(shape, int(np.argmax(bad)))
        raise PoisonUse(
            f"{what} is derived from uninitialised data ({poison.origin}) in "
            f"{describe_program(ex.pid_of_lane(program))}{_where(element)}",
            op,
        )


@rule(MakeTensorMapOp)
def make_tensor_map(ex: Executor, op: MakeTensorMapOp) -> Sequence[Value]:
    """No tensor maps here (the loads that name one read through their pointers): its value
    is the tensor's base."""
    return (_pointers(ex, op.base, op),)


@rule(tt.LoadOp)
def load(ex: Executor, op: tt.LoadOp) -> Sequence[Value]:
    ptr_v, mask_v, other_v = ex.launch.kernel.memo(op, lambda: (op.ptr, op.mask, op.other))
    ptr = _pointers(ex, ptr_v, op)
    buf = ex.memory.buffers[ptr.base]
    mask = as_array(ex.get(mask_v), "load mask") if mask_v is not None else None
    offsets = ptr.offsets
    if mask is not None:
        offsets, mask = np.broadcast_arrays(offsets, mask)
    if ex.debug:
        _check_poisoned_use(ex, op, "the address", ex.poison(ptr_v), mask, offsets.shape)
    try:
        check_bounds(buf, offsets, mask)
    except BadOffset as bad:
        raise _out_of_bounds(ex, op, "load", buf, offsets, bad) from None
    if other_v is not None:
        fill = as_array(ex.get(other_v), "load other")
    else:
        fill = poison_scalar(buf.flat.dtype)
    result = gather(buf, offsets, mask, fill)
    if ex.log is not None:
        ex.log.record_load(buf, offsets, mask)
    if ex.debug and mask is not None and mask_v is not None:
        poison = _load_poison(ex, op, mask, ex.poison(mask_v), other_v, result.shape)
        ex.set_poison(op.result, poison)
    return (result,)


def _load_poison(
    ex: Executor,
    op: tt.LoadOp,
    mask: Array,
    mask_poison: Poison | None,
    other_v: SSAValue | None,
    shape: tuple[int, ...],
) -> Poison | None:
    """Lanes loaded under a poisoned mask, and masked-off lanes filled by poison."""
    if other_v is not None:
        other = ex.poison(other_v)
        filled = mask_of(other, shape) & ~mask
        origin = other.origin if other is not None else ""
    else:
        filled = ~mask
        origin = f"masked-off lanes of the load at {describe_line(op)} without 'other'"
    if mask_poison is not None:
        filled = filled | np.broadcast_to(mask_poison.mask, shape)
        origin = origin or mask_poison.origin
    return make_poison(np.asarray(filled), origin)


@rule(tt.StoreOp)
def store(ex: Executor, op: tt.StoreOp) -> Sequence[Value]:
    ptr_v, value_v, mask_v = ex.launch.kernel.memo(op, lambda: (op.ptr, op.value, op.mask))
    ptr = _pointers(ex, ptr_v, op)
    buf = ex.memory.buffers[ptr.base]
    values = as_array(ex.get(value_v), "stored value")
    if mask_v is not None:
        mask = as_array(ex.get(mask_v), "store mask")
        offsets, values, mask_b = np.broadcast_arrays(ptr.offsets, values, mask)
        active: Array | None = mask_b
    else:
        offsets, values = np.broadcast_arrays(ptr.offsets, values)
        active = None
    if ex.debug:
        shape = offsets.shape
        _check_poisoned_use(ex, op, "the address", ex.poison(ptr_v), active, shape)
        if mask_v is not None:
            _check_poisoned_use(ex, op, "the store mask", ex.poison(mask_v), None, shape)
        _check_poisoned_use(ex, op, "the stored value", ex.poison(value_v), active, shape)
    try:
        check_bounds(buf, offsets, active)
    except BadOffset as bad:
        raise _out_of_bounds(ex, op, "store", buf, offsets, bad) from None
    if not buf.flat.flags.writeable:
        if active is not None and not active.any():
            return ()  # writes nothing, as on a GPU
        raise ReadOnlyArgument(f"store into argument '{buf.name}', a read-only array", op)
    indices, data = scatter_indices(offsets, values, active)
    if ex.log is not None:
        ex.log.record_store(buf, offsets, active, indices)
    buf.flat[indices] = data
    return ()
