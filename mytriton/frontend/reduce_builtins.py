"""``tl.reduce``, ``tl.associative_scan`` and the reductions built on them (``tl.sum``,
``tl.max``, ``tl.min``): each a ``tt.reduce``/``tt.scan`` whose combine region is the body of
a ``@jit`` function (inlined on scalar arguments) or of a few `tt` ops built here.

The library functions of Triton's ``standard.py`` that are plain ``tl`` code (``tl.cumsum``,
``tl.argmax``, ``tl.xor_sum``...) are ``@jit`` functions in ``mytriton/language/standard.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from xdsl.ir import Block, Operation, SSAValue

from mytriton.dialects.tt import core as tt
from mytriton.dialects.tt import elementwise as ew
from mytriton.dialects.tt.reduce import (
    ReduceOp,
    ReduceReturnOp,
    ScanOp,
    ScanReturnOp,
    combine_block,
)
from mytriton.errors import ConstexprError, KernelTypeError, KernelValueError
from mytriton.frontend.semantic import Semantic
from mytriton.frontend.values import TensorValue
from mytriton.language import core

Combine = Callable[[list[TensorValue]], Any]


class ReduceBuiltins:
    """Reductions and scans of ``Builtins``; ``call_jit`` (set by the code generator before
    each builtin call) compiles a call of a ``@jit`` function (inlined) or of a ``tl`` builtin
    at the current insertion point: how a combine function fills its region."""

    sem: Semantic
    call_jit: Callable[[Any, list[Any]], Any] | None = None

    # ---- helpers ----

    def _value(self, v: Any, what: str) -> Any:
        if isinstance(v, TensorValue):
            raise ConstexprError(f"{what} must be a compile-time constant", self.sem.b.loc)
        return v.value if isinstance(v, core.constexpr) else v

    def _reduce_axis(self, axis: Any, rank: int, what: str) -> int:
        a = self._value(axis, f"{what}'s axis")
        if not isinstance(a, int) or isinstance(a, bool):
            raise KernelTypeError(f"{what}: axis must be an integer, got {a!r}", self.sem.b.loc)
        if not -rank <= a < rank:
            raise KernelValueError(
                f"{what}: axis {a} out of range for a rank-{rank} block", self.sem.b.loc
            )
        return a + rank if a < 0 else a

    def _blocks(
        self, input: Any, what: str, fp8_ok: bool = False
    ) -> tuple[list[TensorValue], bool]:
        """The operands of a reduction or scan (a block, or a tuple of blocks of one shape) and
        whether a single block was given; fp8 only when it is converted first (``fp8_ok``)."""
        single = not isinstance(input, (tuple, list))
        values = [input] if single else list(input)
        if not values:
            raise KernelValueError(f"{what} needs at least one input", self.sem.b.loc)
        out: list[TensorValue] = []
        for v in values:
            if not isinstance(v, TensorValue):
                v = self.sem.to_tensor(v) if isinstance(v, (bool, int, float)) else v
            if not isinstance(v, TensorValue) or not v.is_block:
                got = f"a {v.dtype} scalar" if isinstance(v, TensorValue) else repr(v)
                raise KernelTypeError(f"{what} needs a block, got {got}", self.sem.b.loc)
            if v.is_pointer:
                raise KernelTypeError(f"{what} of pointers is not supported", self.sem.b.loc)
            if not fp8_ok:
                self.sem.no_fp8_arithmetic(what, v.dtype)
            out.append(v)
        shapes = {v.shape for v in out}
        if len(shapes) > 1:
            raise KernelValueError(
                f"{what}: all inputs must have one shape, got "
                + ", ".join(str(list(v.shape)) for v in out),
                self.sem.b.loc,
            )
        return out, single

    def _jit_combine(self, combine_fn: Any, what: str) -> Combine:
        fn = combine_fn.value if isinstance(combine_fn, core.constexpr) else combine_fn
        jit = getattr(fn, "is_mytriton_jit", False) is True  # compile_time.is_jit_function
        if not jit and not (callable(fn) and fn in core.BUILTINS):  # tl.maximum is one too
            raise KernelTypeError(
                f"{what}: combine_fn must be a @triton.jit function, got {fn!r}",
                self.sem.b.loc,
            )
        call = self.call_jit
        assert call is not None, "the code generator sets call_jit"
        return lambda args: call(fn, list(args))

    def _region(
        self,
        operands: Sequence[TensorValue],
        combine: Combine,
        ret: type[ReduceReturnOp] | type[ScanReturnOp],
        what: str,
    ) -> Block:
        """The combine block: ``combine`` applied to 2N scalar arguments, its N results checked
        against the operands' dtypes and returned."""
        block = combine_block([v.type for v in operands])
        args = [TensorValue(a) for a in block.args]
        b = self.sem.b
        loc = b.loc
        with b.at_end_of(block):
            out = combine(args)
            values = list(out) if isinstance(out, (tuple, list)) else [out]
            with b.located(loc):
                if len(values) != len(operands):
                    raise KernelTypeError(
                        f"{what}: combine_fn must return {len(operands)} value(s), one per "
                        f"input, got {len(values)}",
                        loc,
                    )
                handles: list[SSAValue] = []
                for i, (v, x) in enumerate(zip(values, operands, strict=True)):
                    if isinstance(v, core.constexpr):
                        v = v.value
                    if isinstance(v, (bool, int, float)):
                        v = self.sem.to_tensor(v, like=args[i])
                    if not isinstance(v, TensorValue) or v.is_block:
                        raise KernelTypeError(
                            f"{what}: combine_fn must return scalars, got {v!r} for result {i}",
                            loc,
                        )
                    if v.dtype != x.dtype:
                        raise KernelTypeError(
                            f"{what}: combine_fn returns {v.dtype} for result {i}, but the "
                            f"input is {x.dtype} (the combined values keep the inputs' dtypes)",
                            loc,
                        )
                    handles.append(v.handle)
                b.insert(ret(*handles))
        return block

    def _reduce_with(
        self, xs: list[TensorValue], axis: Any, keep_dims: Any, combine: Combine, what: str
    ) -> list[TensorValue]:
        """``xs`` reduced along ``axis`` (all axes, innermost first, when None)."""
        rank = len(xs[0].shape)
        keep = bool(self._value(keep_dims, "keep_dims"))
        axes = list(range(rank)) if axis is None else [self._reduce_axis(axis, rank, what)]
        for a in sorted(axes, reverse=True):
            block = self._region(xs, combine, ReduceReturnOp, what)
            op: Operation = self.sem.b.insert(ReduceOp([x.handle for x in xs], a, block))
            xs = [TensorValue(r) for r in op.results]
        if keep:
            for a in sorted(axes):
                xs = [self.sem.expand_dims(x, a) for x in xs]
        return xs

    # ---- the general forms ----

    def reduce(self, input: Any, axis: Any, combine_fn: Any, keep_dims: Any) -> Any:
        xs, single = self._blocks(input, "tl.reduce")
        combine = self._jit_combine(combine_fn, "tl.reduce")
        out = self._reduce_with(xs, axis, keep_dims, combine, "tl.reduce")
        return out[0] if single else tuple(out)

    def associative_scan(self, input: Any, axis: Any, combine_fn: Any, reverse: Any) -> Any:
        what = "tl.associative_scan"
        xs, single = self._blocks(input, what)
        combine = self._jit_combine(combine_fn, what)
        a = self._reduce_axis(axis, len(xs[0].shape), what)
        backwards = bool(self._value(reverse, "reverse"))
        block = self._region(xs, combine, ScanReturnOp, what)
        op: Operation = self.sem.b.insert(ScanOp([x.handle for x in xs], a, backwards, block))
        out = [TensorValue(r) for r in op.results]
        return out[0] if single else tuple(out)

    # ---- sum, max, min ----

    def _one_block(self, input: Any, what: str, fp8_ok: bool = False) -> TensorValue:
        xs, single = self._blocks(input, what, fp8_ok)
        if not single:
            raise KernelTypeError(f"{what} takes one block, not a tuple", self.sem.b.loc)
        return xs[0]

    def _elementwise(self, op: Callable[[SSAValue, SSAValue], Operation]) -> Combine:
        def combine(args: list[TensorValue]) -> TensorValue:
            a, b = args
            return TensorValue(self.sem.b.insert(op(a.handle, b.handle)).result)  # type: ignore[attr-defined]

        return combine

    def sum(self, input: Any, axis: Any, keep_dims: Any, dtype: Any) -> TensorValue:
        d = self._value(dtype, "tl.sum's dtype")
        if d is not None and not isinstance(d, core.dtype):
            raise KernelTypeError(f"expected a dtype such as tl.float32, got {d!r}", self.sem.b.loc)
        x = self._one_block(input, "tl.sum", fp8_ok=d is not None)  # tl.sum(x, dtype=tl.float32)
        if d is None or d.is_fp8():
            self.sem.no_fp8_arithmetic("tl.sum", d or x.dtype)
        parity = d == core.int1  # a sum of int1 wraps to its low bit: the int32 count's parity
        if d is None or parity:
            d = _sum_dtype(x.dtype)
        x = self.sem.cast(x, d)
        (total,) = self._reduce_with([x], axis, keep_dims, self._elementwise(ew.AddOp), "tl.sum")
        if parity:
            return self.sem.to_bool(self.sem.bitwise("&", total, 1))
        return total

    def _extremum(
        self,
        name: str,
        input: Any,
        axis: Any,
        return_indices: Any,
        tie_break_left: Any,
        keep_dims: Any,
    ) -> Any:
        what = f"tl.{name}"
        x = self._one_block(input, what)
        if x.dtype == core.bfloat16:
            x = self.sem.cast(x, core.float32)  # Triton: no bf16 max/min/compare in hardware
        if self._value(return_indices, "return_indices"):
            from mytriton.language import standard

            left = bool(self._value(tie_break_left, "return_indices_tie_break_left"))
            table = standard.argmax_combine if name == "max" else standard.argmin_combine
            return self.reduce_with_indices(x, axis, table[left], keep_dims, what)
        # Triton reduces narrow types in 32 bits: booleans as int32 0/1 (max is any, min all)
        if x.dtype.primitive_bitwidth < 32:
            x = self.sem.cast(x, core.float32 if x.dtype.kind == "float" else core.int32)
        cls = ew.MaximumOp if name == "max" else ew.MinimumOp

        def combine(args: list[TensorValue]) -> TensorValue:
            a, b = args
            op = cls(a.handle, b.handle, ew.PropagateNan.NONE)
            return TensorValue(self.sem.b.insert(op).result)

        (out,) = self._reduce_with([x], axis, keep_dims, combine, what)
        return out

    def reduce_with_indices(
        self, x: TensorValue, axis: Any, combine_fn: Any, keep_dims: Any, what: str
    ) -> tuple[TensorValue, TensorValue]:
        """``(values, indices)`` of a reduction over (value, position along ``axis``) pairs."""
        if axis is None or self._value(axis, "axis") is None:
            raise KernelValueError(f"{what} with indices needs an axis", self.sem.b.loc)
        rank = len(x.shape)
        a = self._reduce_axis(axis, rank, what)
        n = x.shape[a]
        index = TensorValue(self.sem.b.insert(tt.MakeRangeOp(0, n)).result)
        for d in range(rank):
            if d != a:
                index = self.sem.expand_dims(index, d)
        index = self.sem.broadcast_to(index, x.shape)
        combine = self._jit_combine(combine_fn, what)
        values, indices = self._reduce_with([x, index], a, keep_dims, combine, what)
        return values, indices

    def max(
        self,
        input: Any,
        axis: Any,
        return_indices: Any,
        return_indices_tie_break_left: Any,
        keep_dims: Any,
    ) -> Any:
        return self._extremum(
            "max", input, axis, return_indices, return_indices_tie_break_left, keep_dims
        )

    def min(
        self,
        input: Any,
        axis: Any,
        return_indices: Any,
        return_indices_tie_break_left: Any,
        keep_dims: Any,
    ) -> Any:
        return self._extremum(
            "min", input, axis, return_indices, return_indices_tie_break_left, keep_dims
        )


def _sum_dtype(d: core.dtype) -> core.dtype:
    """Triton's default accumulator of ``tl.sum``/``tl.cumsum``: integers narrower than 32
    bits in 32 bits of their signedness (booleans count as unsigned, as in Triton's dtype
    tables), everything else in itself."""
    if d.kind in ("bool", "int") and d.primitive_bitwidth < 32:
        return core.uint32 if d.is_int_unsigned() else core.int32
    return d
