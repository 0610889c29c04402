"""``ttg-accelerate-matmul``: decide each ``tt.dot``'s tensor-core instruction, once, in the IR.

As Triton's ``AccelerateMatmul``, the pass writes the decision as ``#ttg.nvidia_mma``
(``dialects/ttg/mma.py``): ``versionMajor = 3`` for Hopper's warpgroup MMAs, ``2`` for
``mma.sync``, nothing for the CUDA-core FMA loop. The choice is ``mma_policy``'s
(``dot_instruction``); everything after reads it from the dot: the fp8 and tf32x3
legalizations (which dots to widen or split), layout assignment (the accumulator's layout and
the operands' staging), the pipelining pass and the lowering (which instruction to emit).

It runs first in the ``ttg`` pipeline, on `tt` that has no layouts yet: the accumulator's
layout follows from the decision, so the decision comes before the layouts (Triton decides
after a first blocked assignment and converts; ours never assigns a layout it would undo).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from mytriton.dialects.tt import core as tt
from mytriton.dialects.ttg.layouts import DEFAULT_CAPABILITY
from mytriton.dialects.ttg.mma import set_dot_mma
from mytriton.passes.ttg.mma_policy import dot_instruction


@dataclass(frozen=True)
class AccelerateMatmulPass(ModulePass):
    """Write on every ``tt.dot`` the tensor-core instruction it runs as over ``num_warps``
    warps on a chip of ``capability`` (``tensor_cores=false``: none, every dot on CUDA
    cores)."""

    name = "ttg-accelerate-matmul"

    num_warps: int = 4
    tensor_cores: bool = True
    capability: int = DEFAULT_CAPABILITY

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for dot in op.walk():
            if isinstance(dot, tt.DotOp):
                decided = None
                if self.tensor_cores:
                    decided = dot_instruction(dot, self.num_warps, self.capability)
                set_dot_mma(dot, decided)
