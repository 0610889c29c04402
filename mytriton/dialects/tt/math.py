"""Math-library `tt` ops beyond the core ones of ``tt_elementwise`` (``libdevice`` and ``tl.*``).

Each is one elementwise op on floats with NumPy semantics (``tt_semantics``), lowered to the
upstream ``math`` op of the same name; f16 operands are computed in f32 and rounded. The
libdevice functions no upstream op expresses are one ``tt.extern_elementwise`` naming the
``__nv_*`` symbol (``libdevice_table``); ``tt.fp_to_fp`` is a float narrowing with a rounding
mode other than to-nearest-even (``fp_downcast_rounding="rtz"``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import numpy as np
from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    AnyAttr,
    VarConstraint,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.traits import Pure

from mytriton.dialects.tt import fp8 as tt_fp8
from mytriton.dialects.tt import libdevice_table as lt
from mytriton.dialects.tt import semantics as sem
from mytriton.dialects.tt.elementwise import BinaryOp, ConversionOp, ElementwiseOp, UnaryOp
from mytriton.dialects.tt.traits import LazyPatterns, verify_error
from mytriton.dialects.tt.types import (
    block_type,
    element_type,
    is_bool,
    is_float,
    is_int,
    shape_of,
    type_str,
    with_element_type,
)


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
class PreciseSqrtOp(UnaryOp):
    """``tl.sqrt_rn``: the IEEE square root rounded to nearest, Triton's ``tt.precise_sqrt``.
    ``tt.sqrt`` of f32 is PTX's approximate ``sqrt.approx.ftz.f32``, as in Triton; this one
    stays ``sqrt.rn``."""

    name = "tt.precise_sqrt"
    SEMANTICS: ClassVar = sem.sqrt


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
class PreciseDivOp(FloatBinaryOp):
    """``tl.div_rn`` (and ``tl.fdiv(..., ieee_rounding=True)``): the IEEE quotient rounded to
    nearest, Triton's ``tt.precise_divf``. ``tt.div`` of f32 is PTX's approximate
    ``div.full.f32``, as in Triton; this one stays ``div.rn``."""

    name = "tt.precise_divf"
    SEMANTICS: ClassVar = sem.div

    def fold_identity(self) -> Sequence[SSAValue] | None:
        return (self.lhs,) if self._is(self.rhs, 1) else None


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


@irdl_op_definition
class ExternElementwiseOp(ElementwiseOp):
    """A call of the libdevice function ``symbol`` on each element (Triton's op of this name).

    The operands and the result have the element types of the symbol's signature
    (``libdevice_table.SYMBOLS``) and one shape.
    """

    name = "tt.extern_elementwise"
    srcs = var_operand_def()
    result = result_def()
    symbol = prop_def(StringAttr)
    traits = traits_def(Pure(), LazyPatterns())
    assembly_format = "$symbol `(` $srcs `)` attr-dict `:` functional-type($srcs, $result)"

    def __init__(self, symbol: str, srcs: Sequence[SSAValue], result_type: Attribute):
        super().__init__(
            operands=[list(srcs)],
            result_types=[result_type],
            properties={"symbol": StringAttr(symbol)},
        )

    @classmethod
    def of(cls, fn: lt.ExternFunction, srcs: Sequence[SSAValue]) -> ExternElementwiseOp:
        """A call of ``fn`` on operands of its parameter types (all of one shape)."""
        return cls(fn.symbol, srcs, with_element_type(srcs[0].type, fn.result_type))

    @property
    def function(self) -> lt.ExternFunction:
        fn = lt.SYMBOLS.get(self.symbol.data)
        if fn is None:
            raise verify_error(self, f"unknown libdevice function {self.symbol.data!r}")
        return fn

    def evaluate(self, *args: sem.Array) -> sem.Array:
        result = sem.evaluate(self.function.semantics, *args)
        return np.asarray(result).astype(sem.numpy_dtype(self.result.type), copy=False)

    def rebuild(self, operands: Sequence[SSAValue]) -> ElementwiseOp:
        result = block_type(element_type(self.result.type), shape_of(operands[0].type))
        return ExternElementwiseOp(self.symbol.data, operands, result)

    def verify_(self) -> None:
        fn = self.function
        got = [element_type(v.type) for v in self.srcs]
        if got != fn.param_types:
            raise verify_error(
                self,
                f"{fn.symbol} takes ({', '.join(fn.params)}), got "
                f"({', '.join(type_str(t) for t in got)})",
            )
        if element_type(self.result.type) != fn.result_type:
            raise verify_error(
                self, f"{fn.symbol} returns {fn.result}, not {type_str(self.result.type)}"
            )
        shape = shape_of(self.result.type)
        if any(shape_of(v.type) != shape for v in self.srcs):
            raise verify_error(self, "operand and result shapes differ")


class Rounding:
    """The rounding modes of ``tt.fp_to_fp`` (Triton's ``fp_downcast_rounding`` names)."""

    TOWARD_ZERO = "rtz"
    ALL = (TOWARD_ZERO,)


@irdl_op_definition
class FpToFpOp(ConversionOp):
    """A float narrowed to a smaller float type with ``rounding`` (``x.to(tl.float16,
    fp_downcast_rounding="rtz")``); ``tt.cast`` is the round-to-nearest-even narrowing.

    Toward zero, a value beyond the largest finite one gives that one (not an infinity), an
    infinity stays one, NaN stays NaN. Into fp8 only the pairs Triton's NVIDIA backend compiles
    (``tt_fp8.TOWARD_ZERO``: f32 -> fp8e5).
    """

    name = "tt.fp_to_fp"
    rounding = prop_def(StringAttr)
    assembly_format = "$src `rounding` `=` $rounding attr-dict `:` type($src) `->` type($result)"
    SEMANTICS = staticmethod(sem.round_toward_zero)

    def __init__(self, src: SSAValue, result_type: Attribute, rounding: str = Rounding.TOWARD_ZERO):
        super(ConversionOp, self).__init__(
            operands=[src],
            result_types=[result_type],
            properties={"rounding": StringAttr(rounding)},
        )

    def rebuild(self, operands: Sequence[SSAValue]) -> ElementwiseOp:
        (src,) = operands
        result = block_type(element_type(self.result.type), shape_of(src.type))
        return FpToFpOp(src, result, self.rounding.data)

    def verify_(self) -> None:
        if self.rounding.data not in Rounding.ALL:
            raise verify_error(
                self,
                f"rounding must be one of {', '.join(Rounding.ALL)}, got {self.rounding.data!r}",
            )
        src, dst = element_type(self.src.type), element_type(self.result.type)
        if not (is_float(src) and is_float(dst) and dst.bitwidth < src.bitwidth):  # type: ignore[attr-defined]
            raise verify_error(
                self, f"{type_str(src)} -> {type_str(dst)} is not a narrowing float conversion"
            )
        if tt_fp8.is_fp8(dst) and not tt_fp8.converts_toward_zero(src, dst):
            raise verify_error(
                self, f"{type_str(src)} -> {type_str(dst)} has no toward-zero conversion"
            )
        self._check_shapes()


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
    PreciseSqrtOp,
)
TT_MATH_OPS: Sequence[type[ElementwiseOp]] = (
    *MATH_UNARY_OPS,
    PowOp,
    Atan2Op,
    PreciseDivOp,
    CopySignOp,
    UmulhiOp,
    FmaOp,
    ExternElementwiseOp,
    FpToFpOp,
)
