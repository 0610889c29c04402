"""The runtime: ``@jit``, specialization, the compile driver and its caches, and launches.

``jit`` is ``JITFunction`` (launch, ``warmup``, the compiled kernels); ``binder`` and
``specialization`` turn a launch's arguments into a specialization and its key; ``compiler``
is the stage table and compile driver (dumps, overrides), ``compile_ir`` compiles from any
stage's text (``mytriton.compile``); the caches are ``disk_cache`` (with ``dependencies``),
``device_caches`` and the autotuner's, and ``global_values`` checks the globals a kernel
compiled in; launching is ``launch`` and ``grid``, with the fast paths (``guards``,
``fast_path``, ``native_fast_path`` and ``native/``) and what TMA needs at each launch
(``tensor_maps``, ``descriptor_args``, ``global_scratch``); ``autotuner`` is
``triton.autotune``. ``driver``, ``errors``, ``cache`` and ``interpreter`` are Triton's module
names for what Triton's host code imports.
"""

from __future__ import annotations

import importlib
from typing import Any


def __getattr__(name: str) -> Any:
    # ``triton.runtime.driver`` without importing it first, as Triton's package allows
    if name == "driver":
        return importlib.import_module("mytriton.runtime.driver")
    # Triton's own autotuner tests use ``triton.runtime.Autotuner`` and friends
    if name in ("Autotuner", "Heuristics", "Config", "KernelInterface"):
        return getattr(importlib.import_module("mytriton.runtime.autotuner"), name)
    if name == "JITFunction":
        return importlib.import_module("mytriton.runtime.jit").JITFunction
    # Triton's launch-time error classes (mytriton/runtime/errors.py)
    if name in ("OutOfResources", "InterpreterError", "PTXASError"):
        return getattr(importlib.import_module("mytriton.runtime.errors"), name)
    raise AttributeError(f"module 'mytriton.runtime' has no attribute {name!r}")
