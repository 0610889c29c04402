"""The lowering's rule table: one ``LowerX`` pattern per `tt` (or `ttg`, ``scf``) op, registered
beside its code with ``@lowers(tt.LoadOp)``, as every per-op table is (``mytriton.op_rules``).

A pattern's ``lower(ctx, op)`` emits the scalar code of ``op`` through the ``LoweringContext``;
patterns of ops with regions lower their bodies with ``ctx.lower_op``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, TypeVar

from xdsl.ir import Operation

from mytriton.op_rules import OpRules
from mytriton.passes.gpu_lowering.context import LoweringContext


class LoweringPattern(Protocol):
    def lower(self, ctx: LoweringContext, op: Operation) -> None: ...


P = TypeVar("P", bound=type)

LOWERING: OpRules[LoweringPattern] = OpRules("lowering")


def lowers(*ops: type[Operation]) -> Callable[[P], P]:
    """Class decorator: an instance of the pattern lowers ``ops`` (and their subclasses)."""

    def register(cls: P) -> P:
        LOWERING.register(*ops)(cls())
        return cls

    return register
