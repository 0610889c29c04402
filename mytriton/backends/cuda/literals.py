"""Exact C++ literals for ``arith.constant`` values.

Floats print as the shortest decimal that reads back to the same bits (``0.1f`` is the f32
nearest 0.1, as in the IR); infinities and NaNs, which C++ has no literal for, print through
the bit-cast intrinsics so NaN payloads survive too.
"""

from __future__ import annotations

import struct

import numpy as np

from mytriton.errors import BackendError


def int_literal(value: int, width: int) -> str:
    """``value`` as a ``width``-bit two's-complement C++ literal (``index`` is 64 wide)."""
    if width == 1:
        return "true" if value & 1 else "false"
    value &= (1 << width) - 1
    if value >= 1 << (width - 1):
        value -= 1 << width
    suffix = "LL" if width == 64 else ""
    if value == -(1 << (width - 1)) and width >= 32:
        # `-2147483648` is unary minus applied to a literal too large for int
        return f"({value + 1}{suffix} - 1)"
    return f"{value}{suffix}"


def _decimal(text: str) -> str:
    """A decimal that C++ reads as a floating literal (``1`` -> ``1.0``)."""
    return text if any(c in text for c in ".e") else text + ".0"


def float_literal(value: float, width: int) -> str:
    """``value`` (a Python float holding an f32 or f64 constant) as an exact C++ expression."""
    if width == 32:
        with np.errstate(over="ignore"):
            f32 = np.float32(value)
        if np.isfinite(f32):
            return _decimal(str(f32)) + "f"
        bits = int(np.array(f32).view(np.uint32))
        return f"__uint_as_float(0x{bits:08x}u) /* {_special_name(float(f32))} */"
    if width == 64:
        if np.isfinite(value):
            return _decimal(repr(value))
        bits = struct.unpack("<Q", struct.pack("<d", value))[0]
        return f"__longlong_as_double((long long)0x{bits:016x}ULL) /* {_special_name(value)} */"
    raise BackendError(f"the CUDA printer has no literal for f{width} constants")


def _special_name(value: float) -> str:
    return "nan" if value != value else "inf" if value > 0 else "-inf"
