"""Builders of the ops the lowering emits by the hundred (``llvm`` GEPs and struct fields,
``vector`` lanes): the same ops xDSL's constructors make, with their constant attributes made
once and shared (attributes are immutable values).

xDSL's ``GEPOp`` constructor packs its index list into a new ``DenseArrayBase`` and makes a new
``noWrapFlags`` ``IntegerAttr`` at every call, then checks its arguments against the op's
definition: a fifth of an attention kernel's lowering went to its 640 one-index GEPs. ``gep``
builds the op directly from its parts (verified with the module, as every op is), as do
``extract_value`` and ``insert_value`` (a wgmma accumulator's fields, hundreds a kernel), whose
field ``position`` is made once per field, and ``vector_extract`` and ``vector_insert`` (a lane
of a vector access or a packed pair).
"""

from __future__ import annotations

import functools

from xdsl.dialects import llvm
from xdsl.dialects import vector as xvector
from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, i32, i64
from xdsl.ir import Attribute, SSAValue

#: ``GEPOp``'s default ``noWrapFlags`` (none)
_NO_WRAP = IntegerAttr(0, 32)


@functools.cache
def _gep_indices(index: int) -> DenseArrayBase:
    return DenseArrayBase.from_list(i32, [index])


def gep(
    ptr: SSAValue, index: SSAValue | int, pointee: Attribute, result_type: Attribute
) -> llvm.GEPOp:
    """``ptr + index`` elements of ``pointee`` (an SSA index, or a constant one), as
    ``llvm.GEPOp(ptr, [index], pointee, result_type=...)`` builds it (an SSA index given as
    ``[GEP_USE_SSA_VAL]`` with ``ssa_indices=[index]``)."""
    if isinstance(index, SSAValue):
        operands, raw = [ptr, index], llvm.GEP_USE_SSA_VAL
    else:
        operands, raw = [ptr], index
    return llvm.GEPOp.create(
        operands=operands,
        result_types=[result_type],
        properties={
            "rawConstantIndices": _gep_indices(raw),
            "elem_type": pointee,
            "noWrapFlags": _NO_WRAP,
        },
    )


@functools.cache
def position(field: int) -> DenseArrayBase:
    """The position of a struct's field ``field`` (``llvm.extractvalue``/``insertvalue``)."""
    return DenseArrayBase.from_list(i64, [field])


def extract_value(container: SSAValue, field: int, result_type: Attribute) -> llvm.ExtractValueOp:
    """``llvm.ExtractValueOp(position(field), container, result_type)``."""
    return llvm.ExtractValueOp.create(
        operands=[container], result_types=[result_type], properties={"position": position(field)}
    )


def insert_value(container: SSAValue, value: SSAValue, field: int) -> llvm.InsertValueOp:
    """``llvm.InsertValueOp(position(field), container, value)``."""
    return llvm.InsertValueOp.create(
        operands=[container, value],
        result_types=[container.type],
        properties={"position": position(field)},
    )


def vector_extract(vector: SSAValue, index: int, result_type: Attribute) -> xvector.ExtractOp:
    """``vector.ExtractOp(vector, [index], result_type)``."""
    return xvector.ExtractOp.create(
        operands=[vector],
        result_types=[result_type],
        properties={"static_position": position(index)},
    )


def vector_insert(
    source: SSAValue, dest: SSAValue, index: int, result_type: Attribute | None = None
) -> xvector.InsertOp:
    """``vector.InsertOp(source, dest, [index], result_type)`` (by default ``dest``'s type)."""
    return xvector.InsertOp.create(
        operands=[source, dest],
        result_types=[dest.type if result_type is None else result_type],
        properties={"static_position": position(index)},
    )
