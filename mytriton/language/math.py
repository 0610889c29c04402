"""``tl.math``: the elementwise math functions Triton's ``triton.language.math`` defines (each is
also ``tl.<name>``)."""

from __future__ import annotations

from mytriton.language import (
    abs,  # noqa: A004 (Triton's tl.math.abs)
    ceil,
    cos,
    div_rn,
    erf,
    exp,
    exp2,
    fdiv,
    floor,
    fma,
    log,
    log2,
    rsqrt,
    sin,
    sqrt,
    sqrt_rn,
    umulhi,
)

__all__ = [
    "abs",
    "ceil",
    "cos",
    "div_rn",
    "erf",
    "exp",
    "exp2",
    "fdiv",
    "floor",
    "fma",
    "log",
    "log2",
    "rsqrt",
    "sin",
    "sqrt",
    "sqrt_rn",
    "umulhi",
]
