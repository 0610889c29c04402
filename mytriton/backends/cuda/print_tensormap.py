"""A tensor map built in the kernel (``ptx_tensormap``, ``upstream_tensormap``) as inline PTX,
each an ``asm volatile`` with a ``memory`` clobber: the instructions write or order the map's
128 bytes behind the compiler's back, so no access may move across them. The kernel must be
compiled for ``sm_90a`` (PTX ISA 8.3).

A map's global address is its 64-bit pointer (``"l"``), a shared one its 32-bit
``.shared::cta`` address (``"r"``, as every ``!llvm.ptr<3>`` here: ``print_tma``); a value
operand is ``"r"`` (i32) or ``"l"`` (the i64 stride or the tensor's pointer); the ordinal and
the immediate fields' values are literals in the instruction (PTX takes no register there):

* ``ptx.tensormap.replace`` (``op.asm()``), by field kind:
  ``tensormap.replace.tile.global_address.shared::cta.b1024.b64 [%0], %1;`` (and ``rank``,
  ``.b32``; ``.global`` for a map in global memory),
  ``tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [%0], 1, %1;`` (and ``box_dim``,
  ``element_stride``, ``global_stride`` ``.b64``),
  ``tensormap.replace.tile.swizzle_mode.shared::cta.b1024.b32 [%0], 3;`` (and ``elemtype``,
  ``interleave_layout``, ``fill_mode``);
* ``ptx.tensormap.cp_fenceproxy``: ``tensormap.cp_fenceproxy.global.shared::cta.tensormap::
  generic.release.gpu.sync.aligned [%0], [%1], 128;`` (``"l"`` the global map, ``"r"`` the
  shared one);
* ``nvvm.fence.proxy.release <gpu>``: ``fence.proxy.tensormap::generic.release.gpu;``
* ``nvvm.fence.proxy.acquire <gpu> %map, %c128``:
  ``fence.proxy.tensormap::generic.acquire.gpu [%0], 128;`` on the map's generic address.
"""

from __future__ import annotations

from mytriton.backends.cuda.emitter import Emitter, prints
from mytriton.dialects.nvgpu.ptx_tensormap import TensormapCpFenceproxyOp, TensormapReplaceOp
from mytriton.dialects.nvgpu.tensormap import FenceProxyAcquireOp, FenceProxyReleaseOp
from mytriton.dialects.nvgpu.tma import constant_int

#: the fences' PTX without the scope and operands
FENCE_PTX = "fence.proxy.tensormap::generic"


class TensormapPrinter(Emitter):
    """Fields of a tensor map replaced in shared or global memory, its copy to global memory,
    and the fences that publish it."""

    @prints(TensormapReplaceOp)
    def _print_tensormap_replace(self, op: TensormapReplaceOp) -> None:
        operands = [f'"{"r" if op.shared else "l"}"({self._n(op.addr)})']
        if (constraint := op.value_constraint) is not None:
            operands.append(f'"{constraint}"({self._n(op.value)})')
        self._stmt(op, f'asm volatile("{op.asm()}" :: {", ".join(operands)} : "memory");')

    @prints(TensormapCpFenceproxyOp)
    def _print_cp_fenceproxy(self, op: TensormapCpFenceproxyOp) -> None:
        operands = f'"l"({self._n(op.dst)}), "r"({self._n(op.src)})'
        self._stmt(op, f'asm volatile("{op.asm()}" :: {operands} : "memory");')

    @prints(FenceProxyReleaseOp)
    def _print_fence_release(self, op: FenceProxyReleaseOp) -> None:
        text = f"{FENCE_PTX}.release.{op.scope.data};"
        self._stmt(op, f'asm volatile("{text}" ::: "memory");')

    @prints(FenceProxyAcquireOp)
    def _print_fence_acquire(self, op: FenceProxyAcquireOp) -> None:
        text = f"{FENCE_PTX}.acquire.{op.scope.data} [%0], {constant_int(op.size)};"
        self._stmt(op, f'asm volatile("{text}" :: "l"({self._n(op.addr)}) : "memory");')
