"""``gpu.printf`` (CUDA ``printf``), ``llvm.intr.trap`` (``__trap()``) and ``llvm.inline_asm``
(``asm volatile``; several outputs come back as an ``!llvm.struct``: each field is its own C++
variable, which ``llvm.extractvalue``'s printer (``print_atomic``) names)."""

from __future__ import annotations

import re

from xdsl.dialects import llvm
from xdsl.ir import Attribute

from mytriton.backends.cuda.emitter import Emitter, prints
from mytriton.dialects.nvgpu.upstream import AssumeOp, PrintfOp, TrapOp
from mytriton.errors import BackendError


def c_string(text: str) -> str:
    """``text`` as a C++ string literal."""
    out = []
    for ch in text:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif not 32 <= ord(ch) < 127:
            out.append(f"\\{ord(ch):03o}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _asm_text(llvm_asm: str) -> str:
    """LLVM's ``$0`` operand references as GCC-style ``%0`` (a literal ``%`` doubled)."""
    text = llvm_asm.replace("%", "%%")
    return re.sub(r"\$(\$|\{?(\d+)\}?)", lambda m: "$" if m[1] == "$" else f"%{m[2]}", text)


class DebugPrinter(Emitter):
    """``printf``, ``__trap()`` and inline PTX."""

    @prints(PrintfOp)
    def _print_printf(self, op: PrintfOp) -> None:
        args = "".join(f", {self._n(a)}" for a in op.args)
        self._stmt(op, f"printf({c_string(op.format.data)}{args});")

    @prints(TrapOp)
    def _print_trap(self, op: TrapOp) -> None:
        self._stmt(op, "__trap();")

    @prints(AssumeOp)
    def _print_assume(self, op: AssumeOp) -> None:
        self._stmt(op, f"__builtin_assume({self._n(op.cond)});")

    @prints(llvm.InlineAsmOp)
    def _print_inline_asm(self, op: llvm.InlineAsmOp) -> None:
        codes = [c.strip() for c in op.constraints.data.split(",") if c.strip()]
        outputs = [c for c in codes if c.startswith("=")]
        inputs = [c for c in codes if not c.startswith(("=", "~"))]
        clobbers = [c[2:-1] for c in codes if c.startswith("~{") and c.endswith("}")]
        result = op.res
        out_types: list[Attribute] = []
        if result is not None:
            t = result.type
            out_types = list(t.types.data) if isinstance(t, llvm.LLVMStructType) else [t]
        if len(out_types) != len(outputs) or len(inputs) != len(op.operands_):
            raise BackendError("inline asm constraints do not match its operands and results")
        names: list[str] = []
        if result is not None and isinstance(result.type, llvm.LLVMStructType):
            for t in out_types:
                names.append(self.names.fresh(result.name_hint or "asm"))
                self._stmt(op, f"{self._scalar_type(op, t)} {names[-1]};")
            self._set_fields(result, names)
        elif result is not None:
            name = self.names.define(result)
            names.append(name)
            self._stmt(op, f"{self._scalar_type(op, result.type)} {name};")
        outs = ", ".join(f'"{c}"({n})' for c, n in zip(outputs, names, strict=True))
        ins = ", ".join(f'"{c}"({self._n(v)})' for c, v in zip(inputs, op.operands_, strict=True))
        volatile = " volatile" if op.has_side_effects is not None else ""
        tail = f" : {', '.join(c_string(c) for c in clobbers)}" if clobbers else ""
        text = c_string(_asm_text(op.asm_string.data))
        self._stmt(op, f"asm{volatile}({text} : {outs} : {ins}{tail});")
