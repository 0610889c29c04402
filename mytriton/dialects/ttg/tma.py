"""Copies by Hopper's tensor memory accelerator (TMA), completing on ``mbarrier``s.

Software pipelining (``ttg-pipeline``) writes these for a tensor descriptor's loads that feed
warpgroup MMAs (a host descriptor's, whose tensor map is a kernel argument, or one made in the
kernel, whose map a ``tt.make_tensor_map`` writes: ``tt_tensor_map``): one thread of the
program asks the copy engine for a whole block, which lands in the swizzled tile
(``#ttg.nvmma_shared``) the MMA reads, and counts its bytes on the stage's barrier; every
thread waits on that barrier before reading the tile. Names and meaning follow Triton's
(``ttng.init_barrier``, ``ttng.barrier_expect``, ...):

* ``!ttg.memdesc<3x1xi64, #ttg.shared<{order = [0]}>>``: one 8-byte mbarrier a stage.
* ``ttg.init_barrier %bar, 1``: a fresh barrier expecting one arrival a phase, phase 0.
* ``ttg.inval_barrier %bar``: the barrier is done with (before it is initialised again).
* ``ttg.barrier_expect %bar, BYTES, %pred``: where ``%pred``, the program arrives on the
  barrier once and expects ``BYTES`` more bytes of copies before the phase completes.
* ``ttg.async_tma_copy_global_to_local %map[%c0, %c1] %tile, %bar, %pred [rows %m]``: where
  ``%pred``, start copying the block at the coordinates (outermost first) of the tensor behind
  ``%map`` into ``%tile`` (zeros outside the tensor); its bytes complete on ``%bar``. ``rows``,
  the tensor's extent along its dimension 0, is there exactly when the tile's layout rotates
  its 8-row groups (below).
* ``ttg.wait_barrier %bar, %phase``: every thread waits until the barrier's phase of parity
  ``%phase`` has completed (so the copies counted on it have landed).

The ops that one thread performs (init, inval, expect, copy) need a ``gpu.barrier`` between
them and other threads' uses of the barrier, which the pipeline places. A tile a TMA copy
fills must be a 2-d ``#ttg.nvmma_shared`` tile whose contiguous dimension is the tensor's last
and whose rows are not rotated: the copy engine writes 128- (or 64-) byte swizzled rows, the
same bytes the layout names. The copies of a tile are of ``box`` = (rows, one swizzle row's
elements) each, one a swizzle column, or (8, one swizzle row) where the layout rotates the
tile's 8-row groups (a warpgroup MMA's A: each group where the rotation puts it;
``tensor_map_box``); the kernel's function records the box of each tensor map it reads
(``TENSOR_MAPS_ATTR``), which the runtime encodes.

Where the rows rotate over a span of ``S`` groups, the runtime's map of that descriptor is two
maps, 128 bytes apart (``backends/nvidia/tensor_maps.py``): the 2-d one, and a 5-d *span map* of the
same tensor whose one box is a whole span in rotated order, dims (innermost first) columns,
row in group, ``h``, ``l``, first row (strides 1 row, ``S/2`` groups, 1 group, 1 row): source
group ``h S/2 + l`` lands at ``2 l + h``, ``rotate_rows``' place for it. A span that lies
inside the tensor's rows (``0 <= row`` and ``row + 8 S <= rows``) is one copy through the span
map; one that crosses the tensor's edge takes its ``S`` boxes of 8 rows, whose rows outside
the tensor read as zeros (the span map cannot zero part of a span: its bounds are per
dimension).

No interpreter rule: like the rest of ``ttg_shared`` they exist only on the way to the GPU.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from xdsl.dialects import func
from xdsl.dialects.builtin import (
    I32,
    DenseArrayBase,
    DictionaryAttr,
    IntegerAttr,
    i1,
    i32,
    i64,
)
from xdsl.ir import Operation, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    prop_def,
    traits_def,
    var_operand_def,
)
from xdsl.traits import MemoryReadEffect, MemoryWriteEffect
from xdsl.utils.exceptions import VerifyException

from mytriton.dialects.tt.core import TENSOR_MAP_TYPE
from mytriton.dialects.tt.types import byte_size
from mytriton.dialects.ttg.layouts import SharedLayoutAttr
from mytriton.dialects.ttg.nvmma import ATOM_ROWS, NvmmaSharedLayoutAttr
from mytriton.dialects.ttg.shared import MemDescType

#: the function attribute naming, per tensor-map argument (its index), the box and swizzle
TENSOR_MAPS_ATTR = "ttg.tensor_maps"
BARRIER_BYTES = 8
MAX_BOX = 256  # the copy engine's largest box dimension
#: where a tensor map's span map starts (the module doc): the byte after a ``CUtensorMap``
SPAN_MAP_OFFSET = 128


def barrier_type(count: int) -> MemDescType:
    """``count`` barriers (one a stage), stacked."""
    return MemDescType((count, 1), i64, SharedLayoutAttr([0]))


def _barrier(op: IRDLOperation, v: SSAValue) -> None:
    t = v.type
    if not isinstance(t, MemDescType) or t.shape != (1,) or t.element != i64:
        raise VerifyException(f"{op.name}: the barrier must be a !ttg.memdesc<1xi64>, got {t}")


def tensor_map_box(tile: MemDescType) -> tuple[tuple[int, int], int] | None:
    """The box (outermost first) and swizzle bytes of the copies filling ``tile``, or None when
    the copy engine cannot write its layout (see the module doc)."""
    layout = tile.layout
    if not isinstance(layout, NvmmaSharedLayoutAttr) or len(tile.tile_shape) != 2:
        return None
    if layout.dim_order != (1, 0):
        return None
    rows, cols = layout.rows_cols(tile.tile_shape)
    columns = layout.atom_elements(byte_size(tile.element))
    if cols % columns:
        return None
    if rotated(layout):  # an 8-row group a copy, each where the rotation puts it
        return (ATOM_ROWS, columns), layout.row_bytes
    if rows > MAX_BOX:
        return None
    return (rows, columns), layout.row_bytes


def rotated(layout: NvmmaSharedLayoutAttr) -> bool:
    """Whether the layout moves 8-row groups (a span of 2 leaves every group in place)."""
    return layout.span > 2


def rotated_span(tile: MemDescType) -> int:
    """The 8-row groups over which ``tile``'s layout rotates its rows (the span map's ``S``),
    0 where it does not."""
    layout = tile.layout
    if isinstance(layout, NvmmaSharedLayoutAttr) and rotated(layout):
        return layout.span
    return 0


def tile_bytes(tile: MemDescType) -> int:
    rows, cols = tile.tile_shape
    return rows * cols * byte_size(tile.element)


@irdl_op_definition
class InitBarrierOp(IRDLOperation):
    """One thread makes ``%bar`` a fresh barrier of ``count`` arrivals a phase, in phase 0."""

    name = "ttg.init_barrier"
    bar = operand_def(MemDescType)
    count = prop_def(IntegerAttr[I32])
    traits = traits_def(MemoryWriteEffect())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$bar `,` $count attr-dict `:` type($bar)"

    def __init__(self, bar: SSAValue, count: int = 1):
        super().__init__(operands=[bar], properties={"count": IntegerAttr(count, i32)})

    def verify_(self) -> None:
        _barrier(self, self.bar)
        if self.count.value.data < 1:
            raise VerifyException(f"{self.name}: the arrival count must be positive")


@irdl_op_definition
class InvalBarrierOp(IRDLOperation):
    """One thread ends ``%bar``'s use as a barrier (before it is initialised again)."""

    name = "ttg.inval_barrier"
    bar = operand_def(MemDescType)
    traits = traits_def(MemoryWriteEffect())
    assembly_format = "$bar attr-dict `:` type($bar)"

    def __init__(self, bar: SSAValue):
        super().__init__(operands=[bar])

    def verify_(self) -> None:
        _barrier(self, self.bar)


@irdl_op_definition
class BarrierExpectOp(IRDLOperation):
    """Where ``pred``, one thread arrives on ``%bar`` expecting ``size`` bytes of copies."""

    name = "ttg.barrier_expect"
    bar = operand_def(MemDescType)
    pred = operand_def(i1)
    size = prop_def(IntegerAttr[I32])
    traits = traits_def(MemoryWriteEffect())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$bar `,` $size `,` $pred attr-dict `:` type($bar)"

    def __init__(self, bar: SSAValue, size: int, pred: SSAValue):
        super().__init__(operands=[bar, pred], properties={"size": IntegerAttr(size, i32)})

    @property
    def bytes(self) -> int:
        return self.size.value.data

    def verify_(self) -> None:
        _barrier(self, self.bar)
        if self.bytes <= 0:
            raise VerifyException(f"{self.name}: the expected bytes must be positive")


@irdl_op_definition
class AsyncTMACopyGlobalToLocalOp(IRDLOperation):
    """Where ``pred``, one thread starts the copy engine's copy of the block at ``coords``
    (outermost first) of the tensor behind ``tensor_map`` into ``result``; its bytes complete
    on ``barrier``."""

    name = "ttg.async_tma_copy_global_to_local"
    tensor_map = operand_def(TENSOR_MAP_TYPE)
    coords = var_operand_def(i32)
    result = operand_def(MemDescType)
    barrier = operand_def(MemDescType)
    pred = operand_def(i1)
    #: the tensor's extent along dimension 0, where the tile's rows rotate (the module doc)
    rows = opt_operand_def(i32)
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    assembly_format = (
        "$tensor_map `[` $coords `]` $result `,` $barrier `,` $pred (`rows` $rows^)? attr-dict "
        "`:` type($result) `,` type($barrier)"
    )

    def __init__(
        self,
        tensor_map: SSAValue,
        coords: Sequence[SSAValue],
        result: SSAValue,
        barrier: SSAValue,
        pred: SSAValue,
        rows: SSAValue | None = None,
    ):
        super().__init__(
            operands=[tensor_map, list(coords), result, barrier, pred, [rows] if rows else []]
        )

    @property
    def tile(self) -> MemDescType:
        t = self.result.type
        assert isinstance(t, MemDescType)
        return t

    def verify_(self) -> None:
        _barrier(self, self.barrier)
        t = self.result.type
        if not isinstance(t, MemDescType) or t.stacked != 1 or len(t.shape) != 2:
            raise VerifyException(f"{self.name}: the destination must be one 2-d tile")
        if len(self.coords) != 2:
            raise VerifyException(f"{self.name}: a 2-d tile needs two coordinates")
        if tensor_map_box(t) is None:
            raise VerifyException(
                f"{self.name}: the copy engine cannot write a tile laid out as {t.layout} "
                "(it needs a #ttg.nvmma_shared tile contiguous along its last dimension, of at "
                f"most {MAX_BOX} rows unless its rows are rotated)"
            )
        if rotated_span(t) and self.rows is None:
            raise VerifyException(
                f"{self.name}: a tile whose 8-row groups rotate needs the tensor's `rows`"
            )
        if not rotated_span(t) and self.rows is not None:
            raise VerifyException(f"{self.name}: `rows` only goes with a tile whose rows rotate")


@irdl_op_definition
class WaitBarrierOp(IRDLOperation):
    """Every thread waits until ``%bar``'s phase of parity ``phase`` has completed."""

    name = "ttg.wait_barrier"
    bar = operand_def(MemDescType)
    phase = operand_def(i32)
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    assembly_format = "$bar `,` $phase attr-dict `:` type($bar)"

    def __init__(self, bar: SSAValue, phase: SSAValue):
        super().__init__(operands=[bar, phase])

    def verify_(self) -> None:
        _barrier(self, self.bar)


OPS: list[type[IRDLOperation]] = [
    InitBarrierOp,
    InvalBarrierOp,
    BarrierExpectOp,
    AsyncTMACopyGlobalToLocalOp,
    WaitBarrierOp,
]


def tensor_maps(kernel: func.FuncOp) -> dict[int, tuple[tuple[int, ...], int, int]]:
    """The tensor maps ``kernel`` reads: argument index -> (box outermost first, swizzle, span
    of the rotated rows whose span map follows the map, 0 for none)."""
    found = kernel.attributes.get(TENSOR_MAPS_ATTR)
    if not isinstance(found, DictionaryAttr):
        return {}
    maps = {}
    for key, value in found.data.items():
        assert isinstance(value, DenseArrayBase)
        *box, swizzle, span = value.get_values()
        maps[int(key)] = (tuple(int(b) for b in box), int(swizzle), int(span))
    return maps


def record_tensor_map(
    kernel: func.FuncOp, arg: int, box: Sequence[int], swizzle: int, span: int
) -> bool:
    """Record that ``kernel`` copies boxes ``box`` with ``swizzle`` (and spans of ``span``
    rotated groups, 0 for none) through its tensor-map argument ``arg``; False where it already
    reads that map otherwise (one map, one box: the second use stays a load)."""
    maps = tensor_maps(kernel)
    want = (tuple(box), swizzle, span)
    if arg in maps:
        return maps[arg] == want
    maps[arg] = want
    kernel.attributes[TENSOR_MAPS_ATTR] = DictionaryAttr(
        {str(k): DenseArrayBase.from_list(i64, [*b, s, r]) for k, (b, s, r) in sorted(maps.items())}
    )
    return True


def kernel_tensor_maps(module: Operation) -> dict[str, list[Any]]:
    """The tensor maps the kernel of ``module`` reads, as its metadata holds them (JSON):
    argument index -> [box outermost first, swizzle, span]."""
    for op in module.walk():
        if isinstance(op, func.FuncOp):
            return {str(k): [list(box), sw, r] for k, (box, sw, r) in tensor_maps(op).items()}
    return {}
