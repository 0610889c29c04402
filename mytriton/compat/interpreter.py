"""Triton's ``InterpretedFunction`` as a view of mytriton's ``JITFunction`` (see
``mytriton/runtime/interpreter.py``)."""

from __future__ import annotations

from typing import Any


class _InterpretedCheck(type):
    """``isinstance(k, InterpretedFunction)``: a ``@jit`` kernel while the interpreter runs
    kernels, as Triton's ``@jit`` makes one then."""

    def __instancecheck__(cls, obj: Any) -> bool:
        from mytriton.backends import selected_backend_name
        from mytriton.runtime.jit import JITFunction

        return isinstance(obj, JITFunction) and selected_backend_name() == "interpreter"


class InterpretedFunction(metaclass=_InterpretedCheck):
    """``InterpretedFunction(fn, **options)`` makes a ``@jit`` kernel (a ``JITFunction``)."""

    def __new__(cls, fn: Any, **options: Any) -> Any:  # type: ignore[misc]
        from mytriton.runtime.jit import jit

        return jit(fn, **options)
