"""``arith`` on lanes with GPU semantics: integers wrap at their width, division truncates like
C, shifts by the width or more give 0 (or the sign, for ``shrsi``) like PTX, floats stay in their
own precision, ``fptosi`` saturates like ``cvt.rzi`` (``tt_semantics.float_to_int``).

Integer division by zero is undefined in MLIR and unspecified on the GPU (no trap): we return
-1 for quotients and the dividend for remainders, so masked-off lanes doing junk work (which a
GPU also computes) cannot fail.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from xdsl.dialects.builtin import FloatAttr, IntegerAttr
from xdsl.ir import Operation

from mytriton.backends.gpusim.compiler import Compiler
from mytriton.backends.gpusim.dtypes import (
    as_signed,
    as_unsigned,
    bit_width,
    dtype_of,
    from_bits,
)
from mytriton.backends.gpusim.machine import Machine, Step
from mytriton.backends.gpusim.registry import binary, cast, rule, unary
from mytriton.backends.gpusim.values import merge
from mytriton.dialects.tt.semantics import float_to_int
from mytriton.dialects.tt.semantics import maximum as float_maximum
from mytriton.dialects.tt.semantics import minimum as float_minimum

Binary = Callable[[np.ndarray, np.ndarray], np.ndarray]


def _signed(fn: Binary) -> Binary:
    """``fn`` on two's-complement values, wrapped back to the operands' width."""

    def apply(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        if a.dtype == np.bool_:
            return from_bits(fn(as_signed(a), as_signed(b)), a.dtype)
        return fn(a, b)

    return apply


def _unsigned(fn: Binary) -> Binary:
    """``fn`` on the operands' unsigned bit patterns, reinterpreted back as signless."""

    def apply(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        r = fn(as_unsigned(a), as_unsigned(b))
        return from_bits(r, a.dtype) if a.dtype == np.bool_ else r.view(a.dtype)

    return apply


def _trunc_div(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """C quotient and remainder (truncating toward zero), with a zero divisor replaced by 1."""
    safe = np.where(b == 0, np.ones_like(b), b)
    q = a // safe
    r = a - q * safe
    fix = (r != 0) & ((a < 0) != (safe < 0))  # floor and trunc differ
    return np.where(fix, q + 1, q), np.where(fix, r - safe, r)


def divsi(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.where(b == 0, np.full_like(a, -1), _trunc_div(a, b)[0])


def remsi(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.where(b == 0, a, _trunc_div(a, b)[1])


def ceildivsi(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    q, r = _trunc_div(a, b)
    up = (r != 0) & ((r < 0) == (b < 0))
    return np.where(b == 0, np.full_like(a, -1), np.where(up, q + 1, q))


def floordivsi(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    q, r = _trunc_div(a, b)
    down = (r != 0) & ((r < 0) != (b < 0))
    return np.where(b == 0, np.full_like(a, -1), np.where(down, q - 1, q))


def divui(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.where(b == 0, ~np.zeros_like(a), a // np.where(b == 0, np.ones_like(b), b))


def remui(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.where(b == 0, a, a % np.where(b == 0, np.ones_like(b), b))


def _shift(kind: str) -> Binary:
    """PTX shift semantics: the amount is unsigned and clamped to the width."""

    def apply(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        bits = bit_width(a.dtype)
        ua = as_unsigned(a)
        amount = as_unsigned(b).astype(np.uint64)
        big = amount >= bits
        amount = np.minimum(amount, bits - 1)
        if kind == "shrsi":
            sa = as_signed(a)
            return from_bits(sa >> amount.astype(sa.dtype), a.dtype)
        r = ua << amount.astype(ua.dtype) if kind == "shli" else ua >> amount.astype(ua.dtype)
        r = np.where(big, np.zeros_like(r), r)
        return from_bits(r, a.dtype) if a.dtype == np.bool_ else r.view(a.dtype)

    return apply


def _add(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return a ^ b if a.dtype == np.bool_ else a + b


def _sub(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return a ^ b if a.dtype == np.bool_ else a - b


def _mul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return a & b if a.dtype == np.bool_ else a * b


rule("arith.addi")(binary(_add))
rule("arith.subi")(binary(_sub))
rule("arith.muli")(binary(_mul))
rule("arith.divsi")(binary(_signed(divsi)))
rule("arith.remsi")(binary(_signed(remsi)))
rule("arith.ceildivsi")(binary(_signed(ceildivsi)))
rule("arith.floordivsi")(binary(_signed(floordivsi)))
rule("arith.divui")(binary(_unsigned(divui)))
rule("arith.remui")(binary(_unsigned(remui)))
rule("arith.andi")(binary(np.bitwise_and))
rule("arith.ori")(binary(np.bitwise_or))
rule("arith.xori")(binary(np.bitwise_xor))
rule("arith.shli")(binary(_shift("shli")))
rule("arith.shrui")(binary(_shift("shrui")))
rule("arith.shrsi")(binary(_shift("shrsi")))
rule("arith.maxsi")(binary(_signed(np.maximum)))
rule("arith.minsi")(binary(_signed(np.minimum)))
rule("arith.maxui")(binary(_unsigned(np.maximum)))
rule("arith.minui")(binary(_unsigned(np.minimum)))

rule("arith.addf")(binary(np.add))
rule("arith.subf")(binary(np.subtract))
rule("arith.mulf")(binary(np.multiply))
rule("arith.divf")(binary(np.divide))
rule("arith.remf")(binary(np.fmod))
rule("arith.negf")(unary(np.negative))
# PTX max/min: +0.0 > -0.0; maximumf/minimumf (max.NaN) propagate NaN, maxnumf/minnumf ignore it
rule("arith.maximumf")(binary(lambda a, b: float_maximum(a, b, propagate_nan=True)))
rule("arith.minimumf")(binary(lambda a, b: float_minimum(a, b, propagate_nan=True)))
rule("arith.maxnumf")(binary(lambda a, b: float_maximum(a, b, propagate_nan=False)))
rule("arith.minnumf")(binary(lambda a, b: float_minimum(a, b, propagate_nan=False)))

# ---- comparisons ----


def _on_signed(f: Binary) -> Binary:
    return lambda a, b: f(as_signed(a), as_signed(b))


def _on_unsigned(f: Binary) -> Binary:
    return lambda a, b: f(as_unsigned(a), as_unsigned(b))


def _negated(f: Binary) -> Binary:
    return lambda a, b: ~f(a, b)


_ORDER = (np.less, np.less_equal, np.greater, np.greater_equal)
# eq ne slt sle sgt sge ult ule ugt uge
_CMPI: list[Binary] = [np.equal, np.not_equal, *map(_on_signed, _ORDER), *map(_on_unsigned, _ORDER)]


def _ordered(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return ~(np.isnan(a) | np.isnan(b))


# NumPy's comparisons are false on NaN: exactly the ordered predicates; "u" ones are negations.
_ORDERED: list[Binary] = [
    lambda a, b: np.zeros(a.shape, np.bool_),  # false
    np.equal,  # oeq
    np.greater,  # ogt
    np.greater_equal,  # oge
    np.less,  # olt
    np.less_equal,  # ole
    lambda a, b: (a != b) & _ordered(a, b),  # one
    _ordered,  # ord
]
# ueq ugt uge ult ule une uno negate one ole olt oge ogt oeq ord; then "true"
_CMPF: list[Binary] = [
    *_ORDERED,
    *(_negated(_ORDERED[i]) for i in (6, 5, 4, 3, 2, 1, 7)),
    lambda a, b: np.ones(a.shape, np.bool_),
]


@rule("arith.cmpi", "arith.cmpf")
def _cmp(op: Operation, c: Compiler) -> Step:
    pred = op.properties["predicate"]
    assert isinstance(pred, IntegerAttr)
    table = _CMPI if op.name == "arith.cmpi" else _CMPF
    return binary(table[pred.value.data])(op, c)


@rule("arith.select")
def _select(op: Operation, c: Compiler) -> Step:
    cond, a, b = op.operands
    out = op.results[0]

    def step(m: Machine) -> None:
        env = m.env
        env[out] = merge(env[cond], env[a], env[b])  # type: ignore[arg-type]

    return step


# ---- conversions ----


def _fp_to_int(x: np.ndarray, dtype: np.dtype, signed: bool) -> np.ndarray:
    """PTX ``cvt.rzi``: toward zero, saturated, NaN by its rule (``tt_semantics.float_to_int``,
    the interpreter's own rule)."""
    bits = bit_width(dtype)
    target = np.dtype(f"{'' if signed else 'u'}int{max(8, bits)}")
    value = float_to_int(x, target)
    return from_bits(value.astype(np.int64) if signed else value.astype(np.uint64), dtype)


def _ext_signed(x: np.ndarray, dtype: np.dtype) -> np.ndarray:
    return from_bits(as_signed(x).astype(np.int64), dtype)


def _ext_unsigned(x: np.ndarray, dtype: np.dtype) -> np.ndarray:
    return from_bits(as_unsigned(x).astype(np.uint64), dtype)


rule("arith.index_cast", "arith.extsi", "arith.trunci")(cast(_ext_signed))
rule("arith.extui")(cast(_ext_unsigned))
rule("arith.sitofp")(cast(lambda x, d: as_signed(x).astype(d)))
rule("arith.uitofp")(cast(lambda x, d: as_unsigned(x).astype(d)))
rule("arith.fptosi")(cast(lambda x, d: _fp_to_int(x, d, signed=True)))
rule("arith.fptoui")(cast(lambda x, d: _fp_to_int(x, d, signed=False)))
rule("arith.extf", "arith.truncf")(cast(lambda x, d: x.astype(d)))
rule("arith.bitcast")(cast(lambda x, d: x.view(d)))


@rule("arith.constant")
def _constant(op: Operation, c: Compiler) -> Step:
    out = op.results[0]
    dtype = dtype_of(out.type)
    attr = op.properties["value"]
    if isinstance(attr, IntegerAttr):
        raw = int(attr.value.data)
        bits = bit_width(dtype)
        raw &= (1 << bits) - 1
        value: int | float | bool = (
            bool(raw) if dtype == np.bool_ else raw - ((raw >> (bits - 1)) << bits)
        )
    elif isinstance(attr, FloatAttr):
        value = float(attr.value.data)
    else:
        c.unsupported(op, "only scalar integer and float constants are modelled")

    def step(m: Machine) -> None:
        m.env[out] = np.full(m.lanes, value, dtype)

    return step
