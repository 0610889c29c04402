"""`tt` ops of the program model: which program of the grid this is (``tt.get_program_id``),
how many there are (``tt.get_num_programs``), and the ranges that index a block
(``tt.make_range``)."""

from __future__ import annotations

from xdsl.dialects.builtin import I32, IntegerAttr, TensorType, i32
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import SpacedOpaqueSyntaxAttribute
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_attr_definition,
    irdl_op_definition,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xdsl.utils.str_enum import StrEnum

from mytriton.dialects.tt.traits import verify_error
from mytriton.dialects.tt.types import element_type, is_power_of_two, shape_of, type_str


class ProgramAxis(StrEnum):
    X = "x"
    Y = "y"
    Z = "z"


@irdl_attr_definition
class ProgramAxisAttr(EnumAttribute[ProgramAxis], SpacedOpaqueSyntaxAttribute):
    """Grid axis of ``program_id``/``num_programs``: ``x``, ``y`` or ``z`` (axis 0, 1, 2)."""

    name = "tt.axis"

    @staticmethod
    def from_index(axis: int) -> ProgramAxisAttr:
        return ProgramAxisAttr(list(ProgramAxis)[axis])

    @property
    def index(self) -> int:
        return list(ProgramAxis).index(self.data)


# --------------------------------------------------------------------------------------------
# Program model
# --------------------------------------------------------------------------------------------


@irdl_op_definition
class GetProgramIdOp(IRDLOperation):
    """``tl.program_id(axis)``: index of this program along a grid axis."""

    name = "tt.get_program_id"
    axis = prop_def(ProgramAxisAttr)
    result = result_def(I32)
    traits = traits_def(Pure())
    assembly_format = "$axis attr-dict `:` type($result)"

    def __init__(self, axis: int):
        super().__init__(properties={"axis": ProgramAxisAttr.from_index(axis)}, result_types=[i32])


@irdl_op_definition
class GetNumProgramsOp(IRDLOperation):
    """``tl.num_programs(axis)``: size of the launch grid along an axis."""

    name = "tt.get_num_programs"
    axis = prop_def(ProgramAxisAttr)
    result = result_def(I32)
    traits = traits_def(Pure())
    assembly_format = "$axis attr-dict `:` type($result)"

    def __init__(self, axis: int):
        super().__init__(properties={"axis": ProgramAxisAttr.from_index(axis)}, result_types=[i32])


@irdl_op_definition
class MakeRangeOp(IRDLOperation):
    """``tl.arange(start, end)``: the block ``[start, start+1, ..., end-1]`` of i32."""

    name = "tt.make_range"
    start = prop_def(IntegerAttr[I32])
    end = prop_def(IntegerAttr[I32])
    result = result_def(TensorType)
    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "attr-dict `:` type($result)"

    def __init__(self, start: int, end: int):
        super().__init__(
            properties={"start": IntegerAttr(start, i32), "end": IntegerAttr(end, i32)},
            result_types=[TensorType(i32, [end - start])],
        )

    def verify_(self) -> None:
        start, end = self.start.value.data, self.end.value.data
        if start < 0:
            raise verify_error(self, f"start must be non-negative, got {start}")
        if end <= start:
            raise verify_error(self, f"end ({end}) must be greater than start ({start})")
        if not is_power_of_two(end - start):
            raise verify_error(
                self, f"range size end - start = {end - start} must be a power of two"
            )
        if shape_of(self.result.type) != (end - start,) or element_type(self.result.type) != i32:
            expected = TensorType(i32, [end - start])
            raise verify_error(self, f"result type must be {type_str(expected)}")
