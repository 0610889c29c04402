"""Asynchronous tensor-core dots: ``ttg.dot_wait``.

A ``tt.dot`` marked ``ttg.async`` (by ``ttg-pipeline``, for a warpgroup-MMA dot of a pipelined
K loop) only *starts* its multiply-accumulate: the tensor cores go on while the program issues
the copies of a later iteration. Its result must be read through ``ttg.dot_wait``, which waits
until at most ``pendings`` of the program's asynchronous dot groups are still running and gives
the dot's value back (Triton's ``ttng.warp_group_dot_wait``)::

    %d = tt.dot %a, %b, %acc {ttg.async, ...} : ...
    ... copies ...
    %acc_next = ttg.dot_wait %d {pendings = 0} : tensor<128x128xf32, #blocked>

A dot accumulating into a loop-carried value may stay in flight into the next iteration: the
loop yields it unwaited, the next iteration's dot chains onto it, a ``pendings = 1`` wait
after that dot retires the previous one (its tiles may be rewritten), and the loop's result
is waited for after the loop::

    %r = scf.for ... iter_args(%acc = %zero) {
      %d = tt.dot %a, %b, %acc {ttg.async, ...}
      %0 = ttg.dot_wait %d {pendings = 1}
      ... copies ...
      scf.yield %d
    }
    %acc_final = ttg.dot_wait %r {pendings = 0}

A value in flight (``in_flight``) is read by nothing but the dot that chains onto it, the
loop's yield, and ``ttg.dot_wait``.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects import scf
from xdsl.dialects.builtin import IntegerAttr, IntegerType, TensorType, UnitAttr, i32
from xdsl.ir import BlockArgument, OpResult, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    VarConstraint,
    base,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import MemoryReadEffect, MemoryWriteEffect
from xdsl.utils.exceptions import VerifyException

from mytriton.dialects.tt import core as tt

ASYNC_ATTR = "ttg.async"  # on a tt.dot: it only starts; ttg.dot_wait reads its result


def is_async_dot(op: object) -> bool:
    return isinstance(op, tt.DotOp) and ASYNC_ATTR in op.attributes


def mark_async(op: tt.DotOp) -> None:
    op.attributes[ASYNC_ATTR] = UnitAttr()


def in_flight(v: SSAValue) -> bool:
    """Whether ``v`` may still be computed by the tensor cores: an asynchronous dot's result,
    or what a loop carries from one (its block argument and result)."""
    if is_async_dot(v.owner):
        return True
    loop, index = None, 0
    if isinstance(v, OpResult) and isinstance(v.op, scf.ForOp):
        loop, index = v.op, v.index
    elif isinstance(v, BlockArgument) and v.index > 0:
        parent = v.block.parent_op()
        loop, index = (parent, v.index - 1) if isinstance(parent, scf.ForOp) else (None, 0)
    if loop is None:
        return False
    end = loop.body.block.last_op
    return isinstance(end, scf.YieldOp) and is_async_dot(end.operands[index].owner)


@irdl_op_definition
class DotWaitOp(IRDLOperation):
    """Wait for an asynchronous ``tt.dot`` (see the module doc); its value."""

    name = "ttg.dot_wait"
    T: ClassVar = VarConstraint("T", base(TensorType))
    src = operand_def(T)
    result = result_def(T)
    pendings = prop_def(IntegerAttr[IntegerType])
    # a wait orders the tensor cores' reads of shared memory before what follows
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$src attr-dict `:` type($result)"

    def __init__(self, src: SSAValue, pendings: int = 0):
        super().__init__(
            operands=[src],
            result_types=[src.type],
            properties={"pendings": IntegerAttr(pendings, i32)},
        )

    def verify_(self) -> None:
        if not in_flight(self.src):
            raise VerifyException(
                f"ttg.dot_wait: the operand must be a tt.dot marked {ASYNC_ATTR}, or a loop's "
                "result that such a dot yields"
            )
        if self.pendings.value.data < 0:
            raise VerifyException("ttg.dot_wait: pendings must not be negative")
