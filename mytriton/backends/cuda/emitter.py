"""What every op printer shares: the dispatch table, the printer's state, and its helpers.

Op printers are methods of mixins (``print_arith``, ``print_math``, ``print_gpu``,
``print_memory``, ``print_scf``, ``print_vector``), each registered for its op classes with
``@prints``; ``printer.CudaPrinter`` combines them and drives the printing. Vector values
(``float4``...) may only flow through the ops registered with ``vectors=True``: C++ has no
arithmetic on CUDA's vector types, so any other op meeting one is an error, not broken C++.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from xdsl.dialects.builtin import FileLineColLoc, ModuleOp, VectorType
from xdsl.ir import Attribute, Block, Operation, SSAValue

from mytriton.backends.cuda.c_types import (
    int_width,
    is_narrow_float,
    round_call,
    scalar_type,
    unsigned_type,
    value_type,
    widen_call,
)
from mytriton.backends.cuda.names import Namer
from mytriton.backends.cuda.writer import LineDirectives, PyLine, SourceWriter
from mytriton.dialects.verify import source_location
from mytriton.errors import BackendError, format_at
from mytriton.op_rules import OpRules
from mytriton.passes.gpu_lowering.abi import find_kernel, is_global_pointer, is_shared_pointer

OpPrinter = Callable[[Any, Any], None]
#: op class -> the method that prints it
OP_PRINTERS: OpRules[OpPrinter] = OpRules("CUDA printer")
VECTORS = frozenset({"vectors"})


def prints(*ops: type[Operation], vectors: bool = False) -> Callable[[OpPrinter], OpPrinter]:
    """Register the decorated method as the printer of ``ops``; ``vectors``: it also prints
    them on vector values (every other printer only ever sees scalars and pointers)."""
    return OP_PRINTERS.register(*ops, tags=VECTORS if vectors else frozenset())


def py_line(op: Operation) -> PyLine | None:
    loc = op.location
    if isinstance(loc, FileLineColLoc):
        return loc.filename.data, loc.line.data
    return None


class LocatedError(BackendError):
    """A printer error already prefixed with the kernel line of its op."""


class Emitter:
    """The state of one print: output lines, C++ names, pointer element types, yield targets."""

    def __init__(self, module: ModuleOp, *, line_directives: LineDirectives = "exact"):
        self.module = module
        self.kernel = find_kernel(module)
        self.out = SourceWriter(line_directives=line_directives)
        self.names = Namer({self.kernel.sym_name.data})
        self._pointee: dict[SSAValue, str] = {}  # C element type of each pointer value
        self._yield_targets: list[Sequence[tuple[str, SSAValue]]] = []
        # a struct value is a list of C++ variables, one per field (wgmma accumulators, mma
        # and ldmatrix results, inline asm outputs): what llvm.extractvalue names
        self._struct_fields: dict[SSAValue, list[str]] = {}
        # ops the lowering made without a Python location belong to the kernel as a whole
        self._def_line = py_line(self.kernel)
        # ops a printer printed out of order (a loop's exit wait, ``print_scf``): skipped later
        self._printed_ahead: set[Operation] = set()

    def _print_block(self, block: Block) -> None:
        for op in block.ops:
            if op not in self._printed_ahead:
                self._print_op(op)

    def _print_op(self, op: Operation) -> None:
        printer = OP_PRINTERS.get(op)
        if printer is None:
            raise self._error(
                op, f"the CUDA printer cannot print `{op.name}` (not in docs/gpu-ir.md's op table)"
            )
        if not OP_PRINTERS.has_tag(op, "vectors"):
            for value in (*op.operands, *op.results):
                if isinstance(value.type, VectorType):
                    raise self._error(
                        op,
                        f"the CUDA printer has no {op.name} on {value.type} (vectors only "
                        "flow through llvm.load/store, vector.* and scf, docs/gpu-ir.md)",
                    )
        try:
            printer(self, op)
        except LocatedError:
            raise
        except BackendError as e:
            raise self._error(op, str(e)) from None

    @staticmethod
    def _error(op: Operation, message: str) -> LocatedError:
        return LocatedError(format_at(source_location(op), f"{op.name}: {message}"))

    def _carried_in_flight(self, fields: Sequence[str], integer: bool) -> None:
        """A loop carries ``fields`` of a struct, which may be accumulators in flight at the
        top of its body (``WgmmaPrinter``'s override)."""

    def _exit_wait(self, loop: Operation) -> Operation | None:
        """The op after ``loop`` that retires what its last iteration left in flight, to be
        printed on the loop's exit edge (``WgmmaPrinter``'s override); None when there is none."""
        return None

    def _in_flight_state(self) -> dict[str, str]:
        """What is in flight now, to restore with ``_set_in_flight`` (``WgmmaPrinter``)."""
        return {}

    def _set_in_flight(self, state: dict[str, str]) -> None:
        """Make ``state`` (from ``_in_flight_state``) what is in flight (``WgmmaPrinter``)."""

    def _stmt(self, op: Operation, text: str) -> None:
        self.out.line(text, py_line(op) or self._def_line)

    def _n(self, value: SSAValue) -> str:
        return self.names[value]

    def _fields_of(self, value: SSAValue) -> list[str]:
        fields = self._struct_fields.get(value)
        if fields is None:
            raise BackendError(
                "the struct must come from llvm.mlir.undef, llvm.insertvalue, a loop carrying "
                "one, or an op printed as inline asm (the CUDA printer keeps a struct as its "
                "field variables)"
            )
        return fields

    def _set_fields(self, value: SSAValue, fields: list[str]) -> None:
        self._struct_fields[value] = fields

    def _scalar_type(self, op: Operation, t: Attribute) -> str:
        try:
            return scalar_type(t)
        except BackendError as e:
            raise self._error(op, str(e)) from None

    def _ctype(self, value: SSAValue) -> str:
        if is_global_pointer(value.type):
            return f"{self._pointee.get(value, 'void')}*"
        if is_shared_pointer(value.type):  # a shared-window address, as PTX's .shared operands
            return "unsigned"
        return value_type(value.type)

    def _define(self, result: SSAValue, expr: str, op: Operation) -> str:
        ctype = self._ctype(result)
        name = self.names.define(result)
        self._stmt(op, f"{ctype} {name} = {expr};")
        return name

    def _as_pointer(self, value: SSAValue, element: str) -> str:
        """``value`` as a ``element*`` expression (cast only where its C type differs)."""
        if self._pointee.get(value) == element:
            return self._n(value)
        return f"(({element}*){self._n(value)})"

    def _signed(self, value: SSAValue) -> str:
        """An integer operand read as signed (an i1 ``true`` is -1, as in MLIR)."""
        return f"(-(int){self._n(value)})" if int_width(value.type) == 1 else self._n(value)

    def _unsigned(self, value: SSAValue) -> str:
        if int_width(value.type) == 1:
            return self._n(value)
        return f"(({unsigned_type(value.type)}){self._n(value)})"

    def _view(self, value: SSAValue, view: str) -> str:
        if view == "signed":
            return self._signed(value)
        if view == "unsigned":
            return self._unsigned(value)
        return self._n(value)

    def _int_binary(self, op: Operation, fmt: str, view: str = "plain", wraps: bool = True) -> None:
        """An integer op as a C expression; ``wraps``: an i1 result keeps only its low bit."""
        lhs, rhs = op.operands
        result = op.results[0]
        expr = fmt.format(a=self._view(lhs, view), b=self._view(rhs, view), t=self._ctype(result))
        self._define(result, self._wrap_i1(op, expr) if wraps else expr, op)

    def _float_binary(self, op: Operation, operator: str) -> None:
        lhs, rhs = op.operands
        expr = f"{self._fv(lhs)} {operator} {self._fv(rhs)}"
        self._define(op.results[0], self._rounded(op.results[0], expr), op)

    def _fv(self, value: SSAValue) -> str:
        """A float operand as a C ``float``/``double`` expression (an f16/bf16 is converted)."""
        t = value.type
        return f"{widen_call(t)}({self._n(value)})" if is_narrow_float(t) else self._n(value)

    @staticmethod
    def _rounded(result: SSAValue, expr: str) -> str:
        """A float expression computed in ``float`` (or ``double``), rounded to an f16/bf16
        result's precision."""
        t = result.type
        return f"{round_call(t, 'float')}({expr})" if is_narrow_float(t) else expr

    def _cast(self, op: Operation, expr: str) -> None:
        self._define(op.results[0], f"({self._ctype(op.results[0])}){expr}", op)

    def _to_bool(self, op: Operation) -> None:
        """Truncation to i1 keeps the low bit."""
        self._define(op.results[0], f"(bool)({self._n(op.operands[0])} & 1)", op)

    @staticmethod
    def _wrap_i1(op: Operation, expr: str) -> str:
        """An i1 result keeps only the low bit of the C expression."""
        return f"(bool)(({expr}) & 1)" if int_width(op.results[0].type) == 1 else expr
