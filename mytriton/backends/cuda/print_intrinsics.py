"""``llvm.call_intrinsic`` of the NVVM intrinsics the lowering calls
(``mytriton/dialects/nvgpu/nvvm_intrinsics.py``) in CUDA C++: each is one PTX instruction,
printed as inline PTX (``asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));``)."""

from __future__ import annotations

from xdsl.dialects import llvm
from xdsl.dialects.builtin import f32

from mytriton.backends.cuda.emitter import Emitter, prints
from mytriton.dialects.nvgpu.nvvm_intrinsics import INTRINSICS


class IntrinsicPrinter(Emitter):
    """The lowering's NVVM intrinsics as their PTX instructions."""

    @prints(llvm.CallIntrinsicOp)
    def _print_call_intrinsic(self, op: llvm.CallIntrinsicOp) -> None:
        name = op.intrin.data
        fn = INTRINSICS.get(name)
        if fn is None or len(op.results) != 1:
            raise self._error(op, f"the intrinsic {name} has no CUDA C++ form here")
        signature = ([v.type for v in op.args], op.results[0].type)
        if signature != (list(fn.operands), fn.result) or fn.result != f32:
            raise self._error(op, f"{name} takes and gives f32 values")
        result = self.names.define(op.results[0])
        operands = ", ".join(f"%{i + 1}" for i in range(len(op.args)))
        inputs = ", ".join(f'"f"({self._n(v)})' for v in op.args)
        self._stmt(op, f"float {result};")
        self._stmt(op, f'asm("{fn.ptx} %0, {operands};" : "=f"({result}) : {inputs});')
