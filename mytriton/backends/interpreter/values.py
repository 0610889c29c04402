"""Runtime values of the interpreter.

Every value carries a leading *program axis*: a scalar is an array of shape ``(L,)`` and a block
of shape ``(L, *block_shape)``, where ``L`` is either the number of programs run together in a
batch or 1 for values every program shares (constants, arguments, ``arange``...). NumPy
broadcasting then mixes the two for free, and shared values are computed once per batch.

A pointer is a ``Pointers``: the index of the argument array it points into plus int64 element
offsets (the same leading axis). Pointer arithmetic only moves offsets; loads and stores check
them against the array's size.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from xdsl.dialects.builtin import IndexType
from xdsl.ir import Attribute

from mytriton.backends.interpreter.errors import InterpreterError
from mytriton.dialects.tt.semantics import numpy_dtype
from mytriton.dialects.tt.types import element_type, type_str

Array = np.ndarray


@dataclass(frozen=True)
class Pointers:
    """Pointer(s) into argument array number ``base``, as element ``offsets`` (int64).

    ``byte_offsets``: the offsets count bytes. Pointers made from addresses in no memory the
    interpreter knows (``tt.int_to_ptr`` of any integer) are such: their distances from the
    empty block they name need not be multiples of the element size, and ``tt.ptr_to_int``
    must give each address back exactly. Nothing can be accessed through them."""

    base: int
    offsets: Array
    byte_offsets: bool = False

    def with_offsets(self, offsets: Array) -> Pointers:
        return Pointers(self.base, offsets, self.byte_offsets)


Value = Array | Pointers


def map_value(value: Value, fn: Callable[[Array], Array]) -> Value:
    """Apply a shape operation to a value (to the offsets of pointers)."""
    if isinstance(value, Pointers):
        return value.with_offsets(fn(value.offsets))
    return fn(value)


def as_array(value: Value, what: str) -> Array:
    """``value`` as a plain array; pointers where numbers are expected are an error."""
    if isinstance(value, Pointers):
        raise InterpreterError(f"{what}: expected numbers, got pointers")
    return value


_DTYPES: dict[Attribute, np.dtype] = {}


def dtype_of(t: Attribute) -> np.dtype:
    """NumPy dtype of the elements of type ``t`` (pointers are int64 offsets)."""
    dtype = _DTYPES.get(t)
    if dtype is None:
        e = element_type(t)
        if isinstance(e, IndexType):
            dtype = np.dtype(np.int64)
        else:
            try:
                dtype = numpy_dtype(e)
            except NotImplementedError:
                raise InterpreterError(
                    f"the interpreter does not support element type {type_str(e)}"
                ) from None
        _DTYPES[t] = dtype
    return dtype
