"""Input arrays and scalar operands for generated kernels, rich in edge values.

Weak typing of Python scalars is where typing bugs hide, so scalars span every range Triton
types differently (int32, uint32, int64, uint64; float32 and the float64 of a tiny or huge
literal); arrays mix ordinary values with 0, -0.0, +-inf, NaN, the integer limits, subnormals
and large magnitudes.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np

from tests.differential.typerules import DType, Kind

# literals written into the source (negative ones in parentheses); 1 is avoided as a runtime
# argument only (Triton specializes an integer argument equal to 1 into a constant)
INT_SCALARS = [0, 1, 2, 3, 5, 7, -1, -3, 100, 127, 255, 1000, 65535, 2**31 - 1, 2**31]
INT_SCALARS += [2**32 - 1, 2**40, -(2**40), 2**63 - 1, 2**63]
FLOAT_SCALARS = [0.5, 2.0, -1.5, 0.0, 1e-3, 3.0, 1e10, -2.5, 65504.0, 1e-8, 1e-45, 1e300]
# constexpr arguments may also carry what a literal cannot spell
FLOAT_CONSTEXPRS = [*FLOAT_SCALARS, float("inf"), float("-inf"), float("nan")]
# runtime integer arguments: int32, uint32, int64 and uint64 by Triton's launch rules
INT_ARGS = [0, 2, -7, 123456, -(2**31), 2**31 - 1, 2**31 + 5, 2**40, -(2**50), 2**63 + 3]
FLOAT_ARGS = [0.5, -2.0, 3.25, 1e20, float("inf"), float("nan")]


def literal(value: bool | int | float) -> str:
    """Python source for a scalar operand."""
    text = repr(value)
    return f"({text})" if text.startswith("-") else text


def numpy_dtype(dt: DType) -> np.dtype:
    return np.dtype(ml_dtypes.bfloat16) if dt.name == "bfloat16" else np.dtype(dt.numpy)


def _int_values(dt: DType, n: int, rng: np.random.Generator) -> np.ndarray:
    lo, hi = dt.int_range()
    edges = np.array([0, 1, lo, hi, lo + 1, hi - 1, 2, 3], dtype=object)
    if dt.signed:
        edges = np.concatenate([edges, np.array([-1, -2], dtype=object)])
    small = rng.integers(max(lo, -8), min(hi, 8) + 1, size=n)
    full = rng.integers(lo, hi, size=n, dtype=np.dtype(dt.numpy), endpoint=True)
    pick = rng.integers(0, 3, size=n)
    out = np.empty(n, dtype=np.dtype(dt.numpy))
    for i in range(n):
        if pick[i] == 0:
            out[i] = edges[rng.integers(len(edges))]
        elif pick[i] == 1:
            out[i] = small[i]
        else:
            out[i] = full[i]
    return out


def _float_values(dt: DType, n: int, rng: np.random.Generator) -> np.ndarray:
    np_dt = numpy_dtype(dt)
    info = ml_dtypes.finfo(np_dt) if dt.name == "bfloat16" else np.finfo(np_dt)
    tiny_sub = float(info.smallest_subnormal)
    edges = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5, 2.5, -3.5]
    edges += [float(info.max), -float(info.max), float(info.tiny), tiny_sub, -tiny_sub]
    big = {"float16": 1e3, "bfloat16": 1e30, "float32": 1e30, "float64": 1e200}[dt.name]
    out = np.empty(n, dtype=np.float64)
    for i in range(n):
        r = rng.integers(0, 5)
        if r == 0:
            out[i] = edges[rng.integers(len(edges))]
        elif r == 1:  # small integers: sums and products stay exact
            out[i] = float(rng.integers(-8, 9))
        elif r == 2:
            out[i] = rng.standard_normal()
        elif r == 3:
            out[i] = rng.standard_normal() * 1e-3
        else:
            out[i] = rng.standard_normal() * big
    with np.errstate(over="ignore"):
        return out.astype(np_dt)


def input_array(dt: DType, shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
    n = int(np.prod(shape))
    if dt.kind == Kind.BOOL:
        flat = rng.integers(0, 2, size=n).astype(bool)
    elif dt.is_int:
        flat = _int_values(dt, n, rng)
    else:
        flat = _float_values(dt, n, rng)
    return flat.reshape(shape)
