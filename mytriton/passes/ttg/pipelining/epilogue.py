"""The end of a pipelined loop's rewrite (``async_copies``'s module doc): the new yield (the
carried values kept, the addresses' next state, the next tile), the carried addresses that only
fed the rewritten loads dropped, the new ``scf.for`` in place of the old one, and after it the
wait for every copy (``ttg.async_wait {num = 0}``), the barriers invalidated and the last
iteration's asynchronous dots waited for.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import scf
from xdsl.dialects.builtin import i32
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.traits import get_effects

from mytriton.dialects.ttg.shared import AsyncWaitOp, MemDescIndexOp
from mytriton.dialects.ttg.tma import InvalBarrierOp
from mytriton.passes.ttg.pipelining.async_dots import wait_after_loop
from mytriton.passes.ttg.pipelining.copies import Builder, LoopRewrite
from mytriton.passes.ttg.pipelining.loop_body import NewBody


def yield_next(
    r: LoopRewrite, block: Block, next_state: Sequence[SSAValue], counters: Sequence[SSAValue]
) -> list[int]:
    """End ``block`` with the new yield: the carried values still read, then ``next_state``
    and ``counters``. The indices of the old loop's carried values kept."""
    end = block.last_op
    assert isinstance(end, scf.YieldOp)
    # a carried address that only fed the rewritten loads now only computes its own next value
    dead = {
        j: ops for j in r.plan.carried if (ops := _dead_cycle(r.loop, block, end, j)) is not None
    }
    kept = [j for j in range(len(r.loop.iter_args)) if j not in dead]
    new_yield = scf.YieldOp(*(end.operands[j] for j in kept), *next_state, *counters)
    new_yield.location = end.location
    block.insert_op_before(new_yield, end)
    end.detach()
    end.erase()
    freed: set[Operation] = set()  # ops of the body that only fed what is erased
    for op in reversed(list(block.ops)):
        if any(op in ops for ops in dead.values()) or (op in freed and _unused_pure(op)):
            freed.update(o.owner for o in op.operands if isinstance(o.owner, Operation))
            op.detach()
            op.erase()
    for j in sorted(dead, reverse=True):
        block.erase_arg(block.args[1 + j])
    return kept


def replace_loop(
    r: LoopRewrite,
    body: NewBody,
    kept: Sequence[int],
    state: Sequence[SSAValue],
    carried_dots: Sequence[int],
) -> scf.ForOp:
    """The new loop over ``body`` in place of the old one (its carried values ``kept``, then
    the prologue's ``state``: the carried addresses' and the index loads', and the counters),
    and what follows it: the last copies waited for, the barriers invalidated, the dots still
    in flight (``carried_dots``) waited for."""
    loop, parent, out = r.loop, r.parent, r.out
    inits = [
        *(loop.iter_args[j] for j in kept),
        *state,
        *(out.const(0, i32) for _ in body.counters),
    ]
    new_loop = scf.ForOp(loop.lb, loop.ub, loop.step, inits, Region(body.block))
    new_loop.attributes.update(loop.attributes)
    new_loop.location = loop.location
    parent.insert_op_before(new_loop, loop)
    for j, replacement in zip(kept, new_loop.results, strict=False):
        replacement.name_hint = loop.results[j].name_hint
        loop.results[j].replace_all_uses_with(replacement)
    drain = AsyncWaitOp(0)
    drain.location = loop.location
    parent.insert_op_after(drain, new_loop)
    if r.barriers is not None:  # done with: the next run of the loop initialises them again
        follows = drain.next_op
        assert follows is not None  # (the function's return, at least)
        after = Builder(parent, follows, loop)
        for k in range(r.slots):
            after.add(InvalBarrierOp(after.value(MemDescIndexOp(r.barriers, after.const(k, i32)))))
    wait_after_loop(loop, new_loop, [kept.index(j) for j in carried_dots])
    loop.detach()
    loop.erase()
    return new_loop


def _dead_cycle(loop: scf.ForOp, body: Block, end: scf.YieldOp, j: int) -> set[Operation] | None:
    """The pure ops of ``body`` that only carry value ``j`` to its next iteration (when the
    loop's result ``j`` is unused too), or None when anything else reads it."""
    if loop.results[j].uses:
        return None
    ops: set[Operation] = set()
    todo: list[SSAValue] = [body.args[1 + j]]
    while todo:
        for use in todo.pop().uses:
            user = use.operation
            if user is end:
                if use.index != j:
                    return None
                continue
            if user in ops:
                continue
            effects = get_effects(user)
            if user.parent_block() is not body or user.regions or effects is None or effects:
                return None
            ops.add(user)
            todo.extend(user.results)
    return ops


def _unused_pure(op: Operation) -> bool:
    effects = get_effects(op)
    return (
        effects is not None
        and not effects
        and not op.regions
        and not any(r.uses for r in op.results)
    )
