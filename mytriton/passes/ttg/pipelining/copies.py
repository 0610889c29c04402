"""The copies of a pipelined loop (``async_copies``'s module doc): the tiles they fill, the
mbarriers TMA copies complete on, the copies of one iteration, and the prologue that issues
those of the first ``S - 1`` iterations before the loop.

``LoopRewrite`` holds what the steps of one loop's rewrite share (``async_copies.rewrite_loop``
runs them): the decisions made before any op is written, the tiles and barriers, and how the
copies of an iteration and its carried addresses' next state are written.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith, gpu, scf
from xdsl.dialects.builtin import IntegerAttr, IntegerType, TensorType, i1, i32
from xdsl.ir import Block, Operation, SSAValue

from mytriton.dialects.tt import core as tt
from mytriton.dialects.tt.elementwise import AddOp, AndOp, CmpOp, MulOp
from mytriton.dialects.tt.types import with_element_type
from mytriton.dialects.ttg.layouts import layout_of, with_layout
from mytriton.dialects.ttg.shared import (
    AsyncCommitGroupOp,
    AsyncCopyGlobalToLocalOp,
    LocalAllocOp,
    MemDescIndexOp,
    MemDescType,
)
from mytriton.dialects.ttg.tma import BarrierExpectOp, InitBarrierOp, barrier_type, tile_bytes
from mytriton.passes.ttg.pipelining.async_dots import AsyncDots
from mytriton.passes.ttg.pipelining.loads import clone_ops, pure_slice
from mytriton.passes.ttg.pipelining.qualify import LoopPlan
from mytriton.passes.ttg.pipelining.tma_copies import kernel_of, record_copies, tma_copy_op


class Builder:
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


class LoopRewrite:
    """One loop's rewrite in progress: its plan, the decisions, the tiles and barriers."""

    def __init__(self, loop: scf.ForOp, plan: LoopPlan, stages: int):
        self.loop, self.plan = loop, plan
        self.old = loop.body.block
        parent = loop.parent_block()
        assert parent is not None
        self.parent = parent
        self.ahead = stages - 1  # iterations between a copy's issue and its dot
        iv_type = self.old.args[0].type
        assert isinstance(iv_type, IntegerType)
        self.iv_type = iv_type
        yielded = self.old.last_op
        assert isinstance(yielded, scf.YieldOp)
        self.yielded = yielded
        self.out = Builder(parent, loop, loop)  # before the loop
        self.dots = AsyncDots.of(plan.staged, self.old, yielded)
        # a tile each stage: the copies go into the tile the previous iteration read (after
        # a barrier where its dots may still run then: ``AsyncDots.copies_need_barrier``)
        self.slots = stages
        self.buffers: list[SSAValue] = []  # a staged load's tiles, stacked (``allocate``)
        self.barriers: SSAValue | None = None  # a barrier a tile, where TMA copies fill them
        self.replaced_pointers: set[Operation] = set()  # the pointers a TMA copy replaces
        self.expected = 0  # the bytes the TMA copies of one iteration write
        # an index load's loop (``qualify.copy_stages``) without asynchronous dots issues its
        # copies after the reads, into the tile just read: a tile an iteration ahead, as Triton
        self.after_reads = bool(plan.index_loads) and not self.dots.dots
        if self.after_reads:
            self.slots = self.ahead

    def allocate(self) -> None:
        """Before the loop: the tiles of each staged load; where TMA copies fill some, a
        barrier a tile, freshly initialised (its phases start at 0) for this loop."""
        out, staged, slots = self.out, self.plan.staged, self.slots
        self.buffers = [
            out.value(
                LocalAllocOp(MemDescType((slots, *s.tile.shape), s.tile.element, s.tile.layout))
            )
            for s in staged
        ]
        by_tma = [s for s in staged if s.tma is not None]
        for t in by_tma:
            own = [t.load.ptr, *([t.load.mask] if t.load.mask is not None else [])]
            self.replaced_pointers.update(pure_slice(own, self.old) or [])
        if by_tma:
            barriers = out.value(LocalAllocOp(barrier_type(slots)))
            self.barriers = barriers
            kernel = kernel_of(self.loop)
            assert kernel is not None  # (tma_copy found it)
            for t in by_tma:
                assert t.tma is not None
                record_copies(kernel, t.load, t.tile, t.tma)
            for k in range(slots):
                out.add(InitBarrierOp(out.value(MemDescIndexOp(barriers, out.const(k, i32)))))
            out.add(gpu.BarrierOp())  # every thread sees the barriers initialised
        self.expected = sum(tile_bytes(t.tile) for t in by_tma)

    def issue(
        self, b: Builder, mapping: dict[SSAValue, SSAValue], it: SSAValue, slot: SSAValue
    ) -> None:
        """The copies of iteration ``it`` (addresses from ``mapping``) into tile ``slot``."""
        mapping = dict(mapping)
        b.clone(self.plan.address_ops, mapping)
        in_range = b.value(CmpOp("lt", it, self.loop.ub))
        bar = None
        if self.barriers is not None:
            bar = b.value(MemDescIndexOp(self.barriers, slot))
            b.add(BarrierExpectOp(bar, self.expected, in_range))
        for s, buf in zip(self.plan.staged, self.buffers, strict=True):
            if s.tma is not None:
                assert bar is not None
                view = b.value(MemDescIndexOp(buf, slot))
                b.add(tma_copy_op(s.load, s.tile, mapping, view, bar, in_range))
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
        self,
        b: Builder,
        args: Sequence[SSAValue],
        state: dict[SSAValue, SSAValue],
        it: SSAValue,
    ) -> dict[SSAValue, SSAValue]:
        """The carried state one iteration after ``state``, the state at iteration ``it``
        (``args``: the induction variable and carried values the body ops read)."""
        mapping = {args[0]: it, **state}
        b.clone(self.plan.advance_ops, mapping)
        yielded = self.yielded
        return {
            args[1 + j]: mapping.get(yielded.operands[j], yielded.operands[j])
            for j in self.plan.carried
        }

    def load_indices(
        self, b: Builder, mapping: dict[SSAValue, SSAValue], it: SSAValue
    ) -> list[SSAValue]:
        """The index loads of iteration ``it`` (operands from ``mapping``), masked off past
        the loop's end (its addresses may be out of bounds there; the copies that read them
        are masked off too)."""
        if not self.plan.index_loads:
            return []
        mapping = dict(mapping)
        b.clone(self.plan.index_ops, mapping)
        in_range = b.value(CmpOp("lt", it, self.loop.ub))
        values = []
        for load in self.plan.index_loads:
            t = load.result.type
            lanes = in_range
            if isinstance(t, TensorType):
                lanes = b.value(tt.SplatOp(in_range, with_element_type(t, i1)))
            mask = lanes
            if load.mask is not None:
                mask = b.value(AndOp(mapping.get(load.mask, load.mask), lanes))
            other = mapping.get(load.other, load.other) if load.other is not None else None
            early = tt.LoadOp(mapping.get(load.ptr, load.ptr), mask, other)
            early.attributes.update(load.attributes)
            early.location = load.location
            early.result.name_hint = f"{load.result.name_hint or 'index'}_ahead"
            values.append(b.value(early))
        return values

    def prologue(self) -> tuple[dict[SSAValue, SSAValue], list[SSAValue]]:
        """Before the loop: the copies of iterations 0 .. ahead-1 into tiles 0 .. ahead-1 (each
        after its index loads). The carried addresses' state ``ahead`` iterations on (keyed by
        the old body's arguments), and the index loads of that iteration."""
        out, loop, old = self.out, self.loop, self.old
        state: dict[SSAValue, SSAValue] = {
            old.args[1 + j]: loop.iter_args[j] for j in self.plan.carried
        }
        for s in range(self.ahead):
            it = self._iteration(s)
            indices = self.index_map(self.load_indices(out, {old.args[0]: it, **state}, it))
            self.issue(out, {old.args[0]: it, **state, **indices}, it, out.const(s, i32))
            state = self.advance(out, old.args, state, it)
        if not self.plan.index_loads:
            return state, []
        it = self._iteration(self.ahead)
        return state, self.load_indices(out, {old.args[0]: it, **state}, it)

    def _iteration(self, s: int) -> SSAValue:
        """Before the loop: the induction variable of iteration ``s``."""
        out, loop = self.out, self.loop
        if not s:
            return loop.lb
        offset = out.value(MulOp(loop.step, out.const(s, self.iv_type)))
        return out.value(AddOp(loop.lb, offset))

    def index_map(self, values: Sequence[SSAValue]) -> dict[SSAValue, SSAValue]:
        """The index loads' results (of the old body) mapped to ``values``."""
        loads = self.plan.index_loads
        return {load.result: v for load, v in zip(loads, values, strict=True)}
