"""The constants and conversions of ``Semantic`` (semantic.py): a Python number as a runtime
value (its own dtype, or an operand's under Triton's weak typing), casts (pointers included),
bitcasts, rounding toward zero, truth values, and the fp8 conversions Triton allows."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mytriton.dialects.tt import elementwise as ew
from mytriton.dialects.tt import fp8 as tt_fp8
from mytriton.dialects.tt import math as tm
from mytriton.dialects.tt.constants import make_constant
from mytriton.dialects.tt.pointer_casts import IntToPtrOp, PtrToIntOp
from mytriton.dialects.tt.types import with_element_type
from mytriton.errors import KernelValueError
from mytriton.frontend.dtypes import HALF_FLOATS, to_ir
from mytriton.frontend.semantic_shapes import ShapeSemantics
from mytriton.frontend.values import TensorValue
from mytriton.language import core

F32_MAX = (2 - 2**-23) * 2.0**127


class ConversionSemantics(ShapeSemantics):
    """Constants, ``to_tensor``, casts and bitcasts (``Semantic`` builds on them)."""

    if TYPE_CHECKING:  # Semantic's (a pointer's truth value compares its address with 0)

        def compare(self, op: str, a: Any, b: Any) -> TensorValue: ...

    def constant(self, value: bool | int | float, d: core.dtype) -> TensorValue:
        """``value`` as a scalar of dtype ``d``. Like Triton, a value equal to zero is the
        dtype's zero: a Python ``-0.0`` (literal, constexpr, ``tl.full``) becomes ``+0.0``."""
        if isinstance(value, float) and value == 0:
            value = 0.0
        if d.is_fp8() and value != 0:  # Triton's builder has no fp8 constants but zero
            raise self.type_error(
                f"a {d} constant ({value!r}): Triton has no fp8 constants but 0, and no fp8 "
                f"arithmetic; compute in float32 and convert with .to(tl.{d.codegen_name()})"
            )
        op = self.b.insert(make_constant(value, to_ir(d, self.b.loc)))
        return TensorValue(op.result)

    def python_dtype(self, value: Any) -> core.dtype:
        """The dtype a Python scalar gets on its own (Triton's ``to_tensor``): bool->i1; an int
        ->i32, u32, i64 or u64, the first that holds it; a float->f32, or f64 when it is
        beyond f32's normal range."""
        if isinstance(value, bool):
            return core.int1
        if isinstance(value, int):
            for d in (core.int32, core.uint32, core.int64, core.uint64):
                if d.get_int_min_value() <= value <= d.get_int_max_value():
                    return d
            raise KernelValueError(
                f"integer constant {value} does not fit in int64 or uint64", self.b.loc
            )
        if isinstance(value, float):
            magnitude = abs(value)
            normal = 2.0**-126 <= magnitude <= F32_MAX
            if normal or magnitude in (0.0, float("inf")) or value != value:
                return core.float32
            return core.float64
        raise self.type_error(f"cannot use a value of type {type(value).__name__} in a kernel")

    def to_tensor(
        self, value: Any, like: TensorValue | None = None, *, div_or_mod: bool = False
    ) -> TensorValue:
        """A runtime value for ``value``; a Python scalar of a kind no higher than ``like``'s
        (bool < int < float) takes ``like``'s dtype (Triton's weak typing), and must then fit
        in it. For ``/`` and ``%`` (``div_or_mod``) a float16/bfloat16 ``like`` gives float32
        instead: Triton divides halves in float32, so ``x_f16 / 0.1`` uses 0.1 as a float32."""
        if isinstance(value, TensorValue):
            return value
        if isinstance(value, core.constexpr):
            value = value.value
        d = self.python_dtype(value)
        if like is not None and not like.is_pointer:
            ld = like.dtype
            if isinstance(value, bool):
                d = ld
            elif isinstance(value, int):
                d = ld if ld.kind in ("int", "float") else d
            elif isinstance(value, float):
                d = ld if ld.kind == "float" else d
            if div_or_mod and d == ld and d in HALF_FLOATS:
                d = core.float32
            self._check_fits(value, d)
        return self.constant(value, d)

    def _check_fits(self, value: Any, d: core.dtype) -> None:
        """Triton rejects a Python integer an integer operand's dtype cannot hold."""
        if d.kind != "int" or isinstance(value, bool) or not isinstance(value, int):
            return
        if value < 0 and d.is_int_unsigned():
            raise KernelValueError(
                f"cannot combine the negative constant {value} with an unsigned {d} operand: "
                "cast one of them explicitly",
                self.b.loc,
            )
        if not d.get_int_min_value() <= value <= d.get_int_max_value():
            raise KernelValueError(f"constant {value} is out of range for type {d}", self.b.loc)

    def cast(self, v: TensorValue, d: core.dtype) -> TensorValue:
        if isinstance(d, core.pointer_type) or v.is_pointer:
            return v if v.dtype == d else self.pointer_cast(v, d)
        if v.dtype == d:
            return v
        if v.dtype.is_fp8() or d.is_fp8():
            self._check_fp8_conversion(v.dtype, d)
        target = with_element_type(v.type, to_ir(d, self.b.loc))
        return TensorValue(self.b.insert(ew.CastOp(v.handle, target)).result)

    def pointer_cast(self, v: TensorValue, d: core.dtype) -> TensorValue:
        """Triton's pointer conversions: a 64-bit integer to a pointer (``tt.int_to_ptr``), a
        pointer to a 64-bit integer (``tt.ptr_to_int``) or to int1 (``!= 0``), and a pointer to
        another pointer type (the same address, as the pair of them)."""
        src = v.dtype
        if isinstance(d, core.pointer_type) and src.kind == "pointer":
            return self.pointer_cast(self.pointer_cast(v, core.int64), d)
        if isinstance(d, core.pointer_type):
            if src not in (core.int64, core.uint64):
                raise self.type_error(
                    f"cannot convert {src} to {d}: only a 64-bit integer (an address) converts "
                    "to a pointer"
                )
            target = with_element_type(v.type, to_ir(d, self.b.loc))
            return TensorValue(self.b.insert(IntToPtrOp(v.handle, target)).result)
        if d == core.int1:
            address = self.pointer_cast(v, core.int64)
            return self.compare("!=", address, self.constant(0, core.int64))
        if d not in (core.int64, core.uint64):
            raise self.type_error(
                f"cannot convert {src} to {d}: a pointer converts only to int64, uint64 or int1"
            )
        target = with_element_type(v.type, to_ir(core.int64, self.b.loc))
        address = TensorValue(self.b.insert(PtrToIntOp(v.handle, target)).result)
        return self.cast(address, d)

    def _check_fp8_conversion(self, src: core.dtype, dst: core.dtype) -> None:
        """The fp8 conversions Triton's NVIDIA backend compiles: each fp8 format to and from
        float16, bfloat16 and float32 (fp8e4b15 only float16 and float32)."""
        if src.is_fp8() and dst.is_fp8():
            raise self.type_error(
                f"cannot convert {src} to {dst} directly (Triton's GPU backends have no fp8 to "
                "fp8 conversion): go through float32, x.to(tl.float32).to(...)"
            )
        fp8, other = (src, dst) if src.is_fp8() else (dst, src)
        if other.kind != "float":
            raise self.type_error(
                f"cannot convert {src} to {dst}: Triton converts fp8 only to and from floats"
            )
        if other == core.float64:
            raise self.type_error(
                f"cannot convert {src} to {dst} (Triton's GPU backends have no fp8 <-> float64 "
                "conversion): go through float32"
            )
        if fp8 == core.float8e4b15 and other == core.bfloat16:
            raise self.type_error(
                f"cannot convert {src} to {dst}: Triton converts float8e4b15 only to and from "
                "float16 and float32"
            )

    def no_fp8_arithmetic(self, what: str, d: core.dtype) -> None:
        """Triton's GPU backends have no fp8 arithmetic (comparisons and math included)."""
        if d.is_fp8():
            raise self.type_error(
                f"{what} on {d}: Triton has no fp8 arithmetic; convert to float32 first "
                f"(x.to(tl.float32)) and the result back with .to(tl.{d.codegen_name()})"
            )

    def round_toward_zero(self, v: TensorValue, d: core.dtype) -> TensorValue:
        """A float narrowed to ``d`` rounded toward zero (``fp_downcast_rounding="rtz"``)."""
        target = with_element_type(v.type, to_ir(d, self.b.loc))
        if d.is_fp8():
            if not tt_fp8.converts_toward_zero(v.type, target):
                raise KernelValueError(
                    f"fp_downcast_rounding='rtz' from {v.dtype} to {d} is not supported: "
                    "Triton's NVIDIA backend rounds toward zero into fp8 only from fp32 to fp8e5",
                    self.b.loc,
                )
        elif d not in (core.float16, core.bfloat16, core.float32):
            raise KernelValueError(
                f"fp_downcast_rounding='rtz' to {d} is not supported yet (float16, bfloat16 "
                "and float32 are)",
                self.b.loc,
            )
        return TensorValue(self.b.insert(tm.FpToFpOp(v.handle, target)).result)

    def bitcast(self, v: TensorValue, d: core.dtype) -> TensorValue:
        """The bits of ``v`` as ``d`` (Triton: the primitive widths must match)."""
        if v.is_pointer or isinstance(d, core.pointer_type):  # Triton's rule: a conversion
            return self.cast(v, d)
        if v.dtype == d:
            return v
        if v.dtype == core.int1 or d == core.int1:
            raise self.type_error(f"cannot bitcast {v.dtype} to {d}: booleans have no bit layout")
        if v.dtype.primitive_bitwidth != d.primitive_bitwidth:
            raise self.type_error(
                f"cannot bitcast data-type of size {v.dtype.primitive_bitwidth} to data-type of "
                f"size {d.primitive_bitwidth} ({v.dtype} to {d})"
            )
        target = with_element_type(v.type, to_ir(d, self.b.loc))
        return TensorValue(self.b.insert(ew.BitcastOp(v.handle, target)).result)

    def to_bool(self, v: TensorValue) -> TensorValue:
        """Truth value: ``x != 0`` for numbers."""
        if v.dtype == core.int1:
            return v
        if v.is_pointer:
            raise self.type_error("a pointer has no truth value")
        self.no_fp8_arithmetic("a truth value", v.dtype)
        zero = self.splat_to(self.constant(0, v.dtype), v.shape)
        return TensorValue(self.b.insert(ew.CmpOp("ne", v.handle, zero.handle)).result)
