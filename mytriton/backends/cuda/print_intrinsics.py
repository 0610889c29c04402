"""``llvm.call_intrinsic`` of the NVVM intrinsics the lowering calls
(``mytriton/dialects/nvgpu/nvvm_intrinsics.py``) in CUDA C++: each is one PTX instruction,
printed as inline PTX (``asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));``). The fp8
conversions move ``short`` byte pairs (``"h"``) and an f16 pair as the ``uint1`` word of a
``vector<2xf16>`` (``"r"(v.x)``, ``"=r"(r.x)``)."""

from __future__ import annotations

from xdsl.dialects import llvm
from xdsl.dialects.builtin import VectorType, f32, i16
from xdsl.ir import Attribute, SSAValue

from mytriton.backends.cuda.c_types import value_type
from mytriton.backends.cuda.emitter import Emitter, prints
from mytriton.dialects.nvgpu.nvvm_intrinsics import F16X2, INTRINSICS

#: the inline-asm constraint of each operand or result type an intrinsic has
_CONSTRAINTS: dict[Attribute, str] = {f32: "f", i16: "h", F16X2: "r"}


class IntrinsicPrinter(Emitter):
    """The lowering's NVVM intrinsics as their PTX instructions."""

    @prints(llvm.CallIntrinsicOp, vectors=True)
    def _print_call_intrinsic(self, op: llvm.CallIntrinsicOp) -> None:
        name = op.intrin.data
        fn = INTRINSICS.get(name)
        if fn is None or len(op.results) != 1:
            raise self._error(op, f"the intrinsic {name} has no CUDA C++ form here")
        signature = ([v.type for v in op.args], op.results[0].type)
        if signature != (list(fn.operands), fn.result):
            types = ", ".join(str(t) for t in fn.operands)
            raise self._error(op, f"{name} takes ({types}) and gives {fn.result}")
        result = self.names.define(op.results[0])  # after the check: no name for an error
        out = f"{result}.x" if isinstance(fn.result, VectorType) else result
        operands = ", ".join(f"%{i + 1}" for i in range(len(op.args)))
        inputs = ", ".join(
            f'"{_CONSTRAINTS[v.type]}"({self._intrinsic_operand(v)})' for v in op.args
        )
        self._stmt(op, f"{value_type(fn.result)} {result};")
        self._stmt(
            op, f'asm("{fn.ptx} %0, {operands};" : "={_CONSTRAINTS[fn.result]}"({out}) : {inputs});'
        )

    def _intrinsic_operand(self, v: SSAValue) -> str:
        """An operand as inline asm reads it: an f16 pair as its ``uint1``'s word."""
        return f"{self._n(v)}.x" if isinstance(v.type, VectorType) else self._n(v)
