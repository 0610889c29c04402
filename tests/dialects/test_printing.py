"""``LocatedPrinter`` reuses the text of repeated types, locations, op types and attribute
dictionaries: the text must be what xDSL's printer writes, in both forms, at every stage."""

from __future__ import annotations

import io

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp, UnregisteredOp
from xdsl.ir import Operation
from xdsl.printer import Printer

from mytriton.backends.stages import parse_module
from mytriton.dialects.printing import LocatedPrinter
from tests.kernels import softmax_kernel, tiled_matmul_runtime_k_kernel


class Reference(Printer):
    """xDSL's printer with only ``LocatedPrinter``'s location fix (what it was before)."""

    def print_operation_type(self, op: Operation) -> None:
        custom = not (self.print_generic_format or Operation.print is type(op).print)
        if custom and not isinstance(op, UnregisteredOp):
            self.print_function_type(op.operand_types, op.result_types)
        else:
            super().print_operation_type(op)


def _text(printer: type[Printer], module: ModuleOp, generic: bool) -> str:
    out = io.StringIO()
    printer(stream=out, print_generic_format=generic, print_debuginfo=True).print_op(module)
    return out.getvalue()


@pytest.fixture
def stages(monkeypatch: pytest.MonkeyPatch) -> list[ModuleOp]:
    """The tt, ttg and gpu modules of a softmax and of a matmul with a loop (f16 dots)."""
    monkeypatch.setenv("MYTRITON_BACKEND", "gpusim")
    f16, f32 = np.zeros((64, 64), np.float16), np.zeros((64, 64), np.float32)
    kernels = [
        softmax_kernel.warmup(f32, f32, 64, BLOCK=64, grid=(1,)),
        tiled_matmul_runtime_k_kernel.warmup(
            f16, f16, f32, 64, 64, 64, BM=32, BN=32, BK=16, grid=(1,)
        ),
    ]
    return [parse_module(k.asm[s]) for k in kernels for s in ("tt-opt", "ttg", "gpu")]


@pytest.mark.parametrize("generic", [False, True])
def test_same_text_as_xdsl(stages: list[ModuleOp], generic: bool) -> None:
    for module in stages:
        assert _text(LocatedPrinter, module, generic) == _text(Reference, module, generic)


def test_string_literals_escaped_as_xdsl() -> None:
    """Every byte of a string attribute and a location's file name: quotes, backslashes,
    control and non-ASCII characters are written as xDSL writes them byte by byte."""
    from xdsl.dialects.builtin import FileLineColLoc, IntAttr, StringAttr

    every_char = "".join(map(chr, range(1, 128))) + 'é"\\\n\t'
    module = ModuleOp([])
    module.attributes["s"] = StringAttr(every_char)
    module.attributes["t"] = StringAttr('a"b\\c')
    module.location = FileLineColLoc(StringAttr(every_char), IntAttr(3), IntAttr(4))
    for generic in (False, True):
        assert _text(LocatedPrinter, module, generic) == _text(Reference, module, generic)


def test_shared_and_equal_objects_print_alike() -> None:
    """A type reused by identity and an equal one built anew print the same text, as do
    attribute dictionaries holding them: the identity cache returns only what equality
    would."""
    from xdsl.dialects import arith
    from xdsl.dialects.builtin import FileLineColLoc, IntAttr, IntegerAttr, StringAttr, i32, i64

    def loc(line: int) -> FileLineColLoc:
        return FileLineColLoc(StringAttr("k.py"), IntAttr(line), IntAttr(1))

    ops: list[Operation] = []
    for value, ty in [(1, i32), (2, i32), (3, i64), (1, i32), (4, IntegerAttr(0, 16).type)]:
        op = arith.ConstantOp(IntegerAttr(value, ty))
        op.attributes["tag"] = StringAttr(str(ty))
        op.location = loc(value)
        ops.append(op)
    module = ModuleOp(ops)
    for generic in (False, True):
        assert _text(LocatedPrinter, module, generic) == _text(Reference, module, generic)


def test_generic_ops_name_their_values_as_xdsl() -> None:
    """The generic form's one-line ops (no regions, no successors) name their values as
    xDSL's ``print_ssa_value`` does: repeated name hints get suffixes, unnamed values numbers,
    an isolated op's body its own scope, and ops with several results or none print alike."""
    from xdsl.dialects import arith, cf, func, test
    from xdsl.dialects.builtin import i1, i32
    from xdsl.ir import Block, Region

    def body(tag: str) -> Region:
        entry, exit_ = Block(arg_types=[i32, i1]), Block()
        x, flag = entry.args
        x.name_hint = "x"
        pair = test.TestOp(operands=[x, x], result_types=[i32, i32])
        pair.results[0].name_hint = "v"
        again = arith.AddiOp(pair.results[0], pair.results[1])
        again.result.name_hint = "v"
        unnamed = arith.MuliOp(again, x)
        none = test.TestOp(operands=[unnamed], properties={"p": i32}, attributes={tag: i1})
        entry.add_ops(
            [pair, again, unnamed, none, cf.ConditionalBranchOp(flag, exit_, [], exit_, [])]
        )
        exit_.add_op(func.ReturnOp())
        return Region([entry, exit_])

    module = ModuleOp([
        func.FuncOp("f", ((i32, i1), ()), body("a")),
        ModuleOp([func.FuncOp("g", ((i32, i1), ()), body("b"))]),  # a nested scope
        func.FuncOp("h", ((i32, i1), ()), body("c")),
    ])  # fmt: skip
    module.body.block.add_op(UnregisteredOp.with_name("my.op").create(result_types=[i32]))
    assert _text(LocatedPrinter, module, True) == _text(Reference, module, True)
