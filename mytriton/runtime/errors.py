"""``triton.runtime.errors``: the launch-time errors under Triton's names (mytriton's own
classes, ``mytriton/errors.py`` and the interpreter's)."""

from __future__ import annotations

from mytriton.backends.interpreter.errors import InterpreterError
from mytriton.errors import OutOfResources, PTXASError

__all__ = ["InterpreterError", "OutOfResources", "PTXASError"]
