"""Memory ops: ``llvm.getelementptr``/``load``/``store`` on the parameter arrays, and
``memref.get_global``/``load``/``store`` on per-program shared memory. Only the active lanes
touch memory, so a masked-off out-of-bounds address never faults."""

from __future__ import annotations

import numpy as np
from xdsl.dialects import llvm, memref
from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Operation

from mytriton.backends.gpusim.compiler import Compiler
from mytriton.backends.gpusim.dtypes import as_signed, dtype_of, size_of
from mytriton.backends.gpusim.machine import Machine, Step
from mytriton.backends.gpusim.registry import rule
from mytriton.backends.gpusim.values import Ptr, SharedRef


@rule("llvm.getelementptr")
def _gep(op: Operation, c: Compiler) -> Step:
    assert isinstance(op, llvm.GEPOp)
    raw = list(op.rawConstantIndices.iter_values())
    if len(raw) != 1:
        c.unsupported(op, "only single-index (pointer + i) GEPs are modelled")
    size = size_of(op.elem_type)
    base = op.ptr
    index = op.ssa_indices[0] if raw[0] == llvm.GEP_USE_SSA_VAL else None
    const = 0 if index is not None else int(raw[0])
    out = op.result

    def step(m: Machine) -> None:
        p = m.env[base]
        assert isinstance(p, Ptr)
        if index is None:
            m.env[out] = Ptr(p.arg, p.off + const * size)
        else:
            i = m.env[index]
            assert isinstance(i, np.ndarray)
            m.env[out] = Ptr(p.arg, p.off + as_signed(i).astype(np.int64) * size)

    return step


@rule("llvm.load")
def _load(op: Operation, c: Compiler) -> Step:
    assert isinstance(op, llvm.LoadOp)
    dtype = dtype_of(op.dereferenced_value.type)
    ptr, out = op.ptr, op.dereferenced_value

    def step(m: Machine) -> None:
        p = m.env[ptr]
        assert isinstance(p, Ptr)
        m.env[out] = m.memory.load(m, op, p, dtype)

    return step


@rule("llvm.store")
def _store(op: Operation, c: Compiler) -> Step:
    assert isinstance(op, llvm.StoreOp)
    value, ptr = op.value, op.ptr
    if isinstance(value.type, llvm.LLVMPointerType):
        c.unsupported(op, "storing pointers to memory is not modelled")

    def step(m: Machine) -> None:
        p, v = m.env[ptr], m.env[value]
        assert isinstance(p, Ptr) and isinstance(v, np.ndarray)
        m.memory.store(m, op, p, v)

    return step


@rule("memref.get_global")
def _get_global(op: Operation, c: Compiler) -> Step:
    assert isinstance(op, memref.GetGlobalOp)
    name = op.name_.root_reference.data
    if name not in c.shared_names:
        c.unsupported(op, f"@{name} is not a shared-memory (address space 3) memref.global")
    out = op.memref
    ref = SharedRef(name)

    def step(m: Machine) -> None:
        m.env[out] = ref

    return step


def _indices(m: Machine, op: Operation, values: list[object]) -> list[np.ndarray]:
    out = []
    for v in values:
        assert isinstance(v, np.ndarray)
        out.append(v)
    return out


@rule("memref.load")
def _memref_load(op: Operation, c: Compiler) -> Step:
    assert isinstance(op, memref.LoadOp)
    assert isinstance(op.memref.type, MemRefType)
    buf, indices, out = op.memref, list(op.indices), op.res
    check = c.check_races

    def step(m: Machine) -> None:
        ref = m.env[buf]
        assert isinstance(ref, SharedRef)
        shared = m.shared.buffers[ref.name]
        lin = shared.linear(m, op, _indices(m, op, [m.env[i] for i in indices]))
        m.env[out] = shared.load(m, op, lin, check)

    return step


@rule("memref.store")
def _memref_store(op: Operation, c: Compiler) -> Step:
    assert isinstance(op, memref.StoreOp)
    buf, indices, value = op.memref, list(op.indices), op.value
    check = c.check_races

    def step(m: Machine) -> None:
        ref, v = m.env[buf], m.env[value]
        assert isinstance(ref, SharedRef) and isinstance(v, np.ndarray)
        shared = m.shared.buffers[ref.name]
        lin = shared.linear(m, op, _indices(m, op, [m.env[i] for i in indices]))
        shared.store(m, op, lin, v, check)

    return step
