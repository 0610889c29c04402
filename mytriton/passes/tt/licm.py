"""Loop-invariant code motion that respects ``tl.range(..., disable_licm=True)``.

xDSL's LICM hoists every pure op whose operands come from outside an ``scf.for``; a loop the
kernel marked with ``tt.disable_licm`` keeps its body as written (Triton's reason for the
option: hoisting lengthens live ranges, which can cost registers). Loops nested in such a loop
are still optimised into its body.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import builtin, scf
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.transforms.loop_invariant_code_motion import move_loop_invariant_code

from mytriton.dialects.tt.loop_attrs import DISABLE_LICM


class _HoistUnlessDisabled(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.ForOp, rewriter: PatternRewriter) -> None:
        if DISABLE_LICM not in op.attributes:
            move_loop_invariant_code(op)


class LoopInvariantCodeMotionPass(ModulePass):
    """Hoists side-effect-free, speculatable ops out of ``scf.for`` bodies, except out of
    loops marked ``tt.disable_licm``."""

    name = "licm"

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        PatternRewriteWalker(
            _HoistUnlessDisabled(), apply_recursively=False, walk_regions_first=True
        ).rewrite_module(op)
