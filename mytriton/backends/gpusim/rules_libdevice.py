"""``llvm.call`` of a libdevice function: its NumPy semantics (``libdevice_table``), the same
that the interpreter and the constant folder use for ``tt.extern_elementwise``."""

from __future__ import annotations

from xdsl.dialects import llvm
from xdsl.ir import Operation

from mytriton.backends.gpusim.compiler import Compiler
from mytriton.backends.gpusim.dtypes import dtype_of
from mytriton.backends.gpusim.machine import Machine, Step
from mytriton.backends.gpusim.registry import rule
from mytriton.dialects.tt.libdevice_table import SYMBOLS
from mytriton.dialects.tt.semantics import evaluate


@rule("llvm.call")
def _call(op: Operation, c: Compiler) -> Step:
    assert isinstance(op, llvm.CallOp)
    callee = op.callee.string_value() if op.callee is not None else None
    fn = SYMBOLS.get(callee) if callee is not None else None
    if fn is None:
        c.unsupported(op, f"@{callee} is not a libdevice function gpusim knows")
    args = list(op.operands)
    out = op.results[0]
    dtype = dtype_of(out.type)

    def step(m: Machine) -> None:
        env = m.env
        env[out] = evaluate(fn.semantics, *(env[a] for a in args)).astype(dtype, copy=False)  # type: ignore[arg-type, union-attr]

    return step
