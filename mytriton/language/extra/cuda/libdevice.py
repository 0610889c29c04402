"""``libdevice``: CUDA's device math library as Triton exposes it (``tl.extra.cuda.libdevice``,
also ``tl.extra.libdevice``).

A function with an upstream ``math`` op (``tanh``, ``erf``, ``pow``...) is that op (the CUDA
math library in the printed C++, NumPy in the interpreter); every other one is a call of the
libdevice function itself (``tt.extern_elementwise``, ``mytriton.dialects.tt.libdevice_table``),
defined below from that table with Triton's parameter names. An f16/bf16 argument is computed
in f32 and rounded. ``isnan``/``isinf`` return int32 0/1, as libdevice's ``__nv_isnanf`` does.
The ``fast_*`` functions compute the accurate result. The few functions of Triton's list that
are not compiled (``UNSUPPORTED``) are here too, so a kernel naming one gets a typed error at
the call rather than a missing attribute.
"""

from __future__ import annotations

import inspect
from typing import Any

from mytriton.dialects.tt.libdevice_table import BY_NAME, UNSUPPORTED
from mytriton.language import (
    abs,  # noqa: A004 (libdevice.abs: ints and floats, as tl.abs)
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


@builtin
def fast_sinf(arg0: Any) -> Any:
    """``sin`` (computed accurately)."""


@builtin
def fast_cosf(arg0: Any) -> Any:
    """``cos`` (computed accurately)."""


@builtin
def fast_tanf(arg0: Any) -> Any:
    """``tan`` (computed accurately)."""


@builtin
def fast_log2f(arg0: Any) -> Any:
    """``log2`` (computed accurately)."""


@builtin
def fast_log10f(arg0: Any) -> Any:
    """``log10`` (computed accurately)."""


@builtin
def fast_exp10f(arg0: Any) -> Any:
    """``exp10`` (computed accurately)."""


@builtin
def fast_powf(arg0: Any, arg1: Any) -> Any:
    """``pow`` (computed accurately)."""


@builtin
def nearbyint(arg0: Any) -> Any:
    """To nearest, halfway cases to even (``rint``)."""


@builtin
def fma_rn(arg0: Any, arg1: Any, arg2: Any) -> Any:
    """``fma``: rounded once, to nearest."""


@builtin
def double2float_rn(arg0: Any) -> Any:
    """A float64 rounded to float32, to nearest even."""


@builtin
def double2float_rz(arg0: Any) -> Any:
    """A float64 rounded to float32 toward zero."""


@builtin
def int2float_rn(arg0: Any) -> Any:
    """An int32 converted to float32, to nearest even."""


@builtin
def int2double_rn(arg0: Any) -> Any:
    """An int32 converted to float64 (exact)."""


@builtin
def ll2float_rn(arg0: Any) -> Any:
    """An int64 converted to float32, to nearest even."""


@builtin
def ll2double_rn(arg0: Any) -> Any:
    """An int64 converted to float64, to nearest even."""


@builtin
def int_as_float(arg0: Any) -> Any:
    """The bits of an int32 as a float32."""


@builtin
def float_as_int(arg0: Any) -> Any:
    """The bits of a float32 as an int32."""


@builtin
def float_as_uint(arg0: Any) -> Any:
    """The bits of a float32 as an int32 (Triton types the unsigned result so)."""


@builtin
def longlong_as_double(arg0: Any) -> Any:
    """The bits of an int64 as a float64."""


@builtin
def double_as_longlong(arg0: Any) -> Any:
    """The bits of a float64 as an int64."""


def _stub(name: str, params: list[inspect.Parameter], doc: str) -> Any:
    """A builtin ``name(params...)``: the frontend binds a call to this signature and runs
    ``Builtins.<name>``."""

    def stub(*args: Any) -> Any:
        """Never called."""

    stub.__name__ = stub.__qualname__ = name
    stub.__doc__ = doc
    stub.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    return builtin(stub)


def _args(count: int) -> list[inspect.Parameter]:
    kind = inspect.Parameter.POSITIONAL_OR_KEYWORD
    return [inspect.Parameter(f"arg{i}", kind) for i in range(count)]


_CALLS = {name: fns for name, fns in BY_NAME.items() if name not in globals()}
for _name, _fns in _CALLS.items():
    _symbols = ", ".join(f"``{f.symbol}``" for f in _fns)
    globals()[_name] = _stub(
        _name, _args(len(_fns[0].params)), f"libdevice's ``{_name}`` ({_symbols})."
    )
for _name, _why in UNSUPPORTED.items():
    _any = inspect.Parameter("args", inspect.Parameter.VAR_POSITIONAL)
    globals()[_name] = _stub(_name, [_any], f"Not compiled by mytriton: {_why}.")

__all__ = [
    *_CALLS,
    *UNSUPPORTED,
    "abs",
    "double2float_rn",
    "double2float_rz",
    "double_as_longlong",
    "fast_cosf",
    "fast_exp10f",
    "fast_log10f",
    "fast_log2f",
    "fast_powf",
    "fast_sinf",
    "fast_tanf",
    "float_as_int",
    "float_as_uint",
    "fma_rn",
    "int2double_rn",
    "int2float_rn",
    "int_as_float",
    "ll2double_rn",
    "ll2float_rn",
    "longlong_as_double",
    "nearbyint",
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
