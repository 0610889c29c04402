"""mytriton: a Triton-compatible GPU kernel compiler built MLIR-natively on xDSL.

``import mytriton as triton; import mytriton.language as tl`` and write kernels as in Triton.
The subpackages follow the IR levels (``docs/architecture.md``): ``language`` and ``frontend``
(Python -> `tt`), ``dialects`` and ``passes`` (`tt` -> `ttg` -> the lowered GPU IR),
``backends`` (what runs each level), ``runtime`` (``@jit``, launches, caches), ``compat``
(Triton's host API) and ``tools`` (``mytriton-opt``). The modules beside them are the ground
floor every package may import (``errors``, ``op_rules``, ``kernel_signature``, ``knobs``,
``version``, ``utils``), and ``testing`` (``triton.testing``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mytriton import exec_sources as _exec_sources  # noqa: F401 (keeps exec'd kernels' text)
from mytriton import language
from mytriton.compat.alias import install_as_triton
from mytriton.errors import CompilationError, LaunchError
from mytriton.errors import MyTritonError as TritonError
from mytriton.language.constexpr_functions import constexpr_function
from mytriton.language.core import must_use_result
from mytriton.runtime._allocation import set_allocator
from mytriton.utils import cdiv, next_power_of_2

if TYPE_CHECKING:
    from mytriton import testing
    from mytriton.backends.tensor_wrapper import TensorWrapper, reinterpret
    from mytriton.compat.compiler import compile  # noqa: A004 (Triton's name)
    from mytriton.runtime.async_compile import AsyncCompileMode, FutureKernel
    from mytriton.runtime.autotuner import Config, autotune, heuristics
    from mytriton.runtime.jit import JITFunction, jit


def __getattr__(name: str) -> Any:
    # the runtime pulls in the frontend, passes and backends: load it on first use, so tools
    # that only need the dialects (mytriton-opt) start fast
    if name in ("jit", "JITFunction"):
        from mytriton.runtime import jit as _jit

        return getattr(_jit, name)
    if name in ("autotune", "heuristics", "Config"):
        from mytriton.runtime import autotuner

        return getattr(autotuner, name)
    if name in ("AsyncCompileMode", "FutureKernel"):
        from mytriton.runtime import async_compile

        return getattr(async_compile, name)
    if name == "compile":  # Triton's (an ASTSource) and mytriton's own (a stage's IR)
        from mytriton.compat.compiler import compile as _compile

        return _compile
    if name in ("OutOfResources", "InterpreterError", "KernelInterface"):
        from mytriton import runtime

        return getattr(runtime, name)
    if name == "knobs":
        import mytriton.knobs as _knobs

        return _knobs
    if name in ("reinterpret", "TensorWrapper"):
        from mytriton.backends import tensor_wrapper

        return getattr(tensor_wrapper, name)
    if name in ("testing", "compiler"):  # subpackages Triton's __init__ imports
        import importlib

        return importlib.import_module(f"mytriton.{name}")
    raise AttributeError(f"module 'mytriton' has no attribute {name!r}")


from mytriton.version import __version__ as __version__  # noqa: E402

__all__ = [
    "AsyncCompileMode",
    "CompilationError",
    "Config",
    "FutureKernel",
    "JITFunction",
    "LaunchError",
    "TensorWrapper",
    "TritonError",
    "autotune",
    "cdiv",
    "compile",
    "constexpr_function",
    "heuristics",
    "install_as_triton",
    "jit",
    "knobs",
    "language",
    "must_use_result",
    "next_power_of_2",
    "reinterpret",
    "set_allocator",
    "testing",
]
