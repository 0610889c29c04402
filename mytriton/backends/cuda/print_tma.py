"""Hopper's TMA tile loads and their mbarriers (``upstream_tma``) as inline PTX, each an
``asm volatile`` with a ``memory`` clobber (they read or write shared memory behind the
compiler's back, so no shared access may move across them). The kernel must be compiled for
``sm_90`` or later (``sm_90a`` as every Hopper kernel here).

A barrier (``!llvm.ptr<3>``) is the ``unsigned`` ``.shared::cta`` address of its 8 bytes
(``print_memory``), an ``"r"`` operand:

* ``nvvm.mbarrier.init``: ``mbarrier.init.shared::cta.b64 [%0], %1;``
* ``nvvm.fence.mbarrier.init``: ``fence.mbarrier_init.release.cluster;``
* ``nvvm.mbarrier.arrive.expect_tx``: ``mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;``
  (the arrival's state token is not needed: waits use the phase parity)
* ``nvvm.cp.async.bulk.tensor.shared.cluster.global`` (rank N): ``cp.async.bulk.tensor.Nd.
  shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, ...}], [%k];`` on
  the destination's 32-bit address (``"r"``), the tensor map's 64-bit generic address
  (``"l"``), the ``i32`` coordinates (``"r"``) and the barrier (``"r"``)
* ``nvvm.mbarrier.try_wait.parity``: a C loop around ``mbarrier.try_wait.parity.shared::cta.b64``
  (which may return before the phase completed, after a system-dependent time or the
  ``%ticks`` hint), its predicate turned into an ``unsigned`` by ``selp``: no PTX labels, which
  would repeat when a kernel waits twice.

The tile stores (``upstream_tma_store``): ``nvvm.cp.async.bulk.tensor.global.shared.cta``
(rank N) is ``cp.async.bulk.tensor.Nd.global.shared::cta.tile.bulk_group [%0, {%2, ...}],
[%1];`` on the map's 64-bit generic address (``"l"``), the source's 32-bit shared address
(``"r"``) and the coordinates; ``nvvm.cp.async.bulk.commit.group`` is
``cp.async.bulk.commit_group;``, ``nvvm.cp.async.bulk.wait_group N {read}``
``cp.async.bulk.wait_group.read N;`` (``.read`` dropped without ``read``).

``llvm.addrspacecast`` from ``!llvm.ptr<3>`` to ``!llvm.ptr<7>`` keeps the 32-bit address (a
CTA's own ``shared::cta`` addresses are valid in its ``shared::cluster`` window); between
``!llvm.ptr<1>`` and the generic ``!llvm.ptr`` it keeps the 64-bit pointer (a global address
is a generic one on NVIDIA GPUs, ``cvta.global`` being the identity).
"""

from __future__ import annotations

from mytriton.backends.cuda.emitter import Emitter, prints
from mytriton.dialects.nvgpu.tma import (
    AddrSpaceCastOp,
    CpAsyncBulkTensorGlobalToSharedClusterOp,
    FenceMBarrierInitOp,
    MBarrierArriveExpectTxOp,
    MBarrierInitOp,
    MBarrierInvalOp,
    MBarrierTryWaitParityOp,
)
from mytriton.dialects.nvgpu.tma_store import (
    CpAsyncBulkCommitGroupOp,
    CpAsyncBulkTensorSharedCTAToGlobalOp,
    CpAsyncBulkWaitGroupOp,
)
from mytriton.errors import BackendError

#: the address-space casts the printer knows: (source, result) spaces
_SHARED_TO_CLUSTER = (3, 7)
_GLOBAL_GENERIC = ((1, 0), (0, 1))


def bulk_tensor_asm_text(rank: int) -> str:
    """The PTX of one tile load of ``rank`` coordinates: ``%0`` the destination, ``%1`` the
    tensor map, ``%2`` ... the coordinates, the barrier last."""
    coords = ", ".join(f"%{2 + i}" for i in range(rank))
    return (
        f"cp.async.bulk.tensor.{rank}d.shared::cluster.global.tile.mbarrier::complete_tx::bytes "
        f"[%0], [%1, {{{coords}}}], [%{2 + rank}];"
    )


def bulk_store_asm_text(rank: int) -> str:
    """The PTX of one tile store of ``rank`` coordinates: ``%0`` the tensor map, ``%1`` the
    shared source, ``%2`` ... the coordinates."""
    coords = ", ".join(f"%{2 + i}" for i in range(rank))
    return (
        f"cp.async.bulk.tensor.{rank}d.global.shared::cta.tile.bulk_group [%0, {{{coords}}}], [%1];"
    )


#: the PTX of one ``try_wait`` (``%0`` whether the phase completed, ``%1`` the barrier, ``%2``
#: the parity, ``%3`` the suspend-time hint)
TRY_WAIT_ASM = (
    "{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2, %3; "
    "selp.u32 %0, 1, 0, p; }"
)


class TmaPrinter(Emitter):
    """mbarriers, TMA tile loads and stores and the address-space casts their operands need."""

    @prints(MBarrierInitOp)
    def _print_mbarrier_init(self, op: MBarrierInitOp) -> None:
        operands = f'"r"({self._n(op.addr)}), "r"({self._n(op.count)})'
        text = "mbarrier.init.shared::cta.b64 [%0], %1;"
        self._stmt(op, f'asm volatile("{text}" :: {operands} : "memory");')

    @prints(MBarrierInvalOp)
    def _print_mbarrier_inval(self, op: MBarrierInvalOp) -> None:
        text = "mbarrier.inval.shared::cta.b64 [%0];"
        self._stmt(op, f'asm volatile("{text}" :: "r"({self._n(op.addr)}) : "memory");')

    @prints(FenceMBarrierInitOp)
    def _print_fence_mbarrier_init(self, op: FenceMBarrierInitOp) -> None:
        self._stmt(op, 'asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");')

    @prints(MBarrierArriveExpectTxOp)
    def _print_expect_tx(self, op: MBarrierArriveExpectTxOp) -> None:
        operands = f'"r"({self._n(op.addr)}), "r"({self._n(op.txcount)})'
        text = "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
        self._stmt(op, f'asm volatile("{text}" :: {operands} : "memory");')

    @prints(CpAsyncBulkTensorGlobalToSharedClusterOp)
    def _print_bulk_tensor(self, op: CpAsyncBulkTensorGlobalToSharedClusterOp) -> None:
        operands = [f'"r"({self._n(op.dstMem)})', f'"l"({self._n(op.tmaDescriptor)})']
        operands += [f'"r"({self._n(c)})' for c in op.coordinates]
        operands.append(f'"r"({self._n(op.mbar)})')
        text = bulk_tensor_asm_text(op.rank)
        self._stmt(op, f'asm volatile("{text}" :: {", ".join(operands)} : "memory");')

    @prints(MBarrierTryWaitParityOp)
    def _print_try_wait(self, op: MBarrierTryWaitParityOp) -> None:
        done = self.names.fresh("phase_done")
        operands = f'"r"({self._n(op.addr)}), "r"({self._n(op.phase)}), "n"({op.suspend_hint}u)'
        self._stmt(op, f"unsigned {done} = 0;")
        self._stmt(
            op,
            f'do {{ asm volatile("{TRY_WAIT_ASM}" : "=r"({done}) : {operands} : "memory"); }} '
            f"while (!{done});",
        )

    @prints(CpAsyncBulkTensorSharedCTAToGlobalOp)
    def _print_bulk_store(self, op: CpAsyncBulkTensorSharedCTAToGlobalOp) -> None:
        operands = [f'"l"({self._n(op.tmaDescriptor)})', f'"r"({self._n(op.srcMem)})']
        operands += [f'"r"({self._n(c)})' for c in op.coordinates]
        text = bulk_store_asm_text(op.rank)
        self._stmt(op, f'asm volatile("{text}" :: {", ".join(operands)} : "memory");')

    @prints(CpAsyncBulkCommitGroupOp)
    def _print_bulk_commit(self, op: CpAsyncBulkCommitGroupOp) -> None:
        self._stmt(op, 'asm volatile("cp.async.bulk.commit_group;" ::: "memory");')

    @prints(CpAsyncBulkWaitGroupOp)
    def _print_bulk_wait(self, op: CpAsyncBulkWaitGroupOp) -> None:
        read = ".read" if op.reads_only else ""
        text = f"cp.async.bulk.wait_group{read} {op.pending};"
        self._stmt(op, f'asm volatile("{text}" ::: "memory");')

    @prints(AddrSpaceCastOp)
    def _print_addrspacecast(self, op: AddrSpaceCastOp) -> None:
        spaces = op.spaces
        if spaces == _SHARED_TO_CLUSTER:
            name = self.names.define(op.res)
            self._stmt(op, f"unsigned {name} = {self._n(op.arg)};")
            return
        if spaces in _GLOBAL_GENERIC:
            if op.arg in self._pointee:
                self._pointee[op.res] = self._pointee[op.arg]
            self._define(op.res, self._n(op.arg), op)
            return
        raise BackendError(
            "only !llvm.ptr<3> -> !llvm.ptr<7> and global <-> generic address-space casts are "
            f"supported, not {op.arg.type} -> {op.res.type}"
        )
