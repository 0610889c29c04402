"""``libdevice``: CUDA's device math library as Triton exposes it (``tl.extra.cuda.libdevice``,
also ``tl.extra.libdevice``).

Each function is one math op of the compiler (``math.*`` upstream, the CUDA math library in the
printed C++, NumPy in the interpreter), not a call into the libdevice bitcode. Arguments are
floats; an f16 argument is computed in f32 and rounded. ``isnan``/``isinf`` return int32 0/1,
as libdevice's ``__nv_isnanf`` does. The ``fast_*`` functions compute the accurate result.
"""

from __future__ import annotations

from typing import Any

from mytriton.language import (
    ceil,
    cos,
    div_rn,
    erf,
    exp,
    exp2,
    floor,
    fma,
    log,
    log2,
    rsqrt,
    sin,
    sqrt,
    sqrt_rn,
)
from mytriton.language.core import builtin


@builtin
def tanh(arg0: Any) -> Any:
    """Hyperbolic tangent."""


@builtin
def expm1(arg0: Any) -> Any:
    """``exp(x) - 1``, accurate near 0."""


@builtin
def log1p(arg0: Any) -> Any:
    """``log(1 + x)``, accurate near 0."""


@builtin
def log10(arg0: Any) -> Any:
    """Base-10 logarithm."""


@builtin
def tan(arg0: Any) -> Any:
    """Tangent."""


@builtin
def asin(arg0: Any) -> Any:
    """Arc sine."""


@builtin
def acos(arg0: Any) -> Any:
    """Arc cosine."""


@builtin
def atan(arg0: Any) -> Any:
    """Arc tangent."""


@builtin
def sinh(arg0: Any) -> Any:
    """Hyperbolic sine."""


@builtin
def cosh(arg0: Any) -> Any:
    """Hyperbolic cosine."""


@builtin
def asinh(arg0: Any) -> Any:
    """Inverse hyperbolic sine."""


@builtin
def acosh(arg0: Any) -> Any:
    """Inverse hyperbolic cosine."""


@builtin
def atanh(arg0: Any) -> Any:
    """Inverse hyperbolic tangent."""


@builtin
def trunc(arg0: Any) -> Any:
    """Round toward zero."""


@builtin
def round(arg0: Any) -> Any:
    """C ``round``: to nearest, halfway cases away from zero."""


@builtin
def rint(arg0: Any) -> Any:
    """To nearest, halfway cases to even."""


@builtin
def cbrt(arg0: Any) -> Any:
    """Cube root."""


@builtin
def fabs(arg0: Any) -> Any:
    """Absolute value of a float."""


@builtin
def pow(arg0: Any, arg1: Any) -> Any:
    """``arg0 ** arg1`` for floats."""


@builtin
def atan2(arg0: Any, arg1: Any) -> Any:
    """``atan(arg0 / arg1)`` in the quadrant of ``(arg1, arg0)``."""


@builtin
def copysign(arg0: Any, arg1: Any) -> Any:
    """``arg0``'s magnitude with ``arg1``'s sign."""


@builtin
def fmod(arg0: Any, arg1: Any) -> Any:
    """C ``fmod``: the remainder has the dividend's sign."""


@builtin
def fmin(arg0: Any, arg1: Any) -> Any:
    """Minimum; a NaN operand is ignored."""


@builtin
def fmax(arg0: Any, arg1: Any) -> Any:
    """Maximum; a NaN operand is ignored."""


@builtin
def fast_expf(arg0: Any) -> Any:
    """``exp`` (computed accurately)."""


@builtin
def fast_logf(arg0: Any) -> Any:
    """``log`` (computed accurately)."""


@builtin
def fast_dividef(arg0: Any, arg1: Any) -> Any:
    """Float division (computed IEEE-rounded)."""


@builtin
def isnan(arg0: Any) -> Any:
    """int32 1 where ``arg0`` is NaN, else 0."""


@builtin
def isinf(arg0: Any) -> Any:
    """int32 1 where ``arg0`` is an infinity, else 0."""


__all__ = [
    "acos",
    "acosh",
    "asin",
    "asinh",
    "atan",
    "atan2",
    "atanh",
    "cbrt",
    "ceil",
    "copysign",
    "cos",
    "cosh",
    "div_rn",
    "erf",
    "exp",
    "exp2",
    "expm1",
    "fabs",
    "fast_dividef",
    "fast_expf",
    "fast_logf",
    "floor",
    "fma",
    "fmax",
    "fmin",
    "fmod",
    "isinf",
    "isnan",
    "log",
    "log1p",
    "log2",
    "log10",
    "pow",
    "rint",
    "round",
    "rsqrt",
    "sin",
    "sinh",
    "sqrt",
    "sqrt_rn",
    "tan",
    "tanh",
    "trunc",
]
