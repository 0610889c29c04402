"""``math`` ops, computed in the operand's own precision (f32 stays f32).

Transcendentals use NumPy's f32 kernels, which differ from CUDA's ``expf``/``__expf`` by a few
ulp at most; ``fma`` rounds the exact product-sum twice (through f64), which can differ from a
true single-rounding FMA by one ulp in rare ties.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from xdsl.ir import Operation

from mytriton.backends.gpusim.compiler import Compiler
from mytriton.backends.gpusim.dtypes import as_signed, from_bits
from mytriton.backends.gpusim.machine import Machine, Step
from mytriton.backends.gpusim.registry import binary, rule, unary


def _rsqrt(x: np.ndarray) -> np.ndarray:
    return np.asarray(np.reciprocal(np.sqrt(x)))


def _erf(x: np.ndarray) -> np.ndarray:
    return np.vectorize(math.erf, otypes=[np.float64])(x.astype(np.float64)).astype(x.dtype)


def _round_half_away(x: np.ndarray) -> np.ndarray:
    return np.asarray(np.copysign(np.floor(np.abs(x) + np.asarray(0.5, x.dtype)), x))


def _absi(x: np.ndarray) -> np.ndarray:
    return from_bits(np.abs(as_signed(x)), x.dtype)


_UNARY: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "math.exp": np.exp,
    "math.exp2": np.exp2,
    "math.expm1": np.expm1,
    "math.log": np.log,
    "math.log2": np.log2,
    "math.log10": np.log10,
    "math.log1p": np.log1p,
    "math.sqrt": np.sqrt,
    "math.rsqrt": _rsqrt,
    "math.sin": np.sin,
    "math.cos": np.cos,
    "math.tan": np.tan,
    "math.tanh": np.tanh,
    "math.sinh": np.sinh,
    "math.cosh": np.cosh,
    "math.asin": np.arcsin,
    "math.acos": np.arccos,
    "math.atan": np.arctan,
    "math.asinh": np.arcsinh,
    "math.acosh": np.arccosh,
    "math.atanh": np.arctanh,
    "math.erf": _erf,
    "math.cbrt": np.cbrt,
    "math.floor": np.floor,
    "math.ceil": np.ceil,
    "math.trunc": np.trunc,
    "math.roundeven": np.rint,
    "math.round": _round_half_away,
    "math.absf": np.abs,
    "math.absi": _absi,
}
for _name, _fn in _UNARY.items():
    rule(_name)(unary(_fn))

rule("math.atan2")(binary(np.arctan2))
rule("math.powf")(binary(np.power))
rule("math.copysign")(binary(np.copysign))


@rule("math.fma")
def _fma(op: Operation, c: Compiler) -> Step:
    a, b, acc = op.operands
    out = op.results[0]

    def step(m: Machine) -> None:
        env = m.env
        x, y, z = env[a], env[b], env[acc]
        assert isinstance(x, np.ndarray) and isinstance(y, np.ndarray) and isinstance(z, np.ndarray)
        if x.dtype == np.float64:
            env[out] = x * y + z  # no wider type to hold the exact product
        else:
            env[out] = (x.astype(np.float64) * y + z).astype(x.dtype)

    return step
