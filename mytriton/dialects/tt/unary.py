"""Unary elementwise `tt` ops of one type: negation and ``abs`` (numbers), and the float math
functions with exact semantics here (``exp``, ``log``, ``sqrt``, ``sin``...; the libdevice ones
are ``math``'s)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.ir import SSAValue
from xdsl.irdl import (
    AnyAttr,
    VarConstraint,
    irdl_op_definition,
    operand_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure

from mytriton.dialects.tt import semantics as sem
from mytriton.dialects.tt.elementwise_base import ElementwiseOp, is_numeric
from mytriton.dialects.tt.traits import LazyPatterns, verify_error
from mytriton.dialects.tt.types import is_float, type_str


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
        if self.OPERAND_KIND == "numeric" and not is_numeric(t):
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
    """``tl.exp`` (natural exponential). Its semantics (interpreter, folding) is NumPy's; on
    the GPU an f32 one is ``ex2.approx.f32`` of ``x * log2(e)`` rounded to f32, as Triton's."""

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
    """``tl.sqrt``: NumPy's root; on the GPU an f32 one is PTX's ``sqrt.approx.ftz.f32`` (1
    ulp), as Triton's; ``tt.precise_sqrt`` (``tl.sqrt_rn``) is IEEE."""

    name = "tt.sqrt"
    SEMANTICS: ClassVar = sem.sqrt


@irdl_op_definition
class RsqrtOp(UnaryOp):
    """``tl.rsqrt``: ``1 / sqrt(x)``; on the GPU an f32 one is ``rsqrt.approx.ftz.f32`` (2 ulp)."""

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
