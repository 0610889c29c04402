"""Which loops and loads ``ttg-pipeline`` rewrites (the proofs of ``async_copies``'s module doc).

``plan_loop`` finds, in a loop whose body writes no memory, the loads it may copy into shared
tiles ahead of time (``staged_tile``: tensor-core dot operands, read contiguously, zeros where
masked off; ``tma_copy``: by the tensor memory accelerator), the pure ops their addresses come
from, the carried values those read, and the pure ops that compute the carried values' next
values: what the copies of a later iteration need. An address may also read *index loads*
(``indexed_slice``: a paged cache's block table, ``tl.load(table + n // PAGE)``): loads of the
body whose own pointer, mask and ``other`` come from pure ops (one level of indirection); those
are issued one iteration before the copies that read them (``copies.LoopRewrite.load_indices``),
and the copies run fewer iterations ahead (``copy_stages``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from xdsl.dialects import builtin, scf
from xdsl.dialects.builtin import IntegerType, TensorType
from xdsl.ir import Attribute, Block, Operation, SSAValue

from mytriton.dialects.tt import core as tt
from mytriton.dialects.tt.constants import uniform_constant
from mytriton.dialects.tt.debug import VOLATILE_ATTR
from mytriton.dialects.tt.types import byte_size, element_type, shape_of
from mytriton.dialects.ttg.layouts import BlockedLayoutAttr, layout_of
from mytriton.dialects.ttg.mma import STAGED_OPERANDS, dot_mma, staged_layout
from mytriton.dialects.ttg.nvmma import NvmmaSharedLayoutAttr
from mytriton.dialects.ttg.shared import MemDescType, SharedEncoding
from mytriton.passes.analysis.axis_info import AxisAnalysis
from mytriton.passes.ttg.pipelining.loads import block_args, pure_slice, reads_only
from mytriton.passes.ttg.pipelining.tma_copies import TmaBox, kernel_of, tma_copy


@dataclass
class Staged:
    load: tt.LoadOp
    tile: MemDescType
    #: the box and swizzle of its TMA copies (a descriptor's block on sm_90), else None
    tma: TmaBox | None = None


@dataclass(frozen=True)
class LoopPlan:
    """What rewriting a qualifying loop takes."""

    #: the loads copied into tiles, in the body's order
    staged: list[Staged]
    #: the pure ops of the body the loads' addresses (pointers, masks, coordinates) come from
    address_ops: list[Operation]
    #: the carried values (indices into the iter args) the addresses depend on, with those their
    #: next values depend on
    carried: list[int]
    #: the pure ops of the body that compute those carried values' next values
    advance_ops: list[Operation]
    #: the loads of the body the addresses read (issued an iteration before their copies)
    index_loads: tuple[tt.LoadOp, ...] = ()
    #: the pure ops of the body the index loads' operands come from
    index_ops: tuple[Operation, ...] = ()


def plan_loop(loop: scf.ForOp) -> LoopPlan | None:
    """The plan of ``loop``'s rewrite, or None when no load of it qualifies."""
    body = loop.body.block
    iv = body.args[0]
    if not isinstance(iv.type, IntegerType) or not reads_only(body):
        return None
    yielded = body.last_op
    assert isinstance(yielded, scf.YieldOp)
    candidates: list[tuple[Staged, list[SSAValue], list[tt.LoadOp]]] = []
    kernel = kernel_of(loop)
    axis: AxisAnalysis | None = None  # made for the first load through a tensor map
    for op in body.ops:
        tile = staged_tile(op)
        if tile is None:
            continue
        assert isinstance(op, tt.LoadOp)
        if op.tensor_map is not None and axis is None and kernel is not None:
            module = kernel.parent_op()
            axis = AxisAnalysis(module) if isinstance(module, builtin.ModuleOp) else None
        tma = tma_copy(op, tile, kernel, axis)
        own = list(op.coords) if tma else [op.ptr, *([op.mask] if op.mask is not None else [])]
        found = indexed_slice(own, body)
        if found is not None:
            candidates.append((Staged(op, tile, tma), own, found[1]))
    if not candidates:  # (an index load is never copied: its users are not all dots)
        return None
    staged = [c[0] for c in candidates]
    roots = [r for c in candidates for r in c[1]]
    index_loads: list[tt.LoadOp] = []
    for c in candidates:
        index_loads += [i for i in c[2] if i not in index_loads]
    found = indexed_slice(roots, body)
    index_roots = [o for i in index_loads for o in i.operands]
    index_ops = pure_slice(index_roots, body)
    if found is None or index_ops is None:
        return None
    address_ops = found[0]
    carried = _carried_closure([*address_ops, *index_ops], [*roots, *index_roots], body, yielded)
    if carried is None:
        return None
    advance_ops = pure_slice([yielded.operands[j] for j in carried], body)
    if advance_ops is None:
        return None
    return LoopPlan(staged, address_ops, carried, advance_ops, tuple(index_loads), tuple(index_ops))


def copy_stages(plan: LoopPlan, stages: int) -> int:
    """The stages of ``plan``'s copies in a loop of ``stages``: all of them, but where index
    loads feed the addresses, the loop's ``stages - 1`` iterations of lookahead are shared
    evenly by the chain's two loads (the index load, then the copies: ``(stages - 1) // 2``
    each, at least one), as Triton's pipeliner gives every load of a loop with an indirect one
    ``(num_stages - 1) // (levels + 1)``; else the chain alone would reach ``stages`` iterations
    ahead, with a tile of each staged operand per iteration of it."""
    if not plan.index_loads:
        return stages
    return max(1, (stages - 1) // 2) + 1


def indexed_slice(
    roots: Sequence[SSAValue], body: Block
) -> tuple[list[Operation], list[tt.LoadOp]] | None:
    """``pure_slice`` of ``roots``, but for the index loads it reads, where it stops: the
    pure ops (in body order) and those loads; None when another op with effects (a load
    through a loaded pointer block, a volatile or descriptor load) is among them."""
    loads = [op for op in body.ops if _index_load(op, body)]
    stops = {r for load in loads for r in load.results}
    ops = pure_slice([r for r in roots if r not in stops], body, stops)
    if ops is None:
        return None
    read = {o for op in ops for o in op.operands} | set(roots)
    return ops, [load for load in loads if load.result in read]


def _index_load(op: Operation, body: Block) -> bool:
    """Whether ``op`` is a load the addresses of staged loads may read: through pointers
    (not a descriptor), not volatile, its own operands from pure ops of the body."""
    return (
        isinstance(op, tt.LoadOp)
        and op.tensor_map is None
        and VOLATILE_ATTR not in op.attributes
        and pure_slice(op.operands, body) is not None
    )


def staged_tile(op: Operation) -> MemDescType | None:
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
