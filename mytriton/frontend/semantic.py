"""Triton's semantics for operators and conversions, emitting `tt` ops.

Python numbers mixed with runtime values are *weakly typed* (Triton's rule): ``x * 2`` keeps
``x``'s dtype, ``i + 0.5`` becomes f32. Comparisons and ``tl.maximum``/``minimum``/``clamp``
are the exception, as in Triton: there a Python number first becomes a value of its own dtype
(``to_tensor``), so ``x_u8 != -1`` compares in int32. Shapes broadcast NumPy-style: lower
ranks are left-padded with ``expand_dims(0)``, size-1 dimensions stretched with
``tt.broadcast``, scalars splatted.

Here the operators; the constants and conversions in semantic_conversions.py
(``ConversionSemantics``), built on the broadcasting of semantic_shapes.py (``ShapeSemantics``).
"""

from __future__ import annotations

from typing import Any

from mytriton.dialects.tt import core as tt
from mytriton.dialects.tt import elementwise as ew
from mytriton.dialects.tt import math as tm
from mytriton.dialects.tt.types import element_type
from mytriton.frontend.dtypes import computation_type, promote
from mytriton.frontend.semantic_conversions import F32_MAX as F32_MAX  # (its old home)
from mytriton.frontend.semantic_conversions import ConversionSemantics
from mytriton.frontend.values import TensorValue
from mytriton.language import core

I32_MIN, I32_MAX = -(2**31), 2**31 - 1

_DIV_OR_MOD = ("/", "//", "%")


class Semantic(ConversionSemantics):
    """Builds the IR of Triton operators on behalf of the code generator (constants,
    conversions and broadcasting from ``ConversionSemantics`` and ``ShapeSemantics``)."""

    # ---- operand preparation ----

    def operands(
        self, a: Any, b: Any, *, div_or_mod: bool = False
    ) -> tuple[TensorValue, TensorValue]:
        """Runtime operands for a binary operator, Python scalars weakly typed."""
        if not isinstance(a, TensorValue):
            like = b if isinstance(b, TensorValue) else None
            a = self.to_tensor(a, like, div_or_mod=div_or_mod)
        if not isinstance(b, TensorValue):
            b = self.to_tensor(b, a, div_or_mod=div_or_mod)
        return a, b

    def promoted(
        self, a: TensorValue, b: TensorValue, op: str, *, bool_to_int: bool = False
    ) -> tuple[TensorValue, TensorValue]:
        if a.is_pointer or b.is_pointer:
            raise self.type_error(
                f"operator {op} is not defined on pointers ({a.dtype}, {b.dtype})"
            )
        div_or_mod = op in _DIV_OR_MOD
        integers = {a.dtype.kind, b.dtype.kind} <= {"int", "bool"}  # int1 is unsigned in Triton
        if div_or_mod and integers and a.dtype.is_int_unsigned() != b.dtype.is_int_unsigned():
            raise self.type_error(
                f"Cannot use {op} with {a.dtype} and {b.dtype} because they have different "
                "signedness (Triton's rule); cast them to the same signedness"
            )
        d = computation_type(a.dtype, b.dtype, self.b.loc, div_or_mod=div_or_mod)
        self.no_fp8_arithmetic(f"operator {op}", d)
        if bool_to_int and d == core.int1:
            d = core.int32
        a, b = self.cast(a, d), self.cast(b, d)
        a, b = self.broadcast_all(a, b)
        return a, b

    # ---- arithmetic ----

    _ARITH = {"+": ew.AddOp, "-": ew.SubOp, "*": ew.MulOp}

    def arith(self, op: str, a: Any, b: Any) -> TensorValue:
        a, b = self.operands(a, b)
        if op in ("+", "-") and (a.is_pointer or b.is_pointer):
            return self.pointer_arith(op, a, b)
        a, b = self.promoted(a, b, op, bool_to_int=True)
        return TensorValue(self.b.insert(self._ARITH[op](a.handle, b.handle)).result)

    def pointer_arith(self, op: str, a: TensorValue, b: TensorValue) -> TensorValue:
        if a.is_pointer and b.is_pointer:
            raise self.type_error(f"cannot apply {op} to two pointers")
        if b.is_pointer:
            if op == "-":
                raise self.type_error("cannot subtract a pointer from an integer")
            a, b = b, a
        if b.dtype.kind not in ("int", "bool"):
            raise self.type_error(f"pointer offsets must be integers, got {b.dtype}")
        if op == "-" and b.dtype == core.int1:
            # Triton negates in int1 first (-1 is 1: the pointer moves up); its interpreter fails
            raise self.type_error("cannot subtract a boolean from a pointer (convert it first)")
        if b.dtype.is_int_unsigned() and b.dtype.int_bitwidth < 64:
            b = self.cast(b, core.int64)  # offsets are signed: zero-extend (Triton's rule)
        if op == "-":
            b = TensorValue(self.b.insert(ew.NegOp(b.handle)).result)
        a, b = self.broadcast_all(a, b)
        return TensorValue(self.b.insert(tt.AddPtrOp(a.handle, b.handle)).result)

    def truediv(self, a: Any, b: Any, precise: bool = False) -> TensorValue:
        """``a / b`` in the computation dtype (float32 for halves), integers in float32;
        ``precise``: the IEEE quotient (``float_division``)."""
        a, b = self.operands(a, b, div_or_mod=True)
        a, b = self.promoted(a, b, "/")
        if a.dtype.kind != "float":
            a, b = self.cast(a, core.float32), self.cast(b, core.float32)
        return self.float_division(a, b, precise)

    def float_division(self, a: TensorValue, b: TensorValue, precise: bool) -> TensorValue:
        """``tt.div`` (f32: PTX's approximate ``div.full.f32``, as Triton's ``/``) or, where
        ``precise``, ``tt.precise_divf`` (IEEE ``div.rn``, Triton's ``tl.div_rn``)."""
        op = tm.PreciseDivOp if precise else ew.DivOp
        return TensorValue(self.b.insert(op(a.handle, b.handle)).result)

    def fdiv(self, a: Any, b: Any, precise: bool = False) -> TensorValue:
        """``tl.fdiv``: Triton converts nothing (no promotion, no weak typing: a Python float
        is a float32), so both operands must be floats of one dtype, and halves divide in
        their own dtype (``tl.fdiv(h, h)`` is float16, where ``h / h`` is float32).
        ``precise`` (``ieee_rounding=True``) gives the IEEE quotient: Triton 3.6 ignores the
        flag (triton-lang/triton#10073, fixed after 3.6 the same way)."""
        a, b = self.to_tensor(a), self.to_tensor(b)
        if a.dtype.kind != "float" or b.dtype.kind != "float" or a.is_pointer or b.is_pointer:
            raise self.type_error(
                f"both operands of fdiv must have floating scalar type, got {a.dtype} and {b.dtype}"
            )
        if a.dtype != b.dtype:
            raise self.type_error(
                f"tl.fdiv of {a.dtype} and {b.dtype}: Triton does not convert fdiv's operands; "
                "convert one with .to() so both have one dtype"
            )
        self.no_fp8_arithmetic("tl.fdiv", a.dtype)
        a, b = self.broadcast_all(a, b)
        return self.float_division(a, b, precise)

    def floordiv(self, a: Any, b: Any) -> TensorValue:
        a, b = self.operands(a, b, div_or_mod=True)
        a, b = self.promoted(a, b, "//", bool_to_int=True)
        if a.dtype.kind != "int":
            raise self.type_error(f"`//` needs integer operands, got {a.dtype}")
        return TensorValue(self.b.insert(ew.DivOp(a.handle, b.handle)).result)

    def mod(self, a: Any, b: Any) -> TensorValue:
        """``a % b`` in the computation dtype (float32 for halves)."""
        a, b = self.operands(a, b, div_or_mod=True)
        a, b = self.promoted(a, b, "%", bool_to_int=True)
        return TensorValue(self.b.insert(ew.RemOp(a.handle, b.handle)).result)

    _BITWISE = {"&": ew.AndOp, "|": ew.OrOp, "^": ew.XorOp}

    def bitwise(self, op: str, a: Any, b: Any) -> TensorValue:
        a, b = self.operands(a, b)
        given = (a.dtype, b.dtype)
        a, b = self.promoted(a, b, op)
        if a.dtype.kind == "float":  # Triton's words first: its tests match them
            raise self.type_error(
                f"invalid operands of type {given[0]} and {given[1]}: operator {op} needs "
                "integer or boolean operands"
            )
        return TensorValue(self.b.insert(self._BITWISE[op](a.handle, b.handle)).result)

    def shift(self, op: str, a: Any, b: Any) -> TensorValue:
        """``<<`` and ``>>`` on integers of the promoted dtype. As in Triton, ``>>`` is
        arithmetic (``ashr``) or logical (``lshr``) by the signedness of the block whose
        operator it is (``a``; ``b`` for ``3 >> b``) *before* promotion: ``int8 >> uint8`` is
        an arithmetic shift of the uint8 bits (``tt.shr`` of the int8 view, cast back)."""
        owner = a if isinstance(a, TensorValue) else b
        arithmetic = isinstance(owner, TensorValue) and owner.dtype.is_int_signed()
        a, b = self.operands(a, b)
        a, b = self.promoted(a, b, op)
        if a.dtype.kind == "float":
            raise self.type_error(f"operator {op} needs integer operands, got {a.dtype}")
        if op == "<<":
            return TensorValue(self.b.insert(ew.ShlOp(a.handle, b.handle)).result)
        promoted = a.dtype
        if promoted.int_bitwidth >= 8 and arithmetic != promoted.is_int_signed():
            view = core.dtype(f"{'' if arithmetic else 'u'}int{promoted.int_bitwidth}")
            a, b = self.bitcast(a, view), self.bitcast(b, view)
            shifted = TensorValue(self.b.insert(ew.ShrOp(a.handle, b.handle)).result)
            return self.bitcast(shifted, promoted)
        return TensorValue(self.b.insert(ew.ShrOp(a.handle, b.handle)).result)

    _COMPARE = {"<": "lt", "<=": "le", ">": "gt", ">=": "ge", "==": "eq", "!=": "ne"}

    def compare(self, op: str, a: Any, b: Any) -> TensorValue:
        """``a < b`` etc. Unlike arithmetic, Triton makes a Python scalar operand a value of
        its own dtype first (``to_tensor``: no weak typing), then promotes the two: so
        ``x_u8 != -1`` compares in int32, ``x_i32 < 2**31`` in uint32, ``x_f16 < 1e-8`` in
        float32 and ``x_f64 == 0.1`` against 0.1 rounded to float32."""
        a, b = self.to_tensor(a), self.to_tensor(b)
        ordering = op not in ("==", "!=")
        a, b = self.promoted(a, b, op, bool_to_int=ordering)
        pred = self._COMPARE[op]
        return TensorValue(self.b.insert(ew.CmpOp(pred, a.handle, b.handle)).result)

    def logical(self, op: str, a: Any, b: Any) -> TensorValue:
        a, b = self.operands(a, b)
        a, b = self.broadcast_all(self.to_bool(a), self.to_bool(b))
        cls = ew.AndOp if op == "and" else ew.OrOp
        return TensorValue(self.b.insert(cls(a.handle, b.handle)).result)

    def extremum_operand(self, v: Any) -> TensorValue:
        """An operand of ``tl.maximum``/``minimum``/``clamp`` as Triton types it: a Python
        scalar becomes a value of its own dtype (int32, uint32, int64..., float32 or float64:
        no weak typing), and bfloat16 becomes float32 (no bf16 max/min in hardware)."""
        t = self.to_tensor(v)
        return self.cast(t, core.float32) if t.dtype == core.bfloat16 else t

    def minmax(
        self, op: str, a: Any, b: Any, propagate_nan: ew.PropagateNan = ew.PropagateNan.NONE
    ) -> TensorValue:
        """``tl.maximum``/``tl.minimum`` (and Python's ``max``/``min`` of runtime values):
        ``tl.maximum(x_f16, 0.1)`` is float32, ``tl.maximum(x_i8, 1000)`` int32, and two
        booleans stay a boolean (``any``/``all``)."""
        a, b = self.extremum_operand(a), self.extremum_operand(b)
        a, b = self.promoted(a, b, f"tl.{op}")
        return self.extremum(op, a, b, propagate_nan)

    def extremum(
        self,
        op: str,
        a: TensorValue,
        b: TensorValue,
        propagate_nan: ew.PropagateNan = ew.PropagateNan.NONE,
    ) -> TensorValue:
        """The ``tt.maximum``/``tt.minimum`` of two values of one dtype and shape."""
        cls = ew.MaximumOp if op == "maximum" else ew.MinimumOp
        return TensorValue(self.b.insert(cls(a.handle, b.handle, propagate_nan)).result)

    def clamp(
        self, x: Any, lo: Any, hi: Any, propagate_nan: ew.PropagateNan = ew.PropagateNan.NONE
    ) -> TensorValue:
        """``tl.clamp``: Triton promotes ``lo`` with ``hi``, then ``x`` with each, and clamps
        floats only (``minimum(maximum(x, lo), hi)``, both with ``propagate_nan``)."""
        x, lo, hi = (self.extremum_operand(v) for v in (x, lo, hi))
        lo, hi = self.promoted(lo, hi, "tl.clamp")
        x, lo = self.promoted(x, lo, "tl.clamp")
        x, hi = self.promoted(x, hi, "tl.clamp")
        if x.dtype.kind != "float":
            raise self.type_error(
                f"tl.clamp of {x.dtype}: Triton clamps floating-point values only (Only "
                "floating point clamp is supported); use tl.minimum(tl.maximum(x, lo), hi)"
            )
        x, lo, hi = self.broadcast_all(x, self.cast(lo, x.dtype), hi)
        low = self.extremum("maximum", x, lo, propagate_nan)
        return self.extremum("minimum", low, hi, propagate_nan)

    # ---- unary ----

    def neg(self, a: TensorValue) -> TensorValue:
        if a.is_pointer:
            raise self.type_error("cannot negate a pointer")
        self.no_fp8_arithmetic("negation", a.dtype)
        if a.dtype == core.int1:
            a = self.cast(a, core.int32)
        if a.dtype.kind == "float":  # Triton's ``-x`` is ``0 - x``: ``-(+0.0)`` is +0.0
            zero = self.splat_to(self.constant(0.0, a.dtype), a.shape)
            return TensorValue(self.b.insert(ew.SubOp(zero.handle, a.handle)).result)
        return TensorValue(self.b.insert(ew.NegOp(a.handle)).result)

    def invert(self, a: TensorValue) -> TensorValue:
        if a.dtype.kind == "float" or a.is_pointer:
            raise self.type_error(f"operator ~ needs an integer or boolean operand, got {a.dtype}")
        all_ones = -1 if a.dtype.is_int_signed() else a.dtype.get_int_max_value()
        ones = self.splat_to(self.constant(all_ones, a.dtype), a.shape)
        return TensorValue(self.b.insert(ew.XorOp(a.handle, ones.handle)).result)

    def logical_not(self, a: TensorValue) -> TensorValue:
        a = self.to_bool(a)
        true = self.splat_to(self.constant(True, core.int1), a.shape)
        return TensorValue(self.b.insert(ew.XorOp(a.handle, true.handle)).result)

    _FLOAT_MATH = {
        "exp": ew.ExpOp,
        "exp2": ew.Exp2Op,
        "log": ew.LogOp,
        "log2": ew.Log2Op,
        "sqrt": ew.SqrtOp,
        "rsqrt": ew.RsqrtOp,
        "sin": ew.SinOp,
        "cos": ew.CosOp,
        "floor": ew.FloorOp,
        "ceil": ew.CeilOp,
        "tanh": tm.TanhOp,
        "erf": tm.ErfOp,
        "expm1": tm.Expm1Op,
        "log1p": tm.Log1pOp,
        "log10": tm.Log10Op,
        "tan": tm.TanOp,
        "asin": tm.AsinOp,
        "acos": tm.AcosOp,
        "atan": tm.AtanOp,
        "sinh": tm.SinhOp,
        "cosh": tm.CoshOp,
        "asinh": tm.AsinhOp,
        "acosh": tm.AcoshOp,
        "atanh": tm.AtanhOp,
        "trunc": tm.TruncOp,
        "round": tm.RoundOp,
        "rint": tm.RintOp,
        "cbrt": tm.CbrtOp,
        "sqrt_rn": tm.PreciseSqrtOp,
    }
    _FLOAT_MATH2 = {
        "pow": tm.PowOp,
        "atan2": tm.Atan2Op,
        "copysign": tm.CopySignOp,
        "fmod": ew.RemOp,
    }

    def float_math(self, fn: str, x: Any, where: str = "tl") -> TensorValue:
        """``where.fn(x)`` for a one-operand math function of ``_FLOAT_MATH``."""
        x = self.to_tensor(x)
        if x.dtype.kind != "float":
            raise self.type_error(f"{where}.{fn} expects a float argument, got {x.dtype}")
        self.no_fp8_arithmetic(f"{where}.{fn}", x.dtype)
        return TensorValue(self.b.insert(self._FLOAT_MATH[fn](x.handle)).result)

    def float_operands(self, what: str, *values: Any) -> list[TensorValue]:
        """``values`` promoted to one float dtype and broadcast to one shape, for ``what``."""
        ts = [self.to_tensor(v) if isinstance(v, TensorValue) else v for v in values]
        like = next((t for t in ts if isinstance(t, TensorValue)), None)
        ts = [t if isinstance(t, TensorValue) else self.to_tensor(t, like) for t in ts]
        for t in ts:
            if t.dtype.kind != "float":
                raise self.type_error(f"{what} expects float arguments, got {t.dtype}")
        d = ts[0].dtype
        for t in ts[1:]:
            d = promote(d, t.dtype, self.b.loc)
        self.no_fp8_arithmetic(what, d)
        return self.broadcast_all(*[self.cast(t, d) for t in ts])

    def float_math2(self, fn: str, x: Any, y: Any, where: str = "tl") -> TensorValue:
        """``where.fn(x, y)`` for a two-operand math function of ``_FLOAT_MATH2``."""
        a, b = self.float_operands(f"{where}.{fn}", x, y)
        return TensorValue(self.b.insert(self._FLOAT_MATH2[fn](a.handle, b.handle)).result)

    def umulhi(self, x: Any, y: Any) -> TensorValue:
        a, b = self.operands(x, y)
        a, b = self.promoted(a, b, "tl.umulhi")
        if a.dtype not in (core.int32, core.int64, core.uint32, core.uint64):
            raise self.type_error(
                f"tl.umulhi expects int32 or int64 arguments (or uint32/uint64), got {a.dtype}"
            )
        return TensorValue(self.b.insert(tm.UmulhiOp(a.handle, b.handle)).result)

    def fma(self, x: Any, y: Any, z: Any, where: str = "tl") -> TensorValue:
        a, b, c = self.float_operands(f"{where}.fma", x, y, z)
        return TensorValue(self.b.insert(tm.FmaOp(a.handle, b.handle, c.handle)).result)

    def abs(self, x: Any) -> TensorValue:
        x = self.to_tensor(x)
        if x.dtype == core.int1:
            return x
        if x.is_pointer:
            raise self.type_error("tl.abs of a pointer")
        if x.dtype.is_fp8():
            return self._fp8_abs(x)
        return TensorValue(self.b.insert(ew.AbsOp(x.handle)).result)

    def _fp8_abs(self, x: TensorValue) -> TensorValue:
        """The one fp8 operation Triton compiles: ``tl.abs`` clears the sign bit (0x80, the
        only NaN of the fnuz formats, stays NaN)."""
        bits = self.bitcast(x, core.int8)
        magnitude = self.bitwise("&", bits, 0x7F)
        if x.dtype in (core.float8e4b8, core.float8e5b16):
            magnitude = self.where(
                self.compare("==", bits, self.constant(-128, core.int8)), bits, magnitude
            )
        return self.bitcast(magnitude, x.dtype)

    def where(self, c: Any, x: Any, y: Any) -> TensorValue:
        c = self.to_bool(self.to_tensor(c))
        x, y = self.operands(x, y)
        if x.is_pointer or y.is_pointer:
            if x.type != y.type and (element_type(x.type) != element_type(y.type)):
                raise self.type_error("tl.where on pointers of different types")
        else:
            d = promote(x.dtype, y.dtype, self.b.loc)
            x, y = self.cast(x, d), self.cast(y, d)
        c, x, y = self.broadcast_all(c, x, y)
        return TensorValue(self.b.insert(ew.SelectOp(c.handle, x.handle, y.handle)).result)
