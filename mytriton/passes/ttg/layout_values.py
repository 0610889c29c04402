"""The values of ``tt-assign-layouts`` (``assign_layouts``): the new value of an old block in
each layout a user needs, *free* values (ranges, splats, broadcasts and elementwise math over
them) rematerialized in it, any other rebuilt in it or converted from the layout it was bound
in (``ttg.convert_layout``), and the coalesced layout of a memory access.

A bound block is rebuilt where that costs no more than converting it (``_rebuilds``, a cost in
elements: a conversion moves every element through shared memory and waits at a barrier):
cheap math (``REMATERIALIZABLE``: broadcasts, elementwise ops) over its operands, each had in the
layout it then needs the same way, down to a load whose pointers, mask and ``other`` are free,
issued again in that layout right after its bound copy (``_reissue``: nothing can write
between the two reads; barriers keep a faster warp's store, before the load or after it, from
racing a slower warp's re-issued read, ``reissue_fences``) where it is smaller than the
program's threads or its only user's (a scale vector, a cos/sin row, a table row:
``_reissues``). So ``w[:, None] * o`` converts the
small ``w`` (or loads it again), never the broadcast tile. Triton's backward rematerialization
does the same (``RemoveLayoutConversions``, which also re-issues such loads).

A memory access whose bound operands hold it in a layout that moves its addresses in fewer
contiguous elements a thread than its coalesced layout (a pointer block built from a gathered
table: ``base + tl.load(table + i)[None, :] + d[:, None]``) takes the coalesced layout when its
pointers (mask, ``other``) are cheap math over blocks much smaller than it (``regathers``):
they are recomputed in it from those small blocks, each converted (``access_value``), rather
than converted whole through shared memory; the bound copies they leave unused are erased
(``drop_superseded``). Triton gets there by coalescing every access and rematerializing the
pointer arithmetic backwards when it removes layout conversions.

``LayoutValues`` holds that state for one kernel; ``layout_regions`` adds the control flow and
``assign_layouts.LayoutAssigner`` the ops.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import StringAttr, TensorType
from xdsl.ir import Attribute, Block, Operation, SSAValue

from mytriton.dialects.tt import core as tt
from mytriton.dialects.tt.debug import CACHE_ATTR, VOLATILE_ATTR
from mytriton.dialects.tt.elementwise import ElementwiseOp
from mytriton.dialects.tt.shape import SHAPE_OPS, GatherOp, JoinOp
from mytriton.dialects.tt.types import PointerType, element_type, shape_of
from mytriton.dialects.ttg.layouts import (
    WARP_SIZE,
    BlockedLayoutAttr,
    ConvertLayoutOp,
    Layout,
    SliceLayoutAttr,
    with_layout,
)
from mytriton.dialects.verify import source_location
from mytriton.errors import CompilationError
from mytriton.passes.analysis.axis_info import AxisAnalysis
from mytriton.passes.ttg.layout_policy import default_blocked
from mytriton.passes.ttg.mma_policy import k_major_copies, k_major_copy_layout
from mytriton.passes.ttg.shape_layouts import unpaired

REMATERIALIZABLE = (
    tt.MakeRangeOp,
    tt.SplatOp,
    tt.BroadcastOp,
    tt.ExpandDimsOp,
    tt.AddPtrOp,
    tt.ZerosOp,
    tt.FullOp,
    tt.EmptyOp,
    ElementwiseOp,
)

# ops that only rename registers in any layout (no instruction of their own)
RENAMING_OPS = (tt.BroadcastOp, tt.ExpandDimsOp, tt.SplatOp)

# The costs that decide whether a bound block needed in another layout is converted or rebuilt
# there (``LayoutValues._rebuilds``), per element: a conversion moves each through shared
# memory (a store, a load and their addresses) and waits at a barrier (the fixed part); a
# re-issued load reads again what was just read (from cache); an elementwise op is one
# instruction again.
CONVERT_COST = 4
CONVERT_FIXED_COST = 64
LOAD_COST = 2
OP_COST = 1

# the costs of the values already weighed in one decision (``LayoutValues._cost``)
Costs = dict[tuple[SSAValue, Attribute, bool], float]

# a bound leaf (not cheap math) of at most 1/LEAF_RATIO of an access's elements is cheap enough
# to convert when the access's pointers are recomputed from it (``LayoutValues.regathers``)
LEAF_RATIO = 8


def is_block_value(v: SSAValue) -> bool:
    return isinstance(v.type, TensorType)


def _warp_run(layout: BlockedLayoutAttr, dim: int) -> int:
    """How many consecutive elements of ``dim`` a warp's consecutive lanes cover: each
    thread's run, times the lanes along ``dim`` where lanes step along it first."""
    lanes = layout.tpw[dim] if layout.dim_order[0] == dim else 1
    return layout.spt[dim] * lanes


def _narrower(
    layout: BlockedLayoutAttr, coalesced: BlockedLayoutAttr, shape: Sequence[int]
) -> bool:
    """Whether ``layout`` moves fewer consecutive elements of the dimension ``coalesced`` runs
    along first a thread, or a warp (``_warp_run``: its threads run along another dimension)."""
    fastest = coalesced.dim_order[0]
    size = shape[fastest]
    return layout.spt[fastest] < coalesced.spt[fastest] or min(
        _warp_run(layout, fastest), size
    ) < min(_warp_run(coalesced, fastest), size)


def _plain(layout: Attribute) -> bool:
    """A blocked layout or a slice of one (where loads and math are rebuilt)."""
    while isinstance(layout, SliceLayoutAttr):
        layout = layout.parent
    return isinstance(layout, BlockedLayoutAttr)


def _dead_load(op: Operation) -> bool:
    """A plain load, which may be erased once nothing uses it or read twice: not volatile, nor
    ``.cv`` (``cache_modifier``: fetched again on every read)."""
    cache = op.attributes.get(CACHE_ATTR)
    return (
        isinstance(op, tt.LoadOp)
        and VOLATILE_ATTR not in op.attributes
        and not (isinstance(cache, StringAttr) and cache.data == "cv")
    )


def numel(v: SSAValue) -> int:
    return math.prod(shape_of(v.type))


def rebuild_op(
    op: Operation, operands: Sequence[SSAValue], result_types: Sequence[Attribute]
) -> Operation:
    """``op`` with new operands and result types (a scalar combine region is copied as is)."""
    new = type(op).create(
        operands=list(operands),
        result_types=list(result_types),
        properties=dict(op.properties),
        attributes=dict(op.attributes),
        regions=[r.clone() for r in op.regions],
    )
    new.location = op.location
    return new


@dataclass
class Scope:
    """Values materialized in one region (dropped when the region is left)."""

    values: dict[tuple[SSAValue, Attribute], SSAValue]


class LayoutValues:
    """The laid-out values of one kernel function being rebuilt."""

    def __init__(self, num_warps: int, axis: AxisAnalysis):
        self.num_warps = num_warps
        self.axis = axis
        self.scalars: dict[SSAValue, SSAValue] = {}
        self.home: dict[SSAValue, Layout] = {}
        self.scopes: list[Scope] = []
        self.free: set[SSAValue] = set()
        self.block: Block = Block()
        # the layouts of carried pointer blocks chosen before their loop is rebuilt
        self.pending: dict[SSAValue, Layout] = {}
        # bound blocks an access recomputed in another layout (``access_value``)
        self.superseded: list[SSAValue] = []
        # the loads issued again in another layout, fenced at the end (``reissue_fences``)
        self.reissued: list[Operation] = []

    def _find_free(self, block: Block) -> None:
        for op in block.ops:
            for r in op.regions:
                for b in r.blocks:
                    self._find_free(b)
            if isinstance(op, REMATERIALIZABLE) and all(
                v in self.free for v in op.operands if is_block_value(v)
            ):
                self.free.update(r for r in op.results if is_block_value(r))

    # ---------------------------------------------------------------- helpers

    def default(self, v: SSAValue) -> BlockedLayoutAttr:
        return default_blocked(shape_of(v.type), self.num_warps)

    def coalesced(self, ptr: SSAValue, mask: SSAValue | None) -> BlockedLayoutAttr:
        """The layout of a memory access: threads and warps first along the dimension its
        addresses are most contiguous in, as many consecutive elements of it per thread as
        can move in one aligned vector access (``axis_info``), up to 16 bytes."""
        return self._coalesced(ptr, [mask])

    def _coalesced(self, ptr: SSAValue, masks: Sequence[SSAValue | None]) -> BlockedLayoutAttr:
        """``coalesced`` for accesses through ``ptr`` under each of ``masks`` (the vector the
        least uniform of them allows; none: the addresses alone decide)."""
        order = self.axis.access_order(ptr)
        if order and order[0] == 1 and self._copied_k_major(ptr):
            return k_major_copy_layout(shape_of(ptr.type), self.num_warps)
        vector = 1
        if order:
            widths = [self.axis.access_width(ptr, [m], order[0]) for m in masks]
            vector = min(widths) if widths else self.axis.access_width(ptr, [], order[0])
        return default_blocked(shape_of(ptr.type), self.num_warps, vector, order)

    def _copied_k_major(self, ptr: SSAValue) -> bool:
        """Whether every access through ``ptr`` loads a dot's B that goes into a K-major tile
        whatever order it is loaded in (``mma_policy.k_major_copies``)."""
        loads = [u.operation for u in ptr.uses if isinstance(u.operation, tt.LoadOp | tt.StoreOp)]
        return bool(loads) and all(
            isinstance(load, tt.LoadOp)
            and load.result.uses
            and all(
                isinstance(u.operation, tt.DotOp) and u.index == 1 and k_major_copies(u.operation)
                for u in load.result.uses
            )
            for load in loads
        )

    def insert(self, op: Operation) -> Operation:
        self.block.add_op(op)
        return op

    def lookup(self, v: SSAValue, layout: Attribute) -> SSAValue | None:
        for scope in reversed(self.scopes):
            if (v, layout) in scope.values:
                return scope.values[(v, layout)]
        return None

    def record(self, v: SSAValue, layout: Attribute, new: SSAValue) -> None:
        self.scopes[-1].values[(v, layout)] = new

    def scalar(self, v: SSAValue) -> SSAValue:
        try:
            return self.scalars[v]
        except KeyError:
            raise CompilationError(
                f"internal error: scalar {v.name_hint or v} used before its definition",
                source_location(v.owner) if isinstance(v.owner, Operation) else None,
            ) from None

    def operand(self, v: SSAValue, layout: Attribute | None) -> SSAValue:
        return self.value(v, layout) if is_block_value(v) else self.scalar(v)

    def value(self, v: SSAValue, layout: Attribute | None) -> SSAValue:
        """The new value for old block ``v`` in ``layout``: rematerialized (free), rebuilt
        where that costs no more than converting it (``_rebuilds``), else converted."""
        return self._value(v, layout, v.has_one_use())

    def _value(self, v: SSAValue, layout: Attribute | None, sole: bool) -> SSAValue:
        """``value``; ``sole``: the copy of ``v`` in its own layout serves only the value
        being rebuilt (``_rebuilds``)."""
        assert layout is not None
        found = self.lookup(v, layout)
        if found is not None:
            return found
        if v in self.free:
            new = self._rematerialize(v, layout)
        elif self._rebuilds(v, layout, sole):
            return self._rebuild(v, layout, sole)
        else:
            new = self._convert(v, layout)
        self.record(v, layout, new)
        return new

    def _convert(self, v: SSAValue, layout: Attribute) -> SSAValue:
        home = self.home.get(v)
        if home is None:
            raise CompilationError(
                f"internal error: block {v.name_hint or v} used before its definition",
                source_location(v.owner) if isinstance(v.owner, Operation) else None,
            )
        src = self.lookup(v, home)
        assert src is not None
        conv = ConvertLayoutOp(src, layout)
        if isinstance(v.owner, Operation):
            conv.location = v.owner.location
        return self.insert(conv).results[0]

    def _rematerialize(self, v: SSAValue, layout: Attribute) -> SSAValue:
        op = v.owner
        assert isinstance(op, Operation)
        operands = [self.operand(o, self._operand_layout(op, o, layout)) for o in op.operands]
        new = self.insert(rebuild_op(op, operands, [with_layout(v.type, layout)]))
        new.results[0].name_hint = v.name_hint
        return new.results[0]

    # ---------------------------------------------------------------- rebuilt values

    def _rebuilds(self, v: SSAValue, layout: Attribute, sole: bool) -> bool:
        """Whether bound block ``v`` costs no more rebuilt in ``layout`` than converted to it
        (at a tie, rebuilding converts its smaller or equal sources: the copies of ``v`` in
        layouts no user keeps may then be erased, ``drop_superseded``). ``sole``: the copy of
        ``v`` in its own layout serves only this use, so a large load may move
        (``_reissues``)."""
        cost = self._rebuild_cost(v, layout, {}, sole)
        return cost < math.inf and cost <= self._convert_cost(v)

    def _cost(self, v: SSAValue, layout: Attribute | None, memo: Costs, sole: bool) -> float:
        """What having block ``v`` in ``layout`` costs (``_rebuilds``): nothing where it
        exists or is free, else the cheaper of converting and rebuilding it."""
        if not is_block_value(v) or v in self.free:
            return 0
        if layout is None:
            return math.inf
        if self.lookup(v, layout) is not None:
            return 0
        key = (v, layout, sole)
        if key not in memo:
            memo[key] = math.inf  # a value cannot be rebuilt from itself
            memo[key] = min(self._convert_cost(v), self._rebuild_cost(v, layout, memo, sole))
        return memo[key]

    @staticmethod
    def _convert_cost(v: SSAValue) -> float:
        if isinstance(element_type(v.type), PointerType):
            return math.inf  # pointers do not move between layouts
        return CONVERT_FIXED_COST + CONVERT_COST * numel(v)

    def _rebuild_cost(self, v: SSAValue, layout: Attribute, memo: Costs, sole: bool) -> float:
        """The cost of rebuilding bound ``v`` in ``layout`` (infinite where it cannot be): a
        load re-issued (``_reissues``), or cheap math (``REMATERIALIZABLE``) over its operands
        had in the layouts it needs (``_cost``; an operand's copy serves only this use where
        ``v``'s does and ``v`` is its only user); only in blocked layouts and their slices."""
        op = v.owner
        if v not in self.home or not _plain(layout) or not isinstance(op, Operation):
            return math.inf
        if isinstance(op, tt.LoadOp):
            return LOAD_COST * numel(v) if self._reissues(op, layout, sole) else math.inf
        if not isinstance(op, REMATERIALIZABLE) or len(op.results) != 1:
            return math.inf
        own = 0 if isinstance(op, RENAMING_OPS) else OP_COST * numel(v)
        return own + sum(
            self._cost(o, self._operand_layout(op, o, layout), memo, sole and o.has_one_use())
            for o in op.operands
        )

    def _reissues(self, load: tt.LoadOp, layout: Attribute, sole: bool) -> bool:
        """Whether ``load`` may be issued again in ``layout`` (``_reissue``): not volatile nor
        ``.cv`` (fetched again on every read: kept to one read), not through a tensor map, its
        pointers, mask and ``other`` free (rebuilt from ranges and scalars), and either smaller
        than the program's threads (its lines stay in cache: a scale vector, a cos/sin row,
        Triton's cheap loads) or, its bound copy serving only this use (``sole``: that copy
        dies, the load moves), in a blocked layout that moves its addresses in runs at least
        as long as its coalesced layout (``_narrower``)."""
        if load.tensor_map is not None or not _dead_load(load):
            return False
        if not all(o in self.free for o in (load.ptr, load.mask, load.other) if o is not None):
            return False
        if numel(load.result) < self.num_warps * WARP_SIZE:
            return True
        if not sole or not isinstance(layout, BlockedLayoutAttr):
            return False
        coalesced = self.coalesced(load.ptr, load.mask)
        return not _narrower(layout, coalesced, shape_of(load.ptr.type))

    def _rebuild(self, v: SSAValue, layout: Attribute, sole: bool) -> SSAValue:
        """``v`` rebuilt in ``layout`` (``_rebuilds``), recorded; its bound copy is erased at
        the end if nothing else uses it (``drop_superseded``)."""
        op = v.owner
        assert isinstance(op, Operation)
        if isinstance(op, tt.LoadOp):
            new = self._reissue(op, layout)
        else:
            operands = [
                self._value(o, self._operand_layout(op, o, layout), sole and o.has_one_use())
                if is_block_value(o)
                else self.scalar(o)
                for o in op.operands
            ]
            new = self.insert(rebuild_op(op, operands, [with_layout(v.type, layout)])).results[0]
        new.name_hint = v.name_hint
        self.record(v, layout, new)
        bound = self.lookup(v, self.home[v])
        if bound is not None:
            self.superseded.append(bound)
        return new

    def _reissue(self, load: tt.LoadOp, layout: Attribute) -> SSAValue:
        """``load`` issued again in ``layout``, right after its bound copy, with its free
        operands rematerialized there.

        Why this reads what the bound copy read: the two loads are adjacent in program order,
        under the same control flow (the bound copy's block; the use may be deeper), with only
        the pure address arithmetic and other re-issued loads between them: no store, atomic,
        barrier or call of this program lies between the two reads, whatever lies between the
        first load and the use (a store to the same memory there is not seen, as it is not by
        the bound copy, in program order). Other threads than the bound copy's read the elements
        again, though: a slower warp's read would see a later store of a faster warp, and a
        faster warp's read could miss an earlier store of a slower one: barriers between the
        re-issued load and the program's next write, and before it where a write comes
        earlier, close those races (``reissue_fences``, at the end of the pass). The load is
        not volatile (``_reissues``).
        Other programs' writes to the memory during the kernel race with any plain load (Triton
        orders them only through atomics, which are not plain loads), so they cannot make the
        two reads disagree in a program Triton defines."""
        bound = self.lookup(load.result, self.home[load.result])
        assert bound is not None and isinstance(bound.owner, Operation)
        anchor = bound.owner
        outer_block, outer_scopes = self.block, self.scopes
        # a fresh scope: values materialized after the anchor must not be used before it
        self.block, self.scopes = Block(), [Scope({})]
        try:
            operands = [self.operand(o, layout) for o in load.operands]
            new = self.insert(rebuild_op(load, operands, [with_layout(load.result.type, layout)]))
        finally:
            staged, self.block, self.scopes = self.block, outer_block, outer_scopes
        ops = list(staged.ops)
        for op in ops:
            staged.detach_op(op)
        parent = anchor.parent_block()
        assert parent is not None
        parent.insert_ops_after(ops, anchor)
        self.reissued.append(new)
        return new.results[0]

    # ---------------------------------------------------------------- recomputed accesses

    def regathers(
        self,
        ptr: SSAValue,
        uniform: Sequence[SSAValue | None],
        known: Layout,
        coalesced: BlockedLayoutAttr,
    ) -> bool:
        """Whether an access through ``ptr`` that its bound operands would put in ``known``
        takes ``coalesced`` instead: ``known`` moves fewer consecutive elements of the
        dimension the addresses are contiguous in a thread, or a warp (``_warp_run``: its
        threads run along another dimension), and ``ptr`` and ``uniform`` (mask, ``other``)
        can be recomputed from blocks at most 1/``LEAF_RATIO`` of the access's size
        (``_from_small``): its gathered offsets."""
        fastest = coalesced.dim_order[0]
        if not isinstance(known, BlockedLayoutAttr) or self.axis[ptr].contiguity[fastest] <= 1:
            return False
        if not _narrower(known, coalesced, shape_of(ptr.type)):
            return False
        limit = numel(ptr) // LEAF_RATIO
        seen: set[SSAValue] = set()
        return all(
            self._from_small(v, limit, seen)
            for v in (ptr, *uniform)
            if v is not None and is_block_value(v)
        )

    def _from_small(self, v: SSAValue, limit: int, seen: set[SSAValue]) -> bool:
        """Whether block ``v`` is free or cheap math (``REMATERIALIZABLE``) over free values
        and bound leaves of at most ``limit`` elements that are not pointers (which cannot move
        between layouts)."""
        if v in seen or v in self.free:
            return True
        seen.add(v)
        op = v.owner
        if not isinstance(op, REMATERIALIZABLE):
            return numel(v) <= limit and not isinstance(element_type(v.type), PointerType)
        return all(self._from_small(o, limit, seen) for o in op.operands if is_block_value(o))

    def access_value(self, v: SSAValue, layout: Attribute, access: SSAValue) -> SSAValue:
        """``value`` for an operand of an access through the pointer block ``access``: a bound
        block that ``regathers`` allows is recomputed in ``layout`` from its small leaves (each
        converted), not converted itself."""
        limit = numel(access) // LEAF_RATIO
        if not is_block_value(v):
            return self.scalar(v)
        if self.lookup(v, layout) is None and not self._from_small(v, limit, set()):
            return self.value(v, layout)
        return self._recompute(v, layout)

    def _recompute(self, v: SSAValue, layout: Attribute | None) -> SSAValue:
        if not is_block_value(v):
            return self.scalar(v)
        assert layout is not None
        found = self.lookup(v, layout)
        if found is not None:
            return found
        op = v.owner
        if v in self.free or not isinstance(op, REMATERIALIZABLE):
            return self.value(v, layout)
        operands = [self._recompute(o, self._operand_layout(op, o, layout)) for o in op.operands]
        new = self.insert(rebuild_op(op, operands, [with_layout(v.type, layout)])).results[0]
        new.name_hint = v.name_hint
        self.record(v, layout, new)
        bound = self.lookup(v, self.home[v])
        if bound is not None:
            self.superseded.append(bound)
        return new

    def drop_superseded(self) -> None:
        """Erase the bound copies of rebuilt values (recomputed access operands, re-issued
        loads) that nothing uses any more, with the pure ops and plain loads only they used."""
        work = [v.owner for v in self.superseded if isinstance(v.owner, Operation)]
        while work:
            op = work.pop()
            if (
                not (isinstance(op, (*REMATERIALIZABLE, ConvertLayoutOp)) or _dead_load(op))
                or op.parent is None
                or any(r.uses for r in op.results)
            ):
                continue
            work.extend(o.owner for o in op.operands if isinstance(o.owner, Operation))
            op.detach()
            op.erase()

    def _operand_layout(
        self, op: Operation, operand: SSAValue, layout: Attribute
    ) -> Attribute | None:
        """The layout an operand of ``op`` needs when ``op``'s result has ``layout``."""
        if not is_block_value(operand):
            return None
        if isinstance(op, tt.ExpandDimsOp):
            return SliceLayoutAttr(op.axis.value.data, layout)
        if isinstance(op, JoinOp):  # operands unpaired: a renaming of registers
            return unpaired(layout) or self.default(operand)
        if isinstance(op, SHAPE_OPS) and not (isinstance(op, GatherOp) and operand is op.indices):
            # elements move through shared memory: any operand layout does
            return self.home.get(operand) or self.default(operand)
        return layout

    def bind(self, old: SSAValue, new: SSAValue, layout: Layout) -> None:
        self.home[old] = layout
        self.record(old, layout, new)
        new.name_hint = old.name_hint
