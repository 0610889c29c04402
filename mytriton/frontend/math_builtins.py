"""The elementwise math builtins of ``Builtins``: ``tl.where``, ``maximum``/``minimum``/
``clamp`` (with ``propagate_nan``), the float functions (``exp``, ``sqrt``, ... through
``Semantic.float_math``, some as libdevice calls), the divisions and ``fma``, ``softmax``,
``isnan``/``isinf`` and ``cdiv``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mytriton.dialects.tt import elementwise as ew
from mytriton.errors import KernelTypeError, KernelValueError, warn_at
from mytriton.frontend.builder import IRBuilder
from mytriton.frontend.semantic import Semantic
from mytriton.frontend.values import TensorValue
from mytriton.language import core


class MathBuiltins:
    """``tl.exp(...)`` and the other elementwise math builtins (mixed into ``Builtins``)."""

    sem: Semantic
    b: IRBuilder

    if TYPE_CHECKING:  # Builtins' helpers, and the reductions' and libdevice's mixins

        def _constexpr(self, value: Any, what: str) -> Any: ...

        def _tensor(self, v: Any, what: str) -> TensorValue: ...

        def extern(self, name: str, *args: Any) -> TensorValue: ...

        def sum(self, input: Any, axis: Any, keep_dims: Any, dtype: Any) -> TensorValue: ...

        def max(
            self,
            input: Any,
            axis: Any,
            return_indices: Any,
            return_indices_tie_break_left: Any,
            keep_dims: Any,
        ) -> Any: ...

    def where(self, condition: Any, x: Any, y: Any) -> TensorValue:
        c = self.sem.to_tensor(condition)
        if c.dtype != core.int1:  # Triton's deprecation: still x != 0 for now
            warn_at(
                self.b.loc,
                "tl.where with a non-boolean condition is deprecated and will error out in a "
                f"future triton release. Got {c.dtype}",
            )
        return self.sem.where(c, x, y)

    def _propagate_nan(self, value: Any, what: str) -> ew.PropagateNan:
        v = self._constexpr(value, f"{what}'s propagate_nan")
        if not isinstance(v, core.PropagateNan):
            raise KernelValueError(
                f"{what}: propagate_nan must be tl.PropagateNan.NONE or tl.PropagateNan.ALL, "
                f"got {v!r}",
                self.b.loc,
            )
        return ew.PropagateNan.ALL if v is core.PropagateNan.ALL else ew.PropagateNan.NONE

    def maximum(self, x: Any, y: Any, propagate_nan: Any) -> TensorValue:
        nan = self._propagate_nan(propagate_nan, "tl.maximum")
        return self.sem.minmax("maximum", x, y, nan)

    def minimum(self, x: Any, y: Any, propagate_nan: Any) -> TensorValue:
        nan = self._propagate_nan(propagate_nan, "tl.minimum")
        return self.sem.minmax("minimum", x, y, nan)

    def clamp(self, x: Any, min: Any, max: Any, propagate_nan: Any) -> TensorValue:
        nan = self._propagate_nan(propagate_nan, "tl.clamp")
        return self.sem.clamp(x, min, max, nan)

    def exp(self, x: Any) -> TensorValue:
        return self.sem.float_math("exp", x)

    def exp2(self, x: Any) -> TensorValue:
        return self.sem.float_math("exp2", x)

    def log(self, x: Any) -> TensorValue:
        return self.sem.float_math("log", x)

    def log2(self, x: Any) -> TensorValue:
        return self.sem.float_math("log2", x)

    def sqrt(self, x: Any) -> TensorValue:
        return self.sem.float_math("sqrt", x)

    def rsqrt(self, x: Any) -> TensorValue:
        return self.sem.float_math("rsqrt", x)

    def sin(self, x: Any) -> TensorValue:
        return self.sem.float_math("sin", x)

    def cos(self, x: Any) -> TensorValue:
        return self.sem.float_math("cos", x)

    def floor(self, x: Any) -> TensorValue:
        return self.sem.float_math("floor", x)

    def ceil(self, x: Any) -> TensorValue:
        return self.sem.float_math("ceil", x)

    def abs(self, x: Any) -> TensorValue:
        return self.sem.abs(x)

    def sigmoid(self, x: Any) -> TensorValue:
        x = self.sem.to_tensor(x)
        if x.dtype.kind != "float":
            raise KernelTypeError(f"tl.sigmoid expects a float argument, got {x.dtype}", self.b.loc)
        e = self.sem.float_math("exp", self.sem.neg(x))
        return self.sem.truediv(1.0, self.sem.arith("+", 1.0, e))

    def fdiv(self, x: Any, y: Any, ieee_rounding: Any) -> TensorValue:
        precise = bool(self._constexpr(ieee_rounding, "tl.fdiv's ieee_rounding"))
        return self.sem.fdiv(x, y, precise)

    def _float_division(self, x: Any, y: Any, what: str, precise: bool) -> TensorValue:
        a, b = self.sem.float_operands(what, x, y)
        return self.sem.float_division(a, b, precise)

    def div_rn(self, x: Any, y: Any) -> TensorValue:
        """IEEE division rounded to nearest (``tt.precise_divf``), where ``/`` of f32 is PTX's
        approximate ``div.full.f32`` as in Triton."""
        return self._float_division(x, y, "tl.div_rn", precise=True)

    def sqrt_rn(self, x: Any) -> TensorValue:
        """The IEEE square root (``tt.precise_sqrt``: PTX ``sqrt.rn``), where ``tl.sqrt`` of
        f32 is the approximate ``sqrt.approx.ftz.f32`` as in Triton."""
        return self.sem.float_math("sqrt_rn", x)

    def fma(self, x: Any, y: Any, z: Any) -> TensorValue:
        return self.sem.fma(x, y, z)

    def umulhi(self, x: Any, y: Any) -> TensorValue:
        return self.sem.umulhi(x, y)

    def softmax(self, x: Any, dim: Any, keep_dims: Any, ieee_rounding: Any) -> TensorValue:
        """Triton's ``standard.softmax``: ``exp(x - max) / sum``, along ``dim`` (0 if None); the
        division is IEEE where ``ieee_rounding`` (``tl.fdiv``'s flag)."""
        x = self._tensor(x, "tl.softmax's input")
        axis = 0 if self._constexpr(dim, "tl.softmax's dim") is None else dim
        z = self.sem.arith("-", x, self.max(x, axis, False, True, keep_dims))
        num = self.sem.float_math("exp", z)
        precise = bool(self._constexpr(ieee_rounding, "tl.softmax's ieee_rounding"))
        return self.sem.truediv(num, self.sum(num, axis, keep_dims, None), precise)

    def tanh(self, x: Any) -> TensorValue:
        return self.sem.float_math("tanh", x, "libdevice")

    def erf(self, x: Any) -> TensorValue:
        return self.sem.float_math("erf", x)

    def expm1(self, x: Any) -> TensorValue:
        return self.sem.float_math("expm1", x, "libdevice")

    def log1p(self, x: Any) -> TensorValue:
        return self.sem.float_math("log1p", x, "libdevice")

    def log10(self, x: Any) -> TensorValue:
        return self.sem.float_math("log10", x, "libdevice")

    def tan(self, x: Any) -> TensorValue:
        return self.sem.float_math("tan", x, "libdevice")

    def asin(self, x: Any) -> TensorValue:
        return self.sem.float_math("asin", x, "libdevice")

    def acos(self, x: Any) -> TensorValue:
        return self.sem.float_math("acos", x, "libdevice")

    def atan(self, x: Any) -> TensorValue:
        return self.sem.float_math("atan", x, "libdevice")

    def sinh(self, x: Any) -> TensorValue:
        return self.sem.float_math("sinh", x, "libdevice")

    def cosh(self, x: Any) -> TensorValue:
        return self.sem.float_math("cosh", x, "libdevice")

    def asinh(self, x: Any) -> TensorValue:
        return self.sem.float_math("asinh", x, "libdevice")

    def acosh(self, x: Any) -> TensorValue:
        return self.sem.float_math("acosh", x, "libdevice")

    def atanh(self, x: Any) -> TensorValue:
        return self.sem.float_math("atanh", x, "libdevice")

    def trunc(self, x: Any) -> TensorValue:
        return self.sem.float_math("trunc", x, "libdevice")

    def round(self, x: Any) -> TensorValue:
        return self.sem.float_math("round", x, "libdevice")

    def rint(self, x: Any) -> TensorValue:
        return self.sem.float_math("rint", x, "libdevice")

    def cbrt(self, x: Any) -> TensorValue:
        return self.sem.float_math("cbrt", x, "libdevice")

    def pow(self, x: Any, y: Any) -> TensorValue:
        """An int32 exponent (a Python int too) is libdevice's ``powi``, as Triton picks."""
        e = y.value if isinstance(y, core.constexpr) else y
        if (isinstance(e, TensorValue) and e.dtype == core.int32) or (
            isinstance(e, int) and not isinstance(e, bool) and -(2**31) <= e < 2**31
        ):
            return self.extern("pow", x, e)
        return self.sem.float_math2("pow", x, y, "libdevice")

    def atan2(self, x: Any, y: Any) -> TensorValue:
        return self.sem.float_math2("atan2", x, y, "libdevice")

    def copysign(self, x: Any, y: Any) -> TensorValue:
        return self.sem.float_math2("copysign", x, y, "libdevice")

    def fmod(self, x: Any, y: Any) -> TensorValue:
        return self.sem.float_math2("fmod", x, y, "libdevice")

    def fabs(self, x: Any) -> TensorValue:
        (a,) = self.sem.float_operands("libdevice.fabs", x)
        return self.sem.abs(a)

    def fmin(self, x: Any, y: Any) -> TensorValue:
        """C ``fmin``: a NaN operand is ignored, as ``tl.minimum``'s default."""
        a, b = self.sem.float_operands("libdevice.fmin", x, y)
        return self.sem.extremum("minimum", a, b)

    def fmax(self, x: Any, y: Any) -> TensorValue:
        """C ``fmax``: a NaN operand is ignored, as ``tl.maximum``'s default."""
        a, b = self.sem.float_operands("libdevice.fmax", x, y)
        return self.sem.extremum("maximum", a, b)

    def fast_expf(self, x: Any) -> TensorValue:
        return self.sem.float_math("exp", x, "libdevice")

    def fast_logf(self, x: Any) -> TensorValue:
        return self.sem.float_math("log", x, "libdevice")

    def fast_dividef(self, x: Any, y: Any) -> TensorValue:
        return self._float_division(x, y, "libdevice.fast_dividef", precise=False)

    def _classify(self, x: Any, what: str, inf: bool) -> TensorValue:
        """libdevice's ``isnan``/``isinf``: int32 1 or 0 (``__nv_isnanf`` returns an int)."""
        (a,) = self.sem.float_operands(what, x)
        if inf:
            inf_ = self.sem.constant(float("inf"), a.dtype)  # compared in a's own dtype
            hit = self.sem.compare("==", self.sem.abs(a), inf_)
        else:
            hit = self.sem.compare("!=", a, a)
        return self.sem.cast(hit, core.int32)

    def isnan(self, x: Any) -> TensorValue:
        return self._classify(x, "libdevice.isnan", inf=False)

    def isinf(self, x: Any) -> TensorValue:
        return self._classify(x, "libdevice.isinf", inf=True)

    def cdiv(self, x: Any, div: Any) -> Any:
        if not isinstance(x, TensorValue) and not isinstance(div, TensorValue):
            return (x + div - 1) // div
        return self.sem.floordiv(self.sem.arith("-", self.sem.arith("+", x, div), 1), div)
