"""Rules of ``tt.atomic_rmw`` and ``tt.atomic_cas``: one element after another.

The active lanes are applied in C order (program by program, then element by element), so the
returned old values form one sequential history: with repeated addresses each lane sees what
the lanes before it left. In a batch an atomic is a store in the batch log: two programs
touching one element conflict and the batch reruns one program at a time (so a spin lock never
waits on a program that runs in lockstep with it). Masked-off lanes touch nothing and return 0.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import numpy as np

from mytriton.backends.cooperative import switch_point
from mytriton.backends.interpreter.errors import ReadOnlyArgument
from mytriton.backends.interpreter.memory import BadOffset, check_bounds, scatter_indices
from mytriton.backends.interpreter.registry import rule
from mytriton.backends.interpreter.rules_memory import _check_poisoned_use, _out_of_bounds
from mytriton.backends.interpreter.values import Pointers, Value, as_array
from mytriton.dialects.tt import atomic as ta
from mytriton.dialects.tt.types import PointerType, element_type

if TYPE_CHECKING:
    from xdsl.ir import Operation, SSAValue

    from mytriton.backends.interpreter.engine import Executor

Array = np.ndarray
#: new memory contents from (old, operands...) for distinct elements at once
Update = Callable[..., Array]


def _apply(
    ex: Executor,
    op: Operation,
    ptr_v: SSAValue,
    operands: list[Array],
    mask: Array | None,
    update: Update,
) -> Array:
    """Run ``update`` on the active lanes' elements, one lane after another; the old values.
    In a cooperative launch the next program runs first (``backends/cooperative.py``)."""
    switch_point()
    ptr = ex.get(ptr_v)
    assert isinstance(ptr, Pointers)
    buf = ex.memory.buffers[ptr.base]
    arrays = [ptr.offsets, *operands] + ([mask] if mask is not None else [])
    offsets, *rest = np.broadcast_arrays(*arrays)
    if offsets.shape[0] == 1 < ex.programs:  # shared operands: still one atomic per program
        shape = (ex.programs, *offsets.shape[1:])
        offsets, *rest = (np.broadcast_to(a, shape) for a in (offsets, *rest))
    values = [np.ascontiguousarray(v) for v in rest[: len(operands)]]
    active = rest[-1] if mask is not None else None
    if ex.debug:
        _check_poisoned_use(ex, op, "the address", ex.poison(ptr_v), active, offsets.shape)
    try:
        check_bounds(buf, offsets, active)
    except BadOffset as bad:
        raise _out_of_bounds(ex, op, "atomic", buf, offsets, bad) from None
    old = np.zeros(offsets.shape, buf.flat.dtype)
    if active is not None and not active.any():
        return old
    if not buf.flat.flags.writeable:
        raise ReadOnlyArgument(f"atomic update of argument '{buf.name}', a read-only array", op)
    indices, _ = scatter_indices(offsets, offsets, active)
    lanes = np.flatnonzero(active) if active is not None else np.arange(offsets.size)
    operand_lanes = [v.reshape(-1)[lanes] for v in values]
    if ex.log is not None:
        ex.log.record_store(buf, offsets, active, indices)
    flat_old = old.reshape(-1)
    if np.unique(indices).size == indices.size:  # distinct elements: all at once
        before = buf.flat[indices]
        buf.flat[indices] = update(before, *operand_lanes)
        flat_old[lanes] = before
        return old
    for k in range(indices.size):  # one after another: each sees the ones before
        i = indices[k : k + 1]
        before = buf.flat[i]
        buf.flat[i] = update(before, *(v[k : k + 1] for v in operand_lanes))
        flat_old[lanes[k]] = before[0]
    return old


def _pointee(op: ta.AtomicRMWOp | ta.AtomicCASOp) -> object:
    elem = element_type(op.ptr.type)
    assert isinstance(elem, PointerType)
    return elem.pointee


@rule(ta.AtomicRMWOp)
def atomic_rmw(ex: Executor, op: ta.AtomicRMWOp) -> Sequence[Value]:
    ptr_v, val_v, mask_v, kind, pointee = ex.launch.kernel.memo(
        op, lambda: (op.ptr, op.val, op.mask, op.kind.data, _pointee(op))
    )
    val = as_array(ex.get(val_v), "atomic value")
    mask = as_array(ex.get(mask_v), "atomic mask") if mask_v is not None else None

    def update(old: Array, v: Array) -> Array:
        return ta.combine(kind, old, v.astype(old.dtype), pointee)  # type: ignore[arg-type]

    return (_apply(ex, op, ptr_v, [val], mask, update),)


@rule(ta.AtomicCASOp)
def atomic_cas(ex: Executor, op: ta.AtomicCASOp) -> Sequence[Value]:
    ptr_v, cmp_v, val_v = ex.launch.kernel.memo(op, lambda: (op.ptr, op.cmp, op.val))
    cmp = as_array(ex.get(cmp_v), "atomic_cas cmp")
    val = as_array(ex.get(val_v), "atomic_cas val")
    return (_apply(ex, op, ptr_v, [cmp, val], None, ta.swap_if_equal),)
