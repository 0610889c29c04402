"""`tt` ops that make a block from nothing but a type (and a fill value): ``tt.zeros``,
``tt.full`` and ``tt.empty``."""

from __future__ import annotations

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, result_def, traits_def
from xdsl.traits import Pure

from mytriton.dialects.tt.traits import check_new_block, verify_error
from mytriton.dialects.tt.types import element_type, is_block, is_float, is_int, type_str


def _check_factory_dtype(op: Operation) -> None:
    e = element_type(op.results[0].type)
    if not (is_int(e) or is_float(e)):
        raise verify_error(op, f"element type must be an integer or a float, got {type_str(e)}")


@irdl_op_definition
class ZerosOp(IRDLOperation):
    """``tl.zeros(shape, dtype)``: a block of zeros."""

    name = "tt.zeros"
    result = result_def(TensorType)
    traits = traits_def(Pure())
    assembly_format = "attr-dict `:` type($result)"

    def __init__(self, result_type: Attribute):
        super().__init__(result_types=[result_type])

    def verify_(self) -> None:
        check_new_block(self, self.result.type)
        _check_factory_dtype(self)


@irdl_op_definition
class FullOp(IRDLOperation):
    """``tl.full(shape, value, dtype)``: a block filled with a scalar (already of ``dtype``)."""

    name = "tt.full"
    value = operand_def()
    result = result_def(TensorType)
    traits = traits_def(Pure())
    assembly_format = "$value attr-dict `:` type($value) `->` type($result)"

    def __init__(self, value: SSAValue, result_type: Attribute):
        super().__init__(operands=[value], result_types=[result_type])

    def verify_(self) -> None:
        check_new_block(self, self.result.type)
        _check_factory_dtype(self)
        if is_block(self.value.type):
            raise verify_error(self, "the fill value must be a scalar, not a block")
        if self.value.type != element_type(self.result.type):
            raise verify_error(
                self,
                f"fill value type {type_str(self.value.type)} differs from element type "
                f"{type_str(element_type(self.result.type))}",
            )


@irdl_op_definition
class EmptyOp(IRDLOperation):
    """``tl.empty(shape, dtype)``: a block whose contents are undefined (poison)."""

    name = "tt.empty"
    result = result_def(TensorType)
    traits = traits_def(Pure())
    assembly_format = "attr-dict `:` type($result)"

    def __init__(self, result_type: Attribute):
        super().__init__(result_types=[result_type])

    def verify_(self) -> None:
        check_new_block(self, self.result.type)
        _check_factory_dtype(self)
