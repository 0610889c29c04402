"""Global memory through ``llvm`` pointers (``T*``) and shared memory through ``memref``
(``__shared__`` arrays named by their ``memref.global``).

A shared-memory pointer (``!llvm.ptr<3>``, the address ``nvvm.ldmatrix`` reads) is an
``unsigned`` shared-window address, as PTX's ``.shared`` operands take it:
``memref.extract_aligned_pointer_as_index`` is ``__cvta_generic_to_shared`` of the array,
``llvm.inttoptr`` keeps the number, ``llvm.getelementptr`` adds bytes.

Past 48 KiB the shared buffers are views of dynamic shared memory: ``gpu.dynamic_shared_memory``
is an ``extern __shared__`` byte array (sized at launch), a ``memref.view`` of it a typed
pointer ``float* smem_3 = (float*)(dynamic_smem + 1024LL);`` and ``memref.memory_space_cast``
another name for it, so every use of a shared array (subscripts, ``__cvta_generic_to_shared``,
vector stores) prints the same for a pointer as for a static ``__shared__`` array.

A vector load or store (``vector<4xf32>``; ``vector<8xf16>`` packed in a ``uint4``) is one
access through a cast pointer, ``*(const float4*)p``, which nvcc turns into ``ld.global.v4``:
CUDA's vector types are aligned to their size, so the op's ``alignment`` must promise at least
that much. The global store of a packed vector is inline PTX (``st.global.v4.b32`` of its
words): nvcc splits ``*(uint4*)p = v`` into 32-bit stores once it sees the 16-bit pieces ``v``
is built of (an f16 output rebuilt from shared memory after a layout conversion).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith, llvm, memref, vector
from xdsl.dialects.builtin import IntegerAttr, IntegerType, MemRefType, NoneAttr, VectorType
from xdsl.ir import Attribute, SSAValue

from mytriton.backends.cuda.c_types import (
    VECTOR_COMPONENTS,
    PackedVector,
    is_shared_memref,
    packed_vector,
    vector_bytes,
    vector_type,
)
from mytriton.backends.cuda.emitter import Emitter, prints
from mytriton.backends.cuda.hinted_access import load_statements, store_statements
from mytriton.backends.cuda.literals import int_literal
from mytriton.dialects.nvgpu.upstream import DynamicSharedMemoryOp
from mytriton.dialects.tt.types import byte_size
from mytriton.errors import BackendError
from mytriton.passes.gpu_lowering.abi import is_global_pointer, is_shared_pointer

#: the C++ name of the kernel's dynamic shared memory (``extern __shared__``), where free
DYNAMIC_SHARED_NAME = "dynamic_smem"
#: its alignment: the views cut out of it are 16-byte aligned (docs/gpu-ir.md), for vector
#: accesses, ``ldmatrix`` rows and 16-byte ``cp.async`` copies, and wgmma's swizzled tiles
#: 1024-byte aligned (``ttg_nvmma``)
DYNAMIC_SHARED_ALIGNMENT = 1024


class MemoryPrinter(Emitter):
    """``T*`` arithmetic, loads and stores; ``__shared__`` array subscripts."""

    @prints(llvm.GEPOp)
    def _print_getelementptr(self, op: llvm.GEPOp) -> None:
        raw = list(op.rawConstantIndices.iter_values())
        if len(raw) != 1:
            raise BackendError("only one-index getelementptr (pointer + offset) is supported")
        offset = self._n(op.ssa_indices[0]) if raw[0] == llvm.GEP_USE_SSA_VAL else str(raw[0])
        if is_shared_pointer(op.ptr.type):
            size = byte_size(op.elem_type)
            self._define(op.result, f"{self._n(op.ptr)} + (unsigned)({offset}) * {size}u", op)
            return
        element = self._pointee[op.result]
        base = self._as_pointer(op.ptr, element)
        self._define(op.result, f"{base} + {offset}", op)

    @prints(memref.ExtractAlignedPointerAsIndexOp)
    def _print_shared_address(self, op: memref.ExtractAlignedPointerAsIndexOp) -> None:
        if not is_shared_memref(op.source.type):
            raise BackendError("only shared-memory arrays have addresses here")
        array = self._n(op.source)
        self._define(op.aligned_pointer, f"(long long)__cvta_generic_to_shared({array})", op)

    @prints(llvm.IntToPtrOp)
    def _print_inttoptr(self, op: llvm.IntToPtrOp) -> None:
        if is_global_pointer(op.output.type):  # an address (tl.int_to_ptr): a void* till used
            self._define(op.output, f"(void*){self._n(op.input)}", op)
            return
        if not is_shared_pointer(op.output.type):
            raise BackendError("only global and shared-memory pointers come from integers")
        self._define(op.output, f"(unsigned){self._n(op.input)}", op)

    @prints(llvm.PtrToIntOp)
    def _print_ptrtoint(self, op: llvm.PtrToIntOp) -> None:
        if not is_global_pointer(op.input.type):
            raise BackendError("only global pointers (!llvm.ptr<1>) convert to integers")
        self._define(op.output, f"(long long){self._n(op.input)}", op)

    @prints(vector.StoreOp, vectors=True)
    def _print_vector_store(self, op: vector.StoreOp) -> None:
        t = op.vector.type
        assert isinstance(t, VectorType)
        if not is_shared_memref(op.base.type):
            raise BackendError("vector.store is only supported into shared memory")
        align = op.attributes.get("alignment")
        if not isinstance(align, IntegerAttr):
            raise BackendError(f"a {t} store into shared memory needs an alignment")
        ctype = _aligned_vector(t, align)
        where = self._subscript(op.base, op.indices)
        self._stmt(op, f"*({ctype}*)&{where} = {self._n(op.vector)};")

    @prints(llvm.LoadOp, vectors=True)
    def _print_load(self, op: llvm.LoadOp) -> None:
        if op.ordering.value.data != 0:
            raise BackendError("atomic loads are not supported")
        result = op.dereferenced_value
        if op.attributes:  # tl.load's options (hinted_access), else a plain load
            t = result.type
            ctype = _aligned_vector(t, op.alignment) if isinstance(t, VectorType) else None
            ctype = ctype or self._ctype(result)
            nbytes = vector_bytes(t) if isinstance(t, VectorType) else byte_size(t)
            name = self.names.fresh(result.name_hint)
            hinted = load_statements(op, ctype, nbytes, self._n(op.ptr), name)
            if hinted is not None:
                self.names.bind(result, name)
                for line in hinted:
                    self._stmt(op, line)
                return
        if isinstance(result.type, VectorType):
            vector = _aligned_vector(result.type, op.alignment)
            self._define(result, f"*(const {vector}*){self._n(op.ptr)}", op)
            return
        self._define(result, f"*{self._as_pointer(op.ptr, self._ctype(result))}", op)

    @prints(llvm.StoreOp, vectors=True)
    def _print_store(self, op: llvm.StoreOp) -> None:
        if op.ordering is not None and op.ordering.value.data != 0:
            raise BackendError("atomic stores are not supported")
        t = op.value.type
        if op.attributes:  # tl.store's options (hinted_access), else a plain store
            ctype = _aligned_vector(t, op.alignment) if isinstance(t, VectorType) else None
            ctype = ctype or self._ctype(op.value)
            nbytes = vector_bytes(t) if isinstance(t, VectorType) else byte_size(t)
            hinted = store_statements(op, ctype, nbytes, self._n(op.ptr), self._n(op.value))
            if hinted is not None:
                for line in hinted:
                    self._stmt(op, line)
                return
        if isinstance(t, VectorType):
            vector = _aligned_vector(t, op.alignment)
            packed = packed_vector(t)
            if packed is not None and is_global_pointer(op.ptr.type):
                self._stmt(
                    op, _packed_store(packed, vector_bytes(t), self._n(op.ptr), self._n(op.value))
                )
                return
            self._stmt(op, f"*({vector}*){self._n(op.ptr)} = {self._n(op.value)};")
            return
        pointer = self._as_pointer(op.ptr, self._ctype(op.value))
        self._stmt(op, f"*{pointer} = {self._n(op.value)};")

    @prints(memref.GetGlobalOp)
    def _print_get_global(self, op: memref.GetGlobalOp) -> None:
        # the shared array is already a C++ name: the value simply refers to it
        if not isinstance(op.memref.type, MemRefType) or not is_shared_memref(op.memref.type):
            raise BackendError("only shared-memory globals are supported")
        self.names.bind(op.memref, op.name_.root_reference.data)

    @prints(DynamicSharedMemoryOp)
    def _print_dynamic_shared_memory(self, op: DynamicSharedMemoryOp) -> None:
        # every extern __shared__ array starts at the dynamic shared memory the launch sizes
        name = DYNAMIC_SHARED_NAME
        if self.names.is_free(name):
            self.names.reserve(name)
        else:
            name = self.names.fresh(name)
        self.names.bind(op.result, name)
        self._stmt(
            op, f"extern __shared__ __align__({DYNAMIC_SHARED_ALIGNMENT}) unsigned char {name}[];"
        )

    @prints(memref.ViewOp)
    def _print_view(self, op: memref.ViewOp) -> None:
        t = op.result.type
        if not is_shared_memref(op.source.type):
            raise BackendError(
                "only views of shared memory (gpu.dynamic_shared_memory) are supported"
            )
        if (
            not isinstance(t, MemRefType)
            or not is_shared_memref(t)
            or op.sizes
            or len(t.get_shape()) != 1
            or t.get_shape()[0] < 0
            or not isinstance(t.layout, NoneAttr)
        ):
            raise BackendError(
                f"a view of shared memory must be a 1-D static-shape shared memref, not {t}"
            )
        element = self._scalar_type(op, t.element_type)
        shift = op.byte_shift.owner
        value = shift.value if isinstance(shift, arith.ConstantOp) else None
        offset = (
            int_literal(value.value.data, 64)
            if isinstance(value, IntegerAttr)
            else self._n(op.byte_shift)
        )
        name = self.names.fresh(_buffer_name_hint(op))
        self.names.bind(op.result, name)
        self._stmt(op, f"{element}* {name} = ({element}*)({self._n(op.source)} + {offset});")

    @prints(memref.MemorySpaceCastOp)
    def _print_memory_space_cast(self, op: memref.MemorySpaceCastOp) -> None:
        # address space 3 and #gpu.address_space<workgroup> are both CUDA shared memory
        if not (is_shared_memref(op.source.type) and is_shared_memref(op.dest.type)):
            raise BackendError("only casts between shared-memory memrefs are supported")
        self.names.bind(op.dest, self._n(op.source))

    def _subscript(self, memref_value: SSAValue, indices: Sequence[SSAValue]) -> str:
        return self._n(memref_value) + "".join(f"[{self._n(i)}]" for i in indices)

    @prints(memref.LoadOp)
    def _print_memref_load(self, op: memref.LoadOp) -> None:
        self._define(op.res, self._subscript(op.memref, op.indices), op)

    @prints(memref.StoreOp)
    def _print_memref_store(self, op: memref.StoreOp) -> None:
        self._stmt(op, f"{self._subscript(op.memref, op.indices)} = {self._n(op.value)};")


def _buffer_name_hint(view: memref.ViewOp) -> str | None:
    """A view's buffer is named by its ``memory_space_cast`` (``smem``), the value its users
    read, else by its own hint."""
    for use in view.result.uses:
        cast = use.operation
        if isinstance(cast, memref.MemorySpaceCastOp) and cast.dest.name_hint:
            return cast.dest.name_hint
    return view.result.name_hint


def _packed_store(packed: PackedVector, nbytes: int, ptr: str, value: str) -> str:
    """One ``st.global`` of a packed vector's words, as inline PTX: nvcc splits a plain
    ``*(uint4*)p = v`` into 32-bit stores once it sees the 16-bit pieces the words are built
    of (the stores of a layout conversion's shared-memory loads, issue 36)."""
    count = nbytes * 8 // packed.word_bits
    letter, ptx = ("r", "b32") if packed.word_bits == 32 else ("h", "b16")
    regs = ", ".join(f"%{i + 1}" for i in range(count))
    regs = f"{{{regs}}}" if count > 1 else regs
    shape = f".v{count}" if count > 1 else ""
    ins = ", ".join(f'"{letter}"({value}.{VECTOR_COMPONENTS[i]})' for i in range(count))
    return f'asm volatile("st.global{shape}.{ptx} [%0], {regs};" :: "l"({ptr}), {ins} : "memory");'


def _aligned_vector(t: VectorType[Attribute], alignment: IntegerAttr[IntegerType] | None) -> str:
    """The CUDA vector type of a vector access, which must be aligned to its size (an absent
    ``alignment`` means the ABI alignment of the vector, its size, as in LLVM)."""
    vector, size = vector_type(t), vector_bytes(t)
    if alignment is not None and alignment.value.data < size:
        raise BackendError(
            f"a {t} access needs alignment >= {size} (a {vector} is {size}-byte aligned), "
            f"but the op only promises {alignment.value.data}"
        )
    return vector
