"""Memory ops: ``llvm.getelementptr``/``load``/``store`` on the parameter arrays, and
``memref.get_global``/``load``/``store`` and ``vector.store`` on per-program shared memory.
Only the active lanes touch memory, so a masked-off out-of-bounds address never faults.

A shared-memory pointer (``!llvm.ptr<3>``, for ``nvvm.ldmatrix`` and ``nvvm.cp.async``) is an
address in the program's shared window (``SharedMemory.base``):
``memref.extract_aligned_pointer_as_index`` gives a buffer's, ``llvm.inttoptr`` keeps it,
``llvm.getelementptr`` adds to it.

Past 48 KiB the buffers are views of dynamic shared memory (``dynamic_views.dynamic_views``):
``gpu.dynamic_shared_memory`` is the region (only ``memref.view`` reads it), a ``memref.view``
at a constant offset is a buffer of the view's type, and ``memref.memory_space_cast`` is the
buffer it casts, so loads, stores and addresses treat them as static buffers.

``llvm.load``/``llvm.store`` of a ``vector<N x T>`` access N consecutive elements per lane at an
address aligned to the op's ``alignment`` (the vector's size when absent, as in LLVM), which
must be at least the vector's size: the CUDA printer's ``float4`` accesses need that much.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects import llvm, memref, vector
from xdsl.dialects.builtin import IntAttr, IntegerAttr, IntegerType, MemRefType, VectorType
from xdsl.ir import Attribute, Operation

from mytriton.backends.gpusim.compiler import Compiler
from mytriton.backends.gpusim.dtypes import as_signed, dtype_of, size_of, vector_shape
from mytriton.backends.gpusim.dynamic_views import DYNAMIC_REGION, is_shared_space
from mytriton.backends.gpusim.global_memory import Access
from mytriton.backends.gpusim.machine import Machine, Step
from mytriton.backends.gpusim.registry import rule
from mytriton.backends.gpusim.rules_pointer_casts import global_inttoptr
from mytriton.backends.gpusim.values import Ptr, SharedRef
from mytriton.dialects.nvgpu.nvvm import SHARED_POINTER

GLOBAL_POINTER = llvm.LLVMPointerType(IntAttr(1))


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
        if isinstance(p, np.ndarray):  # a shared-memory address
            if index is None:
                m.env[out] = p + const * size
            else:
                step = m.env[index]
                assert isinstance(step, np.ndarray)
                m.env[out] = p + as_signed(step).astype(np.int64) * size
            return
        assert isinstance(p, Ptr)
        if index is None:
            m.env[out] = Ptr(p.arg, p.off + const * size)
        else:
            i = m.env[index]
            assert isinstance(i, np.ndarray)
            m.env[out] = Ptr(p.arg, p.off + as_signed(i).astype(np.int64) * size)

    return step


def _access(
    op: Operation, c: Compiler, verb: str, t: Attribute, alignment: IntegerAttr[IntegerType] | None
) -> tuple[np.dtype, Access]:
    """The element dtype and the ``Access`` of a scalar or vector load/store of type ``t``."""
    align = 0 if alignment is None else alignment.value.data
    if not isinstance(t, VectorType):
        return dtype_of(t), Access(verb, align=align)
    dtype, n = vector_shape(t)
    size = n * dtype.itemsize
    if alignment is None:
        align = size  # LLVM: the ABI alignment of the vector type
    if align < size or align & (align - 1):
        c.unsupported(
            op,
            f"a {t} access needs a power-of-two alignment >= {size} (its size: CUDA's vector "
            f"types are that aligned), but the op promises {align}",
        )
    return dtype, Access(f"vector {verb}", vector=n, align=align)


@rule("llvm.load", vectors=True)
def _load(op: Operation, c: Compiler) -> Step:
    assert isinstance(op, llvm.LoadOp)
    if op.ordering.value.data != 0:
        c.unsupported(op, "atomic loads are not modelled")
    ptr, out = op.ptr, op.dereferenced_value
    dtype, access = _access(op, c, "load", out.type, op.alignment)

    def step(m: Machine) -> None:
        p = m.env[ptr]
        assert isinstance(p, Ptr)
        m.env[out] = m.memory.load(m, op, p, dtype, access)

    return step


@rule("llvm.store", vectors=True)
def _store(op: Operation, c: Compiler) -> Step:
    assert isinstance(op, llvm.StoreOp)
    value, ptr = op.value, op.ptr
    if isinstance(value.type, llvm.LLVMPointerType):
        c.unsupported(op, "storing pointers to memory is not modelled")
    if op.ordering is not None and op.ordering.value.data != 0:
        c.unsupported(op, "atomic stores are not modelled")
    _, access = _access(op, c, "store", value.type, op.alignment)

    def step(m: Machine) -> None:
        p, v = m.env[ptr], m.env[value]
        assert isinstance(p, Ptr) and isinstance(v, np.ndarray)
        m.memory.store(m, op, p, v, access)

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


@rule("gpu.dynamic_shared_memory")
def _dynamic_shared_memory(op: Operation, c: Compiler) -> Step:
    """The kernel's dynamic shared memory: a handle that only ``memref.view`` reads (checked
    when the kernel is loaded, ``dynamic_views.dynamic_views``)."""
    (out,) = op.results
    for use in out.uses:
        if not isinstance(use.operation, memref.ViewOp) or use.index != 0:
            c.unsupported(op, "its result may only be the source of memref.view ops")
    ref = SharedRef(DYNAMIC_REGION)

    def step(m: Machine) -> None:
        m.env[out] = ref

    return step


@rule("memref.view")
def _view(op: Operation, c: Compiler) -> Step:
    """A buffer of the view's type at its constant offset in dynamic shared memory."""
    assert isinstance(op, memref.ViewOp)
    view = c.dynamic_views.get(op.result)
    if view is None:
        c.unsupported(op, "only views of gpu.dynamic_shared_memory are modelled")
    out = op.result
    ref = SharedRef(view.name)

    def step(m: Machine) -> None:
        m.env[out] = ref

    return step


@rule("memref.memory_space_cast")
def _memory_space_cast(op: Operation, c: Compiler) -> Step:
    """The same shared buffer, in another spelling of the shared address space."""
    assert isinstance(op, memref.MemorySpaceCastOp)
    source, out = op.source, op.dest
    for t in (source.type, out.type):
        if not isinstance(t, MemRefType) or not is_shared_space(t.memory_space):
            c.unsupported(op, f"only casts between shared-memory memrefs are modelled, not {t}")

    def step(m: Machine) -> None:
        m.env[out] = m.env[source]

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


@rule("memref.extract_aligned_pointer_as_index")
def _shared_address(op: Operation, c: Compiler) -> Step:
    assert isinstance(op, memref.ExtractAlignedPointerAsIndexOp)
    source, out = op.source, op.aligned_pointer

    def step(m: Machine) -> None:
        ref = m.env[source]
        assert isinstance(ref, SharedRef)
        m.env[out] = np.full(m.lanes, m.shared.base[ref.name], np.int64)

    return step


@rule("llvm.inttoptr")
def _inttoptr(op: Operation, c: Compiler) -> Step:
    assert isinstance(op, llvm.IntToPtrOp)
    if op.output.type == GLOBAL_POINTER:
        return global_inttoptr(op)
    if op.output.type != SHARED_POINTER:
        c.unsupported(op, "only global and shared-memory pointers are made from integers")
    source, out = op.input, op.output

    def step(m: Machine) -> None:
        address = m.env[source]
        assert isinstance(address, np.ndarray)
        m.env[out] = address.astype(np.int64)

    return step


@rule("vector.store", vectors=True)
def _vector_store(op: Operation, c: Compiler) -> Step:
    """N consecutive elements of a shared buffer per lane, at an index aligned to the op's
    ``alignment`` (the element size when absent, as upstream lowers it)."""
    assert isinstance(op, vector.StoreOp)
    assert isinstance(op.vector.type, VectorType)
    dtype, n = vector_shape(op.vector.type)
    align = op.attributes.get("alignment")
    align_bytes = align.value.data if isinstance(align, IntegerAttr) else dtype.itemsize
    if align_bytes % dtype.itemsize:
        c.unsupported(op, f"alignment {align_bytes} is not a multiple of the element size")
    step_elems = align_bytes // dtype.itemsize
    buf, indices, value = op.base, list(op.indices), op.vector
    check = c.check_races

    def step(m: Machine) -> None:
        ref, v = m.env[buf], m.env[value]
        assert isinstance(ref, SharedRef) and isinstance(v, np.ndarray)
        shared = m.shared.buffers[ref.name]
        lin = shared.linear(m, op, _indices(m, op, [m.env[i] for i in indices]))
        bad = m.mask & ((lin % step_elems != 0) | (lin + n > shared.data.shape[1]))
        if bad.any():
            i = int(np.argmax(bad))
            m.fail(
                op,
                f"a vector<{n}> store at {ref.name}[{int(lin[i])}] is misaligned (alignment "
                f"{align_bytes}) or runs past the buffer",
                bad,
            )
        for e in range(n):
            shared.store(m, op, lin + e, v[:, e], check)

    return step
