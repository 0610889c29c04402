"""The body of a pipelined loop (``async_copies``'s module doc): the old body's ops under new
block arguments (the carried addresses' state ``S - 1`` iterations ahead, the tile to read and
its barrier's phase), a wait for this iteration's copies and the issue of those ``S - 1``
iterations ahead at its top (at its bottom where asynchronous dots read the tiles, or where a
loop with index loads rewrites the tile it just read: ``LoopRewrite.after_reads``), and each
staged load turned into a read of its tile.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects import gpu
from xdsl.dialects.builtin import i32
from xdsl.ir import Attribute, Block, BlockArgument, Operation, SSAValue

from mytriton.dialects.tt.elementwise import AddOp, CmpOp, MulOp, SelectOp, SubOp
from mytriton.dialects.ttg.shared import AsyncWaitOp, LocalLoadOp, MemDescIndexOp
from mytriton.dialects.ttg.tma import WaitBarrierOp
from mytriton.passes.ttg.pipelining.copies import Builder, LoopRewrite


@dataclass(frozen=True)
class NewBody:
    """The new loop body: the old block arguments, then the carried addresses' state ``ahead``
    iterations on, then the index loads' values of that iteration, then the tile to read (and
    its barrier's phase)."""

    block: Block
    #: the old body's carried values, as arguments of the new block
    carried_now: Sequence[BlockArgument]
    #: the state ``ahead`` iterations on of the carried values the addresses depend on
    state_args: Sequence[BlockArgument]
    #: the values the index loads read for the iteration ``ahead`` on (loaded the iteration
    #: before)
    index_args: Sequence[BlockArgument]
    #: the tile this iteration reads
    slot: BlockArgument
    #: its barrier's phase (where TMA copies fill the tiles)
    phase: BlockArgument | None
    #: the types of the counters (``slot``, ``phase``)
    counters: list[Attribute]


def move_body(
    r: LoopRewrite, state: dict[SSAValue, SSAValue], indices: Sequence[SSAValue]
) -> NewBody:
    """A block for the new loop, holding the old body's ops; ``state`` and ``indices``: the
    prologue's."""
    old, carried = r.old, r.plan.carried
    # the new body: old args, then the state `ahead` iterations on and the index loads' values
    # of that iteration, then the tile to read
    extra = [state[old.args[1 + j]].type for j in carried] + [v.type for v in indices]
    # the tile to read (and its barrier's phase)
    counters: list[Attribute] = [i32, i32] if r.barriers is not None else [i32]
    body = Block(arg_types=[a.type for a in old.args] + extra + counters)
    for a, b in zip(old.args, body.args[: len(old.args)], strict=True):
        b.name_hint = a.name_hint
        a.replace_all_uses_with(b)
    for op in list(old.ops):
        op.detach()
        body.add_op(op)
    slot = body.args[len(body.args) - len(counters)]
    slot.name_hint = "stage"
    phase = body.args[-1] if r.barriers is not None else None
    if phase is not None:
        phase.name_hint = "phase"
    carried_now = body.args[1 : len(old.args)]
    state_args = body.args[len(old.args) : len(old.args) + len(carried)]
    index_args = body.args[len(old.args) + len(carried) : len(body.args) - len(counters)]
    for j, arg in zip(carried, state_args, strict=True):
        if old.args[1 + j].name_hint:
            arg.name_hint = f"{old.args[1 + j].name_hint}_ahead"
    for v, arg in zip(indices, index_args, strict=True):
        arg.name_hint = v.name_hint
    return NewBody(body, carried_now, state_args, index_args, slot, phase, counters)


def issue_ahead(r: LoopRewrite, body: NewBody) -> tuple[list[SSAValue], list[SSAValue]]:
    """At the top of the body, the wait for this iteration's copies; the copies of the
    iteration ``ahead`` on, into the tile the previous iteration read (after the asynchronous
    dots, where there are some; after a barrier at the bottom, into the tile this iteration
    read, where ``r.after_reads``), then the index loads of the iteration after that. The next
    iteration's state (with those index values) and counters."""
    loop, block, slot, phase = r.loop, body.block, body.slot, body.phase
    iv = block.args[0]
    first = block.first_op
    assert first is not None
    top = Builder(block, first, loop)
    if r.barriers is not None and phase is not None:  # this iteration's TMA copies landed
        top.add(WaitBarrierOp(top.value(MemDescIndexOp(r.barriers, slot)), phase))
    top.add(AsyncWaitOp(r.ahead - 1))
    copies = Builder(block, r.yielded, loop) if r.dots.dots or r.after_reads else top
    # every warpgroup retired the dots reading the tile the copies rewrite
    # (``AsyncDots.copies_need_barrier``); every thread read it (after_reads: this iteration's)
    if r.dots.copies_need_barrier or r.after_reads:
        copies.add(gpu.BarrierOp())
    offset = top.value(MulOp(loop.step, top.const(r.ahead, r.iv_type)))
    it_ahead = top.value(AddOp(iv, offset))
    one, last = top.const(1, i32), top.const(r.slots - 1, i32)
    write = top.value(AddOp(slot, top.const(r.ahead, i32)))
    wrapped = top.value(SubOp(write, top.const(r.slots, i32)))
    write = top.value(
        SelectOp(top.value(CmpOp("ge", write, top.const(r.slots, i32))), wrapped, write)
    )
    # the address computation reads the old block arguments: map them to the new ones
    ahead_state: dict[SSAValue, SSAValue] = {
        body.carried_now[j]: arg for j, arg in zip(r.plan.carried, body.state_args, strict=True)
    }
    indices = r.index_map(body.index_args)
    r.issue(copies, {iv: it_ahead, **ahead_state, **indices}, it_ahead, write)
    advanced = r.advance(top, block.args[: len(r.old.args)], ahead_state, it_ahead)
    next_state = [advanced[body.carried_now[j]] for j in r.plan.carried]
    if r.plan.index_loads:  # for the copies of the next iteration (after this one's, where
        # those follow the reads: one iteration's index values live at a time)
        it_next = top.value(AddOp(it_ahead, loop.step))
        after = copies if r.after_reads else top
        next_state += r.load_indices(after, {iv: it_next, **advanced}, it_next)
    at_end = top.value(CmpOp("eq", slot, last))
    next_slot = top.value(SelectOp(at_end, top.const(0, i32), top.value(AddOp(slot, one))))
    next_counters = [next_slot]
    if phase is not None:  # the phase flips as the tiles wrap around
        flipped = top.value(SubOp(one, phase))
        next_counters.append(top.value(SelectOp(at_end, flipped, phase)))
    return next_state, next_counters


def read_tiles(r: LoopRewrite, body: NewBody) -> None:
    """Each staged load becomes a read of its tile."""
    for tile, buf in zip(r.plan.staged, r.buffers, strict=True):
        view = MemDescIndexOp(buf, body.slot)
        read = LocalLoadOp(view.result, tile.load.result.type)
        for o in (view, read):
            o.location = tile.load.location
        body.block.insert_ops_before([view, read], tile.load)
        read.result.name_hint = tile.load.result.name_hint
        tile.load.result.replace_all_uses_with(read.result)
        tile.load.detach()
        tile.load.erase()


def drop_replaced_addresses(r: LoopRewrite, block: Block) -> None:
    """Erase the staged loads' own address ops, and the pointers TMA copies replace, where
    nothing else reads them now."""
    staged_addresses: set[Operation] = set(r.plan.address_ops)
    staged_addresses.update(r.replaced_pointers)
    staged_addresses.update((*r.plan.index_loads, *r.plan.index_ops))
    for op in reversed(list(block.ops)):
        if op in staged_addresses and not any(v.uses for v in op.results):
            op.detach()
            op.erase()
