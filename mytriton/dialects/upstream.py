"""Upstream MLIR ops that xDSL 0.74 lacks, defined with upstream's names and generic syntax.

The lowered IR uses them, and ``mlir-opt`` parses what we print because names, operands,
properties and types match upstream exactly: ``gpu.shuffle`` (warp shuffles for reductions) and
``arith.remf`` (float remainder). ``GPU`` and ``ARITH`` extend xDSL's dialects with them.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects import arith as xarith
from xdsl.dialects import gpu as xgpu
from xdsl.dialects.builtin import I32, i1
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, Dialect, SpacedOpaqueSyntaxAttribute, SSAValue
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    VarConstraint,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xdsl.utils.str_enum import StrEnum


class ShuffleMode(StrEnum):
    XOR = "xor"
    UP = "up"
    DOWN = "down"
    IDX = "idx"


@irdl_attr_definition
class ShuffleModeAttr(EnumAttribute[ShuffleMode], SpacedOpaqueSyntaxAttribute):
    """``#gpu<shuffle_mode xor>``."""

    name = "gpu.shuffle_mode"


@irdl_op_definition
class ShuffleOp(IRDLOperation):
    """``gpu.shuffle``: exchange a value between lanes of a warp (``__shfl_*_sync``)."""

    name = "gpu.shuffle"
    T: ClassVar = VarConstraint("T", AnyAttr())
    value = operand_def(T)
    offset = operand_def(I32)
    width = operand_def(I32)
    mode = prop_def(ShuffleModeAttr)
    shuffle_result = result_def(T)
    valid = result_def(i1)
    traits = traits_def(Pure())

    def __init__(self, value: SSAValue, offset: SSAValue, width: SSAValue, mode: ShuffleMode):
        super().__init__(
            operands=[value, offset, width],
            properties={"mode": ShuffleModeAttr(mode)},
            result_types=[value.type, i1],
        )


@irdl_op_definition
class RemFOp(IRDLOperation):
    """``arith.remf``: float remainder with the dividend's sign (C ``fmodf``)."""

    name = "arith.remf"
    T: ClassVar = VarConstraint("T", AnyAttr())
    lhs = operand_def(T)
    rhs = operand_def(T)
    result = result_def(T)
    traits = traits_def(Pure())
    assembly_format = "$lhs `,` $rhs attr-dict `:` type($result)"

    def __init__(self, lhs: SSAValue, rhs: SSAValue):
        super().__init__(operands=[lhs, rhs], result_types=[lhs.type])


def _extend(base: Dialect, ops: list[type[IRDLOperation]], attrs: list[type[Attribute]]) -> Dialect:
    return Dialect(
        base.name,
        [*base.operations, *ops],
        [*base.attributes, *attrs],
        list(base._interfaces),
    )


GPU = _extend(xgpu.GPU, [ShuffleOp], [ShuffleModeAttr])
ARITH = _extend(xarith.Arith, [RemFOp], [])


def _mark_index_ops_pure() -> None:
    """xDSL's gpu index ops carry no effect trait, so CSE/DCE would never touch them."""
    for op in (xgpu.ThreadIdOp, xgpu.BlockIdOp, xgpu.BlockDimOp, xgpu.GridDimOp, xgpu.LaneIdOp):
        if not op.has_trait(Pure):
            op.traits.add_trait(Pure())


_mark_index_ops_pure()
