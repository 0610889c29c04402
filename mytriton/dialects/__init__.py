"""xDSL dialects of mytriton: ``tt`` (Triton's block-level IR) and helpers to load them."""

from __future__ import annotations

from xdsl.context import Context
from xdsl.ir import Dialect

from mytriton.dialects.tt import TT_CORE_OPS, ProgramAxisAttr, ReduceKindAttr
from mytriton.dialects.tt_elementwise import TT_ELEMENTWISE_OPS, CmpPredicateAttr
from mytriton.dialects.tt_traits import TTConstantMaterialization
from mytriton.dialects.tt_types import PointerType

TT = Dialect(
    "tt",
    [*TT_CORE_OPS, *TT_ELEMENTWISE_OPS],
    [PointerType, ProgramAxisAttr, ReduceKindAttr, CmpPredicateAttr],
    [TTConstantMaterialization()],
)


def make_context() -> Context:
    """A context with ``tt`` and the upstream dialects our IR stages use."""
    from xdsl.dialects import arith, builtin, func, scf

    ctx = Context()
    for d in (builtin.Builtin, func.Func, arith.Arith, scf.Scf, TT):
        ctx.load_dialect(d)
    return ctx


__all__ = ["TT", "make_context"]
