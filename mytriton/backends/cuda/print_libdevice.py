"""Calls of libdevice functions (``llvm.call @__nv_*``, ``docs/gpu-ir.md``) in CUDA C++.

The printed kernel declares each ``__nv_*`` symbol the module declares and calls it by that
name: NVRTC links libdevice, so the C++ calls the very function the MLIR backend links, with
the same results (the CUDA math library's own names, ``hypotf``..., wrap these functions).
"""

from __future__ import annotations

from xdsl.dialects import llvm

from mytriton.backends.cuda.emitter import Emitter, prints
from mytriton.dialects.tt.libdevice_table import SYMBOLS
from mytriton.errors import BackendError


class LibdevicePrinter(Emitter):
    """``extern "C"`` declarations of the called ``__nv_*`` functions and the calls."""

    def _print_function_declarations(self) -> None:
        for op in self.module.walk():
            if not isinstance(op, llvm.FuncOp):
                continue
            name = op.sym_name.data
            if name not in SYMBOLS or op.body.blocks:
                raise self._error(op, f"only libdevice functions can be declared, not @{name}")
            fn_type = op.function_type
            params = ", ".join(self._scalar_type(op, t) for t in fn_type.inputs.data)
            result = self._scalar_type(op, fn_type.output)
            self.names.reserve(name)
            self.out.line(f'extern "C" __device__ {result} {name}({params});')

    @prints(llvm.CallOp)
    def _print_libdevice_call(self, op: llvm.CallOp) -> None:
        callee = op.callee.string_value() if op.callee is not None else "?"
        if callee not in SYMBOLS or len(op.results) != 1:
            raise BackendError(f"@{callee} is not a libdevice function")
        args = ", ".join(self._n(v) for v in op.operands)
        self._define(op.results[0], f"{callee}({args})", op)
