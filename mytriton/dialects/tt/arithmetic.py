"""Binary elementwise `tt` ops with one type for both operands and the result: arithmetic
(``tt.add``, ``sub``, ``mul``, ``div``, ``rem``), bitwise and boolean logic (``and``, ``or``,
``xor``, ``shl``, ``shr``) and ``tt.maximum``/``tt.minimum`` (with their NaN handling,
``PropagateNanAttr``). Each folds its algebraic identities (``x + 0 -> x``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import SpacedOpaqueSyntaxAttribute, SSAValue
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
from xdsl.traits import Pure
from xdsl.utils.str_enum import StrEnum

from mytriton.dialects.tt import semantics as sem
from mytriton.dialects.tt.constants import uniform_constant
from mytriton.dialects.tt.elementwise_base import Array, ElementwiseOp, is_numeric
from mytriton.dialects.tt.traits import LazyPatterns, verify_error
from mytriton.dialects.tt.types import is_bool, is_float, is_int, type_str


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
        if self.OPERAND_KIND == "numeric" and not is_numeric(t):
            raise verify_error(self, f"operands must be integers or floats, got {type_str(t)}")
        if self.OPERAND_KIND == "integer" and not is_int(t):
            raise verify_error(self, f"operands must be integers or booleans, got {type_str(t)}")
        if self.OPERAND_KIND == "any" and not (is_numeric(t) or is_int(t)):
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
    """``a / b`` for floats, truncating C division for integers (``//`` in kernels). Its
    semantics (the interpreter, folding) is the IEEE quotient; on the GPU an f32 one is PTX's
    ``div.full.f32`` (within 2 ulp), as Triton's ``arith.divf``; ``tt.precise_divf`` is IEEE."""

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
