"""``ptx.mma.sync`` (an fp8 warp MMA, ``dialects/ptx_mma``) for upstream MLIR, whose
``nvvm.mma.sync`` has no fp8 form: the op becomes ``llvm.inline_asm`` with the PTX the CUDA
printer prints. The four f32 results are ``=f`` outputs (the struct the op returns), A's four
and B's two words ``r`` inputs, the accumulators ``f`` inputs; the asm is pure (the operands
are its only inputs), as ``mma.sync`` is.
"""

from __future__ import annotations

from xdsl.dialects import llvm
from xdsl.ir import Operation

from mytriton.dialects.nvgpu.nvvm import ACCUMULATORS
from mytriton.dialects.nvgpu.ptx_mma import Fp8MmaSyncOp


def inline_fp8_mma_sync(op: Operation) -> None:
    """Replace ``op`` (a ``ptx.mma.sync``) by its inline PTX (module doc)."""
    assert isinstance(op, Fp8MmaSyncOp)
    block = op.parent_block()
    assert block is not None
    groups = [ACCUMULATORS, len(op.a_operands), len(op.b_operands), len(op.c_operands)]
    operands, n = [], 0
    for count in groups:  # {$0..$3}: D, then A, B and C
        operands.append("{" + ",".join(f"${n + i}" for i in range(count)) + "}")
        n += count
    constraints = ["=f"] * ACCUMULATORS + ["r"] * (groups[1] + groups[2]) + ["f"] * groups[3]
    asm = llvm.InlineAsmOp(
        f"{op.instruction} {', '.join(operands)};",
        ",".join(constraints),
        [*op.a_operands, *op.b_operands, *op.c_operands],
        [op.res.type],
    )
    asm.location = op.location
    block.insert_op_before(asm, op)
    op.res.replace_all_uses_with(asm.results[0])
    op.detach()
    op.erase()
