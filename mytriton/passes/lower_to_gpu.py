"""`tt` -> layouts -> upstream dialects: the single lowering shared by both GPU emitters.

``lower_to_gpu`` is what the CUDA and MLIR backends call; it returns the ``gpu.module`` text of
which is ``asm["gpu"]``, and can also report the laid-out `tt` (``asm["ttg"]``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, UnitAttr
from xdsl.passes import ModulePass
from xdsl.transforms.common_subexpression_elimination import CommonSubexpressionElimination
from xdsl.transforms.dead_code_elimination import DeadCodeElimination
from xdsl.transforms.loop_invariant_code_motion import LoopInvariantCodeMotionPass

from mytriton.dialects import make_context
from mytriton.dialects.ttg_aliases import with_layout_aliases
from mytriton.dialects.verify import verify_module
from mytriton.passes.assign_layouts import AssignLayoutsPass
from mytriton.passes.gpu_lowering.driver import Lowering


def assign_layouts(module: ModuleOp, num_warps: int) -> ModuleOp:
    """A copy of optimised `tt` IR with every block laid out (clones merged, invariants hoisted)."""
    ctx = make_context()
    laid = module.clone()
    AssignLayoutsPass(num_warps).apply(ctx, laid)
    CommonSubexpressionElimination().apply(ctx, laid)
    LoopInvariantCodeMotionPass().apply(ctx, laid)
    verify_module(laid)
    return laid


def lower_to_gpu(module: ModuleOp, options: Any, stages: dict[str, Any] | None = None) -> ModuleOp:
    """The lowered ``gpu.module`` of an optimised `tt` module (``options.num_warps`` warps).

    When ``stages`` is given, the laid-out `tt` text is recorded there as ``"ttg"``.
    """
    num_warps = int(getattr(options, "num_warps", 4))
    laid = assign_layouts(module, num_warps)
    if stages is not None:
        stages["ttg"] = with_layout_aliases(str(laid))
    return lower_laid_out(laid, num_warps)


def lower_laid_out(laid: ModuleOp, num_warps: int) -> ModuleOp:
    """The lowering proper (laid-out `tt` -> ``gpu.module``), then CSE and DCE of the result."""
    lowered = Lowering(num_warps).run(laid)
    ctx = make_context()
    CommonSubexpressionElimination().apply(ctx, lowered)
    DeadCodeElimination().apply(ctx, lowered)
    lowered.verify()
    return lowered


@dataclass(frozen=True)
class LowerToGpuPass(ModulePass):
    """``tt-lower-to-gpu``: laid-out `tt` (run ``tt-assign-layouts`` first) -> a ``gpu.module``
    of upstream dialects, in place: the lowering the GPU backends run (they follow it with
    ``cse`` and ``dce``, which a pipeline can name after this pass)."""

    name = "tt-lower-to-gpu"

    num_warps: int = 4

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        lowered = Lowering(self.num_warps).run(op)  # no clean-up: compose with `cse,dce`
        block = op.body.block
        for old in list(block.ops):
            old.detach()
            old.erase(safe_erase=False)
        for new in list(lowered.body.block.ops):
            new.detach()
            block.add_op(new)
        op.attributes["gpu.container_module"] = UnitAttr()
