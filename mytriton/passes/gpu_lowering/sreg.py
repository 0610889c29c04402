"""Lowering of the special-register reads (``dialects/tt_sreg``) to upstream's NVVM ops: every
thread reads the register itself, as Triton's inline ``mov`` does."""

from __future__ import annotations

from xdsl.ir import Operation

from mytriton.dialects.nvgpu.sreg import ReadGlobaltimerOp, ReadSmidOp
from mytriton.dialects.tt.sreg import GlobaltimerOp, SmidOp
from mytriton.passes.gpu_lowering.context import LoweringContext
from mytriton.passes.gpu_lowering.rules import lowers


@lowers(GlobaltimerOp)
class LowerGlobaltimer:
    """``tt.globaltimer`` -> ``nvvm.read.ptx.sreg.globaltimer``."""

    def lower(self, ctx: LoweringContext, op: Operation) -> None:
        assert isinstance(op, GlobaltimerOp)
        ctx.set(op.result, [ctx.value(ReadGlobaltimerOp())])


@lowers(SmidOp)
class LowerSmid:
    """``tt.smid`` -> ``nvvm.read.ptx.sreg.smid``."""

    def lower(self, ctx: LoweringContext, op: Operation) -> None:
        assert isinstance(op, SmidOp)
        ctx.set(op.result, [ctx.value(ReadSmidOp())])
