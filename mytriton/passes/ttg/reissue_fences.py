"""Barriers after re-issued loads (``layout_values._reissue``): a load issued again in another
layout reads its elements in other threads than its bound copy did, so a later store of the
program to that memory (the owner of an element in the bound layout writing it back, as in
``x = tl.load(p); tl.store(p, x + 1)``) races with the re-issued read of a slower warp: warps
run in any order, and without a barrier between them a warp may store an element before another
warp's re-issued load reads it, which then sees the stored value instead of the first read's.
The program never read that memory from other threads before the store, so the race is the
compiler's own, and a ``gpu.barrier`` (ordering every memory access of the program before it
before every one after it) between the re-issued load and the first op after it that may write
memory closes it. None is needed where the program writes nothing after the load, or a barrier
already comes first.

Control flow: the barrier sits in the load's block before the first later op that may write
(a store, an atomic, a loop or ``if`` holding one), else it is looked for after the enclosing op;
in a loop that writes, before the end of the body (the writes of the next iteration and after
the loop come later). Conditions and trip counts are scalars, the same in every thread, so
every thread reaches the barrier.
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
    the program that may write memory, unless a barrier comes first."""
    for load in loads:
        if load.parent is not None:
            _fence_after(load)


def _fence_after(anchor: Operation) -> None:
    op = anchor
    while True:
        block = op.parent_block()
        assert block is not None
        later = op.next_op
        while later is not None and not later.has_trait(IsTerminator):
            if isinstance(later, gpu.BarrierOp):
                return
            if may_write(later):
                block.insert_op_before(_barrier(anchor), later)
                return
            later = later.next_op
        parent = block.parent_op()
        if parent is None or isinstance(parent, func.FuncOp):
            return
        if isinstance(parent, (scf.ForOp, scf.WhileOp)) and may_write(parent):
            end = block.last_op
            assert end is not None
            block.insert_op_before(_barrier(anchor), end)
            return
        op = parent


def _barrier(load: Operation) -> gpu.BarrierOp:
    barrier = gpu.BarrierOp()
    barrier.location = load.location
    return barrier
