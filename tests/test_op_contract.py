"""Every op the lowering can emit, and every op of the contract (``docs/gpu-ir.md``), has a row
in the contract, a CUDA printer rule and a gpusim rule; an op that lacks one is listed below
with the reason, and an exception that no longer holds fails the test."""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import re
from types import ModuleType

import pytest
from xdsl.ir import Operation

import mytriton.backends.gpusim.launch  # noqa: F401  (registers every gpusim rule)
import mytriton.passes.gpu_lowering as gpu_lowering
from mytriton.backends.cuda.emitter import OP_PRINTERS
from mytriton.backends.cuda.printer import printable_ops
from mytriton.backends.gpusim.registry import RULES as GPUSIM
from mytriton.backends.interpreter.registry import RULES as INTERPRETER
from mytriton.dialects import all_dialects, make_context
from mytriton.dialects.tt.canonicalize import CANONICALIZATION
from mytriton.op_rules import OpRules
from mytriton.passes.analysis.axis_info import AXIS_RULES
from mytriton.passes.gpu_lowering.rules import LOWERING
from mytriton.passes.ttg.layout_rules import RESULT_LAYOUT
from tests.cuda.test_printer_ops import CONTRACT, LOWERED_DIALECTS, contract_ops, lowered_ops

# the module around the kernel (gpu-ir.md, "Shape of the module"), not ops inside the gpu.func:
# the printer prints them as the file's declarations, gpusim's launch reads them
STRUCTURE = {"gpu.module", "gpu.func", "llvm.func", "memref.global"}
TERMINATOR = "a terminator: gpusim reads its operands as its block's results"
MLIR_ONLY = "only the MLIR emitter's spelling of math.absi, never in asm['gpu']"
HAND_WRITTEN = "not emitted by the lowering; the contract accepts it in hand-written modules"

NO_ROW: dict[str, str] = {op: "module structure" for op in STRUCTURE}
NO_PRINTER: dict[str, str] = {op: "module structure" for op in STRUCTURE} | {
    "scf.condition": "printed by scf.while's printer, as the break of its before region",
    "llvm.intr.abs": MLIR_ONLY,
}
NO_GPUSIM: dict[str, str] = {op: "module structure" for op in STRUCTURE} | {
    "gpu.return": TERMINATOR,
    "scf.yield": TERMINATOR,
    "scf.condition": TERMINATOR,
    "llvm.intr.abs": MLIR_ONLY,
    "math.ctpop": HAND_WRITTEN + " for the CUDA printer only (gpu-ir.md)",
    "math.ctlz": HAND_WRITTEN + " for the CUDA printer only (gpu-ir.md)",
}


def _named(module: ModuleType, node: ast.expr) -> object:
    """What a name or dotted name of ``module``'s source is (``arith.AddfOp``), if global."""
    if isinstance(node, ast.Name):
        return vars(module).get(node.id)
    if isinstance(node, ast.Attribute):
        base = _named(module, node.value)
        return None if base is None else getattr(base, node.attr, None)
    return None


def _lowering_modules() -> list[ModuleType]:
    """The lowering's modules: its package and wherever a rule of ``LOWERING`` is defined."""
    prefix = gpu_lowering.__name__ + "."
    names = {i.name for i in pkgutil.walk_packages(gpu_lowering.__path__, prefix)}
    names |= {gpu_lowering.__name__} | {
        type(LOWERING[op]).__module__ for op in LOWERING if not isinstance(op, str)
    }
    return [importlib.import_module(n) for n in sorted(names)]


def emitted_ops() -> dict[str, type[Operation]]:
    """Every op class of a lowered dialect that the lowering's source names: what it can
    emit (and some it only recognises, all of which reach the backends too)."""
    found: dict[str, type[Operation]] = {}
    for module in _lowering_modules():
        for node in ast.walk(ast.parse(inspect.getsource(module))):
            if not isinstance(node, ast.Name | ast.Attribute):
                continue
            op = _named(module, node)
            if isinstance(op, type) and issubclass(op, Operation):
                name = getattr(op, "name", None)
                if isinstance(name, str) and name.split(".")[0] in LOWERED_DIALECTS:
                    found[name] = op
    return found


def checked_ops() -> dict[str, type[Operation]]:
    """The ops the lowering can emit, the contract's and those of our lowered dialects."""
    lowered = lowered_ops()
    ours = {n: op for n, op in lowered.items() if op.__module__.startswith("mytriton.")}
    return emitted_ops() | ours | {n: lowered[n] for n in contract_ops()}


def test_the_lowering_is_found() -> None:
    emitted = emitted_ops()
    assert len(emitted) > 100
    assert {"arith.addf", "nvvm.mma.sync", "ptx.wgmma.mma_async", "scf.while"} <= set(emitted)


def _missing(has: dict[str, bool]) -> set[str]:
    return {name for name, present in has.items() if not present}


def test_every_op_has_a_contract_row() -> None:
    rows = contract_ops()
    assert _missing({n: n in rows for n in checked_ops()}) == set(NO_ROW)


def test_the_structure_ops_are_the_contracts_module_shape() -> None:
    text = CONTRACT.read_text()
    shape = text[text.index("## Shape of the module") : text.index("## Ops that may appear")]
    assert {op for op in STRUCTURE if f'"{op}"' in shape or f"`{op}`" in shape} == STRUCTURE


def test_every_op_has_a_cuda_printer_rule() -> None:
    printers = printable_ops()
    has = {n: any(issubclass(op, p) for p in printers) for n, op in checked_ops().items()}
    assert _missing(has) == set(NO_PRINTER)


def test_every_op_has_a_gpusim_rule() -> None:
    assert _missing({n: op in GPUSIM for n, op in checked_ops().items()}) == set(NO_GPUSIM)


TABLES: dict[str, OpRules] = {
    "canonicalization": CANONICALIZATION,
    "result layout": RESULT_LAYOUT,
    "axis info": AXIS_RULES,
    "lowering": LOWERING,
    "interpreter": INTERPRETER,
    "gpusim": GPUSIM,
    "CUDA printer": OP_PRINTERS,
}


@pytest.mark.parametrize("table", TABLES)
def test_a_rule_keyed_by_name_names_a_known_op(table: str) -> None:
    """A misspelt (or never parsed) name would be a rule nothing reaches: every name key is
    an op that ``make_context`` parses into its class."""
    ctx = make_context()
    names = [key for key in TABLES[table] if isinstance(key, str)]
    assert [n for n in names if ctx.get_optional_op(n) is None] == []
    assert all(re.fullmatch(r"[a-z_0-9]+(\.[a-z_0-9]+)+", n) for n in names)


def test_an_op_name_is_one_class() -> None:
    """Why a name key finds the same rule as a class key (``gpusim/registry.py``): a parsed op
    is an instance of the one class its name has, the class the lowering builds."""
    classes = [op for d in all_dialects() for op in d.operations]
    assert len({op.name for op in classes}) == len(classes)
