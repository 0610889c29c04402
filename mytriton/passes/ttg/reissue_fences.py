"""Barriers around re-issued loads (``layout_values._reissue``): a load issued again in another
layout reads its elements in other threads than its bound copy did, which makes two races the
program did not have, both the compiler's own (warps run in any order):

- after: a later store of the program to that memory (the owner of an element in the bound
  layout writing it back, as in ``x = tl.load(p); tl.store(p, x + 1)``) may reach memory before
  a slower warp's re-issued read, which then sees the stored value instead of the first read's;
- before: an earlier store (``tl.store(p, v); x = tl.load(p)``; in a loop, the store of the
  previous iteration) is seen by the bound copy, read by the thread that wrote it, but a
  re-issued read in another warp may come before that warp's store.

A ``gpu.barrier`` (ordering every memory access of the program before it before every one after
it) between the re-issued load and the first later op that may write memory closes the first;
one right before the re-issued load, where an op that may write comes earlier in the program
(since the last barrier), closes the second. None is needed where the program writes nothing
there, or a barrier already lies between.

Control flow: the barrier after sits in the load's block before the first later op that may
write (a store, an atomic, a loop or ``if`` holding one), else it is looked for after the
enclosing op; in a loop that writes, before the end of the body (the writes of the next
iteration and after the loop come later). The barrier before is needed where an earlier op of
the load's block may write, else one before the enclosing op, or the enclosing loop writes
(its previous iteration's writes come earlier). Conditions and trip counts are scalars, the
same in every thread, so every thread reaches the barrier.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import func, gpu, scf
from xdsl.ir import Operation
from xdsl.traits import IsTerminator, MemoryEffectKind, get_effects

__all__ = ["fence_reissued_loads", "may_write"]


def may_write(op: Operation) -> bool:
    """Whether ``op`` (or an op nested in it) may write memory: any write effect, or effects
    unknown."""
    for inner in op.walk():
        if inner.regions or isinstance(inner, gpu.BarrierOp):
            continue
        effects = get_effects(inner)
        if effects is None or any(e.kind == MemoryEffectKind.WRITE for e in effects):
            return True
    return False


def fence_reissued_loads(loads: Sequence[Operation]) -> None:
    """A ``gpu.barrier`` between each re-issued load still in the IR and the first later op of
    the program that may write memory, and one right before the load where an earlier op may
    write, unless a barrier lies between."""
    for load in loads:
        if load.parent is not None:
            _fence_before(load)
            _fence_after(load)


def _fence_before(load: Operation) -> None:
    _fence(load, forward=False)


def _fence_after(load: Operation) -> None:
    _fence(load, forward=True)


def _fence(anchor: Operation, forward: bool) -> None:
    """The barrier on one side of ``anchor``: the nearest op that may write, looked for among
    its siblings that way (the terminator aside), then around the enclosing ops, unless a
    barrier comes first; a loop that writes counts as a write from its other iterations.
    After: right before that write, or before the loop body's end; before: right before
    ``anchor``."""
    op = anchor
    while True:
        block = op.parent_block()
        assert block is not None
        sibling = op.next_op if forward else op.prev_op
        while sibling is not None and not (forward and sibling.has_trait(IsTerminator)):
            if isinstance(sibling, gpu.BarrierOp):
                return
            if may_write(sibling):
                _insert_barrier(sibling if forward else anchor, anchor)
                return
            sibling = sibling.next_op if forward else sibling.prev_op
        parent = block.parent_op()
        if parent is None or isinstance(parent, func.FuncOp):
            return
        if isinstance(parent, (scf.ForOp, scf.WhileOp)) and may_write(parent):
            end = block.last_op
            assert end is not None
            _insert_barrier(end if forward else anchor, anchor)
            return
        op = parent


def _insert_barrier(where: Operation, load: Operation) -> None:
    """A barrier (at ``load``'s location) right before ``where``."""
    block = where.parent_block()
    assert block is not None
    block.insert_op_before(_barrier(load), where)


def _barrier(load: Operation) -> gpu.BarrierOp:
    barrier = gpu.BarrierOp()
    barrier.location = load.location
    return barrier
