"""``llvm.call_intrinsic`` of an NVVM intrinsic the lowering calls: its NumPy semantics
(``mytriton/dialects/nvgpu/nvvm_intrinsics.py``)."""

from __future__ import annotations

from xdsl.dialects import llvm
from xdsl.dialects.builtin import VectorType
from xdsl.ir import Operation

from mytriton.backends.gpusim.compiler import Compiler
from mytriton.backends.gpusim.dtypes import dtype_of, vector_shape
from mytriton.backends.gpusim.machine import Machine, Step
from mytriton.backends.gpusim.registry import rule
from mytriton.dialects.nvgpu.nvvm_intrinsics import INTRINSICS


@rule("llvm.call_intrinsic", vectors=True)
def _call_intrinsic(op: Operation, c: Compiler) -> Step:
    assert isinstance(op, llvm.CallIntrinsicOp)
    name = op.intrin.data
    fn = INTRINSICS.get(name)
    if fn is None:
        c.unsupported(op, f"the intrinsic {name} is not one gpusim knows")
    args = list(op.args)
    out = op.results[0]
    t = out.type  # a vector<2xf16> of the fp8 conversions: a (lanes, 2) array
    dtype = vector_shape(t)[0] if isinstance(t, VectorType) else dtype_of(t)

    def step(m: Machine) -> None:
        env = m.env
        env[out] = fn.semantics(*(env[a] for a in args)).astype(dtype, copy=False)  # type: ignore[union-attr, arg-type]

    return step
