"""Rules of ``tt.reduce`` and ``tt.scan``: their combine region run on whole NumPy arrays.

The region's ops are scalar `tt` ops, whose rules are elementwise NumPy: bound to flat arrays
of many element pairs at once, one run of the region combines them all. A reduction combines
neighbours pairwise (a tree along the axis, in element order, like the GPU's butterfly; a
non-associative combine function may differ from the GPU in rounding only); a scan runs the
region once per position along the axis, sequentially (from the end with ``reverse``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from mytriton.backends.interpreter.errors import PoisonUse, describe_program
from mytriton.backends.interpreter.registry import rule
from mytriton.backends.interpreter.values import Value, as_array, dtype_of
from mytriton.dialects.tt.reduce import ReduceOp, ReduceReturnOp, ScanOp, ScanReturnOp

if TYPE_CHECKING:
    from mytriton.backends.interpreter.engine import Executor

Array = np.ndarray


def _combine(
    ex: Executor, op: ReduceOp | ScanOp, lhs: Sequence[Array], rhs: Sequence[Array]
) -> list[Array]:
    """The region applied elementwise to ``lhs`` and ``rhs`` (N arrays each, one shape): on
    all elements at once, or one element at a time when the region branches (an ``scf.if``
    on a runtime value needs one condition per run)."""
    shape = np.broadcast_shapes(*(a.shape for a in [*lhs, *rhs]))
    size = int(np.prod(shape))
    block = op.combine_block
    flat = [np.broadcast_to(a, shape).reshape(-1) for a in [*lhs, *rhs]]
    types = [dtype_of(r.type) for r in op.results]
    if any(inner.regions for inner in block.walk()):
        out = [np.empty(size, t) for t in types]
        for i in range(size):
            for o, v in zip(out, _run(ex, op, [a[i : i + 1] for a in flat], 1), strict=True):
                o[i] = v[0]
        return [o.reshape(shape) for o in out]
    return [v.reshape(shape) for v in _run(ex, op, flat, size)]


def _run(ex: Executor, op: ReduceOp | ScanOp, args: Sequence[Array], size: int) -> list[Array]:
    """One run of the combine block on flat arguments of ``size`` elements."""
    block = op.combine_block
    for arg, a in zip(block.args, args, strict=True):
        ex.values[arg] = a
    out = ex.run_block(block)
    return [
        np.broadcast_to(as_array(v, f"{op.name} combine result"), (size,)).astype(
            dtype_of(r.type), copy=False
        )
        for v, r in zip(out, op.results, strict=True)
    ]


def _check_poison(ex: Executor, op: ReduceOp | ScanOp) -> None:
    """Combining uninitialised elements (``tl.empty``) is an error in debug mode."""
    if not ex.debug:
        return
    for v in op.srcs:
        p = ex.poison(v)
        if p is None:
            continue
        bad = np.broadcast_to(p.mask, (p.mask.shape[0], *as_array(ex.get(v), "").shape[1:]))
        if bad.any():
            program = int(np.unravel_index(int(np.argmax(bad)), bad.shape)[0])
            raise PoisonUse(
                f"the {'reduced' if isinstance(op, ReduceOp) else 'scanned'} block holds "
                f"elements derived from uninitialised data ({p.origin}) in "
                f"{describe_program(ex.pid_of_lane(program))}",
                op,
            )


@rule(ReduceOp)
def reduce(ex: Executor, op: ReduceOp) -> Sequence[Value]:
    _check_poison(ex, op)
    axis = op.axis.value.data + 1  # after the program axis
    srcs = [as_array(ex.get(v), "tt.reduce operand") for v in op.srcs]
    shape = np.broadcast_shapes(*(s.shape for s in srcs))
    xs = [np.moveaxis(np.broadcast_to(s, shape), axis, -1) for s in srcs]
    while xs[0].shape[-1] > 1:
        assert xs[0].shape[-1] % 2 == 0, "block dimensions are powers of two"
        xs = _combine(ex, op, [x[..., 0::2] for x in xs], [x[..., 1::2] for x in xs])
    return [x[..., 0] for x in xs]


@rule(ScanOp)
def scan(ex: Executor, op: ScanOp) -> Sequence[Value]:
    _check_poison(ex, op)
    axis = op.axis.value.data + 1
    srcs = [as_array(ex.get(v), "tt.scan operand") for v in op.srcs]
    shape = np.broadcast_shapes(*(s.shape for s in srcs))
    xs = [np.moveaxis(np.broadcast_to(s, shape), axis, 0) for s in srcs]
    n = xs[0].shape[0]
    order = range(n - 1, -1, -1) if op.is_reverse else range(n)
    outs = [np.empty(x.shape, dtype_of(r.type)) for x, r in zip(xs, op.results, strict=True)]
    acc: list[Array] | None = None
    for j in order:
        acc = [x[j] for x in xs] if acc is None else _combine(ex, op, acc, [x[j] for x in xs])
        for o, a in zip(outs, acc, strict=True):
            o[j] = a
    return [np.moveaxis(o, 0, axis) for o in outs]


@rule(ReduceReturnOp, ScanReturnOp)
def combine_return(ex: Executor, op: ReduceReturnOp | ScanReturnOp) -> Sequence[Value]:
    return [ex.get(v) for v in op.operands]
