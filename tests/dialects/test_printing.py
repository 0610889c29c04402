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
