"""Each op's result-layout rule, written once: layout assignment applies it to the layouts its
operands have, and loop-carried prediction to the layouts they will have.

A rule gets the op, ``layout_of`` (an operand's layout, or None when not known) and the
``LayoutDefaults`` of the kernel, and returns its block result's layout, or None when it
depends on operands whose layouts are not known.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Protocol

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation, SSAValue

from mytriton.dialects.tt import core as tt
from mytriton.dialects.tt.atomic import AtomicCASOp, AtomicRMWOp
from mytriton.dialects.tt.debug import ElementwiseInlineAsmOp
from mytriton.dialects.tt.elementwise import ElementwiseOp
from mytriton.dialects.tt.shape import SHAPE_OPS, GatherOp, JoinOp, ReshapeOp, SplitOp
from mytriton.dialects.tt.types import PointerType, element_type, shape_of
from mytriton.dialects.ttg.layouts import (
    BlockedLayoutAttr,
    ConvertLayoutOp,
    Layout,
    SliceLayoutAttr,
    layout_rank,
)
from mytriton.dialects.ttg.mma import dot_mma
from mytriton.op_rules import OpRules
from mytriton.passes.ttg.layout_policy import default_blocked, dot_layout
from mytriton.passes.ttg.shape_layouts import paired, reshaped, unpaired

LayoutOf = Callable[[SSAValue], Layout | None]


class LayoutDefaults(Protocol):
    """What rules fall back on: the kernel's warps and its default and coalesced layouts."""

    num_warps: int

    def default(self, v: SSAValue) -> BlockedLayoutAttr: ...

    def coalesced(self, ptr: SSAValue, mask: SSAValue | None) -> BlockedLayoutAttr: ...

    def regathers(
        self,
        ptr: SSAValue,
        uniform: Sequence[SSAValue | None],
        known: Layout,
        coalesced: BlockedLayoutAttr,
    ) -> bool: ...


LayoutRule = Callable[[Operation, LayoutOf, LayoutDefaults], Layout | None]

RESULT_LAYOUT: OpRules[LayoutRule] = OpRules("result-layout")


def first_known(layout_of: LayoutOf, values: Sequence[SSAValue | None]) -> Layout | None:
    for v in values:
        if v is not None and isinstance(v.type, TensorType):
            found = layout_of(v)
            if found is not None:
                return found
    return None


@RESULT_LAYOUT.register(tt.LoadOp)
def _load(op: Operation, layout_of: LayoutOf, d: LayoutDefaults) -> Layout | None:
    """Bound pointers (or mask, other) decide, unless their layout moves the addresses in
    narrower runs than the coalesced layout and they can be recomputed in it from much smaller
    blocks (``regathers``: a gather through a block table); else the coalesced layout."""
    assert isinstance(op, tt.LoadOp)
    known = first_known(layout_of, (op.ptr, op.mask, op.other))
    coalesced = d.coalesced(op.ptr, op.mask)
    if known is None or d.regathers(op.ptr, (op.mask, op.other), known, coalesced):
        return coalesced
    return known


@RESULT_LAYOUT.register(AtomicRMWOp, AtomicCASOp)
def _atomic(op: Operation, layout_of: LayoutOf, d: LayoutDefaults) -> Layout | None:
    """Like a load: bound operands decide; else the coalesced layout of the access."""
    assert isinstance(op, AtomicRMWOp | AtomicCASOp)
    mask = op.mask if isinstance(op, AtomicRMWOp) else None
    return first_known(layout_of, op.operands) or d.coalesced(op.ptr, mask)


@RESULT_LAYOUT.register(tt.DotOp)
def _dot(op: Operation, layout_of: LayoutOf, d: LayoutDefaults) -> Layout | None:
    """The layout that holds the results of the dot's tensor-core instruction (its ``ttg.mma``,
    written by ``ttg-accelerate-matmul``); else the accumulator's layout, else a register
    tile."""
    assert isinstance(op, tt.DotOp)
    mma = dot_mma(op)
    if mma is not None:
        return mma.accumulator_layout()
    return layout_of(op.acc) or dot_layout(shape_of(op.acc.type), d.num_warps)


@RESULT_LAYOUT.register(tt.ReduceOp)
def _reduce(op: Operation, layout_of: LayoutOf, d: LayoutDefaults) -> Layout | None:
    """The slice of the (first laid-out) operand's layout along the reduced axis."""
    assert isinstance(op, tt.ReduceOp)
    operand = first_known(layout_of, op.srcs) or d.default(op.srcs[0])
    return SliceLayoutAttr(op.axis.value.data, operand)


@RESULT_LAYOUT.register(tt.ScanOp)
def _scan(op: Operation, layout_of: LayoutOf, d: LayoutDefaults) -> Layout | None:
    """The layout of the first operand whose layout is known, else the default one."""
    assert isinstance(op, tt.ScanOp)
    return first_known(layout_of, op.srcs) or d.default(op.srcs[0])


@RESULT_LAYOUT.register(*SHAPE_OPS)
def _shape(op: Operation, layout_of: LayoutOf, d: LayoutDefaults) -> Layout | None:
    """Elements may move through shared memory (``tt_shape``): the default layout of the
    result (a gather's that of its indices, which have the result's shape), except that pairs
    stay in one thread (``shape_layouts``): ``join`` pairs its operand's layout, a reshape
    that splits the minor dimension into pairs (or merges them) keeps each element where it is
    when it can, else gives pairs the default layout of the rest, ``split`` unpairs its
    operand's."""
    if isinstance(op, GatherOp):
        return layout_of(op.indices) or d.default(op.result)
    if isinstance(op, JoinOp):
        lhs = layout_of(op.lhs)
        return paired(lhs if isinstance(lhs, BlockedLayoutAttr) else d.default(op.lhs))
    shape = shape_of(op.results[0].type)
    if isinstance(op, ReshapeOp):
        kept = reshaped(layout_of(op.src), shape_of(op.src.type), shape)
        if kept is not None:
            return kept
        if len(shape) >= 2 and shape[-1] == 2:
            return paired(default_blocked(shape[:-1], d.num_warps))
    if isinstance(op, SplitOp):
        return unpaired(layout_of(op.src)) or d.default(op.results[0])
    return d.default(op.results[0])


@RESULT_LAYOUT.register(tt.ExpandDimsOp)
def _expand_dims(op: Operation, layout_of: LayoutOf, d: LayoutDefaults) -> Layout | None:
    """Undoes a slice along the same axis (back to its parent); else the default layout."""
    assert isinstance(op, tt.ExpandDimsOp)
    src = layout_of(op.src)
    if src is None:
        return None
    if (
        isinstance(src, SliceLayoutAttr)
        and src.dim.data == op.axis.value.data
        and layout_rank(src.parent) == len(shape_of(op.result.type))
    ):
        return src.parent  # type: ignore[return-value]
    return d.default(op.result)


@RESULT_LAYOUT.register(tt.BroadcastOp, tt.AddPtrOp, ConvertLayoutOp)
def _follow_operands(op: Operation, layout_of: LayoutOf, d: LayoutDefaults) -> Layout | None:
    """The layout of the first block operand whose layout is known."""
    return first_known(layout_of, op.operands)


@RESULT_LAYOUT.register(ElementwiseOp)
def _elementwise(op: Operation, layout_of: LayoutOf, d: LayoutDefaults) -> Layout | None:
    """The layout of the first block operand whose layout is known, but where a broadcast
    (``w[:, None] * o``) would make a whole tensor follow it, the layout of the operand that
    broadcasts the most elements (``broadcast_source``): the other operands are then rebuilt
    or converted from their smaller sources, not the whole tensor converted (Triton: the
    loaded tensor anchors the layout, the broadcast is rematerialized in it). Pointer blocks,
    which cannot move between layouts, keep the first rule."""
    known = [
        (v, layout)
        for v in op.operands
        if isinstance(v.type, TensorType) and (layout := layout_of(v)) is not None
    ]
    if not known:
        return None
    if any(isinstance(element_type(v.type), PointerType) for v, _ in known):
        return known[0][1]
    return max(known, key=lambda pair: broadcast_source(pair[0]))[1]


def broadcast_source(v: SSAValue) -> int:
    """The elements of the block ``v`` broadcasts (through ``tt.broadcast`` and
    ``tt.expand_dims``): its own for any other value."""
    while isinstance(v.owner, tt.BroadcastOp | tt.ExpandDimsOp):
        v = v.owner.src
    return math.prod(shape_of(v.type))


@RESULT_LAYOUT.register(ElementwiseInlineAsmOp)
def _inline_asm(op: Operation, layout_of: LayoutOf, d: LayoutDefaults) -> Layout | None:
    """Follows its operands (every result alike); else the default layout."""
    return first_known(layout_of, op.operands) or d.default(op.results[0])
