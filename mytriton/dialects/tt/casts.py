"""Elementwise `tt` conversions of one operand to the result's element type: ``tt.cast``
(value conversion, ``x.to(dtype)``) and ``tt.bitcast`` (the same bits); ``ConversionOp`` is
their base (``pointer_casts``' ops use it too)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.dialects.builtin import BFloat16Type, Float32Type, FloatAttr
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import irdl_op_definition, operand_def, result_def, traits_def
from xdsl.traits import Pure

from mytriton.dialects.tt import fp8 as tt_fp8
from mytriton.dialects.tt import semantics as sem
from mytriton.dialects.tt.constants import scalar_constant
from mytriton.dialects.tt.elementwise_base import Array, ElementwiseOp
from mytriton.dialects.tt.traits import LazyPatterns, verify_error
from mytriton.dialects.tt.types import (
    block_type,
    element_type,
    is_bool,
    is_float,
    is_int,
    shape_of,
    type_str,
)


class ConversionOp(ElementwiseOp):
    """One operand converted to the result's element type, elementwise (``tt.cast``,
    ``tt.bitcast``): ``SEMANTICS(array, result dtype)`` computes it on NumPy arrays."""

    src = operand_def()
    result = result_def()
    traits = traits_def(Pure(), LazyPatterns())
    assembly_format = "$src attr-dict `:` type($src) `->` type($result)"

    def __init__(self, src: SSAValue, result_type: Attribute):
        super().__init__(operands=[src], result_types=[result_type])

    def evaluate(self, *args: Array) -> Array:
        return sem.evaluate(type(self).SEMANTICS, args[0], sem.numpy_dtype(self.result.type))

    def rebuild(self, operands: Sequence[SSAValue]) -> ElementwiseOp:
        (src,) = operands
        return type(self)(src, block_type(element_type(self.result.type), shape_of(src.type)))

    def _check_shapes(self) -> None:
        if shape_of(self.src.type) != shape_of(self.result.type):
            raise verify_error(self, "operand and result shapes differ")


@irdl_op_definition
class CastOp(ConversionOp):
    """Value conversion between i1/integer/float element types (``x.to(dtype)``).

    Floats -> integers truncate toward zero; anything -> i1 is ``x != 0``; i1 -> number
    gives 0 or 1.
    """

    name = "tt.cast"
    SEMANTICS = staticmethod(sem.cast)

    def fold(self) -> Sequence[SSAValue | Attribute] | None:
        folded = self._fold_float32_without_ml_dtypes()
        return folded if folded is not None else super().fold()

    def _fold_float32_without_ml_dtypes(self) -> Sequence[Attribute] | None:
        """A float32 constant to bf16, or +0.0 to an fp8 type (a load's ``other=``), folded
        to the value the general fold gives, without loading ml_dtypes (a second, more than
        most kernels' whole compile): bf16 by ``float32_to_bfloat16``; +0.0 is byte 0 in
        every fp8 format."""
        src, dst = self.src.type, self.result.type
        if not isinstance(src, Float32Type):
            return None
        value = scalar_constant(self.src)
        if value is None or np.isnan(value):
            return None
        if isinstance(dst, BFloat16Type):
            return (FloatAttr(sem.float32_to_bfloat16(value), dst),)
        positive_zero = value == 0 and not np.signbit(value)
        if positive_zero and tt_fp8.is_fp8(dst) and tt_fp8.has_constants(dst):
            return (FloatAttr(0.0, dst),)  # type: ignore[call-overload]
        return None

    def verify_(self) -> None:
        src, dst = self.src.type, self.result.type
        for t in (src, dst):
            if not (is_int(t) or is_float(t)):
                raise verify_error(self, f"cannot convert {type_str(src)} to {type_str(dst)}")
        self._check_shapes()
        if src == dst:
            raise verify_error(self, f"conversion of {type_str(src)} to itself")


@irdl_op_definition
class BitcastOp(ConversionOp):
    """The same bits as another element type of the same width (``x.to(dtype, bitcast=True)``,
    Triton's ``tt.bitcast``)."""

    name = "tt.bitcast"
    SEMANTICS = staticmethod(sem.bitcast)

    def verify_(self) -> None:
        src, dst = self.src.type, self.result.type
        for t in (src, dst):
            if not (is_int(t) or is_float(t)) or is_bool(t):
                raise verify_error(self, f"cannot bitcast {type_str(src)} to {type_str(dst)}")
        self._check_shapes()
        src_bits, dst_bits = (element_type(t).bitwidth for t in (src, dst))  # type: ignore[attr-defined]
        if src_bits != dst_bits:
            raise verify_error(
                self,
                f"cannot bitcast {src_bits}-bit {type_str(src)} to {dst_bits}-bit "
                f"{type_str(dst)}: the widths differ",
            )
