"""``ttg-pipeline``: copy a K loop's tensor-core dot operands into shared memory asynchronously,
``num_stages - 1`` iterations ahead of the dot that reads them (software pipelining).

In laid-out IR (after ``tt-assign-layouts``) a loop like::

    for k: a = tt.load(a_ptrs(k), mask(k), other=0); acc = tt.dot(a, b, acc); a_ptrs += ...

becomes, with ``S = num_stages`` tiles of ``a`` stacked in one ``ttg.local_alloc``::

    issue the copies of iterations 0 .. S-2 into tiles 0 .. S-2, one group each
    for k (carrying acc, the load addresses' state S-1 iterations ahead, the tile to read):
        ttg.async_wait {num = S-2}            # this iteration's group landed, all threads
        issue the copies of iteration k+S-1 into the tile iteration k-1 read; commit
        a = ttg.local_load(tile k % S); acc = tt.dot(a, b, acc)
    ttg.async_wait {num = 0}

so the global-memory latency of S-1 iterations overlaps the dots. A warpgroup-MMA dot
(sm_90) whose operands are both copied and that accumulates into a carried value stays in
flight into the next iteration (``ttg_async_dot``): the loop yields it unwaited, the next
iteration's dot chains onto it, and a ``ttg.dot_wait {pendings = 1}`` after that dot retires
the previous one; then a barrier (``gpu.barrier``, all threads), then the copies into the tile
the previous dot read::

    for k:
        ttg.async_wait {num = S-2}            # then a barrier
        a = ttg.local_load(tile k % S); acc = tt.dot(a, b, acc) {ttg.async}
        ttg.dot_wait acc {pendings = 1}       # this warp's dot k-1 retired
        gpu.barrier                           # every warp's, every warpgroup's
        issue the copies of iteration k+S-1 into tile (k-1) % S; commit

A wait retires the dots of its own warp only, and the barrier at the top comes before it, so
without the second barrier another warp (of this warpgroup or another) could still be reading
the tile the copies overwrite; with it the loop keeps S tiles, as Triton's does (one more tile,
the copies going into the tile of two iterations back, would need no second barrier, but the
shared memory it takes costs stages and programs per SM).
Another warpgroup-MMA dot whose value only the next iteration reads (its A copied too, or in
registers: attention's P) starts before the copies and is waited for before the yield, unless the
next iteration reads that value only after a synchronous warpgroup-MMA dot, whose wait retires
every group (attention's P @ V, rescaled after the next Q @ K^T): then it stays in flight across
the yield, a ``ttg.dot_wait`` of the carried value follows that dot, and a barrier precedes the
copies, so that every warpgroup has retired the dots reading the tiles they rewrite (as in
Triton's attention loop, ``async_dots``). A tensor-core dot operand defined before the loop
(attention's Q) is stored into its own tile once, before the loop (``ttg.local_alloc %q``), and
read from there. The dot's lowering reads a ``ttg.local_load`` operand straight from its tile with
``ldmatrix``: the tile is laid out as the dot stages that operand (its
``ttg.lhs_shared``/``ttg.rhs_shared``).

What it proves before rewriting (else the loop stays as it is): the loop's body writes no memory (a
copy issued iterations early must not miss a store in between); each rewritten load is directly in
the body, not volatile, reads zeros where masked off (no ``other`` or a zero splat: the copy engine
fills zeros), and feeds only tensor-core dots as an operand staged in one layout whose contiguous
dimension is the one the load's layout reads contiguously (else the copies would move one element
each: an int8 B, or a tf32 B for ``mma.sync``, staged K-contiguous, stays a load the dot stages; a
tf32 B of a warpgroup MMA, which reads it K-major only, is copied 4 bytes at a time); its pointer
and mask come from pure ops of the body (no dot or load), the induction variable, values defined
outside and carried values, and so do the next values of those carried values (so their state S-1
iterations ahead can be carried too). They may also read *index loads* of the body (a paged
cache's block table, ``qualify.indexed_slice``) whose own operands come from such values: each
is issued one iteration before the copies that read it, its value carried to the next iteration
(before the loop, that of the first iteration the loop copies), masked off past the loop's end
(so is every copy there), as Triton's pipeliner puts an indirect load a stage before the loads it
feeds. The chain then shares the loop's S - 1 iterations of lookahead, as Triton's does: the
copies run ``A = max(1, (S - 1) // 2)`` iterations ahead (``qualify.copy_stages``), and where no
dot is asynchronous they are issued at the bottom of the body, after a barrier that follows the
reads of the tile they rewrite (this iteration's), the index loads after them: A tiles, not A + 1
(decode attention at 3 stages: one tile each of K and V, as Triton). Copies for iterations past
the loop's end are masked off
entirely. ``tt.num_stages`` on the loop (``tl.range(..., num_stages=)``), else the module's
(the launch's ``num_stages``, written on it by the ``tt-opt`` stage; absent:
``DEFAULT_NUM_STAGES``; the pass takes no option), sets S; S <= 1 leaves the loop alone, and
S shrinks until the tiles fit the shared-memory budget (no pipelining below 2).

The steps, a module each: ``qualify`` (which loads and loops qualify), ``tma_copies`` (which
loads TMA copies fill), ``async_dots`` (which dots run asynchronously, and their waits),
``copies`` (the tiles, the copies of an iteration, the prologue), ``loop_body`` (the new body:
the wait and the copies at its top, the loads turned into tile reads), ``epilogue`` (the new
yield and loop, and what follows it); ``rewrite_loop`` runs them in that order. This module
picks the stage count (``tt.num_stages``, and the shared-memory fit: ``shared_fit``) and hoists
loop-invariant dot operands into tiles (``hoist_invariant_operands``).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import builtin, scf
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass

from mytriton.dialects.tt import core as tt
from mytriton.dialects.tt.loop_attrs import loop_num_stages
from mytriton.dialects.tt.types import element_type, shape_of
from mytriton.dialects.ttg.layouts import layout_of
from mytriton.dialects.ttg.mma import STAGED_OPERANDS, dot_mma, staged_layout
from mytriton.dialects.ttg.shared import LocalAllocOp, LocalLoadOp, MemDescType, SharedEncoding
from mytriton.passes.module_body import replace_body
from mytriton.passes.ttg.pipelining.copies import LoopRewrite
from mytriton.passes.ttg.pipelining.epilogue import replace_loop, yield_next
from mytriton.passes.ttg.pipelining.loads import module_stages_of
from mytriton.passes.ttg.pipelining.loop_body import (
    drop_replaced_addresses,
    issue_ahead,
    move_body,
    read_tiles,
)
from mytriton.passes.ttg.pipelining.qualify import LoopPlan, copy_stages, plan_loop
from mytriton.passes.ttg.pipelining.shared_fit import fits_shared_memory


@dataclass(frozen=True)
class PipelineAsyncPass(ModulePass):
    """Pipeline tensor-core dot operand loads through shared memory (module doc)."""

    name = "ttg-pipeline"

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        num_stages = module_stages_of(op)  # the launch's, on the module (loop_attrs)
        # the most stages (down to 2) whose tiles, with everything else the kernel keeps in
        # shared memory, fit: found by lowering the pipelined module
        for cap in range(max(num_stages, _most_loop_stages(op)), 1, -1):
            trial = op.clone()
            if not pipeline_module(trial, num_stages, cap):
                return
            if fits_shared_memory(trial):
                replace_body(op, trial)
                return


def _most_loop_stages(module: builtin.ModuleOp) -> int:
    return max(
        (loop_num_stages(loop, 0) for loop in module.walk() if isinstance(loop, scf.ForOp)),
        default=0,
    )


def pipeline_module(module: builtin.ModuleOp, num_stages: int, cap: int) -> bool:
    """Pipeline every qualifying loop of ``module`` (its ``tt.num_stages``, else
    ``num_stages``, at most ``cap``); whether one was."""
    changed = False
    for loop in [o for o in module.walk() if isinstance(o, scf.ForOp)]:
        stages = min(loop_num_stages(loop, num_stages), cap)
        if stages > 1:
            pipelined = pipeline_loop(loop, stages)
            changed |= pipelined is not None
            changed |= hoist_invariant_operands(pipelined or loop)
    return changed


def hoist_invariant_operands(loop: scf.ForOp) -> bool:
    """Store each tensor-core dot operand of ``loop``'s body that is defined before the loop
    (attention's Q) into a tile once, before the loop, and let the dots read that tile: else
    they would stage the same registers every iteration. Whether there was one."""
    tiles: dict[tuple[SSAValue, SharedEncoding], LocalAllocOp] = {}
    parent = loop.parent_block()
    assert parent is not None
    for dot in [op for op in loop.body.block.ops if isinstance(op, tt.DotOp)]:
        if dot_mma(dot) is None:
            continue
        for index in STAGED_OPERANDS:
            v, layout = dot.operands[index], staged_layout(dot, index)
            if _inside(v, loop) or not isinstance(layout, SharedEncoding):
                continue
            if layout_of(v.type) is None:
                continue
            alloc = tiles.get((v, layout))
            if alloc is None:
                tile = MemDescType(shape_of(v.type), element_type(v.type), layout)
                alloc = LocalAllocOp(tile, v)
                alloc.location = dot.location
                parent.insert_op_before(alloc, loop)
                tiles[(v, layout)] = alloc
            read = LocalLoadOp(alloc.result, v.type)
            read.location = dot.location
            read.result.name_hint = v.name_hint
            dot.parent_block().insert_op_before(read, dot)  # type: ignore[union-attr]
            operands = list(dot.operands)
            operands[index] = read.result
            dot.operands = operands
    return bool(tiles)


def _inside(v: SSAValue, loop: scf.ForOp) -> bool:
    """Whether ``v`` is defined in ``loop`` (its body, or deeper)."""
    op = v.owner if isinstance(v.owner, Operation) else v.owner.parent_op()
    while op is not None:
        if op is loop:
            return True
        op = op.parent_op()
    return False


def pipeline_loop(loop: scf.ForOp, stages: int) -> scf.ForOp | None:
    """Pipeline ``loop``'s qualifying loads over ``stages`` tiles: the loop that replaces it,
    or None when none qualifies."""
    plan = plan_loop(loop)
    return None if plan is None else rewrite_loop(loop, plan, copy_stages(plan, stages))


def rewrite_loop(loop: scf.ForOp, plan: LoopPlan, stages: int) -> scf.ForOp:
    """The loop that replaces ``loop``, ``plan``'s loads copied into ``stages`` tiles ahead of
    the dots that read them (module doc), written step by step."""
    r = LoopRewrite(loop, plan, stages)
    r.allocate()  # the tiles (and the TMA copies' barriers), before the loop
    state, indices = r.prologue()  # the copies of the first ``stages - 1`` iterations
    body = move_body(r, state, indices)
    next_state, counters = issue_ahead(r, body)
    read_tiles(r, body)
    r.dots.place_waits(body.block, r.yielded)
    carried_dots = r.dots.carried(r.yielded)
    drop_replaced_addresses(r, body.block)
    kept = yield_next(r, body.block, next_state, counters)
    return replace_loop(
        r, body, kept, [*(state[r.old.args[1 + j]] for j in plan.carried), *indices], carried_dots
    )
