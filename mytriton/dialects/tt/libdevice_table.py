"""The libdevice functions compiled as calls to libdevice itself (``tt.extern_elementwise``).

Functions with an upstream ``math``/``arith`` op (``exp``, ``erf``, ``pow``...) are ops of their
own; the rest, which no upstream op expresses, are a call to the ``__nv_*`` function: an
``llvm.call`` in the lowered IR, which both GPU backends resolve against libdevice (the MLIR
backend links ``libdevice.10.bc``; NVRTC links it for the printed C++). Each entry gives the
symbol's signature, as Triton's ``libdevice`` module declares it, and its NumPy semantics for
the interpreter, the constant folder and gpusim.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from mytriton.dialects.tt import dtype_table
from mytriton.dialects.tt import libdevice_bessel as bessel
from mytriton.dialects.tt import libdevice_semantics as ls

if TYPE_CHECKING:
    import numpy as np
    from xdsl.ir import Attribute

#: the suffix of a function's symbol for each of its types (``__nv_expf``, ``__nv_clzll``)
_SUFFIXES: dict[str, str] = {
    r.ir_name: r.libdevice for r in dtype_table.ROWS if r.libdevice is not None
}


@functools.cache
def _types() -> dict[str, Attribute]:
    """The element types of the signatures, by short name (``f32``, ``i64``: the IR type's
    text). Made on first use: ``tl.extra.libdevice`` reads this table's names, and
    ``import mytriton`` loads no compiler."""
    return {r.ir_name: r.ir for r in dtype_table.ROWS if r.libdevice is not None}


def __getattr__(name: str) -> object:
    if name == "TYPES":  # element types of the signatures, by short name
        return _types()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@dataclass(frozen=True)
class ExternFunction:
    """One libdevice symbol: ``result symbol(params...)``, computed by ``semantics``."""

    name: str  # Triton's name, e.g. "hypot"
    symbol: str  # e.g. "__nv_hypotf"
    params: tuple[str, ...]  # short type names, e.g. ("f32", "f32")
    result: str
    semantics: Callable[..., np.ndarray]

    @property
    def param_types(self) -> list[Attribute]:
        return [_types()[p] for p in self.params]

    @property
    def result_type(self) -> Attribute:
        return _types()[self.result]


# Triton libdevice functions not compiled here, and why (the error names them at the call)
UNSUPPORTED: dict[str, str] = {
    **{
        f"{op}_{mode}": "directed rounding of arithmetic is not supported yet"
        for op in ("fma", "div", "rcp", "sqrt", "add", "sub", "mul")
        for mode in ("rz", "rd", "ru")
    },
    **{
        f"{src}2{dst}_{mode}": "this rounding of an integer conversion is not supported yet"
        for src, dst in (("int", "float"), ("ll", "float"), ("ll", "double"))
        for mode in ("rz", "rd", "ru")
    },
    **{
        f"{name}_{mode}": "unsigned integer arguments are not supported yet"
        for name in ("uint2float", "ull2float", "ull2double")
        for mode in ("rn", "rz", "rd", "ru")
    },
    "uint2double_rn": "unsigned integer arguments are not supported yet",
    "uint_as_float": "unsigned integer arguments are not supported yet",
    "sad": "its third argument is unsigned, and unsigned integers are not supported yet",
    "double2float_rd": "rounding toward -inf is not supported yet (rn and rz are)",
    "double2float_ru": "rounding toward +inf is not supported yet (rn and rz are)",
    "rcp64h": "not supported yet",
    **{
        name: "Bessel functions of an integer order n are not supported yet"
        for name in ("jn", "yn")
    },
}

SYMBOLS: dict[str, ExternFunction] = {}
BY_NAME: dict[str, list[ExternFunction]] = {}


def short_name(t: Attribute) -> str | None:
    """``f32``/``f64``/``i32``/``i64`` for those element types (integers of any signedness),
    else None."""
    row = dtype_table.signless_row(t)
    return row.ir_name if row is not None and row.libdevice is not None else None


def lookup(name: str, params: Sequence[str]) -> ExternFunction | None:
    """The symbol of libdevice function ``name`` taking ``params``, if libdevice has one."""
    for fn in BY_NAME.get(name, ()):
        if fn.params == tuple(params):
            return fn
    return None


def _add(
    name: str, symbol: str, params: tuple[str, ...], result: str, fn: Callable[..., np.ndarray]
) -> None:
    entry = ExternFunction(name, symbol, params, result, fn)
    SYMBOLS[symbol] = entry
    BY_NAME.setdefault(name, []).append(entry)


def _floats(
    name: str,
    fn: Callable[..., np.ndarray],
    arity: int = 1,
    *,
    own_precision: bool = False,
    trailing: tuple[str, ...] = (),
    result: str | None = None,
    f32_symbol: str | None = None,
    f64_symbol: str | None = "",
) -> None:
    """The f32 (``__nv_<name>f``) and f64 (``__nv_<name>``) versions of a float function of
    ``arity`` floats then ``trailing`` other parameters; computed in f64 and rounded, unless
    ``own_precision`` (exact functions that must see the operands' own dtype)."""
    semantics = fn if own_precision else ls.in_f64(fn)
    for t, symbol in (
        ("f32", f32_symbol or f"__nv_{name}{_SUFFIXES['f32']}"),
        ("f64", f"__nv_{name}{_SUFFIXES['f64']}" if f64_symbol == "" else f64_symbol),
    ):
        if symbol is not None:
            _add(name, symbol, (t,) * arity + trailing, result or t, semantics)


_fn: Callable[..., np.ndarray]  # the loops' semantics

# ---- float functions ----
for _name, _fn in (
    ("exp10", ls.exp10),
    ("rcbrt", ls.rcbrt),
    ("sinpi", ls.sinpi),
    ("cospi", ls.cospi),
    ("erfc", ls.erfc),
    ("erfcx", ls.erfcx),
    ("erfinv", ls.erfinv),
    ("erfcinv", ls.erfcinv),
    ("normcdf", ls.normcdf),
    ("normcdfinv", ls.normcdfinv),
    ("lgamma", ls.lgamma),
    ("tgamma", ls.tgamma),
    ("cyl_bessel_i0", ls.cyl_bessel_i0),
    ("cyl_bessel_i1", bessel.cyl_bessel_i1),
    ("j0", bessel.j0),
    ("j1", bessel.j1),
    ("y0", bessel.y0),
    ("y1", bessel.y1),
):
    _floats(_name, _fn)
_floats("logb", ls.logb, own_precision=True)
_floats("ilogb", ls.ilogb, own_precision=True, result="i32")
_floats("hypot", ls.hypot, 2)
_floats("rhypot", ls.rhypot, 2)
_floats("remainder", ls.remainder, 2)
_floats("nextafter", ls.nextafter, 2, own_precision=True)
_floats("fdim", ls.fdim, 2, own_precision=True)
_floats("norm3d", ls.norm, 3)
_floats("rnorm3d", ls.rnorm, 3)
_floats("norm4d", ls.norm, 4)
_floats("rnorm4d", ls.rnorm, 4)
_floats("ldexp", ls.ldexp, own_precision=True, trailing=("i32",))
_floats("scalbn", ls.ldexp, own_precision=True, trailing=("i32",))
# pow with an int32 exponent is its own libdevice function (powf/pow are math.powf)
_floats(
    "pow",
    ls.powi,
    own_precision=True,
    trailing=("i32",),
    f32_symbol="__nv_powif",
    f64_symbol="__nv_powi",
)
_floats("saturatef", ls.saturatef, own_precision=True, f32_symbol="__nv_saturatef", f64_symbol=None)
_floats("rsqrt_rn", ls.rsqrt_rn, f32_symbol="__nv_frsqrt_rn", f64_symbol=None)

# ---- integer functions ----
for _name, _fn in (("clz", ls.clz), ("popc", ls.popc), ("ffs", ls.ffs)):
    for _t in ("i32", "i64"):
        _add(_name, f"__nv_{_name}{_SUFFIXES[_t]}", (_t,), "i32", _fn)
_add("brev", "__nv_brev", ("i32",), "i32", ls.brev)
_add("brev", "__nv_brevll", ("i64",), "i64", ls.brev)
_add("mulhi", "__nv_mulhi", ("i32", "i32"), "i32", ls.mulhi)
_add("mulhi", "__nv_mul64hi", ("i64", "i64"), "i64", ls.mulhi)
_add("mul24", "__nv_mul24", ("i32", "i32"), "i32", ls.mul24)
_add("hadd", "__nv_hadd", ("i32", "i32"), "i32", ls.hadd)
_add("rhadd", "__nv_rhadd", ("i32", "i32"), "i32", ls.rhadd)
_add("byte_perm", "__nv_byte_perm", ("i32", "i32", "i32"), "i32", ls.byte_perm)

# ---- bits and classification ----
_floats("signbit", ls.signbit, own_precision=True, result="i32", f64_symbol="__nv_signbitd")
_add("finitef", "__nv_finitef", ("f32",), "i32", ls.isfinite)
_add("isfinited", "__nv_isfinited", ("f64",), "i32", ls.isfinite)
_add("double2hiint", "__nv_double2hiint", ("f64",), "i32", ls.double2hiint)
_add("double2loint", "__nv_double2loint", ("f64",), "i32", ls.double2loint)
_add("hiloint2double", "__nv_hiloint2double", ("i32", "i32"), "f64", ls.hiloint2double)

# ---- IEEE-rounded arithmetic that is never contracted into an fma ----
for _op, _fn in (("add", ls.add), ("sub", ls.sub), ("mul", ls.mul)):
    _add(f"{_op}_rn", f"__nv_f{_op}_rn", ("f32", "f32"), "f32", _fn)
    _add(f"{_op}_rn", f"__nv_d{_op}_rn", ("f64", "f64"), "f64", _fn)
_add("rcp_rn", "__nv_frcp_rn", ("f32",), "f32", ls.rcp)
_add("rcp_rn", "__nv_drcp_rn", ("f64",), "f64", ls.rcp)

# ---- float -> integer conversions: rounding mode, saturation, NaN -> 0 ----
for _mode in ("rn", "rz", "rd", "ru"):
    for _src, _prefix in (("f32", "float"), ("f64", "double")):
        for _dst, _bits, _signed in (
            ("int", 32, True),
            ("uint", 32, False),
            ("ll", 64, True),
            ("ull", 64, False),
        ):
            _name = f"{_prefix}2{_dst}_{_mode}"
            _add(_name, f"__nv_{_name}", (_src,), f"i{_bits}", ls.to_int(_mode, _bits, _signed))
_floats("llrint", ls.to_int("rn", 64, True), own_precision=True, result="i64")
_floats("llround", ls.to_int("round", 64, True), own_precision=True, result="i64")
