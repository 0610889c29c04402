"""``arith`` ops as C++ expressions: integers wrap and divide like C, unsigned ops go through
unsigned casts, an i1 reads as -1 where MLIR reads it as signed, and float comparisons follow
the ordered/unordered table of ``docs/gpu-ir.md``."""

from __future__ import annotations

import math

import numpy as np
from xdsl.dialects import arith
from xdsl.dialects.builtin import FloatAttr, IntegerAttr
from xdsl.ir import Operation

from mytriton.backends.cuda.c_types import (
    BF16,
    HALF,
    int_width,
    is_bf16,
    is_float,
    is_half,
    is_narrow_float,
    round_call,
)
from mytriton.backends.cuda.emitter import Emitter, prints
from mytriton.backends.cuda.literals import float_literal, int_literal
from mytriton.errors import BackendError
from mytriton.passes.gpu_lowering.abi import is_global_pointer

# cmpi predicates: (C operator, operand view: "plain" / "signed" / "unsigned")
_CMPI = {
    0: ("==", "plain"),
    1: ("!=", "plain"),
    2: ("<", "signed"),
    3: ("<=", "signed"),
    4: (">", "signed"),
    5: (">=", "signed"),
    6: ("<", "unsigned"),
    7: ("<=", "unsigned"),
    8: (">", "unsigned"),
    9: (">=", "unsigned"),
}

# cmpf predicates as C expressions: ordered ones are plain C comparisons (false on NaN),
# unordered ones the negation of the opposite ordered comparison (true on NaN).
_CMPF = {
    0: "false",
    1: "{a} == {b}",
    2: "{a} > {b}",
    3: "{a} >= {b}",
    4: "{a} < {b}",
    5: "{a} <= {b}",
    6: "({a} < {b} || {a} > {b})",
    7: "!(isnan({a}) || isnan({b}))",
    8: "!({a} < {b} || {a} > {b})",
    9: "!({a} <= {b})",
    10: "!({a} < {b})",
    11: "!({a} >= {b})",
    12: "!({a} > {b})",
    13: "{a} != {b}",
    14: "(isnan({a}) || isnan({b}))",
    15: "true",
}


class ArithPrinter(Emitter):
    """Constants (as literals at their uses), integer and float arithmetic, comparisons,
    select and casts."""

    @prints(arith.ConstantOp)
    def _print_constant(self, op: arith.ConstantOp) -> None:
        """Constants need no statement: their uses spell the literal (``v18 * 256``)."""
        value, t = op.value, op.result.type
        width = int_width(t)
        if isinstance(value, IntegerAttr) and width is not None:
            literal = int_literal(value.value.data, width)
        elif isinstance(value, FloatAttr) and is_half(t):
            bits = int(np.array(value.value.data, np.float16).view(np.uint16))
            literal = f"({HALF})0x{bits:04x}"
        elif isinstance(value, FloatAttr) and is_bf16(t):
            literal = f"({BF16})0x{_bf16_bits(value.value.data):04x}"
        elif isinstance(value, FloatAttr) and is_float(t):
            literal = float_literal(value.value.data, value.type.bitwidth)
        else:
            raise BackendError(f"constants like {value} are not scalars the printer knows")
        self.names.bind(op.result, f"({literal})" if literal.startswith("-") else literal)

    @prints(arith.AddiOp)
    def _print_addi(self, op: arith.AddiOp) -> None:
        self._wrapping(op, "+")

    @prints(arith.SubiOp)
    def _print_subi(self, op: arith.SubiOp) -> None:
        self._wrapping(op, "-")

    @prints(arith.MuliOp)
    def _print_muli(self, op: arith.MuliOp) -> None:
        self._wrapping(op, "*")

    def _wrapping(self, op: Operation, operator: str) -> None:
        """Add, subtract and multiply wrap like LLVM's: computed on unsigned operands (whose
        overflow C++ defines), never on ``int``, whose overflow NVRTC may assume away."""
        width = int_width(op.results[0].type)
        if width == 1:
            self._int_binary(op, f"{{a}} {operator} {{b}}")
            return
        wide = "unsigned long long" if width is not None and width > 32 else "unsigned int"
        self._int_binary(op, f"({{t}})(({wide}){{a}} {operator} ({wide}){{b}})")

    @prints(arith.DivSIOp)
    def _print_divsi(self, op: arith.DivSIOp) -> None:
        self._int_binary(op, "{a} / {b}", "signed")  # both truncate toward zero

    @prints(arith.RemSIOp)
    def _print_remsi(self, op: arith.RemSIOp) -> None:
        self._int_binary(op, "{a} % {b}", "signed")  # sign of the dividend, like C

    @prints(arith.DivUIOp)
    def _print_divui(self, op: arith.DivUIOp) -> None:
        self._int_binary(op, "({t})({a} / {b})", "unsigned")

    @prints(arith.RemUIOp)
    def _print_remui(self, op: arith.RemUIOp) -> None:
        self._int_binary(op, "({t})({a} % {b})", "unsigned")

    @prints(arith.AndIOp)
    def _print_andi(self, op: arith.AndIOp) -> None:
        self._int_binary(op, "{a} & {b}", wraps=False)

    @prints(arith.OrIOp)
    def _print_ori(self, op: arith.OrIOp) -> None:
        self._int_binary(op, "{a} | {b}", wraps=False)

    @prints(arith.XOrIOp)
    def _print_xori(self, op: arith.XOrIOp) -> None:
        self._int_binary(op, "{a} ^ {b}", wraps=False)

    @prints(arith.ShLIOp)
    def _print_shli(self, op: arith.ShLIOp) -> None:
        # shift the unsigned bits: a signed left shift that overflows is undefined in C++17
        lhs, rhs = op.operands
        expr = f"({self._ctype(op.result)})({self._unsigned(lhs)} << {self._n(rhs)})"
        self._define(op.result, self._wrap_i1(op, expr), op)

    @prints(arith.ShRSIOp)
    def _print_shrsi(self, op: arith.ShRSIOp) -> None:
        lhs, rhs = op.operands
        self._define(op.result, self._wrap_i1(op, f"{self._signed(lhs)} >> {self._n(rhs)}"), op)

    @prints(arith.ShRUIOp)
    def _print_shrui(self, op: arith.ShRUIOp) -> None:
        lhs, rhs = op.operands
        expr = f"({self._ctype(op.result)})({self._unsigned(lhs)} >> {self._n(rhs)})"
        self._define(op.result, self._wrap_i1(op, expr), op)

    @prints(arith.MaxSIOp)
    def _print_maxsi(self, op: arith.MaxSIOp) -> None:
        self._int_binary(op, "max({a}, {b})", "signed")

    @prints(arith.MinSIOp)
    def _print_minsi(self, op: arith.MinSIOp) -> None:
        self._int_binary(op, "min({a}, {b})", "signed")

    @prints(arith.MaxUIOp)
    def _print_maxui(self, op: arith.MaxUIOp) -> None:
        self._int_binary(op, "({t})max({a}, {b})", "unsigned")

    @prints(arith.MinUIOp)
    def _print_minui(self, op: arith.MinUIOp) -> None:
        self._int_binary(op, "({t})min({a}, {b})", "unsigned")

    @prints(arith.AddfOp)
    def _print_addf(self, op: arith.AddfOp) -> None:
        self._float_binary(op, "+")

    @prints(arith.SubfOp)
    def _print_subf(self, op: arith.SubfOp) -> None:
        self._float_binary(op, "-")

    @prints(arith.MulfOp)
    def _print_mulf(self, op: arith.MulfOp) -> None:
        self._float_binary(op, "*")

    @prints(arith.DivfOp)
    def _print_divf(self, op: arith.DivfOp) -> None:
        self._float_binary(op, "/")

    @prints(arith.NegfOp)
    def _print_negf(self, op: arith.NegfOp) -> None:
        if is_narrow_float(op.result.type):  # flip the sign bit
            t = self._ctype(op.result)
            self._define(op.result, f"({t})({self._n(op.operand)} ^ 0x8000)", op)
            return
        self._define(op.result, f"-{self._n(op.operand)}", op)

    @prints(arith.MaximumfOp)
    def _print_maximumf(self, op: arith.MaximumfOp) -> None:
        self._ieee_extremum(op, "fmaxf", "fmax", zero="{b} : {a}")

    @prints(arith.MinimumfOp)
    def _print_minimumf(self, op: arith.MinimumfOp) -> None:
        self._ieee_extremum(op, "fminf", "fmin", zero="{a} : {b}")

    def _ieee_extremum(self, op: Operation, f32: str, f64: str, zero: str) -> None:
        """maximumf/minimumf: NaN if either operand is NaN (``a + b`` is that NaN), and
        -0.0 < +0.0; ``fmaxf``/``fminf`` alone do neither."""
        a, b = (self._fv(v) for v in op.operands)
        fn = f64 if self._ctype(op.results[0]) == "double" else f32
        pick_zero = zero.format(a=a, b=b)
        expr = (
            f"(isnan({a}) || isnan({b})) ? {a} + {b} : "
            f"({a} == {b} ? (signbit({a}) ? {pick_zero}) : {fn}({a}, {b}))"
        )
        if is_narrow_float(op.results[0].type):
            expr = self._rounded(op.results[0], f"({expr})")
        self._define(op.results[0], expr, op)

    @prints(arith.CmpiOp)
    def _print_cmpi(self, op: arith.CmpiOp) -> None:
        predicate = op.predicate.value.data
        if predicate not in _CMPI:
            raise BackendError(f"unknown cmpi predicate {predicate}")
        operator, view = _CMPI[predicate]
        a, b = self._view(op.lhs, view), self._view(op.rhs, view)
        self._define(op.result, f"{a} {operator} {b}", op)

    @prints(arith.CmpfOp)
    def _print_cmpf(self, op: arith.CmpfOp) -> None:
        predicate = op.predicate.value.data
        if predicate not in _CMPF:
            raise BackendError(f"unknown cmpf predicate {predicate}")
        expr = _CMPF[predicate].format(a=self._fv(op.lhs), b=self._fv(op.rhs))
        self._define(op.result, expr, op)

    @prints(arith.SelectOp)
    def _print_select(self, op: arith.SelectOp) -> None:
        a, b = self._n(op.lhs), self._n(op.rhs)
        if is_global_pointer(op.result.type):
            element = self._pointee.get(op.result, "void")
            a, b = self._as_pointer(op.lhs, element), self._as_pointer(op.rhs, element)
        self._define(op.result, f"{self._n(op.cond)} ? {a} : {b}", op)

    @prints(arith.IndexCastOp)
    def _print_index_cast(self, op: arith.IndexCastOp) -> None:
        self._int_cast(op, signed=True)

    @prints(arith.ExtSIOp)
    def _print_extsi(self, op: arith.ExtSIOp) -> None:
        self._int_cast(op, signed=True)

    @prints(arith.ExtUIOp)
    def _print_extui(self, op: arith.ExtUIOp) -> None:
        self._int_cast(op, signed=False)

    @prints(arith.TruncIOp)
    def _print_trunci(self, op: arith.TruncIOp) -> None:
        self._int_cast(op, signed=True)

    def _int_cast(self, op: Operation, signed: bool) -> None:
        """Integer width changes: narrowing keeps the low bits, widening extends sign or zero."""
        src, result = op.operands[0], op.results[0]
        if int_width(result.type) == 1:
            self._to_bool(op)
        elif self._ctype(src) == self._ctype(result):
            self._define(result, self._n(src), op)
        else:
            self._cast(op, self._signed(src) if signed else self._unsigned(src))

    @prints(arith.SIToFPOp)
    def _print_sitofp(self, op: arith.SIToFPOp) -> None:
        if is_bf16(op.result.type):  # one rounding from the exact 64-bit integer
            self._define(op.result, f"mt_l2b((long long){self._signed(op.input)})", op)
            return
        self._int_to_float(op, self._signed(op.input))

    @prints(arith.UIToFPOp)
    def _print_uitofp(self, op: arith.UIToFPOp) -> None:
        if is_bf16(op.result.type):
            operand = f"(unsigned long long){self._unsigned(op.input)}"
            self._define(op.result, f"mt_ul2b({operand})", op)
            return
        self._int_to_float(op, self._unsigned(op.input))

    def _int_to_float(self, op: Operation, operand: str) -> None:
        """To an f16 through ``float``: exact below 2**24, and every larger integer is beyond
        f16's range (inf) either way."""
        if is_half(op.results[0].type):
            self._define(op.results[0], f"mt_f2h((float){operand})", op)
        else:
            self._cast(op, operand)

    @prints(arith.FPToSIOp)
    def _print_fptosi(self, op: arith.FPToSIOp) -> None:
        self._fp_to_int(op, signed=True)

    @prints(arith.FPToUIOp)
    def _print_fptoui(self, op: arith.FPToUIOp) -> None:
        self._fp_to_int(op, signed=False)

    def _fp_to_int(self, op: Operation, signed: bool) -> None:
        """PTX ``cvt.rzi`` itself (a C++ cast of an out-of-range float is undefined, and nvcc
        may fold it): saturating, NaN by PTX's rule, as LLVM emits it for the MLIR backend."""
        src, result = op.operands[0], op.results[0]
        bits = int_width(result.type)
        if bits not in (16, 32, 64):
            raise BackendError(f"no {bits}-bit float-to-integer conversion (the lowering widens)")
        double = self._ctype(src) == "double"
        operand = self._n(src) if double else self._fv(src)
        kind = f"{'s' if signed else 'u'}{bits}"
        out = {16: "h", 32: "r", 64: "l"}[bits]
        ctype = self._ctype(result)
        name = self.names.define(result)
        self._stmt(op, f"{ctype} {name};")
        asm = f"cvt.rzi.{kind}.{'f64' if double else 'f32'} %0, %1;"
        self._stmt(op, f'asm("{asm}" : "={out}"({name}) : "{"d" if double else "f"}"({operand}));')

    @prints(arith.ExtFOp)
    def _print_extf(self, op: arith.ExtFOp) -> None:
        self._cast(op, self._fv(op.input))

    @prints(arith.TruncFOp)
    def _print_truncf(self, op: arith.TruncFOp) -> None:
        if is_narrow_float(op.result.type):  # one rounding, from f32 or f64
            fn = round_call(op.result.type, self._ctype(op.input))
            self._define(op.result, f"{fn}({self._n(op.input)})", op)
        else:
            self._cast(op, self._n(op.input))

    @prints(arith.BitcastOp)
    def _print_bitcast(self, op: arith.BitcastOp) -> None:
        """32/64-bit floats through CUDA's intrinsics; the 16-bit types (f16, bf16, i16) are all
        C++ integers holding the bits, so any bitcast among them is an integer cast."""
        src, dst = self._ctype(op.input), self._ctype(op.result)
        intrinsic = {
            ("float", "int"): "__float_as_int",
            ("int", "float"): "__int_as_float",
            ("double", "long long"): "__double_as_longlong",
            ("long long", "double"): "__longlong_as_double",
        }
        if src == dst:
            self._define(op.result, self._n(op.input), op)
        elif (src, dst) in intrinsic:
            self._define(op.result, f"{intrinsic[src, dst]}({self._n(op.input)})", op)
        elif src in _BITS16 and dst in _BITS16:
            self._define(op.result, f"({dst})({self._n(op.input)})", op)
        else:
            raise BackendError(f"no bitcast from {op.input.type} to {op.result.type}")


#: the C++ types of the 16-bit scalars: f16 and bf16 are ``unsigned short`` typedefs, i16 ``short``
_BITS16 = frozenset({HALF, BF16, "short"})


def _bf16_bits(value: float) -> int:
    """The bits of a bf16 constant (folded constants are bf16 values already: f32's upper half)."""
    bits = int(np.array(value, np.float32).view(np.uint32))
    if math.isnan(value):
        return 0x7FC0 | (bits >> 16 & 0x8000)
    if float(np.float32(value)) != value or bits & 0xFFFF:
        raise BackendError(f"{value!r} is not a bfloat16 value")
    return bits >> 16
