"""``triton.runtime.interpreter``: ``InterpretedFunction``, what ``@triton.jit`` gives in
Triton's interpreter mode. mytriton's ``@jit`` gives a ``JITFunction`` in every mode, so a
``JITFunction`` counts as an ``InterpretedFunction`` exactly while the interpreter is the
selected backend (``TRITON_INTERPRET=1``), as it would in Triton (``mytriton/compat``)."""

from __future__ import annotations

from mytriton.compat.interpreter import InterpretedFunction

__all__ = ["InterpretedFunction"]
