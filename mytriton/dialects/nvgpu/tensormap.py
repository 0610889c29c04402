"""The proxy fences that order a tensor map written in the kernel before the copy engine reads
it, which xDSL 0.74 lacks: ``nvvm.fence.proxy.release`` and ``nvvm.fence.proxy.acquire``.

Names, properties and custom syntax match upstream MLIR 22 (``mlir-opt-22`` parses what we
print and lowers both to the ``llvm.nvvm.fence.proxy.tensormap_generic.*`` intrinsics); the
CUDA printer prints them as inline PTX (``print_tensormap``) and gpusim checks them
(``rules_tensormap``). A tensor map written with ordinary stores and ``ptx.tensormap.replace``
(the generic proxy) is read by a TMA copy through the *tensormap* proxy, so the writing thread
releases its writes to that proxy and the copying thread acquires the map's 128 bytes::

    nvvm.fence.proxy.release <gpu>
    nvvm.fence.proxy.acquire <gpu> %map, %c128

(PTX ``fence.proxy.tensormap::generic.release.gpu;`` and
``fence.proxy.tensormap::generic.acquire.gpu [%map], 128;``). Only what that needs is
supported, and the verifiers refuse the rest: from the generic proxy to the tensormap proxy
(upstream's defaults), and an acquire of exactly 128 bytes (PTX's only size) at a generic
address.
"""

from __future__ import annotations

from xdsl.dialects.builtin import i32
from xdsl.ir import SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    traits_def,
)
from xdsl.traits import MemoryReadEffect, MemoryWriteEffect
from xdsl.utils.exceptions import VerifyException

from mytriton.dialects.nvgpu.tma import (
    GENERIC_POINTER,
    MemScopeAttr,
    ProxyKindAttr,
    constant_int,
)

#: the bytes of a tensor map (CUDA's ``CUtensorMap``), the one size PTX's acquire takes
TENSOR_MAP_BYTES = 128


def _proxies(op: IRDLOperation, source: ProxyKindAttr | None, dest: ProxyKindAttr | None) -> None:
    """Only upstream's defaults: generic to tensormap."""
    got = (source.data if source else "generic", dest.data if dest else "tensormap")
    if got != ("generic", "tensormap"):
        raise VerifyException(
            f"{op.name}: only fromProxy = generic and toProxy = tensormap are supported, not "
            f"{got[0]} and {got[1]}"
        )


@irdl_op_definition
class FenceProxyReleaseOp(IRDLOperation):
    """``nvvm.fence.proxy.release <gpu>``: the thread's earlier generic-proxy
    writes (a tensor map's) are ordered before later tensormap-proxy reads at ``scope``."""

    name = "nvvm.fence.proxy.release"
    scope = prop_def(MemScopeAttr)
    fromProxy = opt_prop_def(ProxyKindAttr)  # noqa: N815 (upstream's property names)
    toProxy = opt_prop_def(ProxyKindAttr)  # noqa: N815
    irdl_options = (ParsePropInAttrDict(),)
    traits = traits_def(MemoryWriteEffect())
    assembly_format = "$scope attr-dict"

    def __init__(self, scope: str = "gpu") -> None:
        super().__init__(properties={"scope": MemScopeAttr(scope)})

    def verify_(self) -> None:
        _proxies(self, self.fromProxy, self.toProxy)


@irdl_op_definition
class FenceProxyAcquireOp(IRDLOperation):
    """``nvvm.fence.proxy.acquire <gpu> %addr, %size``: the thread's later
    tensormap-proxy reads of the ``%size`` (128) bytes at ``%addr`` see the writes released to
    that proxy before."""

    name = "nvvm.fence.proxy.acquire"
    scope = prop_def(MemScopeAttr)
    addr = operand_def(GENERIC_POINTER)
    size = operand_def(i32)
    fromProxy = opt_prop_def(ProxyKindAttr)  # noqa: N815
    toProxy = opt_prop_def(ProxyKindAttr)  # noqa: N815
    irdl_options = (ParsePropInAttrDict(),)
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    assembly_format = "$scope $addr `,` $size attr-dict"

    def __init__(self, addr: SSAValue, size: SSAValue, scope: str = "gpu") -> None:
        super().__init__(operands=[addr, size], properties={"scope": MemScopeAttr(scope)})

    def verify_(self) -> None:
        _proxies(self, self.fromProxy, self.toProxy)
        if constant_int(self.size) != TENSOR_MAP_BYTES:
            raise VerifyException(
                f"{self.name}: the size must be a constant {TENSOR_MAP_BYTES} (a tensor map's "
                "bytes, an immediate of the PTX instruction)"
            )


TENSORMAP_FENCE_OPS: list[type[IRDLOperation]] = [FenceProxyReleaseOp, FenceProxyAcquireOp]
