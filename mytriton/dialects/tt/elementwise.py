"""Elementwise `tt` ops: arithmetic, comparison, boolean logic, select, math and casts.

They act on scalars or on blocks alike; operands of one op always have the same shape (the
frontend inserts ``tt.splat``/``tt.broadcast`` first, as Triton does). Each op names its NumPy
semantics (``tt_semantics``); ``evaluate`` is both the constant folder's and the interpreter's
rule, so what folds at compile time is exactly what runs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar, Self

import numpy as np
from xdsl.dialects.builtin import i1
from xdsl.dialects.utils import EnumAttribute
from xdsl.interfaces import HasFolderInterface
from xdsl.ir import Attribute, SpacedOpaqueSyntaxAttribute, SSAValue
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
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.str_enum import StrEnum

from mytriton.dialects.tt import fp8 as tt_fp8
from mytriton.dialects.tt import semantics as sem
from mytriton.dialects.tt.constants import constant_attr, scalar_constant, uniform_constant
from mytriton.dialects.tt.traits import LazyPatterns, verify_error
from mytriton.dialects.tt.types import (
    block_type,
    element_type,
    is_bool,
    is_float,
    is_int,
    is_pointer,
    shape_of,
    type_str,
    with_element_type,
)

Array = np.ndarray


def _numeric(t: Attribute) -> bool:
    return (is_float(t) or is_int(t)) and not is_bool(t)


class ElementwiseOp(IRDLOperation, HasFolderInterface):
    """Base of every elementwise op: result element i depends on operand elements i only."""

    SEMANTICS: ClassVar[Callable[..., Array]]

    def evaluate(self, *args: Array) -> Array:
        """This op's result for NumPy operands of the operands' dtypes."""
        return sem.evaluate(type(self).SEMANTICS, *args)

    def fold(self) -> Sequence[SSAValue | Attribute] | None:
        consts = [scalar_constant(v) for v in self.operands]
        if all(c is not None for c in consts) and tt_fp8.has_constants(self.results[0].type):
            value = self.evaluate(*consts)  # type: ignore[arg-type]
            return (constant_attr(value, self.results[0].type),)
        return self.fold_identity()

    def fold_identity(self) -> Sequence[SSAValue] | None:
        """Algebraic identities (``x + 0 -> x``); overridden per op."""
        return None

    def rebuild(self, operands: Sequence[SSAValue]) -> ElementwiseOp:
        """The same op (same attributes) over other operands, e.g. their scalar sources."""
        return type(self)(*operands)


# --------------------------------------------------------------------------------------------
# Binary ops with one type for both operands and the result
# --------------------------------------------------------------------------------------------


class BinaryOp(ElementwiseOp):
    T: ClassVar = VarConstraint("T", AnyAttr())
    lhs = operand_def(T)
    rhs = operand_def(T)
    result = result_def(T)
    traits = traits_def(Pure(), LazyPatterns())
    assembly_format = "$lhs `,` $rhs attr-dict `:` type($result)"

    # "numeric" (ints and floats, no bools), "integer" (ints and bools) or "any" (all three)
    OPERAND_KIND: ClassVar[str] = "numeric"

    def __init__(self, lhs: SSAValue, rhs: SSAValue):
        super().__init__(operands=[lhs, rhs], result_types=[lhs.type])

    def verify_(self) -> None:
        t = self.result.type
        if self.OPERAND_KIND == "numeric" and not _numeric(t):
            raise verify_error(self, f"operands must be integers or floats, got {type_str(t)}")
        if self.OPERAND_KIND == "integer" and not is_int(t):
            raise verify_error(self, f"operands must be integers or booleans, got {type_str(t)}")
        if self.OPERAND_KIND == "any" and not (_numeric(t) or is_int(t)):
            raise verify_error(
                self, f"operands must be integers, floats or booleans, got {type_str(t)}"
            )

    def _const(self, v: SSAValue) -> Array | None:
        return uniform_constant(v)

    def _is(self, v: SSAValue, value: int) -> bool:
        c = self._const(v)
        return c is not None and bool(c == value)


@irdl_op_definition
class AddOp(BinaryOp):
    """``a + b`` (integers wrap)."""

    name = "tt.add"
    SEMANTICS: ClassVar = sem.add

    def fold_identity(self) -> Sequence[SSAValue] | None:
        if not is_float(self.result.type):
            if self._is(self.rhs, 0):
                return (self.lhs,)
            if self._is(self.lhs, 0):
                return (self.rhs,)
        return None


@irdl_op_definition
class SubOp(BinaryOp):
    """``a - b`` (integers wrap)."""

    name = "tt.sub"
    SEMANTICS: ClassVar = sem.sub

    def fold_identity(self) -> Sequence[SSAValue] | None:
        if not is_float(self.result.type) and self._is(self.rhs, 0):
            return (self.lhs,)
        return None


@irdl_op_definition
class MulOp(BinaryOp):
    """``a * b`` (integers wrap)."""

    name = "tt.mul"
    SEMANTICS: ClassVar = sem.mul

    def fold_identity(self) -> Sequence[SSAValue] | None:
        if self._is(self.rhs, 1):
            return (self.lhs,)
        if self._is(self.lhs, 1):
            return (self.rhs,)
        if not is_float(self.result.type):  # x * 0 is 0 for integers (not for floats: NaN, inf)
            if self._is(self.rhs, 0):
                return (self.rhs,)
            if self._is(self.lhs, 0):
                return (self.lhs,)
        return None


@irdl_op_definition
class DivOp(BinaryOp):
    """``a / b`` for floats (IEEE), truncating C division for integers (``//`` in kernels)."""

    name = "tt.div"
    SEMANTICS: ClassVar = sem.div

    def fold_identity(self) -> Sequence[SSAValue] | None:
        if self._is(self.rhs, 1):
            return (self.lhs,)
        return None


@irdl_op_definition
class RemOp(BinaryOp):
    """C remainder: the sign follows the dividend (``fmod`` for floats)."""

    name = "tt.rem"
    SEMANTICS: ClassVar = sem.rem


@irdl_op_definition
class AndOp(BinaryOp):
    """Bitwise/boolean ``&``."""

    name = "tt.and"
    OPERAND_KIND: ClassVar[str] = "integer"
    SEMANTICS: ClassVar = sem.bit_and

    def fold_identity(self) -> Sequence[SSAValue] | None:
        if self.lhs == self.rhs:
            return (self.lhs,)
        if is_bool(self.result.type):
            if self._is(self.rhs, 1):
                return (self.lhs,)
            if self._is(self.lhs, 1):
                return (self.rhs,)
        return None


@irdl_op_definition
class OrOp(BinaryOp):
    """Bitwise/boolean ``|``."""

    name = "tt.or"
    OPERAND_KIND: ClassVar[str] = "integer"
    SEMANTICS: ClassVar = sem.bit_or

    def fold_identity(self) -> Sequence[SSAValue] | None:
        if self.lhs == self.rhs:
            return (self.lhs,)
        if self._is(self.rhs, 0):
            return (self.lhs,)
        if self._is(self.lhs, 0):
            return (self.rhs,)
        return None


@irdl_op_definition
class XorOp(BinaryOp):
    """Bitwise/boolean ``^`` (``~x`` is ``x ^ -1``, ``not b`` is ``b ^ true``)."""

    name = "tt.xor"
    OPERAND_KIND: ClassVar[str] = "integer"
    SEMANTICS: ClassVar = sem.bit_xor

    def fold_identity(self) -> Sequence[SSAValue] | None:
        if self._is(self.rhs, 0):
            return (self.lhs,)
        return None


@irdl_op_definition
class ShlOp(BinaryOp):
    """``a << b``; an amount of the width or more (as an unsigned number) gives 0, as PTX."""

    name = "tt.shl"
    OPERAND_KIND: ClassVar[str] = "integer"
    SEMANTICS: ClassVar = sem.shl

    def fold_identity(self) -> Sequence[SSAValue] | None:
        return (self.lhs,) if self._is(self.rhs, 0) else None


@irdl_op_definition
class ShrOp(BinaryOp):
    """``a >> b``: arithmetic on signed integers, logical on unsigned ones (the type says which);
    an amount of the width or more shifts every bit out."""

    name = "tt.shr"
    OPERAND_KIND: ClassVar[str] = "integer"
    SEMANTICS: ClassVar = sem.shr

    def fold_identity(self) -> Sequence[SSAValue] | None:
        return (self.lhs,) if self._is(self.rhs, 0) else None


class PropagateNan(StrEnum):
    """``tl.PropagateNan``: ``none`` ignores a NaN operand (IEEE maxNum, MLIR ``maxnumf``),
    ``all`` returns NaN (IEEE maximum, MLIR ``maximumf``)."""

    NONE = "none"
    ALL = "all"


@irdl_attr_definition
class PropagateNanAttr(EnumAttribute[PropagateNan], SpacedOpaqueSyntaxAttribute):
    """NaN handling of float ``tt.maximum``/``tt.minimum`` (integers ignore it)."""

    name = "tt.propagate_nan"


class ExtremumOp(BinaryOp):
    """``tt.maximum``/``tt.minimum``: integers compare by their signedness, booleans as
    unsigned (Triton's int1: ``maximum`` is or, ``minimum`` and); floats follow PTX
    ``max``/``min`` (``+0.0 > -0.0``; a NaN operand gives the other operand, or NaN with
    ``propagate_nan = all``). Syntax: ``tt.maximum %a, %b[, propagate_nan = all] : T``."""

    OPERAND_KIND: ClassVar[str] = "any"

    propagate_nan = prop_def(PropagateNanAttr, default_value=PropagateNanAttr(PropagateNan.NONE))
    assembly_format = (
        "$lhs `,` $rhs (`,` `propagate_nan` `=` $propagate_nan^)? attr-dict `:` type($result)"
    )

    def __init__(
        self, lhs: SSAValue, rhs: SSAValue, propagate_nan: PropagateNan = PropagateNan.NONE
    ):
        super().__init__(lhs, rhs)
        self.propagate_nan = PropagateNanAttr(propagate_nan)

    @property
    def propagates_nan(self) -> bool:
        return self.propagate_nan.data is PropagateNan.ALL

    def evaluate(self, *args: Array) -> Array:
        return sem.evaluate(type(self).SEMANTICS, *args, self.propagates_nan)

    def rebuild(self, operands: Sequence[SSAValue]) -> ElementwiseOp:
        lhs, rhs = operands
        return type(self)(lhs, rhs, self.propagate_nan.data)

    def fold_identity(self) -> Sequence[SSAValue] | None:
        return (self.lhs,) if self.lhs == self.rhs else None


@irdl_op_definition
class MaximumOp(ExtremumOp):
    """``tl.maximum``."""

    name = "tt.maximum"
    SEMANTICS: ClassVar = sem.maximum


@irdl_op_definition
class MinimumOp(ExtremumOp):
    """``tl.minimum``."""

    name = "tt.minimum"
    SEMANTICS: ClassVar = sem.minimum


# --------------------------------------------------------------------------------------------
# Comparison and select
# --------------------------------------------------------------------------------------------


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


# --------------------------------------------------------------------------------------------
# Unary ops
# --------------------------------------------------------------------------------------------


class UnaryOp(ElementwiseOp):
    T: ClassVar = VarConstraint("T", AnyAttr())
    src = operand_def(T)
    result = result_def(T)
    traits = traits_def(Pure(), LazyPatterns())
    assembly_format = "$src attr-dict `:` type($result)"

    # "float" (math functions) or "numeric" (neg, abs)
    OPERAND_KIND: ClassVar[str] = "float"

    def __init__(self, src: SSAValue):
        super().__init__(operands=[src], result_types=[src.type])

    def verify_(self) -> None:
        t = self.result.type
        if self.OPERAND_KIND == "float" and not is_float(t):
            raise verify_error(self, f"operand must be a float, got {type_str(t)}")
        if self.OPERAND_KIND == "numeric" and not _numeric(t):
            raise verify_error(self, f"operand must be an integer or a float, got {type_str(t)}")


@irdl_op_definition
class NegOp(UnaryOp):
    """``-x`` (integers wrap)."""

    name = "tt.neg"
    OPERAND_KIND: ClassVar[str] = "numeric"
    SEMANTICS: ClassVar = sem.neg


@irdl_op_definition
class AbsOp(UnaryOp):
    """``tl.abs``."""

    name = "tt.abs"
    OPERAND_KIND: ClassVar[str] = "numeric"
    SEMANTICS: ClassVar = sem.abs_


@irdl_op_definition
class ExpOp(UnaryOp):
    """``tl.exp`` (natural exponential)."""

    name = "tt.exp"
    SEMANTICS: ClassVar = sem.exp


@irdl_op_definition
class Exp2Op(UnaryOp):
    """``tl.exp2``."""

    name = "tt.exp2"
    SEMANTICS: ClassVar = sem.exp2


@irdl_op_definition
class LogOp(UnaryOp):
    """``tl.log`` (natural logarithm)."""

    name = "tt.log"
    SEMANTICS: ClassVar = sem.log


@irdl_op_definition
class Log2Op(UnaryOp):
    """``tl.log2``."""

    name = "tt.log2"
    SEMANTICS: ClassVar = sem.log2


@irdl_op_definition
class SqrtOp(UnaryOp):
    """``tl.sqrt``."""

    name = "tt.sqrt"
    SEMANTICS: ClassVar = sem.sqrt


@irdl_op_definition
class RsqrtOp(UnaryOp):
    """``tl.rsqrt``: ``1 / sqrt(x)``."""

    name = "tt.rsqrt"
    SEMANTICS: ClassVar = sem.rsqrt


@irdl_op_definition
class SinOp(UnaryOp):
    """``tl.sin``."""

    name = "tt.sin"
    SEMANTICS: ClassVar = sem.sin


@irdl_op_definition
class CosOp(UnaryOp):
    """``tl.cos``."""

    name = "tt.cos"
    SEMANTICS: ClassVar = sem.cos


@irdl_op_definition
class FloorOp(UnaryOp):
    """``tl.floor``."""

    name = "tt.floor"
    SEMANTICS: ClassVar = sem.floor


@irdl_op_definition
class CeilOp(UnaryOp):
    """``tl.ceil``."""

    name = "tt.ceil"
    SEMANTICS: ClassVar = sem.ceil


class ConversionOp(ElementwiseOp):
    """One operand converted to the result's element type, elementwise (``tt.cast``,
    ``tt.bitcast``): ``SEMANTICS(array, result dtype)`` computes it on NumPy arrays."""

    src = operand_def()
    result = result_def()
    traits = traits_def(Pure(), LazyPatterns())
    assembly_format = "$src attr-dict `:` type($src) `->` type($result)"

    def __init__(self, src: SSAValue, result_type: Attribute):
        super().__init__(operands=[src], result_types=[result_type])

    def evaluate(self, *args: Array) -> Array:
        return sem.evaluate(type(self).SEMANTICS, args[0], sem.numpy_dtype(self.result.type))

    def rebuild(self, operands: Sequence[SSAValue]) -> ElementwiseOp:
        (src,) = operands
        return type(self)(src, block_type(element_type(self.result.type), shape_of(src.type)))

    def _check_shapes(self) -> None:
        if shape_of(self.src.type) != shape_of(self.result.type):
            raise verify_error(self, "operand and result shapes differ")


@irdl_op_definition
class CastOp(ConversionOp):
    """Value conversion between i1/integer/float element types (``x.to(dtype)``).

    Floats -> integers truncate toward zero; anything -> i1 is ``x != 0``; i1 -> number
    gives 0 or 1.
    """

    name = "tt.cast"
    SEMANTICS = staticmethod(sem.cast)

    def verify_(self) -> None:
        src, dst = self.src.type, self.result.type
        for t in (src, dst):
            if not (is_int(t) or is_float(t)):
                raise verify_error(self, f"cannot convert {type_str(src)} to {type_str(dst)}")
        self._check_shapes()
        if src == dst:
            raise verify_error(self, f"conversion of {type_str(src)} to itself")


@irdl_op_definition
class BitcastOp(ConversionOp):
    """The same bits as another element type of the same width (``x.to(dtype, bitcast=True)``,
    Triton's ``tt.bitcast``)."""

    name = "tt.bitcast"
    SEMANTICS = staticmethod(sem.bitcast)

    def verify_(self) -> None:
        src, dst = self.src.type, self.result.type
        for t in (src, dst):
            if not (is_int(t) or is_float(t)) or is_bool(t):
                raise verify_error(self, f"cannot bitcast {type_str(src)} to {type_str(dst)}")
        self._check_shapes()
        src_bits, dst_bits = (element_type(t).bitwidth for t in (src, dst))  # type: ignore[attr-defined]
        if src_bits != dst_bits:
            raise verify_error(
                self,
                f"cannot bitcast {src_bits}-bit {type_str(src)} to {dst_bits}-bit "
                f"{type_str(dst)}: the widths differ",
            )


BINARY_OPS: Sequence[type[BinaryOp]] = (
    AddOp,
    SubOp,
    MulOp,
    DivOp,
    RemOp,
    AndOp,
    OrOp,
    XorOp,
    ShlOp,
    ShrOp,
    MaximumOp,
    MinimumOp,
)
UNARY_OPS: Sequence[type[UnaryOp]] = (
    NegOp,
    AbsOp,
    ExpOp,
    Exp2Op,
    LogOp,
    Log2Op,
    SqrtOp,
    RsqrtOp,
    SinOp,
    CosOp,
    FloorOp,
    CeilOp,
)
TT_ELEMENTWISE_OPS: Sequence[type[ElementwiseOp]] = (
    *BINARY_OPS,
    CmpOp,
    SelectOp,
    *UNARY_OPS,
    CastOp,
    BitcastOp,
)
