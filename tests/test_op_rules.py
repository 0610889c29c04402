"""``OpRules``, the one per-op table of every stage: one rule per op, or several in order."""

from __future__ import annotations

import pytest
from xdsl.dialects import arith

from mytriton.dialects.tt import core as tt
from mytriton.dialects.tt import elementwise as ew
from mytriton.dialects.tt.canonicalize import CANONICALIZATION, patterns_for
from mytriton.op_rules import OpRules


def test_a_base_class_rule_serves_subclasses_and_the_nearest_wins() -> None:
    table: OpRules[str] = OpRules("test")
    table.register(ew.ElementwiseOp)("any elementwise")
    table.register(ew.AddOp)("add")
    assert table.get(ew.AddOp) == "add"
    assert table.get(ew.MulOp) == "any elementwise"
    assert table.get(tt.LoadOp) is None
    assert ew.MulOp in table and tt.LoadOp not in table


def test_a_name_key_serves_the_op_of_that_name() -> None:
    table: OpRules[str] = OpRules("test")
    table.register("arith.addf")("addf")
    assert table.get(arith.AddfOp) == "addf"
    assert table.get("arith.addf") == "addf"
    assert table.get(arith.MulfOp) is None


def test_two_rules_for_one_op_is_an_error() -> None:
    table: OpRules[str] = OpRules("test")
    table.register(ew.AddOp)("one")
    with pytest.raises(ValueError, match="two test rules for AddOp"):
        table.register(ew.AddOp)("two")


def test_several_rules_keep_their_order_base_classes_first() -> None:
    table: OpRules[tuple[str, ...]] = OpRules("test")
    table.append(ew.AddOp)("add 1")
    table.append(ew.ElementwiseOp, tt.LoadOp)("any elementwise")
    table.append(ew.AddOp)("add 2")
    assert table.gather(ew.AddOp) == ("any elementwise", "add 1", "add 2")
    assert table.gather(ew.MulOp) == ("any elementwise",)
    assert table.gather(tt.StoreOp) == ()


def test_the_same_rule_twice_for_one_op_is_an_error() -> None:
    table: OpRules[tuple[str, ...]] = OpRules("test")
    table.append(ew.AddOp)("add")
    table.append(ew.MulOp)("add")  # another op may share it
    with pytest.raises(ValueError, match="registered twice for AddOp"):
        table.append(ew.AddOp)("add")


def test_canonicalization_patterns_of_an_op_in_order() -> None:
    """An op's patterns: its base classes' first, each op's in the order registered."""
    assert [type(p).__name__ for p in patterns_for(ew.AddOp)] == [
        "HoistSplatOperands",
        "AddIntoDot",
    ]
    assert [type(p).__name__ for p in patterns_for(tt.AddPtrOp)] == [
        "HoistSplatAddPtr",
        "AddPtrZeroOffset",
    ]
    assert patterns_for(tt.MakeRangeOp) == ()
    # one instance per pattern class, shared by every op it serves
    assert patterns_for(ew.MulOp)[0] is patterns_for(ew.SubOp)[0]


def test_a_canonicalization_pattern_registered_twice_is_an_error() -> None:
    (pattern,) = CANONICALIZATION[tt.LoadOp]
    with pytest.raises(ValueError, match="registered twice for LoadOp"):
        CANONICALIZATION.append(tt.LoadOp)(pattern)
    assert CANONICALIZATION[tt.LoadOp] == (pattern,)
