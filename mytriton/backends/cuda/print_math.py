"""``math`` ops (and the float ops that are one C call) as CUDA math-library calls."""

from __future__ import annotations

from xdsl.dialects import arith, math
from xdsl.ir import Operation

from mytriton.backends.cuda.c_types import BF16, HALF, int_width
from mytriton.backends.cuda.emitter import Emitter, prints
from mytriton.dialects.nvgpu.upstream import RemFOp
from mytriton.errors import BackendError

# math ops that are one CUDA math-library call: (f32 function, f64 function)
MATH_CALLS: dict[type[Operation], tuple[str, str]] = {
    math.ExpOp: ("expf", "exp"),
    math.Exp2Op: ("exp2f", "exp2"),
    math.ExpM1Op: ("expm1f", "expm1"),
    math.LogOp: ("logf", "log"),
    math.Log2Op: ("log2f", "log2"),
    math.Log10Op: ("log10f", "log10"),
    math.Log1pOp: ("log1pf", "log1p"),
    math.SqrtOp: ("sqrtf", "sqrt"),
    math.RsqrtOp: ("rsqrtf", "rsqrt"),
    math.CbrtOp: ("cbrtf", "cbrt"),
    math.SinOp: ("sinf", "sin"),
    math.CosOp: ("cosf", "cos"),
    math.TanOp: ("tanf", "tan"),
    math.AsinOp: ("asinf", "asin"),
    math.AcosOp: ("acosf", "acos"),
    math.AtanOp: ("atanf", "atan"),
    math.SinhOp: ("sinhf", "sinh"),
    math.CoshOp: ("coshf", "cosh"),
    math.TanhOp: ("tanhf", "tanh"),
    math.AsinhOp: ("asinhf", "asinh"),
    math.AcoshOp: ("acoshf", "acosh"),
    math.AtanhOp: ("atanhf", "atanh"),
    math.ErfOp: ("erff", "erf"),
    math.FloorOp: ("floorf", "floor"),
    math.CeilOp: ("ceilf", "ceil"),
    math.RoundOp: ("roundf", "round"),
    math.RoundEvenOp: ("rintf", "rint"),
    math.TruncOp: ("truncf", "trunc"),
    math.AbsFOp: ("fabsf", "fabs"),
    math.PowFOp: ("powf", "pow"),
    math.Atan2Op: ("atan2f", "atan2"),
    math.CopySignOp: ("copysignf", "copysign"),
    math.FmaOp: ("fmaf", "fma"),
    RemFOp: ("fmodf", "fmod"),
    arith.MaxnumfOp: ("fmaxf", "fmax"),
    arith.MinnumfOp: ("fminf", "fmin"),
}


class MathPrinter(Emitter):
    """Math-library calls (``MATH_CALLS``) and the integer math ops."""

    @prints(*MATH_CALLS)
    def _print_math_call(self, op: Operation) -> None:
        """Ops that are one CUDA math function: the table ``MATH_CALLS`` names it."""
        result = op.results[0]
        f32, f64 = MATH_CALLS[type(op)]
        ctype = self._ctype(result)
        if ctype not in ("float", "double", HALF, BF16):
            raise BackendError(f"{op.name} on {result.type} is not supported")
        fn = f64 if ctype == "double" else f32  # an f16/bf16 in float, then rounded
        expr = f"{fn}({', '.join(self._fv(v) for v in op.operands)})"
        self._define(result, self._rounded(result, expr), op)

    @prints(math.AbsIOp)
    def _print_absi(self, op: math.AbsIOp) -> None:
        fn = "llabs" if int_width(op.result.type) == 64 else "abs"
        self._define(op.result, f"{fn}({self._n(op.operand)})", op)

    @prints(math.CtPopOp)
    def _print_ctpop(self, op: math.CtPopOp) -> None:
        fn = "__popcll" if int_width(op.result.type) == 64 else "__popc"
        self._define(op.result, f"{fn}({self._n(op.operand)})", op)

    @prints(math.CountLeadingZerosOp)
    def _print_ctlz(self, op: math.CountLeadingZerosOp) -> None:
        fn = "__clzll" if int_width(op.result.type) == 64 else "__clz"
        self._define(op.result, f"{fn}({self._n(op.operand)})", op)
