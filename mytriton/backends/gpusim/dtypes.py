"""MLIR scalar types as NumPy dtypes, and the signed/unsigned views integer ops need.

Every SSA value is a NumPy array with one entry per simulated thread, of the dtype of its MLIR
type: ``i1`` is ``bool``, ``i32`` is ``int32`` (so arithmetic wraps like the GPU's), ``index``
is ``int64``. A ``vector<N x T>`` value (vectorized global accesses) has one extra trailing axis
of length N: shape ``(lanes, N)``, dtype of ``T``.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects import llvm
from xdsl.dialects.builtin import IndexType, VectorType
from xdsl.ir import Attribute

from mytriton.backends.gpusim.errors import SimulationError
from mytriton.dialects.tt import dtype_table
from mytriton.dialects.tt.semantics import numpy_dtype

#: the largest vector access (``ld.global.v4.b32``)
_MAX_VECTOR_BYTES = 16


def _unsigned_of(bits: int) -> np.dtype:
    row = dtype_table.int_row(max(bits, 8), unsigned=True)  # bool: a byte
    assert row is not None
    return row.numpy_dtype()


#: the unsigned view of each (signless) integer dtype's bits, from the dtype table
_UNSIGNED: dict[np.dtype, np.dtype] = {
    r.numpy_dtype(): _unsigned_of(r.bits) for r in dtype_table.ROWS if r.kind in ("bool", "sint")
}


def dtype_of(t: Attribute) -> np.dtype:
    """The NumPy dtype holding values of the scalar MLIR type ``t`` (the same table the `tt`
    semantics use; ``index`` is 64-bit)."""
    if isinstance(t, IndexType):
        return np.dtype(np.int64)
    if isinstance(t, llvm.LLVMPointerType):
        raise SimulationError(f"gpusim does not model values of type {t}")
    try:
        return numpy_dtype(t)
    except NotImplementedError:
        raise SimulationError(f"gpusim does not model values of type {t}") from None


def vector_shape(t: VectorType[Attribute]) -> tuple[np.dtype, int]:
    """(element dtype, N) of a ``vector<N x T>`` the contract allows (``docs/gpu-ir.md``): 1-D,
    T f32, f16, bf16, i32, i16 or i8 (``i1`` is never vectorized), N a power of two >= 2 with
    N elements in at most 16 bytes."""
    shape = t.get_shape()
    e = t.element_type
    row = dtype_table.signless_row(e)  # the rows with a vector form
    element_ok = row is not None and row.vector is not None
    n = shape[0] if len(shape) == 1 else 0
    if (
        len(shape) != 1
        or t.get_num_scalable_dims()
        or not element_ok
        or n < 2
        or n & (n - 1)
        or n * dtype_of(e).itemsize > _MAX_VECTOR_BYTES
    ):
        raise SimulationError(
            f"gpusim does not model values of type {t} (only vectors of 2, 4, 8 or 16 f32, "
            "f16, bf16, i32, i16 or i8 elements, of at most 16 bytes)"
        )
    return dtype_of(e), n


def size_of(t: Attribute) -> int:
    """Bytes one element of ``t`` occupies in memory (LLVM alloc size; ``i1`` is a byte)."""
    if isinstance(t, llvm.LLVMPointerType):
        return 8
    return dtype_of(t).itemsize


def bit_width(dtype: np.dtype) -> int:
    return 1 if dtype == np.bool_ else dtype.itemsize * 8


def as_signed(x: np.ndarray) -> np.ndarray:
    """Integers as two's-complement signed values (``i1`` true is -1, as MLIR's ``slt`` sees it)."""
    if x.dtype == np.bool_:
        return -x.astype(np.int8)
    return x


def as_unsigned(x: np.ndarray) -> np.ndarray:
    """Integers reinterpreted as unsigned (the bit pattern, for ``ult``, ``shrui``, ``divui``)."""
    return x.view(_UNSIGNED[x.dtype]) if x.dtype != np.bool_ else x.astype(np.uint8)


def from_bits(x: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """Wrap an integer array (any width/signedness) back into ``dtype`` (``i1`` keeps bit 0)."""
    if dtype == np.bool_:
        return (x & 1).astype(np.bool_)
    return x.astype(dtype)
