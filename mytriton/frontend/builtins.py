"""Implementations of the ``tl.*`` builtins: one method per builtin, named like it.

The code generator binds a call's arguments against the signature declared in
``mytriton.language`` and calls the method here with the bound arguments as keywords. Arguments
are ``TensorValue``s (runtime) or plain Python values (compile time).
"""

from __future__ import annotations

import math
from typing import Any

from mytriton import knobs
from mytriton.dialects.tt import core as tt
from mytriton.dialects.tt import elementwise as ew
from mytriton.dialects.tt.types import block_shape_problem, block_type, triton_shape_problem
from mytriton.errors import ConstexprError, KernelTypeError, KernelValueError, warn_at
from mytriton.frontend.atomic_builtins import AtomicBuiltins
from mytriton.frontend.block_pointers import BlockPointer
from mytriton.frontend.cuda_builtins import CudaBuiltins
from mytriton.frontend.debug_builtins import DebugBuiltins
from mytriton.frontend.descriptor_atomics import DescriptorAtomicBuiltins
from mytriton.frontend.descriptor_gather import DescriptorGatherBuiltins
from mytriton.frontend.dot_scaled import DotScaledBuiltins
from mytriton.frontend.dtypes import to_ir
from mytriton.frontend.libdevice_builtins import LibdeviceBuiltins
from mytriton.frontend.map_elementwise import MapElementwiseBuiltins
from mytriton.frontend.reduce_builtins import ReduceBuiltins
from mytriton.frontend.semantic import Semantic
from mytriton.frontend.shape_builtins import ShapeBuiltins
from mytriton.frontend.values import TensorValue
from mytriton.language import core

# Operand dtypes ``tl.dot`` handles (Triton rejects uint8 too; bfloat16 is not supported yet).
_DOT_OPERAND_DTYPES = (
    core.int8,
    core.float16,
    core.bfloat16,
    core.float32,
    core.float64,
    core.float8e4nv,
    core.float8e5,
)
_DOT_INPUT_PRECISIONS = ("tf32", "tf32x3", "bf16x3", "bf16x6", "ieee")  # any case


def _mma_fp8(v: TensorValue) -> bool:
    """fp8e4nv and fp8e5 blocks stay fp8 in a ``tt.dot`` (either format each: the fp8 warpgroup
    MMAs read them; ``tt-legalize-fp8-dots`` widens them where none runs the dot)."""
    return v.dtype in (core.float8e4nv, core.float8e5)


class Builtins(
    ReduceBuiltins,
    LibdeviceBuiltins,
    DebugBuiltins,
    DescriptorGatherBuiltins,  # and BlockPointerBuiltins, its base
    DescriptorAtomicBuiltins,
    AtomicBuiltins,
    DotScaledBuiltins,
    MapElementwiseBuiltins,
    ShapeBuiltins,
    CudaBuiltins,
):
    """``tl.<name>(...)`` is ``Builtins.<name>(...)``; names ending in ``_`` avoid keywords.
    The libdevice functions that are libdevice calls come from ``LibdeviceBuiltins``."""

    def __init__(self, sem: Semantic):
        self.sem = sem
        self.b = sem.b

    # ---- helpers ----

    def _constexpr(self, value: Any, what: str) -> Any:
        if isinstance(value, TensorValue):
            raise ConstexprError(
                f"{what} must be a compile-time constant (tl.constexpr)", self.b.loc
            )
        return value.value if isinstance(value, core.constexpr) else value

    def _int(self, value: Any, what: str) -> int:
        v = self._constexpr(value, what)
        if not isinstance(v, int) or isinstance(v, bool):
            raise KernelTypeError(f"{what} must be an integer, got {v!r}", self.b.loc)
        return v

    def _shape(self, shape: Any) -> tuple[int, ...]:
        shape = self._constexpr(shape, "a block shape")
        dims = (shape,) if isinstance(shape, int) else shape
        if isinstance(dims, (tuple, list)) and any(isinstance(d, TensorValue) for d in dims):
            raise ConstexprError(
                "every dimension of a block shape must be a compile-time constant (tl.constexpr)",
                self.b.loc,
            )
        if not isinstance(dims, (tuple, list)) or not all(
            isinstance(d, int) and not isinstance(d, bool) for d in dims
        ):
            raise KernelTypeError(
                f"a block shape must be an int or a tuple/list of ints, got {shape!r}", self.b.loc
            )
        problem = block_shape_problem(dims)
        if problem:
            raise KernelValueError(
                f"invalid block shape: {problem}", self.b.loc, cause=triton_shape_problem(dims)
            )
        return tuple(dims)

    def _dtype(self, d: Any) -> core.dtype:
        d = self._constexpr(d, "a dtype")
        if not isinstance(d, core.dtype):
            raise KernelTypeError(f"expected a dtype such as tl.float32, got {d!r}", self.b.loc)
        return d

    def _axis(self, axis: Any, rank: int) -> int:
        """``axis`` of a rank-``rank`` block, a negative one counted from the end (Triton's
        message when out of range)."""
        a = self._int(axis, "axis")
        if not -rank <= a < rank:
            raise KernelValueError(
                f"invalid axis {a}. Expected {-rank} <= axis < {rank}", self.b.loc
            )
        return a + rank if a < 0 else a

    def _tensor(self, v: Any, what: str) -> TensorValue:
        if isinstance(v, TensorValue):
            return v
        if isinstance(v, (bool, int, float)):
            return self.sem.to_tensor(v)
        raise KernelTypeError(f"{what} must be a value, got {v!r}", self.b.loc)

    def to_tensor(self, x: Any) -> TensorValue:
        return self.sem.to_tensor(x)

    def tensor_logical_and(self, x: Any, other: Any) -> TensorValue:
        return self._logical_method("and", x, other)

    def tensor_logical_or(self, x: Any, other: Any) -> TensorValue:
        return self._logical_method("or", x, other)

    def _logical_method(self, op: str, x: Any, other: Any) -> TensorValue:
        """``x.logical_and(other)`` / ``x.logical_or(other)``: Triton bitcasts both operands
        to int1, which only booleans survive (no truth-value conversion, unlike ``and``)."""
        operands = [self._tensor(x, f"x.logical_{op}"), self._tensor(other, f"x.logical_{op}")]
        for v in operands:
            if v.dtype != core.int1:
                raise KernelTypeError(
                    f"x.logical_{op}(...) takes booleans (int1), got {v.dtype}: Cannot bitcast "
                    f"data-type of size {v.dtype.primitive_bitwidth} to data-type of size 1",
                    self.b.loc,
                )
        return self.sem.logical(op, *operands)

    # ---- programming model ----

    def program_id(self, axis: Any) -> TensorValue:
        a = self._int(axis, "program_id axis")
        if a not in (0, 1, 2):
            raise KernelValueError(f"program_id axis must be 0, 1, or 2 but got {a}", self.b.loc)
        return TensorValue(self.b.insert(tt.GetProgramIdOp(a)).result)

    def num_programs(self, axis: Any) -> TensorValue:
        a = self._int(axis, "num_programs axis")
        if a not in (0, 1, 2):
            raise KernelValueError(f"num_programs axis must be 0, 1, or 2 but got {a}", self.b.loc)
        return TensorValue(self.b.insert(tt.GetNumProgramsOp(a)).result)

    # ---- creation ----

    def arange(self, start: Any, end: Any) -> TensorValue:
        s, e = self._int(start, "arange start"), self._int(end, "arange end")
        if s < 0:
            raise KernelValueError(f"arange start must be non-negative, got {s}", self.b.loc)
        if e <= s:
            raise KernelValueError(f"arange end ({e}) must be greater than start ({s})", self.b.loc)
        n = e - s
        if n & (n - 1):
            raise KernelValueError(
                f"arange's range end - start = {n} must be a power of two",
                self.b.loc,
                cause="arange's range must be a power of 2",
            )
        return TensorValue(self.b.insert(tt.MakeRangeOp(s, e)).result)

    def _no_dims(self, shape: Any) -> bool:
        """``shape`` is ``()`` or ``[]``: Triton's factories then make a scalar (0-d)."""
        dims = self._constexpr(shape, "a block shape")
        return isinstance(dims, (tuple, list)) and len(dims) == 0

    def zeros(self, shape: Any, dtype: Any) -> TensorValue:
        if self._no_dims(shape):
            return self.sem.constant(0, self._dtype(dtype))
        t = block_type(to_ir(self._dtype(dtype), self.b.loc), self._shape(shape))
        return TensorValue(self.b.insert(tt.ZerosOp(t)).result)

    def zeros_like(self, input: Any) -> TensorValue:
        x = self._tensor(input, "zeros_like's input")
        if not x.is_block:
            return self.sem.constant(0, x.dtype)
        return self.zeros(x.shape, x.dtype)

    def full(self, shape: Any, value: Any, dtype: Any) -> TensorValue:
        d = self._dtype(dtype)
        dims = None if self._no_dims(shape) else self._shape(shape)
        if isinstance(value, TensorValue):
            if value.is_block:
                raise KernelTypeError(
                    "tl.full's fill value must be a scalar, not a block", self.b.loc
                )
            v = self.sem.cast(value, d)
        else:
            v = self._constexpr(value, "tl.full's value")
            if not isinstance(v, (bool, int, float)):
                raise KernelTypeError(f"tl.full's value must be a number, got {v!r}", self.b.loc)
            v = self.sem.constant(v, d)
        if dims is None:
            return v
        t = block_type(v.type, dims)
        return TensorValue(self.b.insert(tt.FullOp(v.handle, t)).result)

    def empty(self, shape: Any, dtype: Any) -> TensorValue:
        t = block_type(to_ir(self._dtype(dtype), self.b.loc), self._shape(shape))
        return TensorValue(self.b.insert(tt.EmptyOp(t)).result)

    def cast(self, input: Any, dtype: Any, fp_downcast_rounding: Any, bitcast: Any) -> TensorValue:
        x, d = self._tensor(input, "cast's input"), self._dtype(dtype)
        if x.dtype == d:  # Triton returns the input before it looks at the options
            return x
        rounding = self._constexpr(fp_downcast_rounding, "fp_downcast_rounding")
        if rounding not in (None, "rtne", "rtz"):
            raise KernelValueError(
                f"fp_downcast_rounding must be 'rtne' or 'rtz', got {rounding!r}", self.b.loc
            )
        if self._constexpr(bitcast, "bitcast"):
            if rounding is not None:
                raise KernelValueError(
                    "fp_downcast_rounding has no effect on a bitcast", self.b.loc
                )
            return self.sem.bitcast(x, d)
        if rounding is not None and not (
            x.dtype.kind == "float"
            and d.kind == "float"
            and d.primitive_bitwidth < x.dtype.primitive_bitwidth
        ):
            raise KernelValueError(
                f"fp_downcast_rounding is for narrowing float conversions, not {x.dtype} to {d}",
                self.b.loc,
            )
        if rounding == "rtz":
            return self.sem.round_toward_zero(x, d)
        return self.sem.cast(x, d)

    # ---- shape ----

    def broadcast_to(self, input: Any, *shape: Any) -> TensorValue:
        dims = shape[0] if len(shape) == 1 else shape  # a tuple, or the sizes as arguments
        return self.sem.broadcast_to(self._tensor(input, "broadcast_to's input"), self._shape(dims))

    def broadcast(self, input: Any, other: Any) -> tuple[TensorValue, TensorValue]:
        a, b = self.sem.operands(input, other)
        x, y = self.sem.broadcast_all(a, b)
        return (x, y)

    def expand_dims(self, input: Any, axis: Any) -> TensorValue:
        x = self._tensor(input, "expand_dims's input")
        axes = self._constexpr(axis, "expand_dims axis")
        given = [axes] if isinstance(axes, int) else list(axes)
        rank = len(x.shape) + len(given)  # axes index the result, as in Triton
        wrapped = [self._axis(a, rank) for a in given]
        if len(set(wrapped)) != len(wrapped):
            raise KernelValueError(
                f"expand_dims received duplicate axes, normalized axes = {wrapped}", self.b.loc
            )
        for a in sorted(wrapped):
            x = self.sem.expand_dims(x, a)
        return x

    # ---- memory ----

    def _pointer(self, pointer: Any) -> TensorValue:
        if not isinstance(pointer, TensorValue) or not pointer.is_pointer:
            raise KernelTypeError(
                f"expected a pointer (an array argument plus offsets), got {pointer!r}", self.b.loc
            )
        return pointer

    def _writable_pointer(self, pointer: Any, what: str) -> TensorValue:
        """``pointer``, which must not point to constant data (a ``tl.const`` parameter's)."""
        ptr = self._pointer(pointer)
        if ptr.dtype.const:  # type: ignore[attr-defined]
            raise KernelTypeError(
                f"Cannot store to a constant pointer: {what} through a {ptr.dtype} (a parameter "
                "annotated tl.const, or pointers made from one)",
                self.b.loc,
            )
        return ptr

    def load(
        self,
        pointer: Any,
        mask: Any,
        other: Any,
        boundary_check: Any,
        padding_option: Any,
        cache_modifier: Any,
        eviction_policy: Any,
        volatile: Any,
    ) -> TensorValue:
        if isinstance(pointer, BlockPointer):
            return self.load_block_pointer(
                pointer,
                mask,
                other,
                boundary_check,
                padding_option,
                lambda op: self.memory_options(
                    "tl.load", op, cache_modifier, eviction_policy, volatile
                ),
            )
        self.no_block_pointer_options("tl.load", boundary_check, padding_option)
        ptr = self._pointer(pointer)
        pointee = ptr.dtype.element_ty  # type: ignore[attr-defined]
        if mask is None:
            if other is not None:
                raise KernelValueError(
                    "tl.load: `other` cannot be given without `mask`", self.b.loc
                )
            op = self.b.insert(tt.LoadOp(ptr.handle))
            self.memory_options("tl.load", op, cache_modifier, eviction_policy, volatile)
            return TensorValue(op.result)
        m = self.sem.to_bool(self._tensor(mask, "tl.load's mask"))
        ptr, m = self.sem.broadcast_all(ptr, m)
        if other is None and not isinstance(pointee, core.pointer_type):
            o = self.sem.constant(0, pointee)  # a zero of any dtype (fp8 has no int -> fp8 cast)
        else:
            o = self.sem.cast(self.sem.to_tensor(0 if other is None else other), pointee)
        if o.is_block and len(o.shape) > len(ptr.shape):
            raise KernelTypeError(
                f"tl.load: `other` of shape {list(o.shape)} does not fit pointers of shape "
                f"{list(ptr.shape)}",
                self.b.loc,
            )
        o = self.sem.broadcast_to(o, ptr.shape)
        op = self.b.insert(tt.LoadOp(ptr.handle, m.handle, o.handle))
        self.memory_options("tl.load", op, cache_modifier, eviction_policy, volatile)
        return TensorValue(op.result)

    def store(
        self,
        pointer: Any,
        value: Any,
        mask: Any,
        boundary_check: Any,
        cache_modifier: Any,
        eviction_policy: Any,
    ) -> None:
        if isinstance(pointer, BlockPointer):
            return self.store_block_pointer(
                pointer,
                value,
                mask,
                boundary_check,
                lambda op: self.memory_options(
                    "tl.store", op, cache_modifier, eviction_policy, False
                ),
            )
        self.no_block_pointer_options("tl.store", boundary_check, "")
        ptr = self._writable_pointer(pointer, "tl.store")
        pointee = ptr.dtype.element_ty  # type: ignore[attr-defined]
        v = self.sem.cast(self.sem.to_tensor(value), pointee)
        if len(v.shape) > len(ptr.shape) or (v.is_block and not ptr.is_block):
            raise KernelTypeError(
                f"tl.store: a value of shape {list(v.shape)} cannot be stored through pointers of "
                f"shape {list(ptr.shape)}",
                self.b.loc,
            )
        v = self.sem.broadcast_to(v, ptr.shape)
        if mask is None:
            op = self.b.insert(tt.StoreOp(ptr.handle, v.handle))
            self.memory_options("tl.store", op, cache_modifier, eviction_policy, False)
            return None
        m = self.sem.to_bool(self._tensor(mask, "tl.store's mask"))
        if len(m.shape) > len(ptr.shape):
            raise KernelTypeError(
                f"tl.store: mask of shape {list(m.shape)} does not fit pointers of shape "
                f"{list(ptr.shape)}",
                self.b.loc,
            )
        m = self.sem.broadcast_to(m, ptr.shape)
        op = self.b.insert(tt.StoreOp(ptr.handle, v.handle, m.handle))
        self.memory_options("tl.store", op, cache_modifier, eviction_policy, False)
        return None

    # ---- math ----

    def where(self, condition: Any, x: Any, y: Any) -> TensorValue:
        c = self.sem.to_tensor(condition)
        if c.dtype != core.int1:  # Triton's deprecation: still x != 0 for now
            warn_at(
                self.b.loc,
                "tl.where with a non-boolean condition is deprecated and will error out in a "
                f"future triton release. Got {c.dtype}",
            )
        return self.sem.where(c, x, y)

    def _propagate_nan(self, value: Any, what: str) -> ew.PropagateNan:
        v = self._constexpr(value, f"{what}'s propagate_nan")
        if not isinstance(v, core.PropagateNan):
            raise KernelValueError(
                f"{what}: propagate_nan must be tl.PropagateNan.NONE or tl.PropagateNan.ALL, "
                f"got {v!r}",
                self.b.loc,
            )
        return ew.PropagateNan.ALL if v is core.PropagateNan.ALL else ew.PropagateNan.NONE

    def maximum(self, x: Any, y: Any, propagate_nan: Any) -> TensorValue:
        nan = self._propagate_nan(propagate_nan, "tl.maximum")
        return self.sem.minmax("maximum", x, y, nan)

    def minimum(self, x: Any, y: Any, propagate_nan: Any) -> TensorValue:
        nan = self._propagate_nan(propagate_nan, "tl.minimum")
        return self.sem.minmax("minimum", x, y, nan)

    def clamp(self, x: Any, min: Any, max: Any, propagate_nan: Any) -> TensorValue:
        nan = self._propagate_nan(propagate_nan, "tl.clamp")
        return self.sem.clamp(x, min, max, nan)

    def exp(self, x: Any) -> TensorValue:
        return self.sem.float_math("exp", x)

    def exp2(self, x: Any) -> TensorValue:
        return self.sem.float_math("exp2", x)

    def log(self, x: Any) -> TensorValue:
        return self.sem.float_math("log", x)

    def log2(self, x: Any) -> TensorValue:
        return self.sem.float_math("log2", x)

    def sqrt(self, x: Any) -> TensorValue:
        return self.sem.float_math("sqrt", x)

    def rsqrt(self, x: Any) -> TensorValue:
        return self.sem.float_math("rsqrt", x)

    def sin(self, x: Any) -> TensorValue:
        return self.sem.float_math("sin", x)

    def cos(self, x: Any) -> TensorValue:
        return self.sem.float_math("cos", x)

    def floor(self, x: Any) -> TensorValue:
        return self.sem.float_math("floor", x)

    def ceil(self, x: Any) -> TensorValue:
        return self.sem.float_math("ceil", x)

    def abs(self, x: Any) -> TensorValue:
        return self.sem.abs(x)

    def sigmoid(self, x: Any) -> TensorValue:
        x = self.sem.to_tensor(x)
        if x.dtype.kind != "float":
            raise KernelTypeError(f"tl.sigmoid expects a float argument, got {x.dtype}", self.b.loc)
        e = self.sem.float_math("exp", self.sem.neg(x))
        return self.sem.truediv(1.0, self.sem.arith("+", 1.0, e))

    def fdiv(self, x: Any, y: Any, ieee_rounding: Any) -> TensorValue:
        return self.sem.fdiv(x, y)

    def _float_division(self, x: Any, y: Any, what: str) -> TensorValue:
        a, b = self.sem.float_operands(what, x, y)
        return TensorValue(self.b.insert(ew.DivOp(a.handle, b.handle)).result)

    def div_rn(self, x: Any, y: Any) -> TensorValue:
        """IEEE division rounded to nearest: what ``tt.div`` on floats computes."""
        return self._float_division(x, y, "tl.div_rn")

    def sqrt_rn(self, x: Any) -> TensorValue:
        """``tt.sqrt`` is IEEE-rounded already (``math.sqrt``: PTX ``sqrt.rn``)."""
        return self.sem.float_math("sqrt", x)

    def fma(self, x: Any, y: Any, z: Any) -> TensorValue:
        return self.sem.fma(x, y, z)

    def umulhi(self, x: Any, y: Any) -> TensorValue:
        return self.sem.umulhi(x, y)

    def softmax(self, x: Any, dim: Any, keep_dims: Any, ieee_rounding: Any) -> TensorValue:
        """Triton's ``standard.softmax``: ``exp(x - max) / sum``, along ``dim`` (0 if None)."""
        x = self._tensor(x, "tl.softmax's input")
        axis = 0 if self._constexpr(dim, "tl.softmax's dim") is None else dim
        z = self.sem.arith("-", x, self.max(x, axis, False, True, keep_dims))
        num = self.sem.float_math("exp", z)
        return self.sem.truediv(num, self.sum(num, axis, keep_dims, None))

    # ---- libdevice (``tl.extra.libdevice``) ----

    def tanh(self, x: Any) -> TensorValue:
        return self.sem.float_math("tanh", x, "libdevice")

    def erf(self, x: Any) -> TensorValue:
        return self.sem.float_math("erf", x)

    def expm1(self, x: Any) -> TensorValue:
        return self.sem.float_math("expm1", x, "libdevice")

    def log1p(self, x: Any) -> TensorValue:
        return self.sem.float_math("log1p", x, "libdevice")

    def log10(self, x: Any) -> TensorValue:
        return self.sem.float_math("log10", x, "libdevice")

    def tan(self, x: Any) -> TensorValue:
        return self.sem.float_math("tan", x, "libdevice")

    def asin(self, x: Any) -> TensorValue:
        return self.sem.float_math("asin", x, "libdevice")

    def acos(self, x: Any) -> TensorValue:
        return self.sem.float_math("acos", x, "libdevice")

    def atan(self, x: Any) -> TensorValue:
        return self.sem.float_math("atan", x, "libdevice")

    def sinh(self, x: Any) -> TensorValue:
        return self.sem.float_math("sinh", x, "libdevice")

    def cosh(self, x: Any) -> TensorValue:
        return self.sem.float_math("cosh", x, "libdevice")

    def asinh(self, x: Any) -> TensorValue:
        return self.sem.float_math("asinh", x, "libdevice")

    def acosh(self, x: Any) -> TensorValue:
        return self.sem.float_math("acosh", x, "libdevice")

    def atanh(self, x: Any) -> TensorValue:
        return self.sem.float_math("atanh", x, "libdevice")

    def trunc(self, x: Any) -> TensorValue:
        return self.sem.float_math("trunc", x, "libdevice")

    def round(self, x: Any) -> TensorValue:
        return self.sem.float_math("round", x, "libdevice")

    def rint(self, x: Any) -> TensorValue:
        return self.sem.float_math("rint", x, "libdevice")

    def cbrt(self, x: Any) -> TensorValue:
        return self.sem.float_math("cbrt", x, "libdevice")

    def pow(self, x: Any, y: Any) -> TensorValue:
        """An int32 exponent (a Python int too) is libdevice's ``powi``, as Triton picks."""
        e = y.value if isinstance(y, core.constexpr) else y
        if (isinstance(e, TensorValue) and e.dtype == core.int32) or (
            isinstance(e, int) and not isinstance(e, bool) and -(2**31) <= e < 2**31
        ):
            return self.extern("pow", x, e)
        return self.sem.float_math2("pow", x, y, "libdevice")

    def atan2(self, x: Any, y: Any) -> TensorValue:
        return self.sem.float_math2("atan2", x, y, "libdevice")

    def copysign(self, x: Any, y: Any) -> TensorValue:
        return self.sem.float_math2("copysign", x, y, "libdevice")

    def fmod(self, x: Any, y: Any) -> TensorValue:
        return self.sem.float_math2("fmod", x, y, "libdevice")

    def fabs(self, x: Any) -> TensorValue:
        (a,) = self.sem.float_operands("libdevice.fabs", x)
        return self.sem.abs(a)

    def fmin(self, x: Any, y: Any) -> TensorValue:
        """C ``fmin``: a NaN operand is ignored, as ``tl.minimum``'s default."""
        a, b = self.sem.float_operands("libdevice.fmin", x, y)
        return self.sem.extremum("minimum", a, b)

    def fmax(self, x: Any, y: Any) -> TensorValue:
        """C ``fmax``: a NaN operand is ignored, as ``tl.maximum``'s default."""
        a, b = self.sem.float_operands("libdevice.fmax", x, y)
        return self.sem.extremum("maximum", a, b)

    def fast_expf(self, x: Any) -> TensorValue:
        return self.sem.float_math("exp", x, "libdevice")

    def fast_logf(self, x: Any) -> TensorValue:
        return self.sem.float_math("log", x, "libdevice")

    def fast_dividef(self, x: Any, y: Any) -> TensorValue:
        return self._float_division(x, y, "libdevice.fast_dividef")

    def _classify(self, x: Any, what: str, inf: bool) -> TensorValue:
        """libdevice's ``isnan``/``isinf``: int32 1 or 0 (``__nv_isnanf`` returns an int)."""
        (a,) = self.sem.float_operands(what, x)
        if inf:
            inf_ = self.sem.constant(float("inf"), a.dtype)  # compared in a's own dtype
            hit = self.sem.compare("==", self.sem.abs(a), inf_)
        else:
            hit = self.sem.compare("!=", a, a)
        return self.sem.cast(hit, core.int32)

    def isnan(self, x: Any) -> TensorValue:
        return self._classify(x, "libdevice.isnan", inf=False)

    def isinf(self, x: Any) -> TensorValue:
        return self._classify(x, "libdevice.isinf", inf=True)

    def cdiv(self, x: Any, div: Any) -> Any:
        if not isinstance(x, TensorValue) and not isinstance(div, TensorValue):
            return (x + div - 1) // div
        return self.sem.floordiv(self.sem.arith("-", self.sem.arith("+", x, div), 1), div)

    # ---- reductions and scans: ReduceBuiltins (reduce_builtins.py) ----

    # ---- linear algebra ----

    def dot(
        self,
        input: Any,
        other: Any,
        acc: Any,
        input_precision: Any,
        allow_tf32: Any,
        max_num_imprecise_acc: Any,
        out_dtype: Any,
    ) -> TensorValue:
        a, b = self._tensor(input, "tl.dot's input"), self._tensor(other, "tl.dot's other")
        if a.dtype.is_fp8() and b.dtype.is_fp8() and not (_mma_fp8(a) and _mma_fp8(b)):
            # fp8 formats that no MMA takes: as float16 (exact), an f16 dot
            a, b = self.sem.cast(a, core.float16), self.sem.cast(b, core.float16)
        for v, what in ((a, "input"), (b, "other")):
            if len(v.shape) < 2 or len(v.shape) != len(a.shape):
                raise KernelTypeError(
                    f"tl.dot's {what} must be a rank-2 block (a higher rank for a batched dot, "
                    f"both operands alike), got shape {list(v.shape)}",
                    self.b.loc,
                )
            if v.dtype not in _DOT_OPERAND_DTYPES:
                raise KernelTypeError(
                    f"tl.dot's {what} must hold tl.int8, tl.float16, tl.bfloat16, tl.float32 or "
                    f"tl.float64 (or both operands an fp8 dtype), got {v.dtype}",
                    self.b.loc,
                )
        if a.dtype != b.dtype and not (_mma_fp8(a) and _mma_fp8(b)):
            raise KernelTypeError(
                f"tl.dot: both operands must have the same dtype, got {a.dtype} and {b.dtype} "
                "(cast one with .to())",
                self.b.loc,
            )
        (m, k), (k2, n) = a.shape[-2:], b.shape[-2:]
        batch = a.shape[:-2]  # () or (B,): a batched dot multiplies B matrix pairs
        if batch != b.shape[:-2]:
            raise KernelTypeError(
                f"tl.dot: batch dimensions differ: {list(a.shape)} x {list(b.shape)}", self.b.loc
            )
        if k != k2:
            raise KernelTypeError(
                f"tl.dot: inner dimensions differ: [{m}, {k}] x [{k2}, {n}]", self.b.loc
            )
        if len(batch) > 1:  # several batch dimensions: one batched dot over all of them
            options = (input_precision, allow_tf32, max_num_imprecise_acc, out_dtype)
            return self._multidim_dot(a, b, acc, options)
        precision = self._dot_precision(input_precision, allow_tf32)
        interval = self._imprecise_acc(max_num_imprecise_acc, a, b, k)
        out = self._dtype(out_dtype)
        result = self._dot_result_dtype(a.dtype, out)
        if result != core.float32:
            interval = None  # the MMAs of f16 accumulators have no wider one to promote into
        f32_precision = precision if a.dtype == core.float32 else None
        # ``out_dtype=tl.float16``: the dot accumulates in f32 over its K and rounds once at
        # its end, so the tensor cores take it (f32-accumulator MMAs) and how often the result
        # rounds does not depend on the backend or the tile. Triton's f16-accumulator MMAs
        # round after every 16 k, its CUDA-core loop after every k.
        wide = core.float32 if result == core.float16 else result
        if acc is None:
            zeros = self.zeros((*batch, m, n), wide).handle
            dot = tt.DotOp(a.handle, b.handle, zeros, f32_precision, interval)
            return self.sem.cast(TensorValue(self.b.insert(dot).result), result)
        c = self._tensor(acc, "tl.dot's acc")
        if c.shape != (*batch, m, n) or c.dtype != result or c.dtype != out:
            raise KernelTypeError(
                f"tl.dot: acc must be a {result} block of shape {[*batch, m, n]} and out_dtype "
                "must be "
                f"{result} for {a.dtype} operands, got acc {c.dtype} {list(c.shape)} with "
                f"out_dtype {out}",
                self.b.loc,
            )
        c_wide = self.sem.cast(c, wide).handle
        dot = tt.DotOp(a.handle, b.handle, c_wide, f32_precision, interval)
        return self.sem.cast(TensorValue(self.b.insert(dot).result), result)

    def _multidim_dot(
        self, a: TensorValue, b: TensorValue, acc: Any, options: tuple[Any, ...]
    ) -> TensorValue:
        """``[*batch, M, K] @ [*batch, K, N]`` as the batched dot of ``[prod(batch), M, K]``
        and ``[prod(batch), K, N]``, its result reshaped back (Triton's rank-4 and higher
        dots)."""
        (m, k), n = a.shape[-2:], b.shape[-1]
        batch = a.shape[:-2]
        flat = math.prod(batch)
        what = "tl.dot"
        a3 = self._reshape(a, (flat, m, k), what)
        b3 = self._reshape(b, (flat, k, n), what)
        c3 = acc
        if acc is not None:
            c = self._tensor(acc, "tl.dot's acc")
            if c.shape != (*batch, m, n):
                raise KernelTypeError(
                    f"tl.dot: acc must be a block of shape {[*batch, m, n]}, got {list(c.shape)}",
                    self.b.loc,
                )
            c3 = self._reshape(c, (flat, m, n), what)
        out = self.dot(a3, b3, c3, *options)  # the other tl.dot arguments, in order
        return self._reshape(out, (*batch, m, n), what)

    def _imprecise_acc(self, value: Any, a: TensorValue, b: TensorValue, k: int) -> int | None:
        """``max_num_imprecise_acc``, checked as Triton does (at most K); kept for dots of fp8
        operands, the only ones whose tensor cores sum with fewer bits than f32."""
        n = self._constexpr(value, "tl.dot's max_num_imprecise_acc")
        if n is None:
            return None
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise KernelValueError(
                f"tl.dot: max_num_imprecise_acc must be a non-negative int, got {n!r}",
                self.b.loc,
            )
        fp8 = _mma_fp8(a) and _mma_fp8(b)
        if fp8 and n > k:
            raise KernelValueError(
                f"tl.dot: max_num_imprecise_acc ({n}) must be <= K ({k})",
                self.b.loc,
                cause=f"max_num_imprecise_acc ({n}) must be <= K ({k})",
            )
        return max(n, 1) if fp8 else None  # 0: after every instruction, as 1

    def _dot_precision(self, input_precision: Any, allow_tf32: Any) -> str:
        """The precision of an f32 dot, checked and defaulted like Triton: ``allow_tf32``
        picks tf32 or ieee, else ``$TRITON_F32_DEFAULT``, else tf32."""
        precision = self._constexpr(input_precision, "tl.dot's input_precision")
        tf32 = self._constexpr(allow_tf32, "tl.dot's allow_tf32")
        if precision is not None and tf32 is not None:
            raise KernelValueError(
                "tl.dot: only one of input_precision and allow_tf32 can be specified", self.b.loc
            )
        if precision is not None and (
            not isinstance(precision, str) or precision.lower() not in _DOT_INPUT_PRECISIONS
        ):
            raise KernelValueError(
                f"tl.dot: input_precision must be one of {', '.join(_DOT_INPUT_PRECISIONS)}, "
                f"got {precision!r}",
                self.b.loc,
            )
        if precision is not None:
            return str(precision).lower()
        if tf32 is not None:
            return "tf32" if tf32 else "ieee"
        default = str(knobs.language.fp32_default or "tf32").lower()
        if default not in _DOT_INPUT_PRECISIONS:
            raise KernelValueError(
                f"$TRITON_F32_DEFAULT must be one of {', '.join(_DOT_INPUT_PRECISIONS)}, got "
                f"{default!r}",
                self.b.loc,
            )
        return default

    def _dot_result_dtype(self, operands: core.dtype, out: core.dtype) -> core.dtype:
        """Triton's rule: int8 -> int32, bf16 and f32 -> f32, f64 -> f64 whatever ``out_dtype``
        says (bfloat16 excepted); f16 and fp8 -> ``out_dtype``, float16 or float32."""
        if operands == core.int8:
            return core.int32
        if out == core.bfloat16:
            raise KernelTypeError(
                "tl.dot: out_dtype=bfloat16 is unsupported; use float32 or float16 and cast "
                "with .to(tl.bfloat16)",
                self.b.loc,
            )
        if operands == core.bfloat16:
            return core.float32
        if operands in (core.float32, core.float64):
            return operands
        if out not in (core.float16, core.float32):
            raise KernelTypeError(
                f"tl.dot: out_dtype must be tl.float16 or tl.float32 for {operands} operands, "
                f"got {out}",
                self.b.loc,
            )
        return out

    # ---- compile-time helpers (static_assert, static_print, hints: DebugBuiltins) ----

    def static_range(self, arg1: Any, arg2: Any, step: Any) -> None:
        raise KernelValueError("tl.static_range can only be iterated by a for loop", self.b.loc)

    def range(self, arg1: Any, arg2: Any, step: Any, *options: Any) -> None:
        raise KernelValueError("tl.range can only be iterated by a for loop", self.b.loc)
