"""``scf.if``, ``scf.for`` and ``scf.while`` with per-thread conditions, the way a SIMT GPU runs
them.

``scf.if`` runs each region under the mask of the threads that take it (nested masks compose,
memory is only touched by active threads) and merges the results per thread (a vector result
as a whole). ``scf.for`` needs bounds, ``scf.while`` its condition, uniform across a program's
active threads (the lowering only emits such loops; a GPU would diverge otherwise), but
programs of a batch may run different trip counts.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects import scf
from xdsl.ir import Operation

from mytriton.backends.cooperative import LoopWatch, loop_iteration
from mytriton.backends.gpusim.compiler import Compiler
from mytriton.backends.gpusim.dtypes import as_signed, dtype_of
from mytriton.backends.gpusim.machine import Machine, Step
from mytriton.backends.gpusim.registry import rule
from mytriton.backends.gpusim.values import Value, merge


@rule("scf.if", vectors=True)
def _if(op: Operation, c: Compiler) -> Step:
    assert isinstance(op, scf.IfOp)
    then_block = c.block(op.true_region.block)
    else_block = c.block(op.false_region.block) if op.false_region.blocks else None
    cond, outs = op.cond, list(op.results)

    def step(m: Machine) -> None:
        taken = m.env[cond]
        assert isinstance(taken, np.ndarray)
        outer = m.mask
        then_mask = outer & taken
        else_mask = outer & ~taken
        then_vals = m.run_block(then_block, then_mask) if then_mask.any() else None
        else_vals = (
            m.run_block(else_block, else_mask)
            if else_block is not None and else_mask.any()
            else None
        )
        if not outs:
            return
        if then_vals is None or else_vals is None:
            chosen = then_vals if then_vals is not None else else_vals
            assert chosen is not None  # the outer mask has active lanes
            for r, v in zip(outs, chosen, strict=True):
                m.env[r] = v
            return
        for r, a, b in zip(outs, then_vals, else_vals, strict=True):
            m.env[r] = merge(taken, a, b)

    return step


@rule("scf.for", vectors=True)
def _for(op: Operation, c: Compiler) -> Step:
    assert isinstance(op, scf.ForOp)
    body = c.block(op.body.block)
    iv, carried_args = op.body.block.args[0], list(op.body.block.args[1:])
    iv_dtype = dtype_of(iv.type)
    lb, ub, step_v, inits, outs = op.lb, op.ub, op.step, list(op.iter_args), list(op.results)

    def step(m: Machine) -> None:
        bounds = []
        for bound, what in ((lb, "the lower bound"), (ub, "the upper bound"), (step_v, "the step")):
            x = m.env[bound]
            assert isinstance(x, np.ndarray)
            m.check_uniform(op, x, f"scf.for: {what}")
            bounds.append(as_signed(x).astype(np.int64))
        i, end, stride = bounds
        bad = m.mask & (stride <= 0)
        if bad.any():
            m.fail(
                op, f"scf.for: the step must be positive, got {int(stride[np.argmax(bad)])}", bad
            )
        values: list[Value] = [m.env[v] for v in inits]
        running = m.mask & (i < end)
        while running.any():
            m.env[iv] = i.astype(iv_dtype)
            for arg, v in zip(carried_args, values, strict=True):
                m.env[arg] = v
            new = m.run_block(body, running)
            if np.array_equal(running, m.mask):  # nobody left the loop: no merge needed
                values = new
            else:
                values = [merge(running, n, v) for n, v in zip(new, values, strict=True)]
            i = i + stride
            running = running & (i < end)
        for r, v in zip(outs, values, strict=True):
            m.env[r] = v

    return step


@rule("scf.while", vectors=True)
def _while(op: Operation, c: Compiler) -> Step:
    assert isinstance(op, scf.WhileOp)
    before, after = c.block(op.before_region.block), c.block(op.after_region.block)
    before_args = list(op.before_region.block.args)
    after_args = list(op.after_region.block.args)
    inits, outs = list(op.arguments), list(op.results)

    def step(m: Machine) -> None:
        values: list[Value] = [m.env[v] for v in inits]
        running = m.mask
        results: list[Value] = []
        watch = LoopWatch() if m.watch_stalls else None
        while True:
            # a program waiting for another one: its iteration changed nothing
            stalled = watch is not None and watch.iteration([*values, running], m.state)
            loop_iteration(stalled, lambda: f"program {m.program_of(0)}")
            for arg, v in zip(before_args, values, strict=True):
                m.env[arg] = v
            flag, *forwarded = m.run_block(before, running)
            assert isinstance(flag, np.ndarray)
            _check_uniform_under(m, running, op, flag)
            leaving = running & ~flag
            if not results:
                results = forwarded
            elif leaving.any():
                results = [merge(leaving, f, r) for f, r in zip(forwarded, results, strict=True)]
            running = running & flag
            if not running.any():
                break
            for arg, v in zip(after_args, forwarded, strict=True):
                m.env[arg] = v
            new = m.run_block(after, running)
            if np.array_equal(running, m.mask):  # nobody has left the loop: no merge needed
                values = new
            else:
                values = [merge(running, n, v) for n, v in zip(new, values, strict=True)]
        for r, v in zip(outs, results, strict=True):
            m.env[r] = v

    return step


def _check_uniform_under(m: Machine, mask: np.ndarray, op: Operation, flag: np.ndarray) -> None:
    """The condition must be the same in every thread of a program still in the loop."""
    saved = m.mask
    m.mask = mask
    try:
        m.check_uniform(op, flag, "scf.while: the condition")
    finally:
        m.mask = saved
