"""``tt-simplify``: canonicalize and CSE, alternately, until neither changes the kernel.

Each feeds the other. CSE merges two splats of one scalar, after which ``tt.and %m, %m``
folds to ``%m``; canonicalization hoists two elementwise ops onto the same scalars, after
which CSE can merge them. A fixed ``canonicalize,cse,canonicalize`` stops after one round
trip; this pass stops only at the fixpoint (or after ``max-iterations`` rounds, as MLIR's
greedy driver does).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.transforms.canonicalize import CanonicalizePass
from xdsl.transforms.common_subexpression_elimination import cse


def _op_count(module: ModuleOp) -> int:
    return sum(1 for _ in module.walk())


def eliminate_common_subexpressions(module: ModuleOp) -> bool:
    """xDSL's ``cse``; it only ever erases ops, so a changed op count means it did work."""
    before = _op_count(module)
    cse(module)
    return _op_count(module) != before


@dataclass(frozen=True)
class SimplifyPass(ModulePass):
    """Canonicalize + CSE to a fixpoint (at most ``max_iterations`` rounds)."""

    name = "tt-simplify"

    max_iterations: int = 10

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        # Canonicalization runs its own patterns to a fixpoint, so once CSE finds nothing
        # after it, neither can change the module any more.
        for _ in range(max(self.max_iterations, 1)):
            CanonicalizePass().apply(ctx, op)
            if not eliminate_common_subexpressions(op):
                return
