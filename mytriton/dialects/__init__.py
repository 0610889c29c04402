"""xDSL dialects of mytriton by IR level: ``tt/`` (Triton's block-level IR), ``ttg/`` (layouts,
shared memory, async copies) and ``nvgpu/`` (the NVIDIA-level and upstream ops the lowering
emits); ``verify`` holds the checks every level shares. ``make_context`` loads them all."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from xdsl.context import Context
    from xdsl.ir import Dialect

    from mytriton.dialects.tt.dialect import TT


def __getattr__(name: str) -> object:
    # loaded on first use: ``import mytriton`` reaches ``dialects.tt.libdevice_table`` (the
    # names of ``tl.extra.libdevice``) through this package and must not build the dialects
    if name == "TT":
        from mytriton.dialects.tt.dialect import TT

        return TT
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def all_dialects() -> list[Dialect]:
    """``tt``, ``ttg`` and every upstream dialect our IR stages use (gpu and arith extended
    with the upstream ops xDSL lacks, nvvm's tensor-core ops, wgmma's included, defined; ``ptx``
    holds the one op upstream has no form of: a warpgroup MMA with A in registers)."""
    from xdsl.dialects import builtin, func, math, memref, scf, vector

    from mytriton.dialects.nvgpu.dialect import ARITH, GPU, LLVM, NVVM, PTX
    from mytriton.dialects.tt.dialect import TT
    from mytriton.dialects.ttg.dialect import TTG

    return [
        builtin.Builtin,
        func.Func,
        ARITH,
        scf.Scf,
        math.Math,
        memref.MemRef,
        vector.Vector,
        LLVM,
        NVVM,
        PTX,
        GPU,
        TT,
        TTG,
    ]


def make_context() -> Context:
    """A context that can parse and verify every IR stage of mytriton."""
    from xdsl.context import Context

    ctx = Context()
    for d in all_dialects():
        ctx.load_dialect(d)
    return ctx


__all__ = ["TT", "all_dialects", "make_context"]
