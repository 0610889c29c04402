"""`tt` ops that make a block from fewer elements without moving any between threads: a scalar
splat over a block (``tt.splat``), size-1 dimensions stretched (``tt.broadcast``) or inserted
(``tt.expand_dims``). The ops that do move elements (``trans``, ``reshape``...) are ``shape``'s."""

from __future__ import annotations

from xdsl.dialects.builtin import I32, IntegerAttr, TensorType, i32
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure

from mytriton.dialects.tt.traits import LazyPatterns, check_new_block, verify_error
from mytriton.dialects.tt.types import element_type, is_block, shape_of, type_str


@irdl_op_definition
class SplatOp(IRDLOperation):
    """Broadcast a scalar to every element of a block (implicit scalar-block broadcasting)."""

    name = "tt.splat"
    src = operand_def()
    result = result_def(TensorType)
    traits = traits_def(Pure(), LazyPatterns())
    assembly_format = "$src attr-dict `:` type($src) `->` type($result)"

    def __init__(self, src: SSAValue, result_type: Attribute):
        super().__init__(operands=[src], result_types=[result_type])

    def verify_(self) -> None:
        if is_block(self.src.type):
            raise verify_error(self, f"operand must be a scalar, got {type_str(self.src.type)}")
        check_new_block(self, self.result.type)
        if element_type(self.result.type) != self.src.type:
            raise verify_error(
                self,
                f"result element type {type_str(element_type(self.result.type))} "
                f"differs from operand type {type_str(self.src.type)}",
            )


@irdl_op_definition
class BroadcastOp(IRDLOperation):
    """Stretch the size-1 dimensions of a block to a larger shape of the same rank."""

    name = "tt.broadcast"
    src = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure(), LazyPatterns())
    assembly_format = "$src attr-dict `:` type($src) `->` type($result)"

    def __init__(self, src: SSAValue, result_type: Attribute):
        super().__init__(operands=[src], result_types=[result_type])

    def verify_(self) -> None:
        src, dst = shape_of(self.src.type), shape_of(self.result.type)
        if element_type(self.src.type) != element_type(self.result.type):
            raise verify_error(self, "operand and result element types differ")
        if len(src) != len(dst):
            raise verify_error(
                self, f"rank changes from {len(src)} to {len(dst)}; use expand_dims first"
            )
        for i, (a, b) in enumerate(zip(src, dst, strict=True)):
            if a != b and a != 1:
                raise verify_error(self, f"dimension {i} of size {a} cannot broadcast to {b}")
        check_new_block(self, self.result.type)


@irdl_op_definition
class ExpandDimsOp(IRDLOperation):
    """Insert a size-1 dimension at ``axis`` (``x[:, None]`` is axis 1, ``x[None, :]`` axis 0)."""

    name = "tt.expand_dims"
    src = operand_def(TensorType)
    axis = prop_def(IntegerAttr[I32])
    result = result_def(TensorType)
    traits = traits_def(Pure(), LazyPatterns())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$src attr-dict `:` type($src) `->` type($result)"

    def __init__(self, src: SSAValue, axis: int):
        shape = list(shape_of(src.type))
        shape.insert(axis, 1)
        super().__init__(
            operands=[src],
            properties={"axis": IntegerAttr(axis, i32)},
            result_types=[TensorType(element_type(src.type), shape)],
        )

    def verify_(self) -> None:
        src = list(shape_of(self.src.type))
        axis = self.axis.value.data
        if not 0 <= axis <= len(src):
            raise verify_error(self, f"axis {axis} out of range for a rank-{len(src)} block")
        expected = [*src[:axis], 1, *src[axis:]]
        if list(shape_of(self.result.type)) != expected:
            raise verify_error(self, f"result shape must be {expected}")
        if element_type(self.src.type) != element_type(self.result.type):
            raise verify_error(self, "operand and result element types differ")
