"""``verify_module``'s dominance check: an operand must be defined before its use, in its own
block or one enclosing it; a value of a nested block is not visible after that block."""

from __future__ import annotations

import pytest
from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i32
from xdsl.ir import Block, Operation, Region

from mytriton.dialects.verify import verify_module
from mytriton.errors import IRVerificationError


def _const(value: int) -> arith.ConstantOp:
    return arith.ConstantOp(IntegerAttr(value, i32))


def _module(*ops: Operation) -> ModuleOp:
    body = Block([*ops, func.ReturnOp()])
    return ModuleOp([func.FuncOp.from_region("f", [], [], Region(body))])


def _loop(*body: Operation) -> tuple[list[Operation], scf.ForOp]:
    bounds = [_const(0), _const(4), _const(1)]
    block = Block([*body, scf.YieldOp()], arg_types=[i32])
    return bounds, scf.ForOp(*bounds, [], Region(block))


def test_uses_after_definitions_and_in_nested_blocks_verify() -> None:
    c = _const(1)
    inner = arith.AddiOp(c, c)  # an outer value used in the loop's body
    bounds, loop = _loop(inner, arith.AddiOp(inner, c))
    verify_module(_module(c, *bounds, loop, arith.AddiOp(c, c)))


def test_a_use_before_the_definition_is_reported() -> None:
    c = _const(1)
    bounds, loop = _loop()
    later = _const(2)
    use = arith.AddiOp(c, later)
    with pytest.raises(IRVerificationError, match="used before it is defined"):
        verify_module(_module(c, *bounds, loop, use, later))


def test_a_nested_value_is_not_visible_after_its_block() -> None:
    c = _const(1)
    inner = arith.AddiOp(c, c)
    bounds, loop = _loop(inner)
    with pytest.raises(IRVerificationError, match="used before it is defined"):
        verify_module(_module(c, *bounds, loop, arith.AddiOp(inner, c)))


def test_a_value_of_one_loop_is_not_visible_in_the_next() -> None:
    c = _const(1)
    inner = arith.AddiOp(c, c)
    bounds, first = _loop(inner)
    more, second = _loop(arith.AddiOp(inner, c))
    with pytest.raises(IRVerificationError, match="used before it is defined"):
        verify_module(_module(c, *bounds, first, *more, second))
