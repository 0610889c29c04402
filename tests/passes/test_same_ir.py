"""``same_ir``: two modules are the same IR exactly where they print the same text (the test
``lower_module`` used to make by printing both), and it tells every difference apart."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import (
    FileLineColLoc,
    IntAttr,
    ModuleOp,
    StringAttr,
    UnitAttr,
    i32,
)
from xdsl.ir import Block, Region

from mytriton.dialects.printing import print_module
from mytriton.passes.same_ir import same_ir


def _module() -> ModuleOp:
    """A kernel with a loop: block arguments, nested regions, names, locations, attributes."""
    loc = FileLineColLoc(StringAttr("k.py"), IntAttr(3), IntAttr(5))
    body = Block(arg_types=[i32, i32])
    lo, hi, step = (arith.ConstantOp.from_int_and_width(v, i32) for v in (0, 8, 1))
    loop_body = Block(arg_types=[i32, i32])
    add = arith.AddiOp(loop_body.args[1], body.args[0])
    add.result.name_hint = "acc"
    add.location = loc
    loop_body.add_ops([add, scf.YieldOp(add)])
    loop = scf.ForOp(lo, hi, step, [body.args[1]], Region(loop_body))
    body.add_ops([lo, hi, step, loop, func.ReturnOp()])
    fn = func.FuncOp("k", ((i32, i32), ()), Region(body))
    fn.attributes["tt.kernel"] = UnitAttr()
    fn.attributes["noinline"] = UnitAttr()
    return ModuleOp([fn])


def _ops(module: ModuleOp, name: str) -> list:
    return [op for op in module.walk() if op.name == name]


def _rename(m: ModuleOp) -> None:
    _ops(m, "arith.addi")[0].results[0].name_hint = "other"


def _relocate(m: ModuleOp) -> None:
    _ops(m, "arith.addi")[0].location = FileLineColLoc(StringAttr("k.py"), IntAttr(4), IntAttr(5))


def _swap_operands(m: ModuleOp) -> None:
    add = _ops(m, "arith.addi")[0]
    lhs, rhs = add.operands
    add.operands = (rhs, lhs)


def _reorder_attributes(m: ModuleOp) -> None:
    fn = _ops(m, "func.func")[0]
    fn.attributes = dict(reversed(list(fn.attributes.items())))


def _name_argument(m: ModuleOp) -> None:
    arg = _ops(m, "func.func")[0].regions[0].blocks[0].args[0]
    arg.name_hint = "x"


def _change_constant(m: ModuleOp) -> None:
    old = _ops(m, "arith.constant")[1]
    new = arith.ConstantOp.from_int_and_width(16, i32)
    new.location = old.location
    old.parent_block().insert_op_before(new, old)  # type: ignore[union-attr]
    old.result.replace_all_uses_with(new.result)
    old.detach()


def _drop_op(m: ModuleOp) -> None:
    op = _ops(m, "arith.constant")[0]
    op.result.replace_all_uses_with(_ops(m, "arith.constant")[2].result)
    op.detach()


@pytest.mark.parametrize(
    "change",
    [
        _rename,
        _relocate,
        _swap_operands,
        _reorder_attributes,
        _name_argument,
        _change_constant,
        _drop_op,
    ],
)
def test_a_difference_in_the_text_is_a_different_ir(change: Callable[[ModuleOp], None]) -> None:
    module = _module()
    changed = module.clone()
    change(changed)
    assert print_module(changed) != print_module(module)  # the change shows in the text
    assert not same_ir(module, changed)
    assert not same_ir(changed, module)


def test_a_copy_is_the_same_ir() -> None:
    module = _module()
    assert same_ir(module, module.clone())
    assert same_ir(module, module)


def test_values_from_outside_must_be_the_same_objects() -> None:
    outer = Block(arg_types=[i32, i32])
    one, two = (arith.AddiOp(outer.args[i], outer.args[i]) for i in (0, 1))
    assert same_ir(one, one.clone())  # the clone uses the same outside values
    assert not same_ir(one, two)  # alike but for the values they add


def test_a_zero_and_a_negative_zero_are_different_ir() -> None:
    """Equal attributes must print alike: a float constant's sign of zero prints, so it must
    tell the two apart (xDSL compares a float's bits)."""
    from xdsl.dialects.builtin import FloatAttr, f32

    zero, negative = (ModuleOp([arith.ConstantOp(FloatAttr(v, f32))]) for v in (0.0, -0.0))
    assert print_module(zero) != print_module(negative)
    assert not same_ir(zero, negative)
