"""The ops of Hopper's tensor memory accelerator (TMA) and the mbarriers its copies complete on,
which xDSL 0.74 lacks: ``nvvm.mbarrier.init``, ``nvvm.mbarrier.inval``,
``nvvm.fence.mbarrier.init``, ``nvvm.mbarrier.arrive.expect_tx``,
``nvvm.cp.async.bulk.tensor.shared.cluster.global``, ``nvvm.mbarrier.try_wait.parity``, and
``llvm.addrspacecast`` (the copy's destination is a ``shared::cluster`` pointer, its tensor map
a generic one).

Names, operands, properties and custom syntax match upstream MLIR 22 exactly (``mlir-opt-22``
parses what we print, either form, and ``convert-nvvm-to-llvm`` lowers it); the CUDA printer
prints them as inline PTX (``print_tma``) and gpusim executes them (``rules_tma``). One tile
load, as the lowering makes it (one thread issues the copy, every thread waits)::

    nvvm.mbarrier.init %bar, %count : !llvm.ptr<3>, i32
    nvvm.fence.mbarrier.init
    nvvm.mbarrier.arrive.expect_tx %bar, %txbytes : !llvm.ptr<3>, i32
    %d7 = llvm.addrspacecast %dst : !llvm.ptr<3> to !llvm.ptr<7>
    %g  = llvm.addrspacecast %map : !llvm.ptr<1> to !llvm.ptr
    nvvm.cp.async.bulk.tensor.shared.cluster.global %d7, %g, %bar, box[%c0, %c1]
        : !llvm.ptr<7>, !llvm.ptr
    nvvm.mbarrier.try_wait.parity %bar, %phase, %ticks : !llvm.ptr<3>, i32, i32

An *mbarrier* is 8 bytes of shared memory counting arrivals and transaction bytes: ``init``
sets how many arrivals complete a phase (phase 0 first); ``arrive.expect_tx`` adds bytes the
phase must also receive, then arrives once; a TMA copy delivers its box to shared memory and
counts its bytes off the barrier's transactions (``complete_tx``); the phase completes when both
counts reach zero, flipping the barrier's phase parity. ``try_wait.parity %phase`` blocks until
the phase of that parity has completed (upstream lowers it to a loop around PTX's
``mbarrier.try_wait.parity``), after which the copies' data is visible to the waiting thread.
``fence.mbarrier.init`` makes an ``init`` visible to the async proxy (the TMA unit) before the
barrier is used by a copy.

We support what a tile load needs, and the verifiers refuse the rest rather than let a printer
or gpusim misread it: barriers addressed through ``!llvm.ptr<3>`` (PTX ``.shared::cta``), no
``predicate`` operands, ``expect_tx`` with the default ``.release.cta`` semantics, and the
bulk tensor copy in ``tile`` mode with 1 to 5 ``i32`` coordinates (innermost dimension first, as
CUDA's tensor maps order them), no im2col offsets, multicast mask or L2 cache hint.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith, llvm
from xdsl.dialects.builtin import (
    BoolAttr,
    IntAttr,
    IntegerAttr,
    IntegerType,
    i1,
    i16,
    i32,
    i64,
)
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
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.traits import MemoryReadEffect, MemoryWriteEffect, Pure
from xdsl.utils.exceptions import VerifyException

from mytriton.dialects.nvgpu.nvvm import SHARED_POINTER, _Keyword

#: ``!llvm.ptr<7>``: PTX's ``.shared::cluster`` window (a CTA's own shared memory included)
SHARED_CLUSTER_POINTER = llvm.LLVMPointerType(IntAttr(7))
#: ``!llvm.ptr``: a generic address (the tensor map's, as upstream requires)
GENERIC_POINTER = llvm.LLVMPointerType()
#: the tensor ranks a ``cp.async.bulk.tensor`` copies (PTX ``.1d`` to ``.5d``)
TMA_RANKS = range(1, 6)


@irdl_attr_definition
class MemScopeAttr(_Keyword):
    """``#nvvm.mem_scope<cta>``: the scope of an mbarrier arrive's release."""

    name = "nvvm.mem_scope"
    KEYWORDS = ("cta", "cluster", "gpu", "sys")


@irdl_attr_definition
class ProxyKindAttr(_Keyword):
    """``#nvvm.proxy_kind<async.shared>``: the memory proxy a ``fence.proxy`` orders."""

    name = "nvvm.proxy_kind"
    KEYWORDS = ("alias", "async", "async.global", "async.shared", "tensormap", "generic")


@irdl_attr_definition
class TmaLoadModeAttr(_Keyword):
    """``#nvvm.tma_load_mode<tile>``: how a bulk tensor copy reads the tensor."""

    name = "nvvm.tma_load_mode"
    KEYWORDS = ("tile", "im2col", "im2col_w", "im2col_w_128", "tile_gather4")


def _pointer_space(t: Attribute) -> int | None:
    """The address space of an ``!llvm.ptr`` type (0 when it has none), else ``None``."""
    if not isinstance(t, llvm.LLVMPointerType):
        return None
    space = t.addr_space
    return space.data if isinstance(space, IntAttr) else 0


@irdl_op_definition
class AddrSpaceCastOp(IRDLOperation):
    """``llvm.addrspacecast %p : !llvm.ptr<3> to !llvm.ptr<7>``: the same address in another
    address space. A bulk tensor copy's destination is a ``shared::cluster`` pointer, of which a
    CTA's own ``shared::cta`` addresses are valid values; its tensor map is a generic pointer,
    of which a global address is one."""

    name = "llvm.addrspacecast"
    arg = operand_def(llvm.LLVMPointerType)
    res = result_def(llvm.LLVMPointerType)
    traits = traits_def(Pure())
    assembly_format = "$arg attr-dict `:` type($arg) `to` type($res)"

    def __init__(self, arg: SSAValue, result_type: llvm.LLVMPointerType):
        super().__init__(operands=[arg], result_types=[result_type])

    @property
    def spaces(self) -> tuple[int, int]:
        """(source, result) address spaces (0: generic)."""
        src, dst = _pointer_space(self.arg.type), _pointer_space(self.res.type)
        assert src is not None and dst is not None  # the operand constraints
        return src, dst


def _no_predicate(op: IRDLOperation, predicate: SSAValue | None) -> None:
    if predicate is not None:
        raise VerifyException(f"{op.name}: predicate operands are not supported")


def _barrier_address(op: IRDLOperation, addr: SSAValue) -> None:
    """The printers spell barriers as ``.shared::cta`` 32-bit addresses: ``!llvm.ptr<3>``."""
    if addr.type != SHARED_POINTER:
        raise VerifyException(
            f"{op.name}: the mbarrier address must be an !llvm.ptr<3>, not {addr.type}"
        )


@irdl_op_definition
class MBarrierInitOp(IRDLOperation):
    """``nvvm.mbarrier.init %bar, %count``: the mbarrier at ``%bar`` starts phase 0, expecting
    ``%count`` arrivals and no transaction bytes."""

    name = "nvvm.mbarrier.init"
    addr = operand_def(llvm.LLVMPointerType)
    count = operand_def(i32)
    predicate = opt_operand_def(i1)
    traits = traits_def(MemoryWriteEffect())
    assembly_format = (
        "$addr `,` $count (`,` `predicate` `=` $predicate^)? attr-dict `:` type(operands)"
    )

    def __init__(self, addr: SSAValue, count: SSAValue):
        super().__init__(operands=[addr, count, []])

    def verify_(self) -> None:
        _barrier_address(self, self.addr)
        _no_predicate(self, self.predicate)


@irdl_op_definition
class MBarrierInvalOp(IRDLOperation):
    """``nvvm.mbarrier.inval %bar``: the mbarrier at ``%bar`` is no longer one (no copy may be
    in flight on it), so its memory may be initialised again (a loop's barriers, each time the
    loop runs)."""

    name = "nvvm.mbarrier.inval"
    addr = operand_def(llvm.LLVMPointerType)
    traits = traits_def(MemoryWriteEffect())
    assembly_format = "$addr attr-dict `:` type(operands)"

    def __init__(self, addr: SSAValue):
        super().__init__(operands=[addr])

    def verify_(self) -> None:
        _barrier_address(self, self.addr)


@irdl_op_definition
class FenceMBarrierInitOp(IRDLOperation):
    """``nvvm.fence.mbarrier.init`` (PTX ``fence.mbarrier_init.release.cluster``): the thread's
    earlier ``mbarrier.init`` become visible to the async proxy (the TMA unit completes
    transactions on the barrier) and, after a barrier, to the other threads."""

    name = "nvvm.fence.mbarrier.init"
    traits = traits_def(MemoryWriteEffect())
    assembly_format = "attr-dict"

    def __init__(self) -> None:
        super().__init__()


@irdl_op_definition
class MBarrierArriveExpectTxOp(IRDLOperation):
    """``nvvm.mbarrier.arrive.expect_tx %bar, %bytes``: the barrier's current phase must also
    receive ``%bytes`` transaction bytes (a TMA copy's), then the thread arrives on it once
    (PTX ``mbarrier.arrive.expect_tx.release.cta``). ``relaxed`` (``.relaxed``) and a
    ``scope`` other than ``cta`` are not supported."""

    name = "nvvm.mbarrier.arrive.expect_tx"
    addr = operand_def(llvm.LLVMPointerType)
    txcount = operand_def(i32)
    predicate = opt_operand_def(i1)
    relaxed = opt_prop_def(BoolAttr)
    scope = opt_prop_def(MemScopeAttr)
    irdl_options = (ParsePropInAttrDict(),)
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    assembly_format = (
        "$addr `,` $txcount (`,` `predicate` `=` $predicate^)? attr-dict `:` type(operands)"
    )

    def __init__(self, addr: SSAValue, txcount: SSAValue):
        super().__init__(operands=[addr, txcount, []])

    def verify_(self) -> None:
        _barrier_address(self, self.addr)
        _no_predicate(self, self.predicate)
        if self.relaxed is not None and self.relaxed.value.data:
            raise VerifyException(f"{self.name}: relaxed arrives are not supported")
        if self.scope is not None and self.scope.data != "cta":
            raise VerifyException(
                f"{self.name}: only scope = #nvvm.mem_scope<cta> is supported, not "
                f"{self.scope.data}"
            )


@irdl_op_definition
class CpAsyncBulkTensorGlobalToSharedClusterOp(IRDLOperation):
    """``nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %map, %bar, box[%c0, ...]``:
    start copying the box at coordinates ``%c0, ...`` (innermost dimension first; elements
    outside the tensor read as zero) of the tensor the tensor map at ``%map`` describes to
    shared memory at ``%dst`` (laid out and swizzled as the map says); the copy completes
    its bytes as transactions on the mbarrier at ``%bar`` (PTX
    ``cp.async.bulk.tensor.Nd.shared::cluster.global.tile.mbarrier::complete_tx::bytes``).

    Upstream's operands all exist (so its generic form parses), but only the tile mode's are
    supported: no ``im2col`` offsets, ``multicast_mask``, ``l2_cache_hint`` or ``predicate``.
    """

    name = "nvvm.cp.async.bulk.tensor.shared.cluster.global"
    dstMem = operand_def(llvm.LLVMPointerType)  # noqa: N815 (upstream's operand names)
    tmaDescriptor = operand_def(llvm.LLVMPointerType)  # noqa: N815
    coordinates = var_operand_def(i32)
    mbar = operand_def(SHARED_POINTER)  # upstream's constraint (which the syntax relies on)
    im2colOffsets = var_operand_def(i16)  # noqa: N815
    multicastMask = opt_operand_def(i16)  # noqa: N815
    l2CacheHint = opt_operand_def(i64)  # noqa: N815
    predicate = opt_operand_def(i1)
    isCTAOnly = opt_prop_def(BoolAttr)  # noqa: N815 (upstream's property names)
    mode = opt_prop_def(TmaLoadModeAttr)
    irdl_options = (AttrSizedOperandSegments(as_property=True), ParsePropInAttrDict())
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    assembly_format = (
        "$dstMem `,` $tmaDescriptor `,` $mbar `,` `box` `[` $coordinates `]` "
        "(`im2col` `[` $im2colOffsets^ `]`)? (`multicast_mask` `=` $multicastMask^)? "
        "(`l2_cache_hint` `=` $l2CacheHint^)? (`predicate` `=` $predicate^)? "
        "attr-dict `:` type($dstMem) `,` type($tmaDescriptor)"
    )

    def __init__(
        self,
        dst: SSAValue,
        tensor_map: SSAValue,
        mbar: SSAValue,
        coordinates: Sequence[SSAValue],
    ):
        super().__init__(operands=[dst, tensor_map, list(coordinates), mbar, [], [], [], []])

    @property
    def rank(self) -> int:
        """The box's dimensions (its coordinates)."""
        return len(self.coordinates)

    def verify_(self) -> None:
        what = self.name
        if self.dstMem.type != SHARED_CLUSTER_POINTER:
            raise VerifyException(
                f"{what}: the destination must be an !llvm.ptr<7> (shared::cluster), not "
                f"{self.dstMem.type}"
            )
        verify_tile_box(what, self.tmaDescriptor, self.rank, self.mode)
        if self.isCTAOnly is not None and self.isCTAOnly.value.data:
            raise VerifyException(f"{what}: isCTAOnly is not supported")
        reject_extras(
            what,
            "tile loads only",
            ("im2col offsets", bool(self.im2colOffsets)),
            ("a multicast mask", self.multicastMask is not None),
            ("an L2 cache hint", self.l2CacheHint is not None),
            ("a predicate", self.predicate is not None),
        )


def verify_tile_box(what: str, tensor_map: SSAValue, rank: int, mode: _Keyword | None) -> None:
    """What a TMA copy of either direction needs of its tensor map, box and mode."""
    if tensor_map.type != GENERIC_POINTER:
        raise VerifyException(
            f"{what}: the tensor map must be a generic !llvm.ptr, not {tensor_map.type}"
        )
    if rank not in TMA_RANKS:
        raise VerifyException(f"{what}: a box has 1 to 5 coordinates, not {rank}")
    if mode is not None and mode.data != "tile":
        raise VerifyException(f"{what}: only the tile mode is supported, not {mode.data}")


def reject_extras(what: str, scope: str, *extras: tuple[str, bool]) -> None:
    """The optional operands and attributes mytriton does not lower: an error if present."""
    for extra, present in extras:
        if present:
            raise VerifyException(f"{what}: {extra} is not supported ({scope})")


def constant_int(value: SSAValue) -> int | None:
    """The integer an ``arith.constant`` or ``llvm.mlir.constant`` defines, else ``None``."""
    owner = value.owner
    attr: Attribute | None = None
    if isinstance(owner, arith.ConstantOp | llvm.ConstantOp):
        attr = owner.value
    if isinstance(attr, IntegerAttr) and isinstance(attr.type, IntegerType):
        return attr.value.data
    return None


@irdl_op_definition
class MBarrierTryWaitParityOp(IRDLOperation):
    """``nvvm.mbarrier.try_wait.parity %bar, %phase, %ticks``: block until the barrier's phase
    of parity ``%phase`` (0 or 1) has completed; the copies that completed on it are then
    visible to the thread. ``%ticks`` is PTX's suspend-time hint (nanoseconds), an immediate
    of the instruction (upstream's inline asm takes it through an ``"n"`` constraint), so it
    must come from a constant op."""

    name = "nvvm.mbarrier.try_wait.parity"
    addr = operand_def(llvm.LLVMPointerType)
    phase = operand_def(i32)
    ticks = operand_def(i32)
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    assembly_format = "$addr `,` $phase `,` $ticks attr-dict `:` type(operands)"

    def __init__(self, addr: SSAValue, phase: SSAValue, ticks: SSAValue):
        super().__init__(operands=[addr, phase, ticks])

    @property
    def suspend_hint(self) -> int:
        """``%ticks``' value (the verifier guarantees it is a constant)."""
        value = constant_int(self.ticks)
        assert value is not None
        return value

    def verify_(self) -> None:
        _barrier_address(self, self.addr)
        ticks = constant_int(self.ticks)
        if ticks is None:
            raise VerifyException(
                f"{self.name}: ticks must come from an arith.constant or llvm.mlir.constant "
                "(it is an immediate of the PTX instruction)"
            )
        if not 0 <= ticks < 1 << 32:
            raise VerifyException(f"{self.name}: ticks must be a u32, not {ticks}")


#: the ``nvvm`` ops of TMA tile loads (``upstream_wgmma.NVVM`` registers them)
TMA_OPS: list[type[IRDLOperation]] = [
    MBarrierInitOp,
    MBarrierInvalOp,
    FenceMBarrierInitOp,
    MBarrierArriveExpectTxOp,
    CpAsyncBulkTensorGlobalToSharedClusterOp,
    MBarrierTryWaitParityOp,
]
TMA_ATTRS: list[type[Attribute]] = [MemScopeAttr, TmaLoadModeAttr]
#: the ``llvm`` op they need (``upstream.LLVM`` registers it)
LLVM_TMA_OPS: list[type[IRDLOperation]] = [AddrSpaceCastOp]
