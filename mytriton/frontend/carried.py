"""The SSA values that runtime control flow (``scf.for``/``scf.while``/``scf.if``) carries for
a list of variables: one per ``TensorValue``, one per leaf of a ``CompositeValue`` (a block
pointer carries its base, shape, strides and offsets), and back.

A loop usually changes only some leaves of a record (``tl.advance`` moves the offsets, never
the base, shape or strides): ``drop_unchanged_leaves`` stops carrying the others, so that the
loop body sees them as the values from before the loop (a constant stride of 1 stays visibly 1,
which is what vectorizes the loads)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from xdsl.dialects import scf
from xdsl.ir import Block, Operation, SSAValue

from mytriton.frontend.ir_names import value_name
from mytriton.frontend.tuple_values import plain
from mytriton.frontend.values import CompositeValue, TensorValue

Carried = TensorValue | CompositeValue


def flat(values: Sequence[Carried]) -> list[TensorValue]:
    """The runtime values standing for ``values``, in order."""
    out: list[TensorValue] = []
    for v in values:
        out.extend(v.leaves() if isinstance(v, CompositeValue) else (v,))
    return out


def rebuild(
    names: Sequence[str | None], like: Sequence[Carried], handles: Sequence[SSAValue]
) -> list[Any]:
    """The variables ``names`` (shaped like ``like``) made of ``handles`` (block arguments or
    op results, as many as ``flat(like)``), which get the variables' names unless they have
    one (a leaf a loop does not carry is the value from before it) and the variable's name
    makes one (``value_name``; None: none)."""
    it = iter(handles)
    out: list[Any] = []
    for name, template in zip(names, like, strict=True):
        if isinstance(template, CompositeValue):
            leaves = []
            for suffix in template.leaf_names():
                h = next(it)
                h.name_hint = h.name_hint or (value_name(f"{name}_{suffix}") if name else None)
                leaves.append(TensorValue(h))
            out.append(plain(template.with_leaves(leaves)))  # a tuple is a tuple again
        else:
            h = next(it)
            h.name_hint = h.name_hint or (value_name(name) if name else None)
            out.append(TensorValue(h))
    assert next(it, None) is None, "more carried values than variables"
    return out


def describe_carried(v: Any) -> str:
    """What a variable holds, in words, for errors about values that differ between paths."""
    if isinstance(v, CompositeValue):
        return v.describe()
    if isinstance(v, TensorValue):
        if v.is_block:
            return f"a {v.dtype} block of shape {list(v.shape)}"
        return f"a {v.dtype} scalar"
    return f"the compile-time value {v!r}"


def drop_unchanged_leaves(
    inits: Sequence[Carried], blocks: Sequence[Block], first: int, body: Block
) -> set[int]:
    """Stop carrying the record leaves that ``body`` yields unchanged: positions ``i`` of
    ``flat(inits)`` whose ``scf.yield`` operand is ``body``'s argument ``first + i``. Their
    arguments in every block of ``blocks`` (the ``scf.for`` body; the ``scf.while`` *before*
    and *after* blocks) are replaced by the value from before the loop and removed, and so are
    the matching operands of the blocks' terminators. Returns the dropped positions."""
    leaves = flat(inits)
    positions: list[int] = []
    i = 0
    for v in inits:
        n = len(v.leaves()) if isinstance(v, CompositeValue) else 1
        if isinstance(v, CompositeValue):
            positions.extend(range(i, i + n))
        i += n
    yielded = body.last_op
    if not isinstance(yielded, scf.YieldOp) or len(yielded.operands) != len(flat(inits)):
        return set()  # not the plain loop shape this is written for: carry everything
    drop = {i for i in positions if yielded.operands[i] is body.args[first + i]}
    if not drop:
        return drop
    for block in blocks:
        terminator = block.last_op
        assert terminator is not None
        lead = 1 if isinstance(terminator, scf.ConditionOp) else 0
        kept = [v for j, v in enumerate(terminator.operands[lead:]) if j not in drop]
        if isinstance(terminator, scf.ConditionOp):
            replacement: Operation = scf.ConditionOp(terminator.operands[0], *kept)
        else:
            replacement = scf.YieldOp(*kept)
        replacement.location = terminator.location
        block.insert_op_before(replacement, terminator)
        terminator.detach()
        terminator.erase()
        for i in sorted(drop, reverse=True):
            arg = block.args[first + i]
            arg.replace_all_uses_with(leaves[i].handle)
            block.erase_arg(arg)
    return drop


def with_unchanged_leaves(
    results: Sequence[SSAValue], drop: set[int], inits: Sequence[Carried]
) -> list[SSAValue]:
    """A loop's results with the dropped leaves put back (their values from before it)."""
    it = iter(results)
    return [v.handle if i in drop else next(it) for i, v in enumerate(flat(inits))]
