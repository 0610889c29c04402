"""Reading and writing compile-time constants of `tt` IR as NumPy values.

Constants are scalar ``arith.constant`` ops; a block constant is a splat of one (Triton's own
canonical form), so folders look *through* splats to find uniform values.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import ClassVar

import numpy as np
from xdsl.dialects import arith
from xdsl.dialects.builtin import BFloat16Type, FloatAttr, IntegerAttr, IntegerType
from xdsl.interfaces import HasFolderInterface
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    ParamAttrConstraint,
    VarConstraint,
    irdl_op_definition,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import ConstantLike, Pure

from mytriton.dialects.tt import fp8 as tt_fp8
from mytriton.dialects.tt.semantics import float32_to_bfloat16, numpy_dtype
from mytriton.dialects.tt.traits import verify_error
from mytriton.dialects.tt.types import element_type, is_unsigned, type_str

_FLOAT32_MAX = float(np.finfo(np.float32).max)


@irdl_op_definition
class UnsignedConstantOp(IRDLOperation, HasFolderInterface):
    """``tt.constant 4294967295 : ui32``: a scalar of an unsigned integer type, which
    ``arith.constant`` cannot hold (it takes signless integers); every other constant is an
    ``arith.constant``."""

    name = "tt.constant"
    T: ClassVar = VarConstraint("T", AnyAttr())
    result = result_def(T)
    value = prop_def(ParamAttrConstraint(IntegerAttr, (AnyAttr(), T)))
    traits = traits_def(Pure(), ConstantLike())
    assembly_format = "attr-dict $value"

    def __init__(self, value: IntegerAttr):
        super().__init__(result_types=[value.type], properties={"value": value})

    def verify_(self) -> None:
        if not is_unsigned(self.result.type):
            raise verify_error(
                self, f"holds unsigned integers only, got {type_str(self.result.type)}"
            )

    def fold(self) -> Sequence[SSAValue | Attribute] | None:
        return (self.value,)


def scalar_constant(v: SSAValue) -> np.ndarray | None:
    """The value of a scalar constant op as a 0-d array of the matching dtype."""
    op = v.owner
    if not isinstance(op, (arith.ConstantOp, UnsignedConstantOp)):
        return None
    attr = op.value
    if isinstance(attr, IntegerAttr):
        dtype = numpy_dtype(v.type)
        if dtype == np.bool_:
            return np.array(attr.value.data != 0)
        return np.array(attr.value.data).astype(dtype)
    if isinstance(attr, FloatAttr):
        if tt_fp8.is_fp8(v.type):  # ml_dtypes' own rounding would not be fp8e4b15's
            return tt_fp8.constant_array(attr.value.data, v.type)
        return np.array(attr.value.data, dtype=numpy_dtype(v.type))
    return None


def uniform_constant(v: SSAValue) -> np.ndarray | None:
    """The value every element of ``v`` holds, if it is a compile-time constant, as a 0-d
    array to compare (callers test it against 0 or 1, or for truth): a bf16 value comes as
    the float32 of the same number (``_compared_scalar``)."""
    from mytriton.dialects.tt import core as tt

    op = v.owner
    if isinstance(op, (tt.SplatOp, tt.FullOp)):
        src = op.operands[0]
        return _compared_scalar(src)
    if isinstance(op, (tt.BroadcastOp, tt.ExpandDimsOp)):
        return uniform_constant(op.src)
    if isinstance(op, tt.ZerosOp):
        bf16 = isinstance(element_type(v.type), BFloat16Type)
        return np.zeros((), dtype=np.float32 if bf16 else numpy_dtype(v.type))
    return _compared_scalar(v)


def _compared_scalar(v: SSAValue) -> np.ndarray | None:
    """``scalar_constant(v)``, except that a bf16 constant whose attribute holds a float32
    comes as a float32 array of its bf16 value (``float32_to_bfloat16``, the same number):
    comparing it then needs no ml_dtypes, whose import takes longer than most compiles (a
    pipelined bf16 dot's ``other=0.0`` is tested so). Other values (not float32, NaN) take
    ``scalar_constant``'s rounding."""
    op = v.owner
    if isinstance(op, arith.ConstantOp) and isinstance(op.value, FloatAttr):
        value = op.value.value.data
        bf16 = isinstance(element_type(v.type), BFloat16Type)
        if bf16 and (math.isinf(value) or abs(value) <= _FLOAT32_MAX):  # NaN: neither
            single = np.float32(value)
            if float(single) == value:
                return np.array(float32_to_bfloat16(single), np.float32)
    return scalar_constant(v)


def constant_attr(value: np.ndarray, t: Attribute) -> IntegerAttr | FloatAttr:
    """The attribute of ``arith.constant`` holding ``value`` with scalar type ``t``."""
    e = element_type(t)
    if isinstance(e, IntegerType):
        v = int(value)
        if e.width.data == 1:
            v = 1 if v else 0
        return IntegerAttr(v, e)
    if tt_fp8.is_fp8(e):
        return FloatAttr(tt_fp8.constant_value(value), e)  # type: ignore[call-overload]
    return FloatAttr(float(value), e)  # type: ignore[call-overload]


def constant_op(attr: IntegerAttr | FloatAttr) -> arith.ConstantOp | UnsignedConstantOp:
    """The op holding ``attr``: ``tt.constant`` for unsigned integers, else ``arith.constant``."""
    if is_unsigned(attr.type):
        return UnsignedConstantOp(attr)  # type: ignore[arg-type]
    return arith.ConstantOp(attr, attr.type)


def make_constant(
    value: np.ndarray | int | float | bool, t: Attribute
) -> arith.ConstantOp | UnsignedConstantOp:
    """A scalar ``arith.constant`` of type ``t`` (an fp8 one must hold an fp8 value)."""
    if tt_fp8.is_fp8(t) and not isinstance(value, np.ndarray):
        arr = tt_fp8.constant_array(float(value), t)
    else:
        arr = np.asarray(value).astype(numpy_dtype(t))
    return constant_op(constant_attr(arr, t))
