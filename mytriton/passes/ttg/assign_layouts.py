"""``tt-assign-layouts``: give every block value a `ttg` layout, as its tensor encoding.

Anchors decide layouts: a load uses the default (coalesced) layout of its shape unless its
pointers already have one, a store follows its pointers when they are bound (else its value,
but for a tensor-core accumulator whose coalesced store moves wider vectors: as Triton's, it is
converted, through shared memory, ``mma_policy.widens_accumulator_store``),
``tt.dot`` produces the layout of its tensor-core instruction's results (its ``ttg.mma``, from
``ttg-accelerate-matmul``) or a register-tile layout (``dot_layout``) and records how its
operands are staged (``ttg.lhs_shared``, ``ttg.rhs_shared``), a reduction leaves the slice of its
operand's layout, and a loop-carried block keeps the layout its yielded value will have.
Everything else follows its operands. Values that are cheap to recompute (ranges, splats,
broadcasts and elementwise math over them: *free* values) are rematerialized in whatever layout
each user needs; any other value needed in a second layout goes through ``ttg.convert_layout``.
CSE and LICM afterwards merge the clones and hoist loop invariants.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func, scf
from xdsl.dialects.builtin import ModuleOp, StringAttr, TensorType
from xdsl.ir import Attribute, Block, Operation, OpResult, SSAValue
from xdsl.passes import ModulePass

from mytriton.dialects.tt import core as tt
from mytriton.dialects.tt.elementwise import ElementwiseOp
from mytriton.dialects.tt.shape import SHAPE_OPS, GatherOp, JoinOp
from mytriton.dialects.tt.types import PointerType, element_type, shape_of
from mytriton.dialects.ttg.layouts import (
    DEFAULT_CAPABILITY,
    TARGET_ATTR,
    BlockedLayoutAttr,
    ConvertLayoutOp,
    Layout,
    SharedLayoutAttr,
    SliceLayoutAttr,
    layout_of,
    set_launch_geometry,
    with_layout,
)
from mytriton.dialects.ttg.mma import LHS_SHARED_ATTR, RHS_SHARED_ATTR, dot_mma
from mytriton.dialects.ttg.shared import SharedEncoding
from mytriton.dialects.verify import source_location
from mytriton.errors import CompilationError
from mytriton.passes.analysis.axis_info import AxisAnalysis
from mytriton.passes.ttg.layout_policy import default_blocked
from mytriton.passes.ttg.layout_rules import RESULT_LAYOUT, first_known
from mytriton.passes.ttg.mma_policy import (
    k_major_copies,
    k_major_copy_layout,
    mma_staging,
    wgmma_staging,
    widens_accumulator_store,
)
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

# Staging orders of tt.dot operands in shared memory: A [M, K] with M contiguous (each k step
# reads a column) and padded, because the threads that load A side by side along K would
# otherwise all write the same memory bank; B [K, N] with N contiguous (each k step reads a row).
DOT_LHS_SHARED = SharedLayoutAttr([0, 1], pad=4)
DOT_RHS_SHARED = SharedLayoutAttr([1, 0])


def _is_block(v: SSAValue) -> bool:
    return isinstance(v.type, TensorType)


def _rebuild(
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
class _Scope:
    """Values materialized in one region (dropped when the region is left)."""

    values: dict[tuple[SSAValue, Attribute], SSAValue]


class LayoutAssigner:
    """Rebuilds one kernel function with every block value laid out."""

    def __init__(self, num_warps: int, axis: AxisAnalysis):
        self.num_warps = num_warps
        self.axis = axis
        self.scalars: dict[SSAValue, SSAValue] = {}
        self.home: dict[SSAValue, Layout] = {}
        self.scopes: list[_Scope] = []
        self.free: set[SSAValue] = set()
        self.block: Block = Block()

    # ---------------------------------------------------------------- entry

    def run(self, fn: func.FuncOp) -> None:
        old = fn.body.block
        self._find_free(old)
        new = Block(arg_types=[a.type for a in old.args])
        for o, n in zip(old.args, new.args, strict=True):
            n.name_hint = o.name_hint
            if _is_block(o):
                raise CompilationError("kernel arguments cannot be blocks", source_location(fn))
            self.scalars[o] = n
        self.block = new
        self.scopes.append(_Scope({}))
        for op in list(old.ops):
            self.emit(op)
        self.scopes.pop()
        fn.body.detach_block(old)
        fn.body.add_block(new)

    def _find_free(self, block: Block) -> None:
        for op in block.ops:
            for r in op.regions:
                for b in r.blocks:
                    self._find_free(b)
            if isinstance(op, REMATERIALIZABLE) and all(
                v in self.free for v in op.operands if _is_block(v)
            ):
                self.free.update(r for r in op.results if _is_block(r))

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
        return self.value(v, layout) if _is_block(v) else self.scalar(v)

    def value(self, v: SSAValue, layout: Attribute | None) -> SSAValue:
        """The new value for old block ``v`` in ``layout`` (rematerialized or converted)."""
        assert layout is not None
        found = self.lookup(v, layout)
        if found is not None:
            return found
        if v in self.free:
            new = self._rematerialize(v, layout)
        else:
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
            new = self.insert(conv).results[0]
        self.record(v, layout, new)
        return new

    def _rematerialize(self, v: SSAValue, layout: Attribute) -> SSAValue:
        op = v.owner
        assert isinstance(op, Operation)
        operands = [self.operand(o, self._operand_layout(op, o, layout)) for o in op.operands]
        new = self.insert(_rebuild(op, operands, [with_layout(v.type, layout)]))
        new.results[0].name_hint = v.name_hint
        return new.results[0]

    def _operand_layout(
        self, op: Operation, operand: SSAValue, layout: Attribute
    ) -> Attribute | None:
        """The layout an operand of ``op`` needs when ``op``'s result has ``layout``."""
        if not _is_block(operand):
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

    # ---------------------------------------------------------------- ops

    def emit(self, op: Operation) -> None:
        if isinstance(op, scf.ForOp):
            self.emit_for(op)
            return
        if isinstance(op, scf.IfOp):
            self.emit_if(op)
            return
        if isinstance(op, scf.WhileOp):
            self.emit_while(op)
            return
        has_blocks = any(_is_block(v) for v in (*op.operands, *op.results))
        if not has_blocks:
            if op.regions:
                raise CompilationError(
                    f"internal error: cannot assign layouts inside {op.name}", source_location(op)
                )
            new = self.insert(
                _rebuild(op, [self.scalar(o) for o in op.operands], [r.type for r in op.results])
            )
            for o, n in zip(op.results, new.results, strict=True):
                n.name_hint = o.name_hint
                self.scalars[o] = n
            return
        if all(r in self.free for r in op.results) and op.results:
            return  # materialized on demand, in the layout each user needs
        if isinstance(op, tt.StoreOp):
            layout = self.store_layout(op)
            self.insert(_rebuild(op, [self.operand(o, layout) for o in op.operands], []))
            return
        if not op.results:  # tt.print, tt.assert, tt.assume: each block in its own layout
            operands = [self.operand(o, self.home.get(o) or self.default(o)) for o in op.operands]
            self.insert(_rebuild(op, operands, []))
            return
        if isinstance(op, tt.ReduceOp):
            layout = self.result_layout(op)
            assert isinstance(layout, SliceLayoutAttr)
            srcs = [self.value(v, layout.parent) for v in op.srcs]
            types = [with_layout(r.type, layout) if _is_block(r) else r.type for r in op.results]
            new = self.insert(_rebuild(op, srcs, types))
            for old_r, new_r in zip(op.results, new.results, strict=True):
                if _is_block(old_r):
                    self.bind(old_r, new_r, layout)
                else:
                    new_r.name_hint = old_r.name_hint
                    self.scalars[old_r] = new_r
            return
        if isinstance(op, tt.ScanOp):
            layout = self.result_layout(op)
            srcs = [self.value(v, layout) for v in op.srcs]
            new = self.insert(_rebuild(op, srcs, [with_layout(r.type, layout) for r in op.results]))
            for old_r, new_r in zip(op.results, new.results, strict=True):
                self.bind(old_r, new_r, layout)
            return
        if isinstance(op, tt.DotOp):
            layout = self.result_layout(op)
            a = self.value(op.a, self.home.get(op.a) or self.default(op.a))
            b = self.value(op.b, self.home.get(op.b) or self.default(op.b))
            acc = self.value(op.acc, layout)
            new = self.insert(_rebuild(op, [a, b, acc], [with_layout(op.result.type, layout)]))
            new.attributes[LHS_SHARED_ATTR], new.attributes[RHS_SHARED_ATTR] = self.staging(
                op, layout_of(b.type)
            )
            self.bind(op.result, new.results[0], layout)
            return
        layout = self.result_layout(op)
        operands = [self.operand(o, self._operand_layout(op, o, layout)) for o in op.operands]
        # every result has the one layout (the two halves of a tt.split)
        new = self.insert(_rebuild(op, operands, [with_layout(r.type, layout) for r in op.results]))
        for old_r, new_r in zip(op.results, new.results, strict=True):
            self.bind(old_r, new_r, layout)

    @staticmethod
    def staging(op: tt.DotOp, b_layout: Layout | None) -> tuple[SharedEncoding, SharedEncoding]:
        """How ``op`` stages A and B in shared memory for the instruction of its ``ttg.mma``:
        wgmma's swizzled tiles, ``ldmatrix``'s padded rows, or the FMA loop's columns of A and
        rows of B."""
        swizzled = wgmma_staging(op, b_layout)
        if swizzled is not None:
            return swizzled
        if dot_mma(op) is not None:
            return mma_staging(element_type(op.a.type), b_layout)
        return DOT_LHS_SHARED, DOT_RHS_SHARED

    def store_layout(self, op: tt.StoreOp) -> Layout:
        """A bound pointer block (e.g. loop-carried) cannot move between layouts: the stored
        value follows it. Otherwise the pointers are recomputed for the value (or mask), unless
        the value runs along another dimension than the addresses are contiguous in (a
        transposing copy), or is a tensor-core accumulator the coalesced layout stores in wider
        vectors (``widens_accumulator_store``): then the value is converted to the store's
        coalesced layout."""
        bound = self.home.get(op.ptr)
        if bound is not None:
            return bound
        coalesced = self.coalesced(op.ptr, op.mask)
        known = first_known(self.home.get, (op.value, op.mask))
        if known is None:
            return coalesced
        fastest = coalesced.dim_order[0]
        if (
            isinstance(known, BlockedLayoutAttr)
            and known.dim_order[0] != fastest
            and self.axis[op.ptr].contiguity[fastest] > 1
        ):
            return coalesced
        if widens_accumulator_store(known, coalesced, op.value):
            return coalesced
        return known

    def result_layout(self, op: Operation) -> Layout:
        """The layout of a bound op's block result: its rule (``layout_rules``) applied to the
        layouts its operands have."""
        if isinstance(op, ConvertLayoutOp):
            raise CompilationError(
                "ttg.convert_layout before layout assignment", source_location(op)
            )
        rule = RESULT_LAYOUT.get(op)
        layout = rule(op, self.home.get, self) if rule is not None else None
        if layout is None and isinstance(op, tt.ExpandDimsOp):
            layout = self.default(op.result)  # of a rematerialized operand
        if layout is None:
            raise CompilationError(
                f"internal error: cannot assign a layout to {op.name}", source_location(op)
            )
        return layout

    # ---------------------------------------------------------------- conditionals

    def emit_if(self, op: scf.IfOp) -> None:
        """A block result keeps the layout its yielded values will have (converted if the two
        branches disagree)."""
        branches = [op.true_region.block, op.false_region.block]
        yields = [b.last_op for b in branches]
        assert all(isinstance(y, scf.YieldOp) for y in yields)
        layouts: list[Layout | None] = []
        for i, r in enumerate(op.results):
            if not _is_block(r):
                layouts.append(None)
                continue
            found = None
            for y in yields:
                assert y is not None
                found = found or self.predict(y.operands[i], set())
            layouts.append(found or self.default(r))
        new_blocks = []
        outer_block = self.block
        for branch, y in zip(branches, yields, strict=True):
            assert isinstance(y, scf.YieldOp)
            block = Block()
            self.block = block
            self.scopes.append(_Scope({}))
            for inner in list(branch.ops):
                if inner is y:
                    break
                self.emit(inner)
            new_yield = scf.YieldOp(
                *(self.operand(v, lay) for v, lay in zip(y.operands, layouts, strict=True))
            )
            new_yield.location = y.location
            self.insert(new_yield)
            self.scopes.pop()
            new_blocks.append(block)
        self.block = outer_block
        new_if = scf.IfOp(
            self.scalar(op.cond),
            [with_layout(r.type, lay) for r, lay in zip(op.results, layouts, strict=True)],
            [new_blocks[0]],
            [new_blocks[1]],
        )
        new_if.location = op.location
        self.insert(new_if)
        for old_res, new_res, lay in zip(op.results, new_if.results, layouts, strict=True):
            if lay is None:
                self.scalars[old_res] = new_res
                new_res.name_hint = old_res.name_hint
            else:
                self.bind(old_res, new_res, lay)

    # ---------------------------------------------------------------- loops

    def emit_for(self, op: scf.ForOp) -> None:
        body = op.body.block
        yield_op = body.last_op
        assert isinstance(yield_op, scf.YieldOp)
        layouts: list[Layout | None] = []
        for init, yielded in zip(op.iter_args, yield_op.operands, strict=True):
            if not _is_block(init):
                layouts.append(None)
                continue
            layouts.append(self.carried(init, yielded, body.args[1 + len(layouts)]))
        inits = [self.operand(v, lay) for v, lay in zip(op.iter_args, layouts, strict=True)]
        new_body = Block(
            arg_types=[
                body.args[0].type,
                *(with_layout(a.type, lay) for a, lay in zip(body.args[1:], layouts, strict=True)),
            ]
        )
        outer_block = self.block
        self.block = new_body
        self.scopes.append(_Scope({}))
        self.scalars[body.args[0]] = new_body.args[0]
        new_body.args[0].name_hint = body.args[0].name_hint
        for old_arg, new_arg, lay in zip(body.args[1:], new_body.args[1:], layouts, strict=True):
            if lay is None:
                self.scalars[old_arg] = new_arg
                new_arg.name_hint = old_arg.name_hint
            else:
                self.bind(old_arg, new_arg, lay)
        for inner in list(body.ops):
            if inner is yield_op:
                break
            self.emit(inner)
        yields = [self.operand(v, lay) for v, lay in zip(yield_op.operands, layouts, strict=True)]
        y = scf.YieldOp(*yields)
        y.location = yield_op.location
        self.insert(y)
        self.scopes.pop()
        self.block = outer_block
        new_for = scf.ForOp(
            self.scalar(op.lb), self.scalar(op.ub), self.scalar(op.step), inits, new_body
        )
        new_for.location = op.location
        new_for.attributes.update(op.attributes)  # tl.range's options (tt.num_stages, ...)
        self.insert(new_for)
        for old_res, new_res, lay in zip(op.results, new_for.results, layouts, strict=True):
            if lay is None:
                self.scalars[old_res] = new_res
                new_res.name_hint = old_res.name_hint
            else:
                self.bind(old_res, new_res, lay)

    def emit_while(self, op: scf.WhileOp) -> None:
        """Like ``scf.for``'s: a carried block keeps the layout its value yielded by the body
        will have, in both regions and after the loop; the values ``scf.condition`` forwards
        (the results) get the layouts they will have too."""
        before, after = op.before_region.block, op.after_region.block
        condition, yield_op = before.last_op, after.last_op
        assert isinstance(condition, scf.ConditionOp) and isinstance(yield_op, scf.YieldOp)
        carried: list[Layout | None] = []
        for init, yielded, arg in zip(op.arguments, yield_op.operands, before.args, strict=True):
            carried.append(self.carried(init, yielded, arg) if _is_block(init) else None)
        forwarded: list[Layout | None] = []
        for v in condition.args:
            if not _is_block(v):
                forwarded.append(None)
            elif v in before.args:  # the usual case: the carried value itself
                forwarded.append(carried[before.args.index(v)])
            else:
                forwarded.append(self.predict(v, set()) or self.default(v))
        inits = [self.operand(v, lay) for v, lay in zip(op.arguments, carried, strict=True)]
        new_before = self._region_block(before, carried, condition, forwarded)
        new_after = self._region_block(after, forwarded, yield_op, carried)
        new_while = scf.WhileOp(
            inits,
            [with_layout(r.type, lay) for r, lay in zip(op.results, forwarded, strict=True)],
            [new_before],
            [new_after],
        )
        new_while.location = op.location
        self.insert(new_while)
        self._bind_results(op.results, new_while.results, forwarded)

    def _region_block(
        self,
        old: Block,
        arg_layouts: Sequence[Layout | None],
        terminator: scf.ConditionOp | scf.YieldOp,
        out_layouts: Sequence[Layout | None],
    ) -> Block:
        """One region of an ``scf.while`` laid out: its arguments bound in ``arg_layouts``,
        the values its terminator passes on converted to ``out_layouts``."""
        new = Block(
            arg_types=[
                with_layout(a.type, lay) if lay is not None else a.type
                for a, lay in zip(old.args, arg_layouts, strict=True)
            ]
        )
        outer_block = self.block
        self.block = new
        self.scopes.append(_Scope({}))
        self._bind_results(old.args, new.args, arg_layouts)
        for inner in list(old.ops):
            if inner is terminator:
                break
            self.emit(inner)
        values = terminator.args if isinstance(terminator, scf.ConditionOp) else terminator.operands
        passed = [self.operand(v, lay) for v, lay in zip(values, out_layouts, strict=True)]
        if isinstance(terminator, scf.ConditionOp):
            end: Operation = scf.ConditionOp(self.scalar(terminator.condition), *passed)
        else:
            end = scf.YieldOp(*passed)
        end.location = terminator.location
        self.insert(end)
        self.scopes.pop()
        self.block = outer_block
        return new

    def _bind_results(
        self,
        old: Sequence[SSAValue],
        new: Sequence[SSAValue],
        layouts: Sequence[Layout | None],
    ) -> None:
        for old_v, new_v, lay in zip(old, new, layouts, strict=True):
            if lay is None:
                self.scalars[old_v] = new_v
                new_v.name_hint = old_v.name_hint
            else:
                self.bind(old_v, new_v, lay)

    def carried(self, init: SSAValue, yielded: SSAValue, arg: SSAValue) -> Layout:
        """The layout of a loop-carried block: the one its yielded value will have, else its
        initial value's. A pointer block advanced by ``addptr`` of itself (``a_ptrs += BK``)
        predicts nothing from its yield: it takes the layout of the accesses made through it
        in the loop (``arg``: the carried value, whose contiguity the axis analysis found
        over every iteration), so that those loads and stores are coalesced and vectorized."""
        found = self.predict(yielded, set()) or self.home.get(init)
        if found is not None:
            return found
        if isinstance(element_type(arg.type), PointerType):
            masks = [
                use.operation.mask
                for use in arg.uses
                if isinstance(use.operation, tt.LoadOp | tt.StoreOp) and use.index == 0
            ]
            return self._coalesced(arg, masks)
        return self.default(init)

    def predict(self, v: SSAValue, seen: set[SSAValue]) -> Layout | None:
        """The layout ``v`` will get (for choosing loop-carried layouts before the body)."""
        if v in self.home:
            return self.home[v]
        if v in seen or v in self.free or not isinstance(v, OpResult):
            return None
        seen.add(v)
        op = v.owner
        if isinstance(op, scf.ForOp):
            y = op.body.block.last_op
            assert isinstance(y, scf.YieldOp)
            return self.predict(y.operands[v.index], seen)
        if isinstance(op, scf.WhileOp):
            c = op.before_region.block.last_op
            assert isinstance(c, scf.ConditionOp)
            return self.predict(c.args[v.index], seen)
        if isinstance(op, scf.IfOp):
            for region in (op.true_region, op.false_region):
                y = region.block.last_op
                assert isinstance(y, scf.YieldOp)
                found = self.predict(y.operands[v.index], seen)
                if found is not None:
                    return found
            return None
        rule = RESULT_LAYOUT.get(op)
        return None if rule is None else rule(op, lambda o: self.predict(o, seen), self)


@dataclass(frozen=True)
class AssignLayoutsPass(ModulePass):
    """Annotate every block with a `ttg` layout for ``num_warps`` warps per program; a dot's
    tensor-core instruction is the one ``ttg-accelerate-matmul`` wrote on it (none: the FMA
    loop). The module records the target chip, ``capability``, as Triton does
    (``ttg.target``)."""

    name = "tt-assign-layouts"

    num_warps: int = 4
    capability: int = DEFAULT_CAPABILITY

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        set_launch_geometry(op, self.num_warps)
        op.attributes[TARGET_ATTR] = StringAttr(f"cuda:{self.capability}")
        axis = AxisAnalysis(op)
        for fn in op.walk():
            if isinstance(fn, func.FuncOp):
                LayoutAssigner(self.num_warps, axis).run(fn)
