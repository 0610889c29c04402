"""``ptx.mma.sync``: the warp-wide tensor-core MMA of fp8 operands (sm_89+), which upstream MLIR's
``nvvm.mma.sync`` does not take (its verifier knows no fp8 shape). It is ours, named after the
PTX instruction it is, with ``nvvm.mma.sync``'s operands and properties: the CUDA printer prints
``mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32`` (either format for A and B), the MLIR
emitter rewrites the op into ``llvm.inline_asm`` with the same PTX before ``mlir-opt``
(``backends/mlir/inline_mma.py``), gpusim executes it (``rules_nvvm``)::

    %d = "ptx.mma.sync"(%a0, %a1, %a2, %a3, %b0, %b1, %c0, %c1, %c2, %c3) <{
           layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>,
           multiplicandAPtxType = #nvvm.mma_type<e4m3>, multiplicandBPtxType = #nvvm.mma_type<e5m2>,
           operandSegmentSizes = array<i32: 4, 2, 4>, shape = #nvvm.shape<m = 16, n = 8, k = 32>}>
         : (i32, i32, i32, i32, i32, i32, f32, f32, f32, f32) -> !llvm.struct<(f32, f32, f32, f32)>

The fragments are the s8 form's (four bytes a register, the lowest k in the low byte: lane
``4g + q`` holds A rows ``g`` and ``g + 8``, B column ``g``), the accumulators f32.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import i32
from xdsl.ir import SSAValue
from xdsl.irdl import irdl_op_definition
from xdsl.utils.exceptions import VerifyException

from mytriton.dialects.nvgpu.nvvm import MmaForm, MmaTypeAttr, WarpMmaOp

FP8_MMA_FORMS = {
    "e4m3": MmaForm("e4m3", (16, 8, 32), i32, 4, 2, 4),
    "e5m2": MmaForm("e5m2", (16, 8, 32), i32, 4, 2, 4),
}
FP8_MMA_CAPABILITY = 89  # sm_89 (Ada) and later


@irdl_op_definition
class Fp8MmaSyncOp(WarpMmaOp):
    """``ptx.mma.sync``: one warp-wide fp8 tensor-core multiply-accumulate (module doc)."""

    name = "ptx.mma.sync"

    def __init__(
        self,
        form: MmaForm,
        b_form: MmaForm,
        a: Sequence[SSAValue],
        b: Sequence[SSAValue],
        c: Sequence[SSAValue],
    ):
        """A of ``form``'s type, B of ``b_form``'s (e4m3 or e5m2 each)."""
        super().__init__(form, a, b, c)
        self.properties["multiplicandBPtxType"] = MmaTypeAttr(b_form.ptx_type)

    @property
    def form(self) -> MmaForm:
        """A's form (the verifier guarantees there is one)."""
        return FP8_MMA_FORMS[self.multiplicandAPtxType.data]

    @property
    def b_form(self) -> MmaForm:
        return FP8_MMA_FORMS[self.multiplicandBPtxType.data]

    def verify_(self) -> None:
        what = "ptx.mma.sync"
        kinds = (self.multiplicandAPtxType.data, self.multiplicandBPtxType.data)
        if not all(k in FP8_MMA_FORMS for k in kinds):
            raise VerifyException(
                f"{what}: A and B must be e4m3 or e5m2 (nvvm.mma.sync has the other types), not "
                f"{kinds[0]} and {kinds[1]}"
            )
        self.verify_fragments(self.form, "fp8")
        if self.intOverflowBehavior is not None:
            raise VerifyException(f"{what}: intOverflowBehavior is for integer forms only")
