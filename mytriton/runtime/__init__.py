"""mytriton.runtime."""

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
