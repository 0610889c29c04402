"""Rules of the debugging ops: ``tt.print`` (Triton's GPU line format, elements in index
order), ``tt.assert`` and ``tt.assume`` (a false element raises ``DeviceAssertionError`` naming
the program), ``gpu.barrier`` (programs are whole here: nothing to wait for) and
``tt.elementwise_inline_asm`` (PTX cannot run on the CPU: a typed error).

Printed lines of a batch go to the batch log and appear only once it commits, in program
order, so a batch rolled back and rerun one program at a time prints each line once.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
from xdsl.dialects import gpu

from mytriton.backends.interpreter.errors import (
    DeviceAssertionFailed,
    InterpreterError,
    describe_program,
)
from mytriton.backends.interpreter.registry import rule
from mytriton.backends.interpreter.values import Value, as_array
from mytriton.dialects.tt import debug as tt_debug
from mytriton.dialects.tt.print_format import c_printf, line_format, message_format
from mytriton.dialects.tt.types import byte_size, element_type, is_bool, is_float, shape_of

if TYPE_CHECKING:
    from mytriton.backends.interpreter.engine import Executor

Array = np.ndarray


def _row(a: Array, program: int) -> Array:
    return a[program if a.shape[0] > 1 else 0]


def _element_args(values: Array, elem: object, hex: bool) -> list[tuple[int | float, int]]:
    """Each element as the ``(value, bits)`` the C format receives."""
    bits = 1 if is_bool(elem) else byte_size(elem) * 8  # type: ignore[arg-type]
    flat = np.ascontiguousarray(values).reshape(-1)
    if is_float(elem):  # type: ignore[arg-type]
        if hex:
            raw = flat.view(np.dtype(f"u{bits // 8}"))
            return [(int(v), bits) for v in raw]
        return [(float(v), 64) for v in flat.astype(np.float64)]
    # hex shows the type's own bits; decimal values travel widened to 32 bits at least
    return [(int(v), bits if hex else max(bits, 32)) for v in flat]


@rule(tt_debug.PrintOp)
def print_(ex: Executor, op: tt_debug.PrintOp) -> Sequence[Value]:
    prefix, as_hex = op.prefix.data, op.hex is not None
    for program in range(ex.programs):
        pid = ex.pid_of_lane(program)
        pid_args: list[tuple[int | float, int]] = [(p, 32) for p in pid]
        lines: list[str] = []
        if not op.args:
            lines.append(c_printf(message_format(prefix), pid_args))
        for n, v in enumerate(op.args):
            shape, elem = shape_of(v.type), element_type(v.type)
            fmt = line_format(prefix, shape, elem, as_hex, n, len(op.args))
            values = _row(as_array(ex.get(v), "tt.print operand"), program)
            indices = itertools.product(*(range(d) for d in shape))
            for index, arg in zip(indices, _element_args(values, elem, as_hex), strict=True):
                lines.append(c_printf(fmt, [*pid_args, *((i, 32) for i in index), arg]))
        ex.emit_output(program, lines)
    return ()


def _check(ex: Executor, op: tt_debug.AssertOp | tt_debug.AssumeOp, what: str) -> None:
    cond = as_array(ex.get(op.condition), f"{op.name} condition")
    flat = cond.reshape(cond.shape[0], -1)
    bad = ~flat.all(axis=1)
    if bad.any():
        program = int(np.argmax(bad))
        pid = ex.pid_of_lane(program)
        raise DeviceAssertionFailed(f"{what} in {describe_program(pid)}", op)


@rule(tt_debug.AssertOp)
def assert_(ex: Executor, op: tt_debug.AssertOp) -> Sequence[Value]:
    message = op.message.data
    _check(ex, op, f"device assertion failed: {message}" if message else "device assertion failed")
    return ()


@rule(tt_debug.AssumeOp)
def assume(ex: Executor, op: tt_debug.AssumeOp) -> Sequence[Value]:
    _check(ex, op, "tl.assume: the assumed condition is false")
    return ()


@rule(gpu.BarrierOp)
def barrier(ex: Executor, op: gpu.BarrierOp) -> Sequence[Value]:
    return ()


@rule(tt_debug.ElementwiseInlineAsmOp)
def inline_asm(ex: Executor, op: tt_debug.ElementwiseInlineAsmOp) -> Sequence[Value]:
    raise InterpreterError(
        "tl.inline_asm_elementwise runs PTX assembly, which the CPU interpreter cannot execute; "
        "run this kernel on a GPU backend (cuda or mlir)",
        op,
    )
