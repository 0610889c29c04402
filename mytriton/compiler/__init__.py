"""``triton.compiler``: Triton's host-side compiler API (``mytriton/compat/compiler.py``)."""

from __future__ import annotations

from mytriton.compat.compiler import (
    ASTSource,
    CompiledKernel,
    LazyDict,
    compile,  # noqa: A004 (Triton's name)
    get_cache_key,
    make_backend,
)
from mytriton.errors import CompilationError

__all__ = [
    "ASTSource",
    "CompilationError",
    "CompiledKernel",
    "LazyDict",
    "compile",
    "get_cache_key",
    "make_backend",
]
