"""Implementations of the ``tl.*`` builtins: one method per builtin, named like it.

The code generator binds a call's arguments against the signature declared in
``mytriton.language`` and calls the method here with the bound arguments as keywords. Arguments
are ``TensorValue``s (runtime) or plain Python values (compile time).

``Builtins`` holds the argument helpers, the programming model, creation, casts and the
broadcasting builtins; the others come from one mixin per family (``memory_builtins.py``,
``math_builtins.py``, ``dot_builtins.py``, ``reduce_builtins.py``, ``shape_builtins.py``, ...).
"""

from __future__ import annotations

from typing import Any

from mytriton.dialects.tt import core as tt
from mytriton.dialects.tt.types import block_shape_problem, block_type, triton_shape_problem
from mytriton.errors import ConstexprError, KernelTypeError, KernelValueError
from mytriton.frontend.atomic_builtins import AtomicBuiltins
from mytriton.frontend.cuda_builtins import CudaBuiltins
from mytriton.frontend.debug_builtins import DebugBuiltins
from mytriton.frontend.descriptor_atomics import DescriptorAtomicBuiltins
from mytriton.frontend.descriptor_gather import DescriptorGatherBuiltins
from mytriton.frontend.dot_builtins import DotBuiltins
from mytriton.frontend.dot_scaled import DotScaledBuiltins
from mytriton.frontend.dtypes import to_ir
from mytriton.frontend.libdevice_builtins import LibdeviceBuiltins
from mytriton.frontend.map_elementwise import MapElementwiseBuiltins
from mytriton.frontend.math_builtins import MathBuiltins
from mytriton.frontend.memory_builtins import MemoryBuiltins
from mytriton.frontend.reduce_builtins import ReduceBuiltins
from mytriton.frontend.semantic import Semantic
from mytriton.frontend.shape_builtins import ShapeBuiltins
from mytriton.frontend.values import TensorValue
from mytriton.language import core


class Builtins(
    MemoryBuiltins,
    MathBuiltins,
    DotBuiltins,
    ReduceBuiltins,
    LibdeviceBuiltins,
    DebugBuiltins,
    DescriptorGatherBuiltins,  # and TensorDescriptorBuiltins, BlockPointerBuiltins, its bases
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

    # ---- loads and stores: MemoryBuiltins (memory_builtins.py) ----

    # ---- math: MathBuiltins (math_builtins.py); libdevice: LibdeviceBuiltins ----

    # ---- reductions and scans: ReduceBuiltins (reduce_builtins.py) ----

    # ---- linear algebra: DotBuiltins (dot_builtins.py), DotScaledBuiltins (dot_scaled.py) ----

    # ---- compile-time helpers (static_assert, static_print, hints: DebugBuiltins) ----

    def static_range(self, arg1: Any, arg2: Any, step: Any) -> None:
        raise KernelValueError("tl.static_range can only be iterated by a for loop", self.b.loc)

    def range(self, arg1: Any, arg2: Any, step: Any, *options: Any) -> None:
        raise KernelValueError("tl.range can only be iterated by a for loop", self.b.loc)
