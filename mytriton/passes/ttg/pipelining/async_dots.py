"""The warpgroup-MMA dots of a pipelined loop that run asynchronously (``ttg_async_dot``), and
the ``ttg.dot_wait`` ops that retire them (``async_copies``'s module doc).

A dot whose B (and A, or A from registers: attention's P) is copied into tiles and whose value
only the next iteration reads starts before the iteration's copies are issued. If it
accumulates into a carried value that only it reads, it stays in flight into the next
iteration (``in_flight``: a ``ttg.dot_wait {pendings = 1}`` after the next dot); if the next
iteration reads its value only after a synchronous warpgroup MMA, which retires every group, it
stays in flight too (``deferred``); otherwise it is waited for before the yield.

An iteration's copies overwrite the tiles the previous iteration's dots read. A dot waited for
before the yield is retired before the barrier that begins the next iteration (after its
``ttg.async_wait``), which then orders its reads before the copies. A dot left in flight is
retired in the next iteration, after that barrier, and a wait retires the groups of its own
warp only: another warp of the warpgroup, or another warpgroup, whose dots read the same tile,
may not have passed its wait yet. So, in flight or deferred, a second barrier (all threads)
goes between the wait and the copies (``copies_need_barrier``), as in Triton's pipeliner; with
one warpgroup too (the other warps' parts of the dot), which gpusim's race checks require
(``warpgroups``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects import scf
from xdsl.ir import Block, BlockArgument

from mytriton.dialects.tt import core as tt
from mytriton.dialects.ttg.async_dot import DotWaitOp, mark_async
from mytriton.dialects.ttg.mma import is_warpgroup_mma
from mytriton.passes.ttg.mma_policy import wgmma_register_a
from mytriton.passes.ttg.pipelining.qualify import Staged


@dataclass(frozen=True)
class AsyncDots:
    """The asynchronous dots of one loop, and how each is waited for."""

    #: warpgroup MMAs whose iteration's copies are issued while they run (``asynchronous_dots``)
    dots: list[tt.DotOp]
    #: every one stays in flight into the next iteration, which chains onto it (``_in_flight``)
    in_flight: bool
    #: those the next iteration's first synchronous warpgroup MMA retires, with that dot
    deferred: dict[tt.DotOp, tt.DotOp]

    @staticmethod
    def of(staged: Sequence[Staged], body: Block, end: scf.YieldOp) -> AsyncDots:
        """The asynchronous dots of the loop whose body is ``body`` (ending in ``end``)."""
        # warpgroup-MMA dots start, the copies are issued while they run; a dot accumulating
        # into a carried value stays in flight into the next iteration (``_in_flight``)
        dots = asynchronous_dots(staged, end)
        in_flight = bool(dots) and all(_in_flight(d, body, end) for d in dots)
        # or waited for by the next iteration's first synchronous warpgroup MMA (``_retired_by``)
        deferred = {} if in_flight else deferred_dots(dots, body, end)
        return AsyncDots(dots, in_flight, deferred)

    @property
    def copies_need_barrier(self) -> bool:
        """Whether the dots reading the tiles an iteration's copies overwrite are retired only
        in that iteration, so that a barrier must separate their waits from the copies (module
        doc)."""
        return self.in_flight or bool(self.deferred)

    def place_waits(self, body: Block, end: scf.YieldOp) -> None:
        """Mark the dots asynchronous and wait for each where its value is read: after the
        next iteration's dot (in flight), after the dot that retires it (deferred), else
        before the yield."""
        for dot in self.dots:
            mark_async(dot)
            if self.in_flight:  # the previous iteration's dot retires (a barrier, then copies)
                wait = DotWaitOp(dot.result, pendings=1)
                wait.location = dot.location
                body.insert_op_after(wait, dot)
                continue
            retirer = self.deferred.get(dot)
            if retirer is not None:  # the carried value is read after the next iteration's wait
                arg = body.args[1 + list(end.operands).index(dot.result)]
                wait = DotWaitOp(arg)
                wait.location = dot.location
                wait.result.name_hint = arg.name_hint
                arg.replace_all_uses_with(wait.result)
                body.insert_op_after(wait, retirer)
                wait.operands = [arg]
                continue
            wait = DotWaitOp(dot.result)
            wait.location = dot.location
            wait.result.name_hint = dot.result.name_hint
            body.insert_op_before(wait, end)
            end.operands = [wait.result if v is dot.result else v for v in end.operands]

    def carried(self, end: scf.YieldOp) -> list[int]:
        """The carried values (indices into the yield's operands) of the dots still in flight
        when the loop yields."""
        return [
            list(end.operands).index(d.result)
            for d in self.dots
            if self.in_flight or d in self.deferred
        ]


def wait_after_loop(loop: scf.ForOp, new_loop: scf.ForOp, results: Sequence[int]) -> None:
    """The last iteration's dots (``new_loop``'s results ``results``), waited for first thing
    after the loop (the CUDA printer puts that wait on the loop's exit edge:
    ``print_scf``'s ``_print_for_retiring``)."""
    parent = new_loop.parent_block()
    assert parent is not None
    for at in results:
        result = new_loop.results[at]
        done = DotWaitOp(result)
        done.location = loop.location
        done.result.name_hint = result.name_hint
        parent.insert_op_after(done, new_loop)
        result.replace_all_uses_with(done.result)
        done.operands = [result]


def asynchronous_dots(staged: Sequence[Staged], end: scf.YieldOp) -> list[tt.DotOp]:
    """The dots of the loop that may run asynchronously (``ttg_async_dot``): warpgroup MMAs
    whose B is copied into tiles, and A too or taken from registers (attention's P), and whose
    value only the next iteration reads.
    Their iteration's copies go after them, so the tensor cores work while they are issued;
    the tiles they write were read by the previous iteration's dots, retired before the barrier
    that begins this iteration, or (in flight, deferred) before a barrier ahead of the copies."""
    loads = {s.load.result for s in staged}
    found = []
    body = end.parent_block()
    assert body is not None
    for dot in body.ops:
        if not isinstance(dot, tt.DotOp) or dot.b not in loads:
            continue
        if dot.a not in loads and not wgmma_register_a(dot):
            continue
        if not is_warpgroup_mma(dot) or dot.promotion_interval is not None:
            continue  # (promoted: it waits for its MMAs to add their partial sums)
        uses = list(dot.result.uses)
        if uses and all(u.operation is end for u in uses):
            found.append(dot)
    return found


def deferred_dots(
    asynchronous: Sequence[tt.DotOp], body: Block, end: scf.YieldOp
) -> dict[tt.DotOp, tt.DotOp]:
    """The asynchronous dots that may stay in flight into the next iteration although no dot
    chains onto them (attention's P @ V, whose accumulator is rescaled first), each with the
    dot that retires it there: a synchronous warpgroup MMA (its lowering waits for every group,
    ``wgmma.wait_group 0``) before every read of the carried value (attention's Q @ K^T).
    Triton's attention loop waits for both dots there in the same way. The copies then follow
    a barrier, so every warpgroup has retired the dots that read the tiles being rewritten."""
    found: dict[tt.DotOp, tt.DotOp] = {}
    for dot in asynchronous:
        uses = list(dot.result.uses)
        if len(uses) != 1 or uses[0].operation is not end:
            continue
        retirer = _retired_by(body.args[1 + uses[0].index], body, asynchronous)
        if retirer is not None and body.get_operation_index(retirer) < body.get_operation_index(
            dot
        ):
            found[dot] = retirer
    return found


def _retired_by(
    arg: BlockArgument, body: Block, asynchronous: Sequence[tt.DotOp]
) -> tt.DotOp | None:
    """The first synchronous warpgroup-MMA dot of ``body`` if every read of ``arg`` (in
    ``body``'s order, a read inside a nested op counting at that op) comes after it."""
    retirer = None
    for op in body.ops:
        if isinstance(op, tt.DotOp) and op not in asynchronous and is_warpgroup_mma(op):
            retirer = op
            break
    if retirer is None:
        return None
    at = body.get_operation_index(retirer)
    for use in arg.uses:
        owner = body.find_ancestor_op_in_block(use.operation)
        if owner is None or body.get_operation_index(owner) <= at:
            return None
    return retirer


def _in_flight(dot: tt.DotOp, body: Block, end: scf.YieldOp) -> bool:
    """Whether ``dot`` accumulates into a carried value that only it reads and yields its
    result as that value's next one: then it may stay in flight into the next iteration, whose
    dot chains onto its accumulator (Triton's ``warp_group_dot_wait {pendings = 1}``)."""
    acc = dot.acc
    if not isinstance(acc, BlockArgument) or acc.block is not body or acc.index == 0:
        return False
    if not acc.has_one_use():
        return False
    uses = list(dot.result.uses)
    return len(uses) == 1 and uses[0].operation is end and uses[0].index == acc.index - 1
