"""The one error the simulator raises: it names the op's kernel source line, the program and
the thread, because the point of the simulator is to find *where* lowered code goes wrong."""

from __future__ import annotations

from xdsl.ir import Operation

from mytriton.dialects.verify import source_location
from mytriton.errors import BackendError, LaunchError, SourceLocation, format_at


class SimulationError(BackendError):
    """Lowered code did something a GPU would fault on, race on or leave undefined."""

    def __init__(
        self,
        message: str,
        op: Operation | None = None,
        program: tuple[int, int, int] | None = None,
        thread: int | None = None,
    ):
        self.message = message
        self.op_name = op.name if op is not None else None
        self.loc: SourceLocation | None = source_location(op) if op is not None else None
        self.program = program
        self.thread = thread
        where = []
        if self.op_name is not None:
            where.append(self.op_name)
        if program is not None:
            where.append(f"program {program}")
        if thread is not None:
            where.append(f"thread {thread}")
        text = f"{message} [{', '.join(where)}]" if where else message
        super().__init__(format_at(self.loc, text))


class ReadOnlyArgument(SimulationError, LaunchError):
    """A store into an array passed read-only: the caller's mistake, so a ``LaunchError`` too."""
