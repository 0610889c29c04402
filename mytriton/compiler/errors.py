"""``triton.compiler.errors``: the errors a failed compile raises, under Triton's names (the
classes are mytriton's own, ``mytriton/errors.py``, so either name catches them)."""

from __future__ import annotations

from mytriton.errors import CompilationError
from mytriton.errors import StaticAssertionError as CompileTimeAssertionFailure
from mytriton.errors import UnsupportedSyntaxError as UnsupportedLanguageConstruct

__all__ = ["CompilationError", "CompileTimeAssertionFailure", "UnsupportedLanguageConstruct"]
