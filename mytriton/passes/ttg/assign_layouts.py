"""``tt-assign-layouts``: give every block value a `ttg` layout, as its tensor encoding.

Anchors decide layouts: a load uses the default (coalesced) layout of its shape unless its
pointers already have one (but for a gather through a table: its pointers then are recomputed
in the coalesced layout from the table's values, ``LayoutValues.regathers``), a store follows
its pointers when they are bound (with the same exception; else its value,
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

``LayoutAssigner`` rebuilds one kernel in three layers: ``layout_values`` (a value in the
layout a user needs: looked up, rematerialized or converted; the coalesced layout of an
access), ``layout_regions`` (``scf.for``, ``scf.if`` and ``scf.while``: the layouts carried
values keep), and this module (each op's layout: the anchors above, the others' rules) with the
pass.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func, scf
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.ir import Block, Operation
from xdsl.passes import ModulePass

from mytriton.dialects.tt import core as tt
from mytriton.dialects.tt.types import element_type
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
from mytriton.passes.ttg.layout_regions import RegionLayouts
from mytriton.passes.ttg.layout_rules import RESULT_LAYOUT, first_known
from mytriton.passes.ttg.layout_values import REMATERIALIZABLE, Scope, is_block_value, rebuild_op
from mytriton.passes.ttg.mma_policy import mma_staging, wgmma_staging, widens_accumulator_store
from mytriton.passes.ttg.reissue_fences import fence_reissued_loads

__all__ = [
    "DOT_LHS_SHARED",
    "DOT_RHS_SHARED",
    "REMATERIALIZABLE",
    "AssignLayoutsPass",
    "LayoutAssigner",
]

# Staging orders of tt.dot operands in shared memory: A [M, K] with M contiguous (each k step
# reads a column) and padded, because the threads that load A side by side along K would
# otherwise all write the same memory bank; B [K, N] with N contiguous (each k step reads a row).
DOT_LHS_SHARED = SharedLayoutAttr([0, 1], pad=4)
DOT_RHS_SHARED = SharedLayoutAttr([1, 0])


class LayoutAssigner(RegionLayouts):
    """Rebuilds one kernel function with every block value laid out."""

    # ---------------------------------------------------------------- entry

    def run(self, fn: func.FuncOp) -> None:
        old = fn.body.block
        self._find_free(old)
        new = Block(arg_types=[a.type for a in old.args])
        for o, n in zip(old.args, new.args, strict=True):
            n.name_hint = o.name_hint
            if is_block_value(o):
                raise CompilationError("kernel arguments cannot be blocks", source_location(fn))
            self.scalars[o] = n
        self.block = new
        self.scopes.append(Scope({}))
        for op in list(old.ops):
            self.emit(op)
        self.scopes.pop()
        fn.body.detach_block(old)
        fn.body.add_block(new)
        self.drop_superseded()
        fence_reissued_loads(self.reissued)

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
        has_blocks = any(is_block_value(v) for v in (*op.operands, *op.results))
        if not has_blocks:
            if op.regions:
                raise CompilationError(
                    f"internal error: cannot assign layouts inside {op.name}", source_location(op)
                )
            new = self.insert(
                rebuild_op(op, [self.scalar(o) for o in op.operands], [r.type for r in op.results])
            )
            for o, n in zip(op.results, new.results, strict=True):
                n.name_hint = o.name_hint
                self.scalars[o] = n
            return
        if all(r in self.free for r in op.results) and op.results:
            return  # materialized on demand, in the layout each user needs
        if isinstance(op, tt.StoreOp):
            layout = self.store_layout(op)
            operands = [self.access_value(o, layout, op.ptr) for o in op.operands]
            self.insert(rebuild_op(op, operands, []))
            return
        if not op.results:  # tt.print, tt.assert, tt.assume: each block in its own layout
            operands = [self.operand(o, self.home.get(o) or self.default(o)) for o in op.operands]
            self.insert(rebuild_op(op, operands, []))
            return
        if isinstance(op, tt.ReduceOp):
            layout = self.result_layout(op)
            assert isinstance(layout, SliceLayoutAttr)
            srcs = [self.value(v, layout.parent) for v in op.srcs]
            types = [
                with_layout(r.type, layout) if is_block_value(r) else r.type for r in op.results
            ]
            new = self.insert(rebuild_op(op, srcs, types))
            for old_r, new_r in zip(op.results, new.results, strict=True):
                if is_block_value(old_r):
                    self.bind(old_r, new_r, layout)
                else:
                    new_r.name_hint = old_r.name_hint
                    self.scalars[old_r] = new_r
            return
        if isinstance(op, tt.ScanOp):
            layout = self.result_layout(op)
            srcs = [self.value(v, layout) for v in op.srcs]
            new = self.insert(
                rebuild_op(op, srcs, [with_layout(r.type, layout) for r in op.results])
            )
            for old_r, new_r in zip(op.results, new.results, strict=True):
                self.bind(old_r, new_r, layout)
            return
        if isinstance(op, tt.DotOp):
            layout = self.result_layout(op)
            a = self.value(op.a, self.home.get(op.a) or self.default(op.a))
            b = self.value(op.b, self.home.get(op.b) or self.default(op.b))
            acc = self.value(op.acc, layout)
            new = self.insert(rebuild_op(op, [a, b, acc], [with_layout(op.result.type, layout)]))
            new.attributes[LHS_SHARED_ATTR], new.attributes[RHS_SHARED_ATTR] = self.staging(
                op, layout_of(b.type)
            )
            self.bind(op.result, new.results[0], layout)
            return
        layout = self.result_layout(op)
        if isinstance(op, tt.LoadOp):
            operands = [self.access_value(o, layout, op.ptr) for o in op.operands]
        else:
            operands = [self.operand(o, self._operand_layout(op, o, layout)) for o in op.operands]
        # every result has the one layout (the two halves of a tt.split)
        new = self.insert(
            rebuild_op(op, operands, [with_layout(r.type, layout) for r in op.results])
        )
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
        value follows it, unless it is cheap math over much smaller blocks and its layout moves
        the addresses in narrower runs than the coalesced one (``regathers``): then it is
        recomputed as a free one would be. Otherwise the pointers are recomputed for the value
        (or mask), unless the value runs along another dimension than the addresses are
        contiguous in (a transposing copy), or is a tensor-core accumulator the coalesced layout
        stores in wider vectors (``widens_accumulator_store``): then the value is converted to
        the store's coalesced layout."""
        coalesced = self.coalesced(op.ptr, op.mask)
        bound = self.home.get(op.ptr)
        if bound is not None and not self.regathers(op.ptr, (op.mask,), bound, coalesced):
            return bound
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
