"""Atomics on global memory: ``llvm.atomicrmw``, ``llvm.cmpxchg`` (and ``llvm.extractvalue`` of
its ``{old, swapped}`` pair), ``llvm.fence``.

Lanes run in lockstep, so an atomic op is applied lane after lane (in lane order): lanes on one
element each see what the lanes before them left, and the old values form one sequential
history. Atomics are not races, so they stay out of the race log. A kernel with atomics runs
one program at a time (``launch.py``): a program spinning on a lock another program holds
would otherwise wait forever in lockstep with it. A ``cmpxchg`` result is a NumPy structured
array with fields ``f0`` (the old value) and ``f1`` (whether it was swapped); ``extractvalue``
takes any such struct apart (``rules_nvvm``'s mma results too).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from xdsl.dialects import llvm
from xdsl.dialects.builtin import VectorType
from xdsl.ir import Attribute, Operation

from mytriton.backends.cooperative import switch_point
from mytriton.backends.gpusim.compiler import Compiler
from mytriton.backends.gpusim.dtypes import dtype_of
from mytriton.backends.gpusim.errors import ReadOnlyArgument, SimulationError
from mytriton.backends.gpusim.global_memory import Access
from mytriton.backends.gpusim.machine import Machine, Step
from mytriton.backends.gpusim.registry import rule
from mytriton.backends.gpusim.values import Ptr
from mytriton.backends.gpusim.warpgroups import scalar_fields
from mytriton.dialects.nvgpu.atomic import AtomicBinOp, AtomicRMWOp, CmpXchgOp, FenceOp

Array = np.ndarray
Update = Callable[..., Array]
ATOMIC = Access("atomic")


def _unsigned(x: Array) -> Array:
    return x.view(np.dtype(f"u{x.dtype.itemsize}"))


def _umax(old: Array, v: Array) -> Array:
    return np.maximum(_unsigned(old), _unsigned(v)).view(old.dtype)


def _umin(old: Array, v: Array) -> Array:
    return np.minimum(_unsigned(old), _unsigned(v)).view(old.dtype)


_UPDATES: dict[AtomicBinOp, Update] = {
    AtomicBinOp.XCHG: lambda old, v: v,
    AtomicBinOp.ADD: lambda old, v: old + v,
    AtomicBinOp.SUB: lambda old, v: old - v,
    AtomicBinOp.AND: lambda old, v: old & v,
    AtomicBinOp.OR: lambda old, v: old | v,
    AtomicBinOp.XOR: lambda old, v: old ^ v,
    AtomicBinOp.MAX: np.maximum,
    AtomicBinOp.MIN: np.minimum,
    AtomicBinOp.UMAX: _umax,
    AtomicBinOp.UMIN: _umin,
    AtomicBinOp.FADD: lambda old, v: (old + v).astype(old.dtype),
    AtomicBinOp.FSUB: lambda old, v: (old - v).astype(old.dtype),
}


def apply_atomic(
    m: Machine, op: Operation, ptr: Ptr, dtype: np.dtype, operands: list[Array], update: Update
) -> Array:
    """Apply ``update`` to the element of each active lane, lane after lane; the old values.
    In a cooperative launch the next program runs first (``backends/cooperative.py``)."""
    switch_point()
    old = np.zeros(m.lanes, dtype)
    if not m.mask.any():
        return old
    for _, region, lanes, idx in m.memory._accesses(m, op, ptr, dtype, ATOMIC):
        if not region.raw.flags.writeable:
            lane = int(lanes[0])
            raise ReadOnlyArgument(
                f"atomic update of argument `{region.name}`, a read-only array",
                op,
                m.program_of(lane),
                int(m.tid[lane]),
            )
        typed = region.typed(dtype)
        values = [v[lanes] for v in operands]
        if np.unique(idx).size == idx.size:  # distinct elements: all at once
            before = typed[idx]
            typed[idx] = update(before, *values)
            old[lanes] = before
            continue
        for k in range(idx.size):  # one after another: each sees the ones before
            i = idx[k : k + 1]
            before = typed[i]
            typed[i] = update(before, *(v[k : k + 1] for v in values))
            old[lanes[k]] = before[0]
    return old


@rule("llvm.atomicrmw")
def _atomicrmw(op: Operation, c: Compiler) -> Step:
    assert isinstance(op, AtomicRMWOp)
    kind = op.operation
    update = _UPDATES.get(kind)
    if update is None:
        c.unsupported(op, f"atomicrmw {kind.name.lower()} is not modelled")
    ptr, val, out = op.ptr, op.val, op.res
    dtype = dtype_of(val.type)

    def step(m: Machine) -> None:
        p, v = m.env[ptr], m.env[val]
        assert isinstance(p, Ptr) and isinstance(v, np.ndarray)
        m.env[out] = apply_atomic(m, op, p, dtype, [v], update)

    return step


def _swap_if_equal(old: Array, cmp: Array, val: Array) -> Array:
    return np.where(old == cmp, val, old)


@rule("llvm.cmpxchg")
def _cmpxchg(op: Operation, c: Compiler) -> Step:
    assert isinstance(op, CmpXchgOp)
    ptr, cmp, val, out = op.ptr, op.cmp, op.val, op.res
    dtype = dtype_of(val.type)
    pair = np.dtype([("f0", dtype), ("f1", np.bool_)])

    def step(m: Machine) -> None:
        p, expected, v = m.env[ptr], m.env[cmp], m.env[val]
        assert isinstance(p, Ptr) and isinstance(expected, np.ndarray)
        assert isinstance(v, np.ndarray)
        old = apply_atomic(m, op, p, dtype, [expected, v], _swap_if_equal)
        result = np.zeros(m.lanes, pair)
        result["f0"] = old
        result["f1"] = (old == expected) & m.mask
        m.env[out] = result

    return step


def _is_scalar(t: Attribute) -> bool:
    """Whether gpusim holds values of ``t`` as plain NumPy scalars (a struct field it models)."""
    if isinstance(t, VectorType):
        return False
    try:
        dtype_of(t)
    except SimulationError:
        return False
    return True


@rule("llvm.extractvalue")
def _extractvalue(op: Operation, c: Compiler) -> Step:
    """A field of a struct of scalars: a structured array's field (a cmpxchg pair, an mma's
    accumulators in ``rules_nvvm``, a wgmma's in ``rules_wgmma``, once its group retired)."""
    assert isinstance(op, llvm.ExtractValueOp)
    position = list(op.position.iter_values())
    t = op.container.type
    fields = list(t.types.data) if isinstance(t, llvm.LLVMStructType) else []
    if not fields or not all(_is_scalar(f) for f in fields):
        c.unsupported(op, f"only fields of a struct of scalars are modelled, not of {t}")
    if len(position) != 1 or not 0 <= position[0] < len(fields):
        c.unsupported(op, f"position {position} is not a field of {t}")
    field = f"f{position[0]}"
    container, out = op.container, op.res

    def step(m: Machine) -> None:
        struct = m.env[container]
        assert isinstance(struct, np.ndarray) and struct.dtype.names is not None
        assert len(scalar_fields(struct)) == len(fields)
        m.wgmma.check_settled(m, op, struct)  # a wgmma's result only once retired
        m.env[out] = np.ascontiguousarray(struct[field])

    return step


@rule("llvm.fence")
def _fence(op: Operation, c: Compiler) -> Step:
    assert isinstance(op, FenceOp)

    def step(m: Machine) -> None:
        """Lockstep lanes see every access at once: nothing to order."""

    return step
