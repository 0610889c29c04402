"""Stores by Hopper's tensor memory accelerator (TMA): a block written from shared memory to
global memory through a tensor map, in one copy of the copy engine.

``ttg-tma-stores`` (``passes/ttg/tma_stores.py``) writes these for a tensor descriptor's store
on sm_90, as Triton's ``ttng`` ops of the same names:

* ``ttg.async_tma_copy_local_to_global %map[%c0, %c1] %tile``: one thread of the program
  starts the copies of ``%tile`` (a ``#ttg.nvmma_shared`` tile that the threads wrote and
  published with a barrier: ``ttg.local_alloc %value``) to the block at the coordinates
  (outermost first) of the tensor behind ``%map``, and commits them as one bulk group. The copy
  engine writes only the elements inside the tensor (the map's bounds), as the masked store it
  replaces did; it reads the tile until a ``ttg.async_tma_store_wait``.
* ``ttg.async_tma_store_wait {pendings = N}``: the threads wait until at most ``N`` of the
  bulk groups they committed still read shared memory, then pass a barrier (after it, no store
  older than the newest ``N`` reads the tiles, so any thread may write them again). One comes
  before each write of a staging tile and one before the kernel returns (its shared memory
  must outlive the reads).

The tile is copied in boxes of (rows, one swizzle row's elements), as a TMA load fills it
(``ttg_tma.tensor_map_box``; rows not rotated). No interpreter rule: like the rest of
``ttg_shared`` they exist only on the way to the GPU.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import I32, IntegerAttr, i32
from xdsl.ir import SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    prop_def,
    traits_def,
    var_operand_def,
)
from xdsl.traits import MemoryReadEffect, MemoryWriteEffect
from xdsl.utils.exceptions import VerifyException

from mytriton.dialects.tt.core import TENSOR_MAP_TYPE
from mytriton.dialects.ttg.shared import MemDescType
from mytriton.dialects.ttg.tma import MAX_BOX, rotated_span, tensor_map_box


@irdl_op_definition
class AsyncTMACopyLocalToGlobalOp(IRDLOperation):
    """One thread starts the copy engine's store of ``tile`` to the block at ``coords``
    (outermost first) of the tensor behind ``tensor_map``, and commits it."""

    name = "ttg.async_tma_copy_local_to_global"
    tensor_map = operand_def(TENSOR_MAP_TYPE)
    coords = var_operand_def(i32)
    src = operand_def(MemDescType)
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    assembly_format = "$tensor_map `[` $coords `]` $src attr-dict `:` type($src)"

    def __init__(self, tensor_map: SSAValue, coords: Sequence[SSAValue], src: SSAValue):
        super().__init__(operands=[tensor_map, list(coords), src])

    @property
    def tile(self) -> MemDescType:
        t = self.src.type
        assert isinstance(t, MemDescType)
        return t

    def verify_(self) -> None:
        t = self.src.type
        if not isinstance(t, MemDescType) or t.stacked != 1 or len(t.shape) != 2:
            raise VerifyException(f"{self.name}: the source must be one 2-d tile")
        if len(self.coords) != 2:
            raise VerifyException(f"{self.name}: a 2-d tile needs two coordinates")
        if tensor_map_box(t) is None or rotated_span(t):
            raise VerifyException(
                f"{self.name}: the copy engine cannot read a tile laid out as {t.layout} (it "
                "needs a #ttg.nvmma_shared tile contiguous along its last dimension, of at most "
                f"{MAX_BOX} rows, not rotated)"
            )


@irdl_op_definition
class AsyncTMAStoreWaitOp(IRDLOperation):
    """The threads wait until at most ``pendings`` of their TMA stores still read shared
    memory, then pass a barrier."""

    name = "ttg.async_tma_store_wait"
    pendings = prop_def(IntegerAttr[I32])
    irdl_options = (ParsePropInAttrDict(),)
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    assembly_format = "attr-dict"

    def __init__(self, pendings: int = 0):
        super().__init__(properties={"pendings": IntegerAttr(pendings, i32)})

    @property
    def pending(self) -> int:
        return self.pendings.value.data

    def verify_(self) -> None:
        if not 0 <= self.pending < 64:
            raise VerifyException(f"{self.name}: pendings must lie in 0 to 63")


OPS: list[type[IRDLOperation]] = [AsyncTMACopyLocalToGlobalOp, AsyncTMAStoreWaitOp]
