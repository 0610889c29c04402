"""Global memory through ``llvm`` pointers (``T*``) and shared memory through ``memref``
(``__shared__`` arrays named by their ``memref.global``)."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import llvm, memref
from xdsl.dialects.builtin import MemRefType
from xdsl.ir import SSAValue

from mytriton.backends.cuda.c_types import is_shared_memref
from mytriton.backends.cuda.emitter import Emitter, prints
from mytriton.errors import BackendError


class MemoryPrinter(Emitter):
    """``T*`` arithmetic, loads and stores; ``__shared__`` array subscripts."""

    @prints(llvm.GEPOp)
    def _print_getelementptr(self, op: llvm.GEPOp) -> None:
        element = self._pointee[op.result]
        base = self._as_pointer(op.ptr, element)
        raw = list(op.rawConstantIndices.iter_values())
        if len(raw) != 1:
            raise BackendError("only one-index getelementptr (pointer + offset) is supported")
        offset = self._n(op.ssa_indices[0]) if raw[0] == llvm.GEP_USE_SSA_VAL else str(raw[0])
        self._define(op.result, f"{base} + {offset}", op)

    @prints(llvm.LoadOp)
    def _print_load(self, op: llvm.LoadOp) -> None:
        if op.ordering.value.data != 0:
            raise BackendError("atomic loads are not supported")
        result = op.dereferenced_value
        self._define(result, f"*{self._as_pointer(op.ptr, self._ctype(result))}", op)

    @prints(llvm.StoreOp)
    def _print_store(self, op: llvm.StoreOp) -> None:
        if op.ordering is not None and op.ordering.value.data != 0:
            raise BackendError("atomic stores are not supported")
        pointer = self._as_pointer(op.ptr, self._ctype(op.value))
        self._stmt(op, f"*{pointer} = {self._n(op.value)};")

    @prints(memref.GetGlobalOp)
    def _print_get_global(self, op: memref.GetGlobalOp) -> None:
        # the shared array is already a C++ name: the value simply refers to it
        if not isinstance(op.memref.type, MemRefType) or not is_shared_memref(op.memref.type):
            raise BackendError("only shared-memory globals are supported")
        self.names.bind(op.memref, op.name_.root_reference.data)

    def _subscript(self, memref_value: SSAValue, indices: Sequence[SSAValue]) -> str:
        return self._n(memref_value) + "".join(f"[{self._n(i)}]" for i in indices)

    @prints(memref.LoadOp)
    def _print_memref_load(self, op: memref.LoadOp) -> None:
        self._define(op.res, self._subscript(op.memref, op.indices), op)

    @prints(memref.StoreOp)
    def _print_memref_store(self, op: memref.StoreOp) -> None:
        self._stmt(op, f"{self._subscript(op.memref, op.indices)} = {self._n(op.value)};")
