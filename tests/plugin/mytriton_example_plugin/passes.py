"""``example-mul-by-two``: strength-reduce ``x * 2`` to ``x + x`` in `tt` IR.

Exact for every element type (i32 wraps the same way; ``2 * x`` and ``x + x`` round the same
in IEEE floats), so it is a real, if tiny, optimization a vendor might ship as a plugin.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from mytriton.dialects.tt import elementwise as ew
from mytriton.dialects.tt.constants import uniform_constant


def _is_two(v: SSAValue) -> bool:
    c = uniform_constant(v)
    return c is not None and bool(c == 2)


class MulByTwoToAdd(RewritePattern):
    """``tt.mul %x, 2`` (either side, scalar or splat) -> ``tt.add %x, %x``."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ew.MulOp, rewriter: PatternRewriter) -> None:
        if _is_two(op.rhs):
            x = op.lhs
        elif _is_two(op.lhs):
            x = op.rhs
        else:
            return
        add = ew.AddOp(x, x)
        add.location = op.location
        rewriter.replace(op, [add])


class MulByTwoToAddPass(ModulePass):
    """Replace multiplications by two with additions."""

    name = "example-mul-by-two"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(MulByTwoToAdd()).rewrite_module(op)
