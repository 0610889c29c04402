"""C++ spellings of the lowered IR's types (the ABI of ``docs/gpu-ir.md``).

``index`` is 64-bit, as in MLIR's NVVM lowering, so both emitters agree on index arithmetic.
"""

from __future__ import annotations

from xdsl.dialects.builtin import (
    Float32Type,
    Float64Type,
    IndexType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    MemRefType,
)
from xdsl.dialects.llvm import LLVMPointerType
from xdsl.ir import Attribute

from mytriton.errors import BackendError

_INT_TYPES = {1: "bool", 8: "signed char", 16: "short", 32: "int", 64: "long long"}
_UINT_TYPES = {
    1: "bool",
    8: "unsigned char",
    16: "unsigned short",
    32: "unsigned",
    64: "unsigned long long",
}

#: ``memref`` memory spaces that mean CUDA shared memory
SHARED_MEMORY_SPACES = ("3", "#gpu.address_space<workgroup>")


def int_width(t: Attribute) -> int | None:
    """Bit width of an integer-like type (``index`` counts as 64), else ``None``."""
    if isinstance(t, IntegerType):
        return t.width.data
    if isinstance(t, IndexType):
        return 64
    return None


def is_float(t: Attribute) -> bool:
    return isinstance(t, Float32Type | Float64Type)


def scalar_type(t: Attribute) -> str:
    """The C++ type of a scalar value of type ``t``; pointers need ``pointer_type``."""
    width = int_width(t)
    if width is not None and width in _INT_TYPES:
        return _INT_TYPES[width]
    if isinstance(t, Float32Type):
        return "float"
    if isinstance(t, Float64Type):
        return "double"
    raise BackendError(f"the CUDA printer has no C++ type for {t}")


def unsigned_type(t: Attribute) -> str:
    width = int_width(t)
    if width is None or width not in _UINT_TYPES:
        raise BackendError(f"the CUDA printer has no unsigned C++ type for {t}")
    return _UINT_TYPES[width]


def is_global_pointer(t: Attribute) -> bool:
    """``!llvm.ptr<1>`` (or an address-space-less ``!llvm.ptr``): a plain CUDA ``T*``."""
    if not isinstance(t, LLVMPointerType):
        return False
    space = t.addr_space
    return not isinstance(space, IntAttr) or space.data in (0, 1)


def memory_space_name(t: MemRefType[Attribute]) -> str:
    space = t.memory_space
    if isinstance(space, IntegerAttr):
        return str(space.value.data)
    return str(space)


def is_shared_memref(t: Attribute) -> bool:
    return isinstance(t, MemRefType) and memory_space_name(t) in SHARED_MEMORY_SPACES
