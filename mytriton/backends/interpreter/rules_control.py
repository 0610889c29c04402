"""Rules of the upstream ops a kernel uses: ``arith.constant``, ``scf.for``/``scf.if``/
``scf.while``/``scf.condition``/``scf.yield`` and ``func.return``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, FloatAttr, IntegerAttr
from xdsl.ir import SSAValue

from mytriton.backends.cooperative import LoopWatch, loop_iteration
from mytriton.backends.interpreter.batching import BatchDiverged
from mytriton.backends.interpreter.errors import InterpreterError, PoisonUse
from mytriton.backends.interpreter.poison import Poison
from mytriton.backends.interpreter.registry import rule
from mytriton.backends.interpreter.values import Value, as_array, dtype_of
from mytriton.dialects.tt import fp8 as tt_fp8
from mytriton.dialects.tt.constants import UnsignedConstantOp
from mytriton.dialects.tt.types import shape_of, type_str

if TYPE_CHECKING:
    from mytriton.backends.interpreter.engine import Executor


@rule(arith.ConstantOp, UnsignedConstantOp)
def constant(ex: Executor, op: arith.ConstantOp | UnsignedConstantOp) -> Sequence[Value]:
    dtype = dtype_of(op.result.type)
    attr = op.value
    shape = shape_of(op.result.type)
    if isinstance(attr, IntegerAttr | FloatAttr):
        raw = np.array(attr.value.data)
        if dtype == np.bool_:
            scalar = raw != 0
        elif tt_fp8.is_fp8(op.result.type):  # exact, and fp8e4b15 is no ml_dtypes format
            scalar = tt_fp8.constant_array(float(attr.value.data), op.result.type)
        elif dtype.kind in "iu":
            # wraps literals like 0xFFFFFFFF : i32 (Python ints: uint64's exceed int64)
            scalar = np.array(int(attr.value.data) % (1 << (8 * dtype.itemsize))).astype(dtype)
        else:
            scalar = raw.astype(dtype)
        return (np.broadcast_to(scalar, (1, *shape)),)
    if isinstance(attr, DenseIntOrFPElementsAttr):
        data = np.array(attr.get_values()).reshape(shape)
        return (data.astype(dtype)[None],)
    raise InterpreterError(
        f"the interpreter does not support constant {attr} of type {type_str(op.result.type)}", op
    )


def _uniform_bound(value: Value, what: str) -> int:
    """A loop bound as a Python int; it must be the same in every program of the batch."""
    arr = as_array(value, f"loop {what}")
    if arr.shape[0] > 1 and np.any(arr != arr[0]):
        raise BatchDiverged()
    return int(arr[0])


@rule(scf.ForOp)
def for_loop(ex: Executor, op: scf.ForOp) -> Sequence[Value]:
    if ex.debug:
        for v, what in ((op.lb, "lower bound"), (op.ub, "upper bound"), (op.step, "step")):
            if (p := ex.poison(v)) is not None:
                raise PoisonUse(
                    f"the loop {what} is derived from uninitialised data ({p.origin})", op
                )
    lb = _uniform_bound(ex.get(op.lb), "lower bound")
    ub = _uniform_bound(ex.get(op.ub), "upper bound")
    step = _uniform_bound(ex.get(op.step), "step")
    if step <= 0:
        raise InterpreterError(f"the loop step must be positive, got {step}", op)
    block = op.body.block
    iv, *carried_args = block.args
    iv_dtype = dtype_of(iv.type)
    carried = [ex.get(v) for v in op.iter_args]
    poisons = [ex.poison(v) for v in op.iter_args] if ex.debug else []
    yield_op = block.last_op
    for i in range(lb, ub, step):
        ex.values[iv] = np.array([i]).astype(iv_dtype)
        for arg, value in zip(carried_args, carried, strict=True):
            ex.values[arg] = value
        if ex.debug:
            for arg, p in zip(carried_args, poisons, strict=True):
                ex.set_poison(arg, p)
        carried = list(ex.run_block(block))
        if ex.debug and yield_op is not None:
            poisons = [ex.poison(v) for v in yield_op.operands]
    if ex.debug:
        for r, p in zip(op.results, poisons, strict=True):
            ex.set_poison(r, p)
    return carried


@rule(scf.WhileOp)
def while_loop(ex: Executor, op: scf.WhileOp) -> Sequence[Value]:
    """Alternates the *before* region (the condition and the values it forwards) and the
    *after* region (the body) until the condition is false; it must be the same in every
    program of the batch at each check (a batch whose programs disagree is rerun one program
    at a time)."""
    before, after = op.before_region.block, op.after_region.block
    condition = before.last_op
    assert isinstance(condition, scf.ConditionOp)
    carried = [ex.get(v) for v in op.arguments]
    poisons = [ex.poison(v) for v in op.arguments] if ex.debug else []
    watch = LoopWatch()
    while True:
        # a program waiting for another one: its iteration changed nothing
        stalled = watch.iteration(carried, ex.memory.state)
        if stalled and ex.log is not None:
            raise BatchDiverged()  # programs one at a time, which know how to wait
        loop_iteration(stalled, lambda: f"program {ex.pid_of_lane(0)}")
        _bind(ex, before.args, carried, poisons)
        flag, *forwarded = ex.run_block(before)
        if ex.debug:
            if (p := ex.poison(condition.condition)) is not None:
                raise PoisonUse(
                    f"the `while` condition is derived from uninitialised data ({p.origin})", op
                )
            poisons = [ex.poison(v) for v in condition.args]
        cond = as_array(flag, "while condition")
        if cond.shape[0] > 1 and np.any(cond != cond[0]):
            raise BatchDiverged()
        if not bool(cond[0]):
            break
        _bind(ex, after.args, forwarded, poisons)
        carried = list(ex.run_block(after))
        if ex.debug and (y := after.last_op) is not None:
            poisons = [ex.poison(v) for v in y.operands]
    if ex.debug:
        for r, p in zip(op.results, poisons, strict=True):
            ex.set_poison(r, p)
    return forwarded


def _bind(
    ex: Executor, args: Sequence[SSAValue], values: Sequence[Value], poisons: list[Poison | None]
) -> None:
    """Give a region's block arguments their values (and, in debug mode, their poison)."""
    for arg, value in zip(args, values, strict=True):
        ex.values[arg] = value
    if ex.debug:
        for arg, p in zip(args, poisons, strict=True):
            ex.set_poison(arg, p)


@rule(scf.ConditionOp)
def condition(ex: Executor, op: scf.ConditionOp) -> Sequence[Value]:
    """The end of a ``scf.while`` *before* region: the flag, then the forwarded values."""
    return [ex.get(op.condition), *(ex.get(v) for v in op.args)]


@rule(scf.IfOp)
def conditional(ex: Executor, op: scf.IfOp) -> Sequence[Value]:
    """Runs the branch the condition selects; it must be the same in every program of the
    batch (a batch whose programs disagree is rerun one program at a time)."""
    if ex.debug and (p := ex.poison(op.cond)) is not None:
        raise PoisonUse(f"the `if` condition is derived from uninitialised data ({p.origin})", op)
    cond = as_array(ex.get(op.cond), "if condition")
    if cond.shape[0] > 1 and np.any(cond != cond[0]):
        raise BatchDiverged()
    region = op.true_region if bool(cond[0]) else op.false_region
    results = list(ex.run_block(region.block))
    if ex.debug:
        y = region.block.last_op
        assert y is not None
        for r, v in zip(op.results, y.operands, strict=True):
            ex.set_poison(r, ex.poison(v))
    return results


@rule(scf.YieldOp, func.ReturnOp)
def terminator(ex: Executor, op: scf.YieldOp | func.ReturnOp) -> Sequence[Value]:
    return [ex.get(v) for v in op.operands]
