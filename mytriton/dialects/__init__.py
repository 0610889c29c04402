"""xDSL dialects of mytriton: ``tt`` (Triton's block-level IR) and helpers to load them."""

from __future__ import annotations

from xdsl.context import Context
from xdsl.ir import Dialect

from mytriton.dialects.tt import TT_CORE_OPS, ProgramAxisAttr
from mytriton.dialects.tt_atomic import TT_ATOMIC_ATTRS, TT_ATOMIC_OPS
from mytriton.dialects.tt_debug import TT_DEBUG_OPS
from mytriton.dialects.tt_elementwise import (
    TT_ELEMENTWISE_OPS,
    CmpPredicateAttr,
    PropagateNanAttr,
)
from mytriton.dialects.tt_math import TT_MATH_OPS
from mytriton.dialects.tt_pointer_casts import TT_POINTER_CAST_OPS
from mytriton.dialects.tt_shape import SHAPE_OPS
from mytriton.dialects.tt_sreg import TT_SREG_OPS
from mytriton.dialects.tt_tensor_map import TT_TENSOR_MAP_OPS
from mytriton.dialects.tt_traits import TTConstantMaterialization, bound_blocks
from mytriton.dialects.tt_types import PointerType

TT = Dialect(
    "tt",
    [
        *TT_CORE_OPS,
        *TT_ELEMENTWISE_OPS,
        *TT_POINTER_CAST_OPS,
        *TT_MATH_OPS,
        *SHAPE_OPS,
        *TT_DEBUG_OPS,
        *TT_ATOMIC_OPS,
        *TT_TENSOR_MAP_OPS,
        *TT_SREG_OPS,
    ],
    [PointerType, ProgramAxisAttr, CmpPredicateAttr, PropagateNanAttr, *TT_ATOMIC_ATTRS],
    [TTConstantMaterialization()],
)
bound_blocks(TT.operations)


def all_dialects() -> list[Dialect]:
    """``tt``, ``ttg`` and every upstream dialect our IR stages use (gpu and arith extended
    with the upstream ops xDSL lacks, nvvm's tensor-core ops, wgmma's included, defined; ``ptx``
    holds the one op upstream has no form of: a warpgroup MMA with A in registers)."""
    from xdsl.dialects import builtin, func, math, memref, scf, vector

    from mytriton.dialects.ptx_wgmma import PTX
    from mytriton.dialects.ttg_dialect import TTG
    from mytriton.dialects.upstream import ARITH, GPU, LLVM
    from mytriton.dialects.upstream_wgmma import NVVM

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
    ctx = Context()
    for d in all_dialects():
        ctx.load_dialect(d)
    return ctx


__all__ = ["TT", "all_dialects", "make_context"]
