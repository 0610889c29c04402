"""Reading and writing compile-time constants of `tt` IR as NumPy values.

Constants are scalar ``arith.constant`` ops; a block constant is a splat of one (Triton's own
canonical form), so folders look *through* splats to find uniform values.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects import arith
from xdsl.dialects.builtin import FloatAttr, IntegerAttr, IntegerType
from xdsl.ir import Attribute, SSAValue

from mytriton.dialects.tt_semantics import numpy_dtype
from mytriton.dialects.tt_types import element_type


def scalar_constant(v: SSAValue) -> np.ndarray | None:
    """The value of a scalar ``arith.constant`` as a 0-d array of the matching dtype."""
    op = v.owner
    if not isinstance(op, arith.ConstantOp):
        return None
    attr = op.value
    if isinstance(attr, IntegerAttr):
        dtype = numpy_dtype(v.type)
        if dtype == np.bool_:
            return np.array(attr.value.data != 0)
        return np.array(attr.value.data).astype(dtype)
    if isinstance(attr, FloatAttr):
        return np.array(attr.value.data, dtype=numpy_dtype(v.type))
    return None


def uniform_constant(v: SSAValue) -> np.ndarray | None:
    """The value every element of ``v`` holds, if it is a compile-time constant."""
    from mytriton.dialects import tt

    op = v.owner
    if isinstance(op, (tt.SplatOp, tt.FullOp)):
        src = op.operands[0]
        return scalar_constant(src)
    if isinstance(op, (tt.BroadcastOp, tt.ExpandDimsOp)):
        return uniform_constant(op.src)
    if isinstance(op, tt.ZerosOp):
        return np.zeros((), dtype=numpy_dtype(v.type))
    return scalar_constant(v)


def constant_attr(value: np.ndarray, t: Attribute) -> IntegerAttr | FloatAttr:
    """The attribute of ``arith.constant`` holding ``value`` with scalar type ``t``."""
    e = element_type(t)
    if isinstance(e, IntegerType):
        v = int(value)
        if e.width.data == 1:
            v = 1 if v else 0
        return IntegerAttr(v, e)
    return FloatAttr(float(value), e)  # type: ignore[call-overload]


def make_constant(value: np.ndarray | int | float | bool, t: Attribute) -> arith.ConstantOp:
    """A scalar ``arith.constant`` of type ``t``."""
    arr = np.asarray(value).astype(numpy_dtype(t))
    return arith.ConstantOp(constant_attr(arr, t), t)
