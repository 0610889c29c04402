"""Hopper's TMA tile *stores* (shared memory to global through a tensor map) and the bulk-async
groups that track them, which xDSL 0.74 lacks: ``nvvm.cp.async.bulk.tensor.global.shared.cta``,
``nvvm.cp.async.bulk.commit.group`` and ``nvvm.cp.async.bulk.wait_group``.

Names, operands, properties and syntax match upstream MLIR 22 (``mlir-opt-22`` parses what we
print; ``convert-nvvm-to-llvm`` lowers them to ``llvm.nvvm.cp.async.bulk.tensor.s2g.tile.Nd``,
``...commit.group`` and ``...wait.group[.read]``); the CUDA printer prints them as inline PTX
(``print_tma``) and gpusim executes them (``rules_tma_store``). One tile store, as a lowering
makes it (every thread writes the tile and fences it for the async proxy, a barrier, then one
thread issues the copy and commits it)::

    nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
    gpu.barrier
    nvvm.cp.async.bulk.tensor.global.shared.cta %map, %src, box[%c0, %c1]
        : !llvm.ptr, !llvm.ptr<3>
    nvvm.cp.async.bulk.commit.group
    ...
    nvvm.cp.async.bulk.wait_group 0 {read}

A thread's bulk copies since its last ``commit.group`` form one *bulk async-group* when it
commits; ``wait_group N`` blocks the thread until at most ``N`` of its groups are pending, and
with ``read`` only until their reads of shared memory are done (the source may then be
rewritten; the global writes may still be on their way, which a kernel's exit does not wait
for, while the shared reads must be done before the CTA exits). Elements of the box outside the
tensor (the map's bounds) are not written.

We support a tile store's needs only, and the verifiers refuse the rest: the ``tile`` mode,
1 to 5 ``i32`` coordinates (innermost first), a ``.shared::cta`` source (``!llvm.ptr<3>``), no
L2 cache hint or predicate.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import llvm
from xdsl.dialects.builtin import I32, IntegerAttr, UnitAttr, i1, i32, i64
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    traits_def,
    var_operand_def,
)
from xdsl.traits import MemoryReadEffect, MemoryWriteEffect
from xdsl.utils.exceptions import VerifyException

from mytriton.dialects.nvgpu.nvvm import SHARED_POINTER, _Keyword
from mytriton.dialects.nvgpu.tma import reject_extras, verify_tile_box


@irdl_attr_definition
class TmaStoreModeAttr(_Keyword):
    """``#nvvm.tma_store_mode<tile>``: how a bulk tensor copy writes the tensor."""

    name = "nvvm.tma_store_mode"
    KEYWORDS = ("tile", "im2col", "tile_scatter4")


@irdl_op_definition
class CpAsyncBulkTensorSharedCTAToGlobalOp(IRDLOperation):
    """``nvvm.cp.async.bulk.tensor.global.shared.cta %map, %src, box[%c0, ...]``: start copying
    the box at shared address ``%src`` (laid out and swizzled as the tensor map says) to the
    coordinates ``%c0, ...`` (innermost first) of the tensor behind ``%map``; elements outside
    the tensor are not written (PTX ``cp.async.bulk.tensor.Nd.global.shared::cta.tile
    .bulk_group``). The copy joins the thread's next bulk async-group (``commit.group``)."""

    name = "nvvm.cp.async.bulk.tensor.global.shared.cta"
    tmaDescriptor = operand_def(llvm.LLVMPointerType)  # noqa: N815 (upstream's operand names)
    srcMem = operand_def(llvm.LLVMPointerType)  # noqa: N815
    coordinates = var_operand_def(i32)
    l2CacheHint = opt_operand_def(i64)  # noqa: N815
    predicate = opt_operand_def(i1)
    mode = opt_prop_def(TmaStoreModeAttr)
    irdl_options = (AttrSizedOperandSegments(as_property=True), ParsePropInAttrDict())
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    assembly_format = (
        "$tmaDescriptor `,` $srcMem `,` `box` `[` $coordinates `]` "
        "(`l2_cache_hint` `=` $l2CacheHint^)? (`predicate` `=` $predicate^)? "
        "attr-dict `:` type($tmaDescriptor) `,` type($srcMem)"
    )

    def __init__(self, tensor_map: SSAValue, src: SSAValue, coordinates: Sequence[SSAValue]):
        super().__init__(operands=[tensor_map, src, list(coordinates), [], []])

    @property
    def rank(self) -> int:
        """The box's dimensions (its coordinates)."""
        return len(self.coordinates)

    def verify_(self) -> None:
        what = self.name
        if self.srcMem.type != SHARED_POINTER:
            raise VerifyException(
                f"{what}: the source must be an !llvm.ptr<3> (shared::cta), not {self.srcMem.type}"
            )
        verify_tile_box(what, self.tmaDescriptor, self.rank, self.mode)
        reject_extras(
            what,
            "tile stores only",
            ("an L2 cache hint", self.l2CacheHint is not None),
            ("a predicate", self.predicate is not None),
        )


@irdl_op_definition
class CpAsyncBulkCommitGroupOp(IRDLOperation):
    """``nvvm.cp.async.bulk.commit.group``: the thread's bulk copies issued since its last
    commit become one bulk async-group."""

    name = "nvvm.cp.async.bulk.commit.group"
    traits = traits_def(MemoryWriteEffect())
    assembly_format = "attr-dict"

    def __init__(self) -> None:
        super().__init__()


@irdl_op_definition
class CpAsyncBulkWaitGroupOp(IRDLOperation):
    """``nvvm.cp.async.bulk.wait_group N [{read}]``: the thread waits until at most ``N`` of
    its bulk async-groups are pending (with ``read``: until only their reads of shared memory
    are done, so the sources may be written again)."""

    name = "nvvm.cp.async.bulk.wait_group"
    group = prop_def(IntegerAttr[I32])
    read = opt_prop_def(UnitAttr)
    irdl_options = (ParsePropInAttrDict(),)
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    assembly_format = "$group attr-dict"

    def __init__(self, group: int, read: bool = True):
        props: dict[str, Attribute] = {"group": IntegerAttr(group, i32)}
        if read:
            props["read"] = UnitAttr()
        super().__init__(properties=props)

    @property
    def pending(self) -> int:
        """The groups that may stay pending."""
        return self.group.value.data

    @property
    def reads_only(self) -> bool:
        return self.read is not None

    def verify_(self) -> None:
        if not 0 <= self.pending < 64:
            raise VerifyException(f"{self.name}: the group count must lie in 0 to 63")


#: the ``nvvm`` ops of TMA tile stores (``dialect.NVVM`` registers them)
TMA_STORE_OPS: list[type[IRDLOperation]] = [
    CpAsyncBulkTensorSharedCTAToGlobalOp,
    CpAsyncBulkCommitGroupOp,
    CpAsyncBulkWaitGroupOp,
]
TMA_STORE_ATTRS: list[type[Attribute]] = [TmaStoreModeAttr]
