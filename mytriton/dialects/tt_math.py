"""Math-library `tt` ops beyond the core ones of ``tt_elementwise`` (``libdevice`` and ``tl.*``).

Each is one elementwise op on floats with NumPy semantics (``tt_semantics``), lowered to the
upstream ``math`` op of the same name; f16 operands are computed in f32 and rounded.
"""

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

from mytriton.dialects import tt_semantics as sem
from mytriton.dialects.tt_elementwise import BinaryOp, ElementwiseOp, UnaryOp
from mytriton.dialects.tt_traits import LazyPatterns, verify_error
from mytriton.dialects.tt_types import element_type, is_bool, is_float, is_int, type_str


class FloatBinaryOp(BinaryOp):
    """A binary math function: float operands only."""

    def verify_(self) -> None:
        if not is_float(self.result.type):
            raise verify_error(self, f"operands must be floats, got {type_str(self.result.type)}")


@irdl_op_definition
class TanhOp(UnaryOp):
    name = "tt.tanh"
    SEMANTICS: ClassVar = sem.tanh


@irdl_op_definition
class ErfOp(UnaryOp):
    name = "tt.erf"
    SEMANTICS: ClassVar = sem.erf


@irdl_op_definition
class Expm1Op(UnaryOp):
    name = "tt.expm1"
    SEMANTICS: ClassVar = sem.expm1


@irdl_op_definition
class Log1pOp(UnaryOp):
    name = "tt.log1p"
    SEMANTICS: ClassVar = sem.log1p


@irdl_op_definition
class Log10Op(UnaryOp):
    name = "tt.log10"
    SEMANTICS: ClassVar = sem.log10


@irdl_op_definition
class TanOp(UnaryOp):
    name = "tt.tan"
    SEMANTICS: ClassVar = sem.tan


@irdl_op_definition
class AsinOp(UnaryOp):
    name = "tt.asin"
    SEMANTICS: ClassVar = sem.asin


@irdl_op_definition
class AcosOp(UnaryOp):
    name = "tt.acos"
    SEMANTICS: ClassVar = sem.acos


@irdl_op_definition
class AtanOp(UnaryOp):
    name = "tt.atan"
    SEMANTICS: ClassVar = sem.atan


@irdl_op_definition
class SinhOp(UnaryOp):
    name = "tt.sinh"
    SEMANTICS: ClassVar = sem.sinh


@irdl_op_definition
class CoshOp(UnaryOp):
    name = "tt.cosh"
    SEMANTICS: ClassVar = sem.cosh


@irdl_op_definition
class AsinhOp(UnaryOp):
    name = "tt.asinh"
    SEMANTICS: ClassVar = sem.asinh


@irdl_op_definition
class AcoshOp(UnaryOp):
    name = "tt.acosh"
    SEMANTICS: ClassVar = sem.acosh


@irdl_op_definition
class AtanhOp(UnaryOp):
    name = "tt.atanh"
    SEMANTICS: ClassVar = sem.atanh


@irdl_op_definition
class TruncOp(UnaryOp):
    """Round toward zero."""

    name = "tt.trunc"
    SEMANTICS: ClassVar = sem.trunc


@irdl_op_definition
class RoundOp(UnaryOp):
    """C ``round``: halfway cases away from zero."""

    name = "tt.round"
    SEMANTICS: ClassVar = sem.round_


@irdl_op_definition
class RintOp(UnaryOp):
    """Round to nearest, halfway cases to even."""

    name = "tt.rint"
    SEMANTICS: ClassVar = sem.rint


@irdl_op_definition
class CbrtOp(UnaryOp):
    name = "tt.cbrt"
    SEMANTICS: ClassVar = sem.cbrt


@irdl_op_definition
class PowOp(FloatBinaryOp):
    name = "tt.pow"
    SEMANTICS: ClassVar = sem.pow_


@irdl_op_definition
class Atan2Op(FloatBinaryOp):
    """``atan2(y, x)``."""

    name = "tt.atan2"
    SEMANTICS: ClassVar = sem.atan2


@irdl_op_definition
class CopySignOp(FloatBinaryOp):
    name = "tt.copysign"
    SEMANTICS: ClassVar = sem.copysign


@irdl_op_definition
class UmulhiOp(BinaryOp):
    """``tl.umulhi``: the high half of the unsigned 64-bit (128-bit) product of i32 (i64)."""

    name = "tt.umulhi"
    SEMANTICS: ClassVar = sem.umulhi

    def verify_(self) -> None:
        t = element_type(self.result.type)
        if not (is_int(t) and not is_bool(t) and t.bitwidth in (32, 64)):  # type: ignore[attr-defined]
            raise verify_error(
                self, f"operands must be i32 or i64, got {type_str(self.result.type)}"
            )


@irdl_op_definition
class FmaOp(ElementwiseOp):
    """``a * b + c`` with one rounding (``tl.fma``)."""

    name = "tt.fma"
    T: ClassVar = VarConstraint("T", AnyAttr())
    a = operand_def(T)
    b = operand_def(T)
    c = operand_def(T)
    result = result_def(T)
    traits = traits_def(Pure(), LazyPatterns())
    assembly_format = "$a `,` $b `,` $c attr-dict `:` type($result)"
    SEMANTICS: ClassVar = sem.fma

    def __init__(self, a: SSAValue, b: SSAValue, c: SSAValue):
        super().__init__(operands=[a, b, c], result_types=[a.type])

    def verify_(self) -> None:
        if not is_float(self.result.type):
            raise verify_error(self, f"operands must be floats, got {type_str(self.result.type)}")


MATH_UNARY_OPS: Sequence[type[UnaryOp]] = (
    TanhOp,
    ErfOp,
    Expm1Op,
    Log1pOp,
    Log10Op,
    TanOp,
    AsinOp,
    AcosOp,
    AtanOp,
    SinhOp,
    CoshOp,
    AsinhOp,
    AcoshOp,
    AtanhOp,
    TruncOp,
    RoundOp,
    RintOp,
    CbrtOp,
)
TT_MATH_OPS: Sequence[type[ElementwiseOp]] = (
    *MATH_UNARY_OPS,
    PowOp,
    Atan2Op,
    CopySignOp,
    UmulhiOp,
    FmaOp,
)
