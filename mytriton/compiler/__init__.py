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
from mytriton.compiler import errors  # `triton.compiler.errors`, bound as in Triton
from mytriton.errors import CompilationError

__all__ = [
    "ASTSource",
    "CompilationError",
    "CompiledKernel",
    "LazyDict",
    "compile",
    "errors",
    "get_cache_key",
    "make_backend",
]
