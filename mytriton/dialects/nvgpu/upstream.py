"""Upstream MLIR ops that xDSL 0.74 lacks, defined with upstream's names and generic syntax.

The lowered IR uses them, and ``mlir-opt`` parses what we print because names, operands,
properties and types match upstream exactly: ``gpu.shuffle`` (warp shuffles for reductions) and
``arith.remf`` (float remainder), ``gpu.dynamic_shared_memory`` with its
``#gpu.address_space``. ``GPU`` and ``ARITH`` extend xDSL's dialects with them.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects import arith as xarith
from xdsl.dialects import gpu as xgpu
from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    I1,
    I32,
    DenseArrayBase,
    IntegerAttr,
    IntegerType,
    MemRefType,
    StringAttr,
    i1,
    i8,
    i32,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, Dialect, SpacedOpaqueSyntaxAttribute, SSAValue
from xdsl.irdl import (
    AnyAttr,
    AttrSizedOperandSegments,
    IRDLOperation,
    VarConstraint,
    base,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.traits import MemoryWriteEffect, Pure
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from mytriton.dialects.nvgpu.atomic import LLVM_ATOMIC_OPS
from mytriton.dialects.nvgpu.tma import LLVM_TMA_OPS


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


@irdl_op_definition
class PrintfOp(IRDLOperation):
    """``gpu.printf "format" %args : types``: C ``printf`` from every active thread (CUDA's
    ``printf``; ``convert-gpu-to-nvvm`` makes it a ``vprintf`` call)."""

    name = "gpu.printf"
    format = prop_def(StringAttr)
    args = var_operand_def()
    traits = traits_def(MemoryWriteEffect())
    assembly_format = "$format attr-dict (`,` $args^ `:` type($args))?"

    def __init__(self, format: str, args: list[SSAValue]):
        super().__init__(operands=[args], properties={"format": StringAttr(format)})


@irdl_op_definition
class TrapOp(IRDLOperation):
    """``llvm.intr.trap``: abort the kernel (PTX ``trap``, CUDA ``__trap()``); the launch fails."""

    name = "llvm.intr.trap"
    traits = traits_def(MemoryWriteEffect())
    assembly_format = "attr-dict"

    def __init__(self) -> None:
        super().__init__()


@irdl_op_definition
class AssumeOp(IRDLOperation):
    """``llvm.intr.assume %c``: LLVM may take ``c`` to be true (``tl.assume``; CUDA
    ``__builtin_assume``)."""

    name = "llvm.intr.assume"
    cond = operand_def(i1)
    op_bundle_operands = var_operand_def()  # upstream's operand bundles: none from us
    op_bundle_sizes = prop_def(DenseArrayBase)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(MemoryWriteEffect())  # no result: without an effect, DCE erases it

    def __init__(self, cond: SSAValue) -> None:
        super().__init__(
            operands=[cond, []],
            properties={"op_bundle_sizes": DenseArrayBase.from_list(i32, [])},
        )


@irdl_op_definition
class IntAbsOp(IRDLOperation):
    """``llvm.intr.abs %x {is_int_min_poison = false}``: an integer's absolute value, the
    minimum wrapping to itself (what upstream's math-to-llvm makes of ``math.absi``; the MLIR
    emitter's form of it, as upstream's NVVM conversion takes only an i32 ``math.absi``)."""

    name = "llvm.intr.abs"
    T: ClassVar = VarConstraint("T", base(IntegerType))
    in_ = operand_def(T)
    res = result_def(T)
    is_int_min_poison = prop_def(IntegerAttr[I1])
    traits = traits_def(Pure())

    def __init__(self, value: SSAValue) -> None:
        super().__init__(
            operands=[value],
            result_types=[value.type],
            properties={"is_int_min_poison": IntegerAttr(0, i1)},
        )


class AddressSpace(StrEnum):
    GLOBAL = "global"
    WORKGROUP = "workgroup"
    PRIVATE = "private"


@irdl_attr_definition
class AddressSpaceAttr(EnumAttribute[AddressSpace]):
    """``#gpu.address_space<workgroup>``: the memory space ``gpu.dynamic_shared_memory``'s
    memref must name (upstream's verifier rejects the integer ``3``)."""

    name = "gpu.address_space"

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<{self.data.value}>")

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> AddressSpace:
        parser.parse_punctuation("<")
        value = parser.parse_str_enum(AddressSpace)
        parser.parse_punctuation(">")
        return value


WORKGROUP = AddressSpaceAttr(AddressSpace.WORKGROUP)


@irdl_op_definition
class DynamicSharedMemoryOp(IRDLOperation):
    """``gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>``: the
    kernel's dynamic shared memory as bytes (CUDA's ``extern __shared__`` array), sized at
    launch; ``memref.view`` cuts typed buffers out of it. Needed past 48 KiB of shared memory
    a program, where static ``__shared__`` arrays stop."""

    name = "gpu.dynamic_shared_memory"
    result = result_def(MemRefType)
    traits = traits_def(Pure())
    assembly_format = "attr-dict `:` type($result)"

    def __init__(self) -> None:
        super().__init__(result_types=[MemRefType(i8, [DYNAMIC_INDEX], memory_space=WORKGROUP)])

    def verify_(self) -> None:
        t = self.result.type
        assert isinstance(t, MemRefType)
        if t.element_type != i8 or t.get_shape() != (DYNAMIC_INDEX,) or t.memory_space != WORKGROUP:
            raise VerifyException(
                "gpu.dynamic_shared_memory: the result must be memref<?xi8, "
                "#gpu.address_space<workgroup>>"
            )


def _extend(base: Dialect, ops: list[type[IRDLOperation]], attrs: list[type[Attribute]]) -> Dialect:
    return Dialect(
        base.name,
        [*base.operations, *ops],
        [*base.attributes, *attrs],
        list(base._interfaces),
    )


GPU = _extend(
    xgpu.GPU, [ShuffleOp, PrintfOp, DynamicSharedMemoryOp], [ShuffleModeAttr, AddressSpaceAttr]
)
LLVM = _extend(xllvm.LLVM, [TrapOp, AssumeOp, IntAbsOp, *LLVM_ATOMIC_OPS, *LLVM_TMA_OPS], [])
ARITH = _extend(xarith.Arith, [RemFOp], [])


def _mark_index_ops_pure() -> None:
    """xDSL's gpu index ops carry no effect trait, so CSE/DCE would never touch them."""
    for op in (xgpu.ThreadIdOp, xgpu.BlockIdOp, xgpu.BlockDimOp, xgpu.GridDimOp, xgpu.LaneIdOp):
        if not op.has_trait(Pure):
            op.traits.add_trait(Pure())


_mark_index_ops_pure()
