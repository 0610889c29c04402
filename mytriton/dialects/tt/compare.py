"""Elementwise `tt` comparison and choice: ``tt.cmp`` (an i1 block of the operands' shape, by
``CmpPredicateAttr``) and ``tt.select`` (``tl.where``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Self

from xdsl.dialects.builtin import i1
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, SpacedOpaqueSyntaxAttribute, SSAValue
from xdsl.irdl import (
    AnyAttr,
    VarConstraint,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.str_enum import StrEnum

from mytriton.dialects.tt import semantics as sem
from mytriton.dialects.tt.constants import uniform_constant
from mytriton.dialects.tt.elementwise_base import Array, ElementwiseOp
from mytriton.dialects.tt.traits import LazyPatterns, verify_error
from mytriton.dialects.tt.types import is_float, is_int, is_pointer, type_str, with_element_type


class CmpPredicate(StrEnum):
    LT = "lt"
    LE = "le"
    GT = "gt"
    GE = "ge"
    EQ = "eq"
    NE = "ne"


@irdl_attr_definition
class CmpPredicateAttr(EnumAttribute[CmpPredicate], SpacedOpaqueSyntaxAttribute):
    """Predicate of ``tt.cmp``: signed for integers; ordered for floats except ``ne``."""

    name = "tt.cmp_predicate"


def _bool_like(t: Attribute) -> Attribute:
    """i1 with the shape (and layout) of ``t``."""
    return with_element_type(t, i1)


@irdl_op_definition
class CmpOp(ElementwiseOp):
    """``a < b`` etc.: an i1 (block) of the operands' shape.

    Syntax: ``tt.cmp lt, %a, %b : tensor<128xi32>`` (the operand type; the result is i1).
    """

    name = "tt.cmp"
    T: ClassVar = VarConstraint("T", AnyAttr())
    predicate = prop_def(CmpPredicateAttr)
    lhs = operand_def(T)
    rhs = operand_def(T)
    result = result_def()
    traits = traits_def(Pure(), LazyPatterns())

    def __init__(self, predicate: str, lhs: SSAValue, rhs: SSAValue):
        super().__init__(
            operands=[lhs, rhs],
            properties={"predicate": CmpPredicateAttr(CmpPredicate(predicate))},
            result_types=[_bool_like(lhs.type)],
        )

    def evaluate(self, *args: Array) -> Array:
        return sem.evaluate(sem.compare, self.predicate.data.value, *args)

    def rebuild(self, operands: Sequence[SSAValue]) -> ElementwiseOp:
        return CmpOp(self.predicate.data.value, *operands)

    def verify_(self) -> None:
        t = self.lhs.type
        if not (is_int(t) or is_float(t) or is_pointer(t)):
            raise verify_error(self, f"cannot compare values of type {type_str(t)}")
        if self.result.type != _bool_like(t):
            raise verify_error(self, f"result type must be {type_str(_bool_like(t))}")

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.predicate.data.value}, ")
        printer.print_ssa_value(self.lhs)
        printer.print_string(", ")
        printer.print_ssa_value(self.rhs)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.lhs.type)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        pred = parser.parse_identifier()
        if pred not in {p.value for p in CmpPredicate}:
            parser.raise_error(f"unknown predicate '{pred}', expected lt, le, gt, ge, eq or ne")
        parser.parse_punctuation(",")
        lhs = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        rhs = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        t = parser.parse_type()
        op = cls(pred, parser.resolve_operand(lhs, t), parser.resolve_operand(rhs, t))
        op.attributes |= attrs
        return op


@irdl_op_definition
class SelectOp(ElementwiseOp):
    """``tl.where(c, a, b)``: elementwise choice; ``c`` is i1 of the operands' shape.

    Syntax: ``tt.select %c, %a, %b : tensor<128xf32>`` (the type of ``a``/``b``).
    """

    name = "tt.select"
    T: ClassVar = VarConstraint("T", AnyAttr())
    cond = operand_def()
    lhs = operand_def(T)
    rhs = operand_def(T)
    result = result_def(T)
    traits = traits_def(Pure(), LazyPatterns())
    SEMANTICS: ClassVar = sem.select

    def __init__(self, cond: SSAValue, lhs: SSAValue, rhs: SSAValue):
        super().__init__(operands=[cond, lhs, rhs], result_types=[lhs.type])

    def verify_(self) -> None:
        expected = _bool_like(self.lhs.type)
        if self.cond.type != expected:
            raise verify_error(
                self, f"condition must be {type_str(expected)}, got {type_str(self.cond.type)}"
            )

    def fold_identity(self) -> Sequence[SSAValue] | None:
        if self.lhs == self.rhs:
            return (self.lhs,)
        c = uniform_constant(self.cond)
        if c is not None:
            return (self.lhs,) if bool(c) else (self.rhs,)
        return None

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list([self.cond, self.lhs, self.rhs], printer.print_ssa_value)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        c = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        a = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        b = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        t = parser.parse_type()
        op = cls(
            parser.resolve_operand(c, _bool_like(t)),
            parser.resolve_operand(a, t),
            parser.resolve_operand(b, t),
        )
        op.attributes |= attrs
        return op
