"""Giving a module another module's ops: passes that build their result as a new module (a
lowering, a trial pipelining) and must rewrite the module they were given in place."""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp


def replace_body(module: ModuleOp, other: ModuleOp) -> None:
    """Replace ``module``'s ops by ``other``'s (moved, not copied)."""
    block = module.body.block
    for old in list(block.ops):
        old.detach()
        old.erase(safe_erase=False)
    for new in list(other.body.block.ops):
        new.detach()
        block.add_op(new)
