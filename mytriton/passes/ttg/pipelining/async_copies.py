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
the previous one before the copies are issued. Those copies may then overwrite only the tile
of two iterations back (the previous dot, possibly still running in another warpgroup, reads
the other), so such a loop has S + 1 tiles. Another warpgroup-MMA dot whose value only the next
iteration reads (its A copied too, or in registers: attention's P) starts before the copies
and is waited for before the yield, unless the next iteration reads that value only after a
synchronous warpgroup-MMA dot, whose wait retires every group (attention's P @ V, rescaled
after the next Q @ K^T): then it stays in flight across the yield, a ``ttg.dot_wait`` of the
carried value follows that dot, and a barrier precedes the copies, so that every warpgroup has
retired the dots reading the tiles they rewrite (S tiles, as in Triton's attention loop,
``_deferred_dots``). A tensor-core dot
operand defined before the loop (attention's Q) is stored into its own tile once, before the loop
(``ttg.local_alloc %q``), and read from there. The dot's lowering reads a
``ttg.local_load`` operand straight from its tile with ``ldmatrix``: the tile is laid out as the
dot stages that operand (its ``ttg.lhs_shared``/``ttg.rhs_shared``).

What it proves before rewriting (else the loop stays as it is): the loop's body writes no memory (a
copy issued iterations early must not miss a store in between); each rewritten load is directly in
the body, not volatile, reads zeros where masked off (no ``other`` or a zero splat: the copy engine
fills zeros), and feeds only tensor-core dots as an operand staged in one layout whose contiguous
dimension is the one the load's layout reads contiguously (else the copies would move one element
each: an int8 B, or a tf32 B for ``mma.sync``, staged K-contiguous, stays a load the dot stages; a
tf32 B of a warpgroup MMA, which reads it K-major only, is copied 4 bytes at a time); its pointer
and mask come from pure ops of the body (no dot or load), the induction variable, values defined
outside and carried values, and so do the next values of those carried values (so their state S-1
iterations ahead can be carried too). Copies for iterations past the loop's end are masked off
entirely. ``tt.num_stages`` on the loop (``tl.range(..., num_stages=)``), else the launch's
``num_stages``, sets S; S <= 1 leaves the loop alone, and S shrinks until the tiles fit the
shared-memory budget (no pipelining below 2).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects import arith, builtin, func, gpu, scf
from xdsl.dialects.builtin import (
    IntegerAttr,
    IntegerType,
    TensorType,
    i1,
    i32,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, OpResult, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.traits import get_effects

from mytriton.dialects.tt import core as tt
from mytriton.dialects.tt.constants import uniform_constant
from mytriton.dialects.tt.debug import VOLATILE_ATTR
from mytriton.dialects.tt.elementwise import AddOp, AndOp, CmpOp, MulOp, SelectOp, SubOp
from mytriton.dialects.tt.tensor_map import MakeTensorMapOp
from mytriton.dialects.tt.types import byte_size, element_type, shape_of
from mytriton.dialects.ttg.async_dot import DotWaitOp, mark_async
from mytriton.dialects.ttg.layouts import BlockedLayoutAttr, layout_of, with_layout
from mytriton.dialects.ttg.mma import STAGED_OPERANDS, dot_mma, is_warpgroup_mma, staged_layout
from mytriton.dialects.ttg.nvmma import NvmmaSharedLayoutAttr
from mytriton.dialects.ttg.shared import (
    AsyncCommitGroupOp,
    AsyncCopyGlobalToLocalOp,
    AsyncWaitOp,
    LocalAllocOp,
    LocalLoadOp,
    MemDescIndexOp,
    MemDescType,
    SharedEncoding,
)
from mytriton.dialects.ttg.tma import (
    AsyncTMACopyGlobalToLocalOp,
    BarrierExpectOp,
    InitBarrierOp,
    InvalBarrierOp,
    WaitBarrierOp,
    barrier_type,
    record_tensor_map,
    rotated_span,
    tensor_map_box,
    tensor_maps,
    tile_bytes,
)
from mytriton.kernel_signature import descriptor_leaves
from mytriton.passes.analysis.axis_info import AxisAnalysis
from mytriton.passes.analysis.device_tensor_maps import aligned_for_tma, made_map, record_device_map
from mytriton.passes.module_body import replace_body
from mytriton.passes.ttg.mma_policy import wgmma_register_a
from mytriton.passes.ttg.pipelining.loads import (
    NUM_STAGES_ATTR,
    block_args,
    clone_ops,
    pure_slice,
    reads_only,
)
from mytriton.passes.ttg.pipelining.shared_fit import fits_shared_memory

TMA_ALIGNMENT = 16  # bytes: where a TMA copy's innermost coordinate must start


@dataclass(frozen=True)
class PipelineAsyncPass(ModulePass):
    """Pipeline tensor-core dot operand loads through shared memory (module doc)."""

    name = "ttg-pipeline"
    num_stages: int = 3

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        # the most stages (down to 2) whose tiles, with everything else the kernel keeps in
        # shared memory, fit: found by lowering the pipelined module
        for cap in range(max(self.num_stages, _most_loop_stages(op)), 1, -1):
            trial = op.clone()
            if not pipeline_module(trial, self.num_stages, cap):
                return
            if fits_shared_memory(trial):
                replace_body(op, trial)
                return


def _most_loop_stages(module: builtin.ModuleOp) -> int:
    return max(
        (_loop_stages(loop, 0) for loop in module.walk() if isinstance(loop, scf.ForOp)), default=0
    )


def _loop_stages(loop: scf.ForOp, default: int) -> int:
    attr = loop.attributes.get(NUM_STAGES_ATTR)
    return attr.value.data if isinstance(attr, IntegerAttr) else default


def pipeline_module(module: builtin.ModuleOp, num_stages: int, cap: int) -> bool:
    """Pipeline every qualifying loop of ``module`` (its ``tt.num_stages``, else
    ``num_stages``, at most ``cap``); whether one was."""
    changed = False
    for loop in [o for o in module.walk() if isinstance(o, scf.ForOp)]:
        stages = min(_loop_stages(loop, num_stages), cap)
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


@dataclass
class _Staged:
    load: tt.LoadOp
    tile: MemDescType
    #: the box and swizzle of its TMA copies (a descriptor's block on sm_90), else None
    tma: tuple[tuple[int, int], int] | None = None


def pipeline_loop(loop: scf.ForOp, stages: int) -> scf.ForOp | None:
    """Pipeline ``loop``'s qualifying loads over ``stages`` tiles: the loop that replaces it,
    or None when none qualifies."""
    body = loop.body.block
    iv = body.args[0]
    if not isinstance(iv.type, IntegerType) or not reads_only(body):
        return None
    yielded = body.last_op
    assert isinstance(yielded, scf.YieldOp)
    staged: list[_Staged] = []
    roots: list[SSAValue] = []
    kernel = _kernel_of(loop)
    axis: AxisAnalysis | None = None  # made for the first load through a tensor map
    for op in body.ops:
        tile = _staged_tile(op)
        if tile is None:
            continue
        assert isinstance(op, tt.LoadOp)
        if op.tensor_map is not None and axis is None and kernel is not None:
            module = kernel.parent_op()
            axis = AxisAnalysis(module) if isinstance(module, builtin.ModuleOp) else None
        tma = _tma_copy(op, tile, kernel, axis)
        own = list(op.coords) if tma else [op.ptr, *([op.mask] if op.mask is not None else [])]
        if pure_slice(own, body) is None:
            continue
        staged.append(_Staged(op, tile, tma))
        roots += own
    if not staged:
        return None
    address_ops = pure_slice(roots, body)
    carried = _carried_closure(address_ops or [], roots, body, yielded)
    if address_ops is None or carried is None:
        return None
    advance_ops = pure_slice([yielded.operands[j] for j in carried], body)
    if advance_ops is None:
        return None
    return _rewrite(loop, staged, address_ops, carried, advance_ops, stages)


def _kernel_of(op: Operation) -> func.FuncOp | None:
    """The function ``op`` is in."""
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, func.FuncOp):
        parent = parent.parent_op()
    return parent


def _tma_copy(
    load: tt.LoadOp, tile: MemDescType, kernel: func.FuncOp | None, axis: AxisAnalysis | None
) -> tuple[tuple[int, int], int] | None:
    """The box and swizzle of the TMA copies that may fill ``tile`` with ``load``'s block: a
    descriptor's block whose tensor map is a kernel argument (a host descriptor's) or a
    qualifying map the kernel writes (``device_tensor_maps``), whose tile the copy engine can
    write (``ttg_tma.tensor_map_box``), through a map the kernel reads with no other box, at an
    innermost coordinate known to be a multiple of 16 bytes (the H200 stops with an illegal
    instruction at another: ``test_tma_copies``'s unaligned case stays a ``cp.async`` copy)."""
    found = tensor_map_box(tile)
    m = load.tensor_map
    if found is None or kernel is None or axis is None or m is None:
        return None
    made = made_map(m, kernel)
    if made is None and not (isinstance(m, BlockArgument) and m.block is kernel.body.block):
        return None
    inner = axis[load.coords[-1]].element_divisibility(0) * byte_size(tile.element)
    if inner % TMA_ALIGNMENT:
        return None
    if rotated_span(tile) and _descriptor_rows(load) is None:
        return None  # a map argument that is not a host descriptor's: no extent to guard
    box, swizzle = found
    want = (box, swizzle, rotated_span(tile))
    if made is not None:  # a map the kernel writes (``device_tensor_maps``)
        known = made.copies()
        if not aligned_for_tma(made, axis):
            return None
        return found if known is None or known[:3] == want else None
    assert isinstance(m, BlockArgument)
    known_host = tensor_maps(kernel).get(m.index)
    return found if known_host is None or known_host == want else None


def _descriptor_rows(load: tt.LoadOp) -> SSAValue | None:
    """The extent along dimension 0 of the tensor whose map ``load`` reads: the first shape
    operand of a ``tt.make_tensor_map``, or a host descriptor's i32 kernel argument that
    ``signature.descriptor_leaves`` puts before the map (None where the arguments are not a
    descriptor's)."""
    m = load.tensor_map
    if isinstance(m, OpResult) and isinstance(m.op, MakeTensorMapOp):
        return m.op.shape[0]
    if not isinstance(m, BlockArgument):
        return None
    leaves = descriptor_leaves(len(load.coords))
    at = m.index - leaves.index("tensor_map") + leaves.index("shape0")
    found = m.block.args[at] if at >= 0 else None
    return found if found is not None and found.type == i32 else None


def _staged_tile(op: Operation) -> MemDescType | None:
    """The tile type a load would be copied into, or None when it does not qualify."""
    if not isinstance(op, tt.LoadOp) or VOLATILE_ATTR in op.attributes:
        return None
    t = op.result.type
    if not isinstance(t, TensorType) or layout_of(t) is None or not op.result.uses:
        return None
    layouts = set()
    for use in op.result.uses:
        dot = use.operation
        if not isinstance(dot, tt.DotOp) or use.index not in STAGED_OPERANDS:
            return None
        if dot.parent_block() is not op.parent_block():
            return None
        if dot_mma(dot) is None:
            return None
        layout = staged_layout(dot, use.index)
        if not isinstance(layout, SharedEncoding):
            return None
        layouts.add(layout)
    if len(layouts) != 1 or (op.other is not None and not _is_zero(op.other)):
        return None
    layout = layouts.pop()
    loaded = layout_of(t)
    across = isinstance(loaded, BlockedLayoutAttr) and loaded.dim_order[0] != layout.dim_order[0]
    if across and not (isinstance(layout, NvmmaSharedLayoutAttr) and _word(element_type(t))):
        return None  # one element a copy (int8, mma.sync's tf32 B): the dot stages it
    return MemDescType(shape_of(t), element_type(t), layout)


def _word(element: Attribute) -> bool:
    """Whether one element is a 4-byte copy (``cp.async``'s smallest): a tf32 B that a
    warpgroup MMA reads K-major, loaded N-contiguous, is copied so, an element at a time."""
    return byte_size(element) == 4


def _asynchronous_dots(staged: Sequence[_Staged], end: scf.YieldOp) -> list[tt.DotOp]:
    """The dots of the loop that may run asynchronously (``ttg_async_dot``): warpgroup MMAs
    whose B is copied into tiles, and A too or taken from registers (attention's P), and whose
    value only the next iteration reads.
    Their iteration's copies go after them, so the tensor cores work while they are issued;
    the tiles they write were read by the previous iteration's dots, which waited for theirs
    before the barrier that begins this iteration."""
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


def _is_zero(v: SSAValue) -> bool:
    """Whether ``v`` is a zero splat (what the copy engine fills masked-off elements with)."""
    c = uniform_constant(v)
    return c is not None and c == 0 and not np.signbit(c)


def _carried_closure(
    ops: Sequence[Operation], roots: Sequence[SSAValue], body: Block, yielded: scf.YieldOp
) -> list[int] | None:
    """The carried values the addresses depend on, with those their next values depend on
    (indices into the iter args), or None when one's next value is not a pure computation."""
    iv = body.args[0]
    todo = [a.index - 1 for a in block_args(ops, roots, body) if a is not iv]
    found: set[int] = set()
    while todo:
        j = todo.pop()
        if j in found:
            continue
        found.add(j)
        nxt = yielded.operands[j]
        slice_ops = pure_slice([nxt], body)
        if slice_ops is None:
            return None
        todo += [a.index - 1 for a in block_args(slice_ops, [nxt], body) if a is not iv]
    return sorted(found)


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


class _Builder:
    """Inserts ops before an anchor, each with the loop's location."""

    def __init__(self, block: Block, anchor: Operation, loop: scf.ForOp):
        self.block, self.anchor, self.loop = block, anchor, loop

    def add(self, op: Operation) -> SSAValue | None:
        if op.location is None or str(op.location) == "loc(unknown)":
            op.location = self.loop.location
        self.block.insert_op_before(op, self.anchor)
        return op.results[0] if op.results else None

    def value(self, op: Operation) -> SSAValue:
        v = self.add(op)
        assert v is not None
        return v

    def const(self, value: int, t: IntegerType) -> SSAValue:
        return self.value(arith.ConstantOp(IntegerAttr(value, t)))

    def clone(self, ops: Sequence[Operation], mapping: dict[SSAValue, SSAValue]) -> None:
        for op in clone_ops(ops, mapping):
            self.add(op)


def _rewrite(
    loop: scf.ForOp,
    staged: Sequence[_Staged],
    address_ops: Sequence[Operation],
    carried: Sequence[int],
    advance_ops: Sequence[Operation],
    stages: int,
) -> scf.ForOp:
    old = loop.body.block
    parent = loop.parent_block()
    assert parent is not None
    ahead = stages - 1  # iterations between a copy's issue and its dot
    iv_type = old.args[0].type
    assert isinstance(iv_type, IntegerType)
    yielded = old.last_op
    assert isinstance(yielded, scf.YieldOp)
    out = _Builder(parent, loop, loop)
    # warpgroup-MMA dots start, the copies are issued while they run; a dot accumulating
    # into a carried value stays in flight into the next iteration (``_in_flight``)
    asynchronous = _asynchronous_dots(staged, yielded)
    in_flight = bool(asynchronous) and all(_in_flight(d, old, yielded) for d in asynchronous)
    # or waited for by the next iteration's first synchronous warpgroup MMA (``_retired_by``)
    deferred = {} if in_flight else _deferred_dots(asynchronous, old, yielded)
    # in flight: the tile a dot read is rewritten two iterations later, so one more tile
    slots = stages + 1 if in_flight else stages
    buffers = [
        out.value(LocalAllocOp(MemDescType((slots, *s.tile.shape), s.tile.element, s.tile.layout)))
        for s in staged
    ]
    # TMA copies: a barrier a tile, freshly initialised (its phases start at 0) for this loop
    by_tma = [s for s in staged if s.tma is not None]
    replaced_pointers: set[Operation] = set()  # the pointers a TMA copy replaces
    for t in by_tma:
        own = [t.load.ptr, *([t.load.mask] if t.load.mask is not None else [])]
        replaced_pointers.update(pure_slice(own, old) or [])
    barriers = out.value(LocalAllocOp(barrier_type(slots))) if by_tma else None
    if barriers is not None:
        kernel = _kernel_of(loop)
        assert kernel is not None  # (_tma_copy found it)
        for t in by_tma:
            assert t.tma is not None and t.load.tensor_map is not None
            span, m = rotated_span(t.tile), t.load.tensor_map
            made = made_map(m, kernel)
            if made is not None:
                recorded = record_device_map(kernel, made, *t.tma, span)
            else:
                assert isinstance(m, BlockArgument)
                recorded = record_tensor_map(kernel, m.index, *t.tma, span)
            assert recorded, "_tma_copy checked the box"
        for k in range(slots):
            out.add(InitBarrierOp(out.value(MemDescIndexOp(barriers, out.const(k, i32)))))
        out.add(gpu.BarrierOp())  # every thread sees the barriers initialised
    expected = sum(tile_bytes(t.tile) for t in by_tma)

    def issue(b: _Builder, mapping: dict[SSAValue, SSAValue], it: SSAValue, slot: SSAValue) -> None:
        """The copies of iteration ``it`` (addresses from ``mapping``) into tile ``slot``."""
        mapping = dict(mapping)
        b.clone(address_ops, mapping)
        in_range = b.value(CmpOp("lt", it, loop.ub))
        if barriers is not None:
            bar = b.value(MemDescIndexOp(barriers, slot))
            b.add(BarrierExpectOp(bar, expected, in_range))
        for s, buf in zip(staged, buffers, strict=True):
            if s.tma is not None:
                assert s.load.tensor_map is not None and barriers is not None
                view = b.value(MemDescIndexOp(buf, slot))
                coords = [mapping.get(c, c) for c in s.load.coords]
                rows = _descriptor_rows(s.load) if rotated_span(s.tile) else None
                tma = AsyncTMACopyGlobalToLocalOp(
                    s.load.tensor_map, coords, view, bar, in_range, rows
                )
                tma.location = s.load.location
                b.add(tma)
                continue
            lanes_t = with_layout(TensorType(i1, s.tile.shape), layout_of(s.load.ptr.type))
            mask = b.value(tt.SplatOp(in_range, lanes_t))
            if s.load.mask is not None:
                mask = b.value(AndOp(mapping.get(s.load.mask, s.load.mask), mask))
            view = b.value(MemDescIndexOp(buf, slot))
            copy = AsyncCopyGlobalToLocalOp(mapping.get(s.load.ptr, s.load.ptr), view, mask)
            copy.location = s.load.location
            b.add(copy)
        b.add(AsyncCommitGroupOp())

    def advance(
        b: _Builder,
        args: Sequence[SSAValue],
        state: dict[SSAValue, SSAValue],
        it: SSAValue,
    ) -> dict[SSAValue, SSAValue]:
        """The carried state one iteration after ``state``, the state at iteration ``it``
        (``args``: the induction variable and carried values the body ops read)."""
        mapping = {args[0]: it, **state}
        b.clone(advance_ops, mapping)
        return {args[1 + j]: mapping.get(yielded.operands[j], yielded.operands[j]) for j in carried}

    # before the loop: iterations 0 .. ahead-1 into tiles 0 .. ahead-1
    state: dict[SSAValue, SSAValue] = {old.args[1 + j]: loop.iter_args[j] for j in carried}
    for s in range(ahead):
        it = loop.lb
        if s:
            offset = out.value(MulOp(loop.step, out.const(s, iv_type)))
            it = out.value(AddOp(loop.lb, offset))
        issue(out, {old.args[0]: it, **state}, it, out.const(s, i32))
        state = advance(out, old.args, state, it)

    # the new body: old args, then the state `ahead` iterations on, then the tile to read
    extra = [state[old.args[1 + j]].type for j in carried]
    # the tile to read (and its barrier's phase)
    counters: list[Attribute] = [i32, i32] if barriers is not None else [i32]
    body = Block(arg_types=[a.type for a in old.args] + extra + counters)
    for a, b in zip(old.args, body.args[: len(old.args)], strict=True):
        b.name_hint = a.name_hint
        a.replace_all_uses_with(b)
    for op in list(old.ops):
        op.detach()
        body.add_op(op)
    iv = body.args[0]
    slot = body.args[len(body.args) - len(counters)]
    slot.name_hint = "stage"
    phase = body.args[-1] if barriers is not None else None
    if phase is not None:
        phase.name_hint = "phase"
    carried_now = body.args[1 : len(old.args)]
    state_args = body.args[len(old.args) : len(body.args) - len(counters)]
    for j, arg in zip(carried, state_args, strict=True):
        if old.args[1 + j].name_hint:
            arg.name_hint = f"{old.args[1 + j].name_hint}_ahead"
    first = body.first_op
    assert first is not None
    top = _Builder(body, first, loop)
    if barriers is not None and phase is not None:  # this iteration's TMA copies landed
        top.add(WaitBarrierOp(top.value(MemDescIndexOp(barriers, slot)), phase))
    top.add(AsyncWaitOp(ahead - 1))
    copies = _Builder(body, yielded, loop) if asynchronous else top
    if deferred:  # every warpgroup has retired the previous iteration's deferred dots
        copies.add(gpu.BarrierOp())
    offset = top.value(MulOp(loop.step, top.const(ahead, iv_type)))
    it_ahead = top.value(AddOp(iv, offset))
    one, last = top.const(1, i32), top.const(slots - 1, i32)
    write = top.value(AddOp(slot, top.const(ahead, i32)))
    wrapped = top.value(SubOp(write, top.const(slots, i32)))
    write = top.value(
        SelectOp(top.value(CmpOp("ge", write, top.const(slots, i32))), wrapped, write)
    )
    # the address computation reads the old block arguments: map them to the new ones
    ahead_state: dict[SSAValue, SSAValue] = {
        carried_now[j]: arg for j, arg in zip(carried, state_args, strict=True)
    }
    issue(copies, {iv: it_ahead, **ahead_state}, it_ahead, write)
    advanced = advance(top, body.args[: len(old.args)], ahead_state, it_ahead)
    next_state = [advanced[carried_now[j]] for j in carried]
    at_end = top.value(CmpOp("eq", slot, last))
    next_slot = top.value(SelectOp(at_end, top.const(0, i32), top.value(AddOp(slot, one))))
    next_counters = [next_slot]
    if phase is not None:  # the phase flips as the tiles wrap around
        flipped = top.value(SubOp(one, phase))
        next_counters.append(top.value(SelectOp(at_end, flipped, phase)))
    # each staged load becomes a read of its tile
    for tile, buf in zip(staged, buffers, strict=True):
        view = MemDescIndexOp(buf, slot)
        read = LocalLoadOp(view.result, tile.load.result.type)
        for o in (view, read):
            o.location = tile.load.location
        body.insert_ops_before([view, read], tile.load)
        read.result.name_hint = tile.load.result.name_hint
        tile.load.result.replace_all_uses_with(read.result)
        tile.load.detach()
        tile.load.erase()
    for dot in asynchronous:
        mark_async(dot)
        if in_flight:  # the previous iteration's dot is done (its tiles free): copies follow
            wait = DotWaitOp(dot.result, pendings=1)
            wait.location = dot.location
            body.insert_op_after(wait, dot)
            continue
        retirer = deferred.get(dot)
        if retirer is not None:  # the carried value is read after the next iteration's wait
            arg = body.args[1 + list(yielded.operands).index(dot.result)]
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
        body.insert_op_before(wait, yielded)
        yielded.operands = [wait.result if v is dot.result else v for v in yielded.operands]
    carried_dots = [
        list(yielded.operands).index(d.result) for d in asynchronous if in_flight or d in deferred
    ]
    staged_addresses = set(address_ops)  # the loads' own address ops, now unused
    staged_addresses.update(replaced_pointers)
    for op in reversed(list(body.ops)):
        if op in staged_addresses and not any(r.uses for r in op.results):
            op.detach()
            op.erase()
    end = body.last_op
    assert isinstance(end, scf.YieldOp)
    # a carried address that only fed the rewritten loads now only computes its own next value
    dead = {j: ops for j in carried if (ops := _dead_cycle(loop, body, end, j)) is not None}
    kept = [j for j in range(len(loop.iter_args)) if j not in dead]
    new_yield = scf.YieldOp(*(end.operands[j] for j in kept), *next_state, *next_counters)
    new_yield.location = end.location
    body.insert_op_before(new_yield, end)
    end.detach()
    end.erase()
    freed: set[Operation] = set()  # ops of the body that only fed what is erased
    for op in reversed(list(body.ops)):
        if any(op in ops for ops in dead.values()) or (op in freed and _unused_pure(op)):
            freed.update(o.owner for o in op.operands if isinstance(o.owner, Operation))
            op.detach()
            op.erase()
    for j in sorted(dead, reverse=True):
        body.erase_arg(body.args[1 + j])
    inits = [
        *(loop.iter_args[j] for j in kept),
        *(state[old.args[1 + j]] for j in carried),
        *(out.const(0, i32) for _ in counters),
    ]
    new_loop = scf.ForOp(loop.lb, loop.ub, loop.step, inits, Region(body))
    new_loop.attributes.update(loop.attributes)
    new_loop.location = loop.location
    parent.insert_op_before(new_loop, loop)
    for j, replacement in zip(kept, new_loop.results, strict=False):
        replacement.name_hint = loop.results[j].name_hint
        loop.results[j].replace_all_uses_with(replacement)
    drain = AsyncWaitOp(0)
    drain.location = loop.location
    parent.insert_op_after(drain, new_loop)
    if barriers is not None:  # done with: the next run of the loop initialises them again
        follows = drain.next_op
        assert follows is not None  # (the function's return, at least)
        after = _Builder(parent, follows, loop)
        for k in range(slots):
            after.add(InvalBarrierOp(after.value(MemDescIndexOp(barriers, after.const(k, i32)))))
    # the last iteration's dot, waited for first thing after the loop (the CUDA printer puts
    # that wait on the loop's exit edge: ``print_scf``'s ``_print_for_retiring``)
    for j in carried_dots:
        result = new_loop.results[kept.index(j)]
        done = DotWaitOp(result)
        done.location = loop.location
        done.result.name_hint = result.name_hint
        parent.insert_op_after(done, new_loop)
        result.replace_all_uses_with(done.result)
        done.operands = [result]
    loop.detach()
    loop.erase()
    return new_loop


def _deferred_dots(
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
