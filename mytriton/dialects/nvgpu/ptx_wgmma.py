"""``ptx.wgmma.mma_async``: Hopper's warpgroup MMA with A in registers, which upstream MLIR's
``nvvm.wgmma.mma_async`` (descriptors for both operands) cannot say. It is ours, named after the
PTX instruction it is: the CUDA printer prints that PTX, the MLIR emitter rewrites the op into
``llvm.inline_asm`` with the same PTX before ``mlir-opt`` (``backends/mlir/inline_wgmma.py``),
gpusim executes it (``rules_wgmma``).

One warpgroup-wide ``D = A @ B + C`` of a ``64 x n x 16`` tile (f16 or bf16 operands, f32
accumulators), like ``nvvm.wgmma.mma_async`` except that each thread gives its share of A as
four 32-bit registers, two elements each (the lower column in the low half): thread ``t`` of
the warpgroup (``w = t // 32``, ``g = (t % 32) // 4``, ``q = t % 4``) gives in register ``i``
the elements ``A[16w + g + 8 (i % 2)][2q + 8 (i // 2)]`` and ``[... + 1]`` (an H200 ran this
layout: ``.gpu/wgmma_rs_probe.py`` in the notes). That is where an accumulator of the same
tile keeps ``D``'s elements, so the rounded result of one warpgroup MMA feeds the next as its A
without shared memory (attention's P)::

    %d = "ptx.wgmma.mma_async"(%c, %a0, %a1, %a2, %a3, %descB) <{layoutB =
           #nvvm.mma_layout<row>, scaleD = #nvvm.wgmma_scale_out<one>, shape = #nvvm.shape<m =
           64, n = 64, k = 16>, typeA = #nvvm.wgmma_type<f16>, typeB =
           #nvvm.wgmma_type<f16>}> : (!llvm.struct<(f32, ...)>, i32, i32, i32, i32, i64)
         -> !llvm.struct<(f32, ...)>

B is read through its descriptor as by ``nvvm.wgmma.mma_async`` (``layoutB = row``: MN-major,
``col``: K-major); the same fence, commit and wait ops order it.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import llvm
from xdsl.dialects.builtin import i32, i64
from xdsl.ir import SSAValue
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.traits import MemoryReadEffect, MemoryWriteEffect
from xdsl.utils.exceptions import VerifyException

from mytriton.dialects.nvgpu.nvvm import MmaLayoutAttr, MmaShapeAttr
from mytriton.dialects.nvgpu.wgmma import (
    WGMMA_FORMS,
    WGMMA_M,
    WarpgroupMmaOp,
    WgmmaScaleOutAttr,
    WgmmaTypeAttr,
)

A_REGISTERS = 4  # 32-bit registers of A per thread and k16 step
REGISTER_A_OPERANDS = ("f16", "bf16")


@irdl_op_definition
class WgmmaRegisterAOp(WarpgroupMmaOp):
    """``ptx.wgmma.mma_async``: a warpgroup MMA whose A is in registers (module doc)."""

    name = "ptx.wgmma.mma_async"
    inouts = operand_def(llvm.LLVMStructType)
    a = var_operand_def(i32)
    descriptorB = operand_def(i64)  # noqa: N815 (upstream's operand name)
    res = result_def(llvm.LLVMStructType)
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())

    def __init__(
        self,
        acc: SSAValue,
        a: Sequence[SSAValue],
        desc_b: SSAValue,
        n: int,
        operand: str,
        b_mn_major: bool,
    ):
        form = WGMMA_FORMS[operand]
        t = WgmmaTypeAttr(operand)
        super().__init__(
            operands=[acc, list(a), desc_b],
            result_types=[form.result(n)],
            properties={
                "shape": MmaShapeAttr(WGMMA_M, n, form.k),
                "typeA": t,
                "typeB": t,
                "scaleD": WgmmaScaleOutAttr("one"),
                "layoutB": MmaLayoutAttr("row" if b_mn_major else "col"),
            },
        )

    def verify_(self) -> None:
        what = self.name
        kind = self.typeA.data
        if kind not in REGISTER_A_OPERANDS or self.typeB.data != kind:
            raise VerifyException(
                f"{what}: A in registers is for f16 or bf16 operands (typeA and typeB alike), "
                f"not {kind} and {self.typeB.data}"
            )
        form = WGMMA_FORMS[kind]
        m, n, k = self.shape.mnk
        if m != WGMMA_M or k != form.k or not form.valid_n(n):
            raise VerifyException(
                f"{what}: {kind} operands need shape m = 64, k = 16 and n a multiple of 8 from "
                f"8 to 256, not m = {m}, n = {n}, k = {k}"
            )
        if len(self.a) != A_REGISTERS:
            raise VerifyException(
                f"{what}: A takes {A_REGISTERS} i32 registers per thread (two {kind} each), "
                f"not {len(self.a)}"
            )
        expected = form.result(n)
        for role, t in (
            ("the accumulator operand", self.inouts.type),
            ("the result", self.res.type),
        ):
            if t != expected:
                raise VerifyException(
                    f"{what}: {role} must be a struct of n / 2 = {n // 2} f32 fields, not {t}"
                )


def register_a_ptx(op: WgmmaRegisterAOp, numbered: str = "%", tied: bool = False) -> str:
    """The PTX of ``op`` (``numbered``: ``%`` for CUDA's ``asm``, ``$`` for LLVM's inline asm):
    the accumulator registers first, then A's four, B's descriptor and the ``scale-d``
    predicate's operand; ``tied``: the accumulators are also numbered as inputs (LLVM's tied
    operands, where CUDA's ``"+f"`` counts them once), so A's come after both."""
    count = op.n // 2
    first = 2 * count if tied else count
    d = "{" + ", ".join(f"{numbered}{i}" for i in range(count)) + "}"
    a = "{" + ", ".join(f"{numbered}{first + i}" for i in range(A_REGISTERS)) + "}"
    b, scale = f"{numbered}{first + A_REGISTERS}", f"{numbered}{first + A_REGISTERS + 1}"
    trans_b = "1" if op.b_mn_major else "0"
    instruction = f"{op.form.ptx(op.n)} {d}, {a}, {b}, p, 1, 1, {trans_b};"
    return f"{{\n.reg .pred p;\nsetp.ne.b32 p, {scale}, 0;\n{instruction}\n}}\n"
