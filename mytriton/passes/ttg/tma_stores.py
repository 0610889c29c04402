"""``ttg-tma-stores``: a tensor descriptor's block store as one TMA store on sm_90.

A ``tt.store`` that names a descriptor's tensor map (``tt.store ... tensor_map``: a host
descriptor's, whose map is a kernel argument, or one the kernel makes, ``device_tensor_maps``)
writes exactly the block at its coordinates, masked to the tensor's bounds. On sm_90 the
threads may instead write the block into a swizzled shared tile and let one thread hand the
tile to the copy engine, which writes it to global memory with the same bounds (elements
outside the tensor are not written, given the extent below) in a few large transactions
(``ttg_tma_store``)::

    ttg.async_tma_store_wait {pendings = 0}      // the tile's last store has read it
    %tile = ttg.local_alloc %value                // registers -> swizzled tile, fence, barrier
    ttg.async_tma_copy_local_to_global %map[%c0, %c1] %tile
    ...
    ttg.async_tma_store_wait {pendings = 0}      // before the kernel returns

The value is stored as the block arrives (where it comes through a ``ttg.convert_layout``, the
conversion's source: the swizzled tile makes any layout's writes conflict-free, so the
conversion through shared memory the plain store needed is not done). A store qualifies where
its tile is one the copy engine reads (``ttg_tma.tensor_map_box``: rows a multiple of 8 up to
256, rows of a multiple of 64 bytes, 2- or 4-byte elements), its innermost coordinate is known
to be a multiple of 16 bytes (the H200 faults otherwise), the tensor's innermost extent is
known to be a multiple of 16 bytes (the axis analysis: a host descriptor's shape is
specialized by its power-of-two divisor up to 16), and its map is read with no other box. The
extent matters because the copy engine writes a row in whole 16-byte chunks (as measured on
the H100; Triton issue 11583): past an extent of, say, 90 f16 elements it writes elements 90
to 95 too, which a masked store must not touch. The tile lives for the whole kernel
(``shared_alloc``: a tile a TMA op touches), so the module is kept only where it still fits
in shared memory (``shared_fit``, the lowering the real one then reuses); otherwise every
store stays as it was. The pass runs after ``ttg-pipeline``, whose stage count is thus
chosen without the tile.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import builtin, func
from xdsl.dialects.builtin import BFloat16Type, Float16Type, Float32Type, IntegerType
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.transforms.dead_code_elimination import region_dce

from mytriton.dialects.tt import core as tt
from mytriton.dialects.tt.types import byte_size, element_type, shape_of
from mytriton.dialects.ttg.layouts import (
    BlockedLayoutAttr,
    ConvertLayoutOp,
    layout_of,
    module_capability,
)
from mytriton.dialects.ttg.nvmma import NvmmaSharedLayoutAttr, swizzle_for
from mytriton.dialects.ttg.shared import LocalAllocOp, MemDescType
from mytriton.dialects.ttg.tma import record_tensor_map, tensor_map_box
from mytriton.dialects.ttg.tma_store import AsyncTMACopyLocalToGlobalOp, AsyncTMAStoreWaitOp
from mytriton.passes.analysis.axis_info import AxisAnalysis
from mytriton.passes.analysis.device_tensor_maps import aligned_for_tma, made_map, record_device_map
from mytriton.passes.module_body import replace_body

HOPPER = 90
TMA_ALIGNMENT = 16  # bytes: where a TMA copy's innermost coordinate must start


class TmaStoresPass(ModulePass):
    """Descriptor stores as TMA stores on sm_90 (module doc)."""

    name = "ttg-tma-stores"

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        if module_capability(op) < HOPPER:
            return
        stores = [s for s in op.walk() if isinstance(s, tt.StoreOp) and s.tensor_map is not None]
        if not stores:
            return
        from mytriton.passes.ttg.pipelining.shared_fit import fits_shared_memory

        before = op.clone()
        axis = AxisAnalysis(op)
        done = {fn for s in stores if (fn := _kernel_of(s)) is not None and _rewrite(fn, s, axis)}
        if not done:
            return
        for fn in done:
            for ret in [r for r in fn.walk() if isinstance(r, func.ReturnOp)]:
                _insert_before(ret, AsyncTMAStoreWaitOp(0))
            region_dce(fn.body)
        if not fits_shared_memory(op):
            replace_body(op, before)


def _kernel_of(op: Operation) -> func.FuncOp | None:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, func.FuncOp):
        parent = parent.parent_op()
    return parent


def _insert_before(at: Operation, op: Operation) -> None:
    op.location = at.location
    Rewriter.insert_op(op, InsertPoint.before(at))


def staging_tile(value: SSAValue) -> MemDescType | None:
    """The swizzled tile a TMA store of ``value``'s block reads, or None where the copy engine
    cannot read one (module doc)."""
    shape = shape_of(value.type)
    element = element_type(value.type)
    if len(shape) != 2 or not _storable(element):
        return None
    swizzle = swizzle_for(shape[1] * byte_size(element))
    if swizzle is None:
        return None
    layout = NvmmaSharedLayoutAttr([1, 0], swizzle=swizzle)
    if layout.check_shape(shape, byte_size(element)) is not None:
        return None
    tile = MemDescType(shape, element, layout)
    return tile if tensor_map_box(tile) is not None else None


def _storable(element: object) -> bool:
    if isinstance(element, Float16Type | BFloat16Type | Float32Type):
        return True
    return isinstance(element, IntegerType) and element.width.data in (16, 32)


def _whole_chunks(extent: SSAValue, tile: MemDescType, axis: AxisAnalysis) -> bool:
    """Whether the tensor's innermost ``extent`` is known to be a multiple of 16 bytes: the
    copy engine writes a row in whole 16-byte chunks, so past any other extent it would write
    elements outside the tensor (module doc)."""
    return (axis[extent].element_divisibility(0) * byte_size(tile.element)) % TMA_ALIGNMENT == 0


def _registers(value: SSAValue) -> bool:
    """Whether ``value`` is laid out as the staging writes take a block: a blocked layout
    (a tensor-core accumulator's included), not a slice of a wider one."""
    return isinstance(layout_of(value.type), BlockedLayoutAttr)


def _rewrite(kernel: func.FuncOp, store: tt.StoreOp, axis: AxisAnalysis) -> bool:
    """Replace ``store`` by a TMA store where it qualifies (module doc); whether it did."""
    m = store.tensor_map
    assert m is not None
    value = store.value
    tile = staging_tile(value)
    if tile is None:
        return False
    inner = axis[store.coords[-1]].element_divisibility(0) * byte_size(tile.element)
    if inner % TMA_ALIGNMENT:
        return False
    found = tensor_map_box(tile)
    assert found is not None
    box, swizzle = found
    made = made_map(m, kernel)
    if made is not None:
        if not aligned_for_tma(made, axis) or not _whole_chunks(made.shape[-1], tile, axis):
            return False
        if not record_device_map(kernel, made, box, swizzle, 0):
            return False
    elif isinstance(m, BlockArgument) and m.block is kernel.body.block:
        # a host descriptor's arguments: base, shape (outermost first), strides, map
        extent = kernel.body.block.args[m.index - len(box)]
        if not _whole_chunks(extent, tile, axis):
            return False
        if not record_tensor_map(kernel, m.index, box, swizzle, 0):
            return False
    else:
        return False
    convert = value.owner
    source = convert.src if isinstance(convert, ConvertLayoutOp) else value
    if not _registers(source):
        source = value
        if not _registers(source):
            return False
    alloc = LocalAllocOp(tile, source)
    for new in (
        AsyncTMAStoreWaitOp(0),
        alloc,
        AsyncTMACopyLocalToGlobalOp(m, list(store.coords), alloc.result),
    ):
        _insert_before(store, new)
    store.detach()
    store.erase()
    return True
