"""``gpu.printf`` (each active thread prints its line, in thread order), ``llvm.intr.trap``
(a device assertion: a typed error naming the line, program and thread), ``llvm.intr.assume``
(a false assumption is reported the same way) and ``llvm.inline_asm`` (PTX cannot run here:
refused when the kernel is compiled)."""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import IntegerType
from xdsl.ir import Operation

from mytriton.backends.gpusim.compiler import Compiler
from mytriton.backends.gpusim.errors import SimulationError
from mytriton.backends.gpusim.machine import Machine, Step
from mytriton.backends.gpusim.registry import rule
from mytriton.dialects.nvgpu.upstream import PrintfOp
from mytriton.dialects.tt.print_format import c_printf
from mytriton.errors import DeviceAssertionError


class DeviceTrap(SimulationError, DeviceAssertionError):
    """A thread executed ``llvm.intr.trap`` (a failed ``tl.device_assert``)."""


def _bits(t: object) -> int:
    return t.width.data if isinstance(t, IntegerType) else 64


@rule("gpu.printf")
def _printf(op: Operation, c: Compiler) -> Step:
    assert isinstance(op, PrintfOp)
    fmt = op.format.data
    args = list(op.args)
    widths = [_bits(a.type) for a in args]

    def step(m: Machine) -> None:
        lanes = np.flatnonzero(m.mask)
        columns = [np.asarray(m.env[a]) for a in args]
        for lane in lanes:
            values = [(col[lane].item(), w) for col, w in zip(columns, widths, strict=True)]
            print(c_printf(fmt, values), end="")

    return step


@rule("llvm.intr.trap")
def _trap(op: Operation, c: Compiler) -> Step:
    def step(m: Machine) -> None:
        if m.mask.any():
            lane = int(np.argmax(m.mask))
            raise DeviceTrap(
                "device assertion failed (the kernel trapped)",
                op,
                m.program_of(lane),
                int(m.tid[lane]),
            )

    return step


@rule("llvm.intr.assume")
def _assume(op: Operation, c: Compiler) -> Step:
    (cond,) = op.operands

    def step(m: Machine) -> None:
        value = np.asarray(m.env[cond])
        bad = m.mask & ~value.astype(bool)
        if bad.any():
            lane = int(np.argmax(bad))
            raise DeviceTrap(
                "tl.assume: the assumed condition is false (undefined behaviour on a GPU)",
                op,
                m.program_of(lane),
                int(m.tid[lane]),
            )

    return step


@rule("llvm.inline_asm")
def _inline_asm(op: Operation, c: Compiler) -> Step:
    c.unsupported(
        op,
        "tl.inline_asm_elementwise runs PTX assembly, which the CPU simulator cannot execute; "
        "run this kernel on a GPU backend (cuda or mlir)",
    )
