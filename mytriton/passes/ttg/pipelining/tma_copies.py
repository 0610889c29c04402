"""TMA copies in ``ttg-pipeline``: which staged loads the tensor memory accelerator may copy
(``tma_copy``), the tensor map each copy reads recorded on the kernel, and the copy itself.

A load of a host descriptor's block, or of a block of a map the kernel writes
(``device_tensor_maps``), names the map and the block's coordinates (``tt.load ... tensor_map``);
on sm_90 its copies may be one TMA copy each instead of a ``cp.async`` a thread. The copies of
one iteration complete on one mbarrier a tile (``barrier_type``), which the loop waits on with
the phase that flips as the tiles wrap around. They are issued where ``cp.async`` copies are
(after the barrier that follows the wait for a warpgroup MMA left in flight, ``async_dots``):
one tile a stage either way, since the copy engine may write the tile as soon as it is issued.
"""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.dialects.builtin import i32
from xdsl.ir import BlockArgument, Operation, OpResult, SSAValue

from mytriton.dialects.tt import core as tt
from mytriton.dialects.tt.tensor_map import MakeTensorMapOp
from mytriton.dialects.tt.types import byte_size
from mytriton.dialects.ttg.shared import MemDescType
from mytriton.dialects.ttg.tma import (
    AsyncTMACopyGlobalToLocalOp,
    record_tensor_map,
    rotated_span,
    tensor_map_box,
    tensor_maps,
)
from mytriton.kernel_signature import descriptor_leaves
from mytriton.passes.analysis.axis_info import AxisAnalysis
from mytriton.passes.analysis.device_tensor_maps import aligned_for_tma, made_map, record_device_map

TMA_ALIGNMENT = 16  # bytes: where a TMA copy's innermost coordinate must start

#: the box and swizzle of a load's TMA copies
TmaBox = tuple[tuple[int, int], int]


def kernel_of(op: Operation) -> func.FuncOp | None:
    """The function ``op`` is in."""
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, func.FuncOp):
        parent = parent.parent_op()
    return parent


def tma_copy(
    load: tt.LoadOp, tile: MemDescType, kernel: func.FuncOp | None, axis: AxisAnalysis | None
) -> TmaBox | None:
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
    if rotated_span(tile) and descriptor_rows(load) is None:
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


def descriptor_rows(load: tt.LoadOp) -> SSAValue | None:
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


def record_copies(kernel: func.FuncOp, load: tt.LoadOp, tile: MemDescType, tma: TmaBox) -> None:
    """Record on ``kernel`` the box and swizzle the copies of ``load`` into ``tile`` read its
    tensor map with (a host descriptor's, or a map the kernel writes)."""
    span, m = rotated_span(tile), load.tensor_map
    assert m is not None
    made = made_map(m, kernel)
    if made is not None:
        recorded = record_device_map(kernel, made, *tma, span)
    else:
        assert isinstance(m, BlockArgument)
        recorded = record_tensor_map(kernel, m.index, *tma, span)
    assert recorded, "tma_copy checked the box"


def tma_copy_op(
    load: tt.LoadOp,
    tile: MemDescType,
    mapping: dict[SSAValue, SSAValue],
    view: SSAValue,
    barrier: SSAValue,
    in_range: SSAValue,
) -> AsyncTMACopyGlobalToLocalOp:
    """The TMA copy of ``load``'s block (its coordinates through ``mapping``) into ``view``,
    completing on ``barrier`` (none where ``in_range`` is false)."""
    assert load.tensor_map is not None
    coords = [mapping.get(c, c) for c in load.coords]
    rows = descriptor_rows(load) if rotated_span(tile) else None
    copy = AsyncTMACopyGlobalToLocalOp(load.tensor_map, coords, view, barrier, in_range, rows)
    copy.location = load.location
    return copy
