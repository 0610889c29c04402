"""Rules of the `tt` ops that compute values: program ids, ranges, shape ops, factories,
reductions, ``dot``, and every elementwise op through its own ``evaluate`` (the semantics the
constant folder uses too, so folding and interpreting never disagree).

Block axes are shifted by one: axis 0 of every runtime value is the program axis.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import numpy as np

from mytriton.backends.interpreter.batching import BatchDiverged
from mytriton.backends.interpreter.errors import (
    InterpreterError,
    describe_line,
)
from mytriton.backends.interpreter.poison import Poison, make_poison, poison_block, union
from mytriton.backends.interpreter.registry import rule
from mytriton.backends.interpreter.values import Pointers, Value, as_array, dtype_of, map_value
from mytriton.dialects.tt import core as tt
from mytriton.dialects.tt import fp8 as tt_fp8
from mytriton.dialects.tt.elementwise import CmpOp, ElementwiseOp, SelectOp
from mytriton.dialects.tt.sreg import GlobaltimerOp, SmidOp
from mytriton.dialects.tt.types import shape_of

if TYPE_CHECKING:
    from xdsl.ir import Operation

    from mytriton.backends.interpreter.engine import Executor

Array = np.ndarray


def _same_poison(ex: Executor, op: Operation, fn: Callable[[Array], Array]) -> None:
    """Result poison = operand 0's poison put through the same shape function.

    Always (re)set: in a loop, the previous iteration's poison must not stick to the result.
    """
    if ex.debug:
        p = ex.poison(op.operands[0])
        ex.set_poison(op.results[0], None if p is None else Poison(fn(p.mask), p.origin))


# --------------------------------------------------------------------------------------------
# Program model
# --------------------------------------------------------------------------------------------


@rule(tt.GetProgramIdOp)
def program_id(ex: Executor, op: tt.GetProgramIdOp) -> Sequence[Value]:
    return (ex.pids[:, op.axis.index].astype(np.int32),)


@rule(tt.GetNumProgramsOp)
def num_programs(ex: Executor, op: tt.GetNumProgramsOp) -> Sequence[Value]:
    return (np.array([ex.launch.grid[op.axis.index]], dtype=np.int32),)


@rule(GlobaltimerOp)
def globaltimer(ex: Executor, op: GlobaltimerOp) -> Sequence[Value]:
    """The host's nanosecond clock, read when the programs run the op (it only grows)."""
    return (np.full(len(ex.pids), time.perf_counter_ns(), dtype=np.int64),)


@rule(SmidOp)
def smid(ex: Executor, op: SmidOp) -> Sequence[Value]:
    """One multiprocessor runs every program, as a GPU with one could."""
    return (np.zeros(1, dtype=np.int32),)


@rule(tt.MakeRangeOp)
def make_range(ex: Executor, op: tt.MakeRangeOp) -> Sequence[Value]:
    start, end = op.start.value.data, op.end.value.data
    return (np.arange(start, end, dtype=np.int32)[None],)


# --------------------------------------------------------------------------------------------
# Shape manipulation
# --------------------------------------------------------------------------------------------


def _splat_to(shape: tuple[int, ...]) -> Callable[[Array], Array]:
    """Scalars ``(L,)`` -> blocks ``(L, *shape)`` (a broadcast view, no copy)."""

    def fn(a: Array) -> Array:
        return np.broadcast_to(a.reshape((a.shape[0],) + (1,) * len(shape)), (a.shape[0], *shape))

    return fn


@rule(tt.SplatOp)
def splat(ex: Executor, op: tt.SplatOp) -> Sequence[Value]:
    fn = _splat_to(shape_of(op.result.type))
    _same_poison(ex, op, fn)
    return (map_value(ex.get(op.src), fn),)


@rule(tt.BroadcastOp)
def broadcast(ex: Executor, op: tt.BroadcastOp) -> Sequence[Value]:
    shape = shape_of(op.result.type)

    def fn(a: Array) -> Array:
        return np.broadcast_to(a, (a.shape[0], *shape))

    _same_poison(ex, op, fn)
    return (map_value(ex.get(op.src), fn),)


@rule(tt.ExpandDimsOp)
def expand_dims(ex: Executor, op: tt.ExpandDimsOp) -> Sequence[Value]:
    axis = op.axis.value.data + 1

    def fn(a: Array) -> Array:
        return np.expand_dims(a, axis)

    _same_poison(ex, op, fn)
    return (map_value(ex.get(op.src), fn),)


# --------------------------------------------------------------------------------------------
# Factories
# --------------------------------------------------------------------------------------------


@rule(tt.ZerosOp)
def zeros(ex: Executor, op: tt.ZerosOp) -> Sequence[Value]:
    return (np.zeros((1, *shape_of(op.result.type)), dtype=dtype_of(op.result.type)),)


@rule(tt.FullOp)
def full(ex: Executor, op: tt.FullOp) -> Sequence[Value]:
    fn = _splat_to(shape_of(op.result.type))
    _same_poison(ex, op, fn)
    return (fn(as_array(ex.get(op.value), "tt.full value")),)


@rule(tt.EmptyOp)
def empty(ex: Executor, op: tt.EmptyOp) -> Sequence[Value]:
    shape = (1, *shape_of(op.result.type))
    if ex.debug:
        mask = np.ones(shape, dtype=bool)
        ex.set_poison(op.result, Poison(mask, f"tl.empty at {describe_line(op)}"))
    return (poison_block(dtype_of(op.result.type), shape),)


# --------------------------------------------------------------------------------------------
# Dot
# --------------------------------------------------------------------------------------------


# ``tt.reduce`` and ``tt.scan``: rules_reduce.py


@rule(tt.DotOp)
def dot(ex: Executor, op: tt.DotOp) -> Sequence[Value]:
    a, b, acc = (as_array(ex.get(v), "tt.dot operand") for v in (op.a, op.b, op.acc))
    dtype = dtype_of(op.result.type)
    with np.errstate(all="ignore"):
        result = _dot_values(a, b, acc, dtype)
    if ex.debug:
        ex.set_poison(op.result, _dot_poison(ex, op, result.shape))
    return (result,)


def _dot_values(a: np.ndarray, b: np.ndarray, acc: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """``a @ b + acc`` as the GPU lowering computes it: integers exactly with i32 wrap-around,
    f32 and f64 in their own type, f16 operands in f32 with an f16 accumulator rounded after
    every k step (the CUDA-core FMA loop's rounding; only hand-written ``tt`` has one: the
    frontend's ``out_dtype=tl.float16`` is an f32 dot and a cast); fp8 operands as their
    (exact) values."""
    a, b = (tt_fp8.decode(x) if tt_fp8.format_of_dtype(x.dtype) else x for x in (a, b))
    if dtype.kind == "i":
        wide = np.matmul(a.astype(np.int64), b.astype(np.int64)) + acc.astype(np.int64)
        return wide.astype(dtype)
    if dtype == np.float16:
        f32 = np.float32
        a32, b32, c = a.astype(f32), b.astype(f32), acc.astype(np.float16)
        for k in range(a.shape[-1]):
            step = a32[..., :, k, None] * b32[..., None, k, :] + c.astype(f32)
            c = step.astype(np.float16)
        return c
    wide = np.matmul(a.astype(dtype, copy=False), b.astype(dtype, copy=False))
    return (wide + acc.astype(dtype, copy=False)).astype(dtype, copy=False)


def _dot_poison(ex: Executor, op: tt.DotOp, shape: tuple[int, ...]) -> Poison | None:
    """Element (m, n) is poisoned by row m of ``a``, column n of ``b`` or ``acc[m, n]``."""
    parts: list[Poison | None] = [ex.poison(op.acc)]
    if (p := ex.poison(op.a)) is not None:
        rows = np.any(np.broadcast_to(p.mask, (p.mask.shape[0], *shape_of(op.a.type))), axis=-1)
        parts.append(Poison(rows[..., :, None], p.origin))
    if (p := ex.poison(op.b)) is not None:
        cols = np.any(np.broadcast_to(p.mask, (p.mask.shape[0], *shape_of(op.b.type))), axis=-2)
        parts.append(Poison(cols[..., None, :], p.origin))
    return union(parts)


# --------------------------------------------------------------------------------------------
# Elementwise ops
# --------------------------------------------------------------------------------------------


@rule(ElementwiseOp)
def elementwise(ex: Executor, op: ElementwiseOp) -> Sequence[Value]:
    args = [ex.get(v) for v in op.operands]
    result: Value
    if any(isinstance(a, Pointers) for a in args):
        result = _pointer_elementwise(op, args)
    else:
        result = op.evaluate(*args)  # type: ignore[arg-type]
        expected = ex.launch.kernel.memo(op, lambda: dtype_of(op.results[0].type))
        if result.dtype != expected:
            raise InterpreterError(
                f"'{op.name}' computed {result.dtype} instead of {expected} (an interpreter bug)",
                op,
            )
    if ex.debug:
        ex.set_poison(op.results[0], _elementwise_poison(ex, op, args))
    return (result,)


def _elementwise_poison(ex: Executor, op: ElementwiseOp, args: list[Value]) -> Poison | None:
    if isinstance(op, SelectOp):
        cond = as_array(args[0], "select condition")
        lhs, rhs = ex.poison(op.lhs), ex.poison(op.rhs)
        picked: Poison | None = None
        if lhs is not None or rhs is not None:
            origin = lhs.origin if lhs is not None else rhs.origin  # type: ignore[union-attr]
            lhs_mask = lhs.mask if lhs is not None else np.zeros((), dtype=bool)
            rhs_mask = rhs.mask if rhs is not None else np.zeros((), dtype=bool)
            picked = make_poison(np.where(cond, lhs_mask, rhs_mask), origin)
        return union([ex.poison(op.cond), picked])
    return union([ex.poison(v) for v in op.operands])


def _pointer_elementwise(op: ElementwiseOp, args: list[Value]) -> Value:
    """Comparisons and selects of pointers into the same array act on their offsets."""
    if isinstance(op, CmpOp):
        a, b = args
        assert isinstance(a, Pointers) and isinstance(b, Pointers)
        if a.base == b.base:
            return op.evaluate(a.offsets, b.offsets)
        predicate = op.predicate.data.value
        if predicate in ("eq", "ne"):
            shape = np.broadcast_shapes(a.offsets.shape, b.offsets.shape)
            return np.full(shape, predicate == "ne")
        raise InterpreterError("ordering comparison of pointers into different arrays", op)
    if isinstance(op, SelectOp):
        cond, a, b = args
        assert isinstance(a, Pointers) and isinstance(b, Pointers)
        cond = as_array(cond, "select condition")
        if a.base == b.base:
            return a.with_offsets(op.evaluate(cond, a.offsets, b.offsets))
        # A pointer value holds one array; a choice of array is fine when all lanes agree.
        if cond.all() or not cond.any():
            chosen = a if cond.all() else b
            shape = np.broadcast_shapes(cond.shape, a.offsets.shape, b.offsets.shape)
            return chosen.with_offsets(np.broadcast_to(chosen.offsets, shape))
        per_program = cond.reshape(cond.shape[0], -1)
        if np.all(per_program.all(axis=1) | ~per_program.any(axis=1)):
            raise BatchDiverged()  # each program picks one array, but not the same one
        raise InterpreterError(
            "the interpreter cannot select lane by lane between pointers into different arrays",
            op,
        )
    raise InterpreterError(f"'{op.name}' does not take pointer operands", op)
