"""Upstream MLIR 22's NVVM special-register reads that the lowering emits, which xDSL lacks:
``nvvm.read.ptx.sreg.globaltimer : i64`` and ``nvvm.read.ptx.sreg.smid : i32`` (PTX
``%globaltimer``, ``%smid``). Names and types are upstream's, so the MLIR backend prints them
as they are; as upstream's, the timer has effects (two reads stay two) and ``smid`` is pure.
"""

from __future__ import annotations

from xdsl.dialects.builtin import I32, I64, i32, i64
from xdsl.irdl import IRDLOperation, irdl_op_definition, result_def, traits_def
from xdsl.traits import Pure


@irdl_op_definition
class ReadGlobaltimerOp(IRDLOperation):
    """``nvvm.read.ptx.sreg.globaltimer : i64``."""

    name = "nvvm.read.ptx.sreg.globaltimer"
    res = result_def(I64)
    assembly_format = "attr-dict `:` type($res)"

    def __init__(self) -> None:
        super().__init__(result_types=[i64])


@irdl_op_definition
class ReadSmidOp(IRDLOperation):
    """``nvvm.read.ptx.sreg.smid : i32``."""

    name = "nvvm.read.ptx.sreg.smid"
    res = result_def(I32)
    traits = traits_def(Pure())
    assembly_format = "attr-dict `:` type($res)"

    def __init__(self) -> None:
        super().__init__(result_types=[i32])


SREG_OPS: list[type[IRDLOperation]] = [ReadGlobaltimerOp, ReadSmidOp]
