"""Rules of the ops that move elements within a block (``tt_shape``): NumPy's ``transpose``,
row-major ``reshape``, ``stack``, ``concatenate`` and ``take_along_axis``.

Block axes are shifted by one: axis 0 of every runtime value is the program axis. Poison follows
the elements (debug mode).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import numpy as np

from mytriton.backends.interpreter.errors import InterpreterError, PoisonUse
from mytriton.backends.interpreter.poison import Poison, mask_of
from mytriton.backends.interpreter.registry import rule
from mytriton.backends.interpreter.values import Pointers, Value, as_array, map_value
from mytriton.dialects.tt import shape as tt_shape
from mytriton.dialects.tt.types import shape_of

if TYPE_CHECKING:
    from xdsl.ir import Operation, SSAValue

    from mytriton.backends.interpreter.engine import Executor

Array = np.ndarray


def _unary(ex: Executor, op: Operation, fn: Callable[[Array], Array]) -> Value:
    """``fn`` applied to operand 0 (to a pointer block's offsets) and to its poison."""
    if ex.debug:
        p = ex.poison(op.operands[0])
        poison = None if p is None else Poison(fn(_full_mask(ex, op.operands[0])), p.origin)
        ex.set_poison(op.results[0], poison)
    return map_value(ex.get(op.operands[0]), fn)


def _full_mask(ex: Executor, v: SSAValue) -> Array:
    """``v``'s poison mask at full shape, one row per program of the batch."""
    return mask_of(ex.poison(v), (ex.programs, *shape_of(v.type)))


def _binary(ex: Executor, op: Operation, fn: Callable[[Array, Array], Array]) -> Value:
    """``fn`` on both operands (numbers, or pointers into one array) and on their poison."""
    a, b = ex.get(op.operands[0]), ex.get(op.operands[1])
    if isinstance(a, Pointers) or isinstance(b, Pointers):
        if not (isinstance(a, Pointers) and isinstance(b, Pointers) and a.base == b.base):
            raise InterpreterError(f"{op.name} of pointers into different arrays", op)
        x, y = np.broadcast_arrays(a.offsets, b.offsets)
        result: Value = a.with_offsets(fn(x, y))
    else:
        x, y = np.broadcast_arrays(a, b)
        result = fn(x, y)
    if ex.debug:
        pa, pb = ex.poison(op.operands[0]), ex.poison(op.operands[1])
        if pa is None and pb is None:
            ex.set_poison(op.results[0], None)
        else:
            origin = (pa or pb).origin  # type: ignore[union-attr]
            mask = fn(_full_mask(ex, op.operands[0]), _full_mask(ex, op.operands[1]))
            ex.set_poison(op.results[0], Poison(mask, origin))
    return result


@rule(tt_shape.TransOp)
def trans(ex: Executor, op: tt_shape.TransOp) -> Sequence[Value]:
    axes = (0, *(d + 1 for d in op.permutation))
    return (_unary(ex, op, lambda a: np.transpose(a, axes)),)


@rule(tt_shape.ReshapeOp)
def reshape(ex: Executor, op: tt_shape.ReshapeOp) -> Sequence[Value]:
    shape = shape_of(op.result.type)

    def fn(a: Array) -> Array:
        return np.reshape(a, (a.shape[0], *shape))

    return (_unary(ex, op, fn),)


@rule(tt_shape.JoinOp)
def join(ex: Executor, op: tt_shape.JoinOp) -> Sequence[Value]:
    return (_binary(ex, op, lambda a, b: np.stack([a, b], axis=-1)),)


@rule(tt_shape.CatOp)
def cat(ex: Executor, op: tt_shape.CatOp) -> Sequence[Value]:
    def fn(a: Array, b: Array) -> Array:
        lanes = max(a.shape[0], b.shape[0])
        a = np.broadcast_to(a, (lanes, *a.shape[1:]))
        b = np.broadcast_to(b, (lanes, *b.shape[1:]))
        return np.concatenate([a, b], axis=1)

    a, b = ex.get(op.lhs), ex.get(op.rhs)
    if isinstance(a, Pointers) or isinstance(b, Pointers):
        if not (isinstance(a, Pointers) and isinstance(b, Pointers) and a.base == b.base):
            raise InterpreterError("tt.cat of pointers into different arrays", op)
        return (a.with_offsets(fn(a.offsets, b.offsets)),)
    if ex.debug:
        pa, pb = ex.poison(op.lhs), ex.poison(op.rhs)
        if pa is None and pb is None:
            ex.set_poison(op.result, None)
        else:
            origin = (pa or pb).origin  # type: ignore[union-attr]
            mask = fn(_full_mask(ex, op.lhs), _full_mask(ex, op.rhs))
            ex.set_poison(op.result, Poison(mask, origin))
    return (fn(a, b),)


@rule(tt_shape.SplitOp)
def split(ex: Executor, op: tt_shape.SplitOp) -> Sequence[Value]:
    src = ex.get(op.src)
    halves = (map_value(src, lambda a: a[..., 0]), map_value(src, lambda a: a[..., 1]))
    if ex.debug:
        p = ex.poison(op.src)
        for i, r in enumerate(op.results):
            if p is None:
                ex.set_poison(r, None)
            else:
                ex.set_poison(r, Poison(_full_mask(ex, op.src)[..., i], p.origin))
    return halves


@rule(tt_shape.GatherOp)
def gather(ex: Executor, op: tt_shape.GatherOp) -> Sequence[Value]:
    axis = op.dim + 1
    idx = as_array(ex.get(op.indices), "tt.gather indices").astype(np.int64)
    n = shape_of(op.src.type)[op.dim]
    if idx.size and (idx.min() < 0 or idx.max() >= n):
        bad = int(idx.min()) if idx.min() < 0 else int(idx.max())
        raise InterpreterError(
            f"tl.gather: index {bad} out of range for axis {op.dim} of size {n}", op
        )

    def fn(src: Array) -> Array:
        lanes = max(src.shape[0], idx.shape[0])
        s = np.broadcast_to(src, (lanes, *src.shape[1:]))
        i = np.broadcast_to(idx, (lanes, *idx.shape[1:]))
        return np.take_along_axis(s, i, axis=axis)

    if ex.debug:
        p = ex.poison(op.src)
        if p is None:
            ex.set_poison(op.result, None)
        else:
            ex.set_poison(op.result, Poison(fn(_full_mask(ex, op.src)), p.origin))
    return (map_value(ex.get(op.src), fn),)


@rule(tt_shape.HistogramOp)
def histogram(ex: Executor, op: tt_shape.HistogramOp) -> Sequence[Value]:
    x = as_array(ex.get(op.src), "tt.histogram operand").astype(np.int64)
    bins = np.arange(shape_of(op.result.type)[0], dtype=np.int64)
    if ex.debug and (p := ex.poison(op.src)) is not None and _full_mask(ex, op.src).any():
        raise PoisonUse(
            f"the histogram counts elements derived from uninitialised data ({p.origin})", op
        )
    counts = (x[..., :, None] == bins).sum(axis=-2, dtype=np.int64)
    return (counts.astype(np.int32),)
