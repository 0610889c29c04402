"""The ``tl.extra.cuda`` builtins that are not libdevice: the special registers
``globaltimer()`` and ``smid()`` (``dialects/tt_sreg``), and ``num_threads()``/``num_warps()``,
compile-time constants of the launch (Triton's ``builder.options.num_warps``; the launch's
``num_warps`` is part of the compiled specialization).

``Builtins`` inherits these.
"""

from __future__ import annotations

from mytriton.dialects.tt.sreg import GlobaltimerOp, SmidOp
from mytriton.dialects.ttg.layouts import WARP_SIZE
from mytriton.frontend.builder import IRBuilder
from mytriton.frontend.values import TensorValue
from mytriton.language import core


class CudaBuiltins:
    """``tl.extra.cuda.globaltimer``, ``smid``, ``num_threads``, ``num_warps``."""

    b: IRBuilder

    def globaltimer(self) -> TensorValue:
        return TensorValue(self.b.insert(GlobaltimerOp()).result)

    def smid(self) -> TensorValue:
        return TensorValue(self.b.insert(SmidOp()).result)

    def num_threads(self) -> core.constexpr:
        return core.constexpr(self.b.num_warps * WARP_SIZE)

    def num_warps(self) -> core.constexpr:
        return core.constexpr(self.b.num_warps)
