"""``triton.compiler.compiler``: ``ASTSource``, ``IRSource``, ``compile``, ``CompiledKernel``,
``make_backend``, ``triton_key`` (``mytriton/compat/compiler.py``)."""

from __future__ import annotations

from mytriton.compat.compiler import (
    ASTSource,
    CompiledKernel,
    LazyDict,
    compile,  # noqa: A004 (Triton's name)
    get_cache_key,
    make_backend,
    triton_key,
)
from mytriton.compat.ir_source import IRSource
from mytriton.compat.target import BaseBackend, GPUTarget, Language
from mytriton.errors import OutOfResources

__all__ = [
    "ASTSource",
    "BaseBackend",
    "CompiledKernel",
    "GPUTarget",
    "IRSource",
    "Language",
    "LazyDict",
    "OutOfResources",
    "compile",
    "get_cache_key",
    "make_backend",
    "triton_key",
]
