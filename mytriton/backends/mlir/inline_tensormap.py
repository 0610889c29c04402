"""The PTX ops that build a tensor map in the kernel (``dialects/ptx_tensormap``) for upstream
MLIR, which has no ops for them: each becomes ``llvm.inline_asm`` with the PTX the CUDA printer
prints (``print_tensormap``), e.g. ``tensormap.replace.tile.global_dim.shared::cta.b1024.b32
[$0], 1, $1;``.

``ptx.tensormap.replace``: the map's address is ``$0`` (``l``: a 64-bit pointer, global or
shared, as Triton passes a shared one), the value ``$1`` (``r`` for an i32, ``l`` for the i64
stride or the tensor's pointer); the ordinal and an immediate field's value are literals in
the text, as PTX takes no register there (so an immediate field has no ``$1``).
``ptx.tensormap.cp_fenceproxy``: ``$0`` the global map, ``$1`` the shared one (``l`` both).
The asm has side effects and clobbers memory: it writes the map behind LLVM's back, so it must
neither be dropped (it has no results) nor moved across the stores and fences around it. The
PTX needs ISA 8.3, which ``pipeline.ptx_features`` asks of ``nvvm-attach-target``.
"""

from __future__ import annotations

from xdsl.dialects import llvm
from xdsl.ir import Operation, SSAValue

from mytriton.dialects.nvgpu.ptx_tensormap import TensormapCpFenceproxyOp, TensormapReplaceOp

_CLOBBER = "~{memory}"


def replace_asm(op: TensormapReplaceOp) -> tuple[str, str, list[SSAValue]]:
    """The asm text, constraints and operands of ``op`` (module doc)."""
    constraint = op.value_constraint
    if constraint is None:
        return op.asm("$"), f"l,{_CLOBBER}", [op.addr]
    return op.asm("$"), f"l,{constraint},{_CLOBBER}", [op.addr, op.value]


def inline_tensormap_replace(op: Operation) -> None:
    """Replace ``op`` (a ``ptx.tensormap.replace``) by its inline PTX (module doc)."""
    assert isinstance(op, TensormapReplaceOp)
    block = op.parent_block()
    assert block is not None
    text, constraints, operands = replace_asm(op)
    asm = llvm.InlineAsmOp(text, constraints, operands, [], has_side_effects=True)
    asm.location = op.location
    block.insert_op_before(asm, op)
    op.detach()
    op.erase()


def inline_tensormap_cp_fenceproxy(op: Operation) -> None:
    """Replace ``op`` (a ``ptx.tensormap.cp_fenceproxy``) by its inline PTX (module doc)."""
    assert isinstance(op, TensormapCpFenceproxyOp)
    block = op.parent_block()
    assert block is not None
    constraints = f"l,l,{_CLOBBER}"
    asm = llvm.InlineAsmOp(op.asm("$"), constraints, [op.dst, op.src], [], has_side_effects=True)
    asm.location = op.location
    block.insert_op_before(asm, op)
    op.detach()
    op.erase()
