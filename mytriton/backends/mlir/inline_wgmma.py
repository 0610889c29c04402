"""``ptx.wgmma.mma_async`` (a warpgroup MMA with A in registers, ``dialects/ptx_wgmma``) for
upstream MLIR, whose ``nvvm.wgmma.mma_async`` reads A through a descriptor only: the op becomes
``llvm.inline_asm`` with the same PTX the CUDA printer prints. Each accumulator field is an
``=f`` output tied to its input (``"0"``, ``"1"``, ...: the instruction reads and writes the
same registers), then A's four words (``r``), B's descriptor (``l``) and the ``scale-d``
operand (``r``); the asm has side effects and clobbers memory, so it stays between the wgmma
fence, commit and wait around it.
"""

from __future__ import annotations

from xdsl.dialects import arith, llvm
from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, i32, i64
from xdsl.ir import Operation, SSAValue

from mytriton.dialects.nvgpu.ptx_wgmma import A_REGISTERS, WgmmaRegisterAOp, register_a_ptx

_CLOBBER = "~{memory}"


def inline_register_a_wgmma(op: Operation) -> None:
    """Replace ``op`` (a ``ptx.wgmma.mma_async``) by its inline PTX (module doc)."""
    assert isinstance(op, WgmmaRegisterAOp)
    block = op.parent_block()
    assert block is not None
    struct = op.res.type
    assert isinstance(struct, llvm.LLVMStructType)
    field_types = list(struct.types.data)

    def add(new: Operation) -> SSAValue:
        new.location = op.location
        block.insert_op_before(new, op)
        return new.results[0]

    fields = [
        add(llvm.ExtractValueOp(DenseArrayBase.from_list(i64, [i]), op.inouts, t))
        for i, t in enumerate(field_types)
    ]
    scale = add(arith.ConstantOp(IntegerAttr(1 if op.adds_accumulator else 0, i32)))
    count = len(fields)
    constraints = [
        *(["=f"] * count),
        *(str(i) for i in range(count)),
        *(["r"] * A_REGISTERS),
        "l",
        "r",
        _CLOBBER,
    ]
    asm = llvm.InlineAsmOp(
        register_a_ptx(op, "$", tied=True),
        ",".join(constraints),
        [*fields, *op.a, op.descriptorB, scale],
        [struct],
        has_side_effects=True,
    )
    result = add(asm)
    op.res.replace_all_uses_with(result)
    op.detach()
    op.erase()
