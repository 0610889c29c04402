"""Errors the CPU interpreter raises while running a kernel.

Each names the kernel source line of the op that failed (``file:line:col`` plus the source text,
as compile errors do), so a user debugging on the CPU lands on the line to fix.
"""

from __future__ import annotations

from xdsl.ir import Operation

from mytriton.dialects.verify import source_location
from mytriton.errors import (
    BackendError,
    CompilationError,
    DeviceAssertionError,
    LaunchError,
    format_at,
)


class InterpreterError(BackendError):
    """The interpreter cannot run this kernel (an op without a rule, an unsupported type, a bad
    argument) or the kernel did something the GPU would not define."""

    def __init__(self, message: str, op: Operation | None = None):
        self.message = message
        self.loc = source_location(op) if op is not None else None
        super().__init__(format_at(self.loc, message))


class OutOfBoundsAccess(InterpreterError):
    """A load or store touched an element outside the array its pointer points into."""


class DeviceAssertionFailed(InterpreterError, DeviceAssertionError):
    """A ``tl.device_assert`` (or ``tl.assume``) found a false element."""


class ReadOnlyArgument(InterpreterError, LaunchError):
    """A store into an array passed read-only: the caller's mistake, so a ``LaunchError`` too."""


class PoisonUse(InterpreterError):
    """A value derived from uninitialised data (``tl.empty``, a masked-off lane loaded without
    ``other``) was stored, reduced or used as an address, mask or loop bound (debug mode only)."""


_INTERPRETED: dict[type[CompilationError], type[CompilationError]] = {}


def _interpreted(cls: type[CompilationError]) -> type[CompilationError]:
    """``cls`` that is also an ``InterpreterError`` (same name, so reports read the same);
    one such class per class."""
    made = _INTERPRETED.get(cls)
    if made is None:
        doc = f"{cls.__name__} raised by a launch under the interpreter (an InterpreterError too)."
        attrs = {"__module__": cls.__module__, "__qualname__": cls.__qualname__, "__doc__": doc}
        made = _INTERPRETED[cls] = type(cls.__name__, (cls, InterpreterError), attrs)
    return made


def as_interpreter_error(error: CompilationError) -> CompilationError:
    """``error``, re-classed to be an ``InterpreterError`` too: in interpreter mode Triton
    raises ``InterpreterError`` for every error of a kernel, compile-time ones included, and
    code written for it catches that; mytriton's own class, message and location stay."""
    if not isinstance(error, InterpreterError):
        error.__class__ = _interpreted(type(error))
    return error


def describe_program(pid: tuple[int, int, int]) -> str:
    return f"program ({pid[0]}, {pid[1]}, {pid[2]})"


def describe_line(op: Operation) -> str:
    """``file:line`` of the kernel source an op came from."""
    loc = source_location(op)
    return f"{loc.file}:{loc.line}" if loc is not None else "an unknown line"
