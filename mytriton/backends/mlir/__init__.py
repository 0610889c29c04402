"""The MLIR backend: the lowered GPU IR through upstream MLIR's gpu/nvvm pipeline to PTX and cubin.

* ``emit``: the lowered xDSL module as MLIR text upstream MLIR 22 parses (generic form,
  locations), with one fix-up module per difference from upstream (``access_hints``,
  ``atomic_fences``, ``dynamic_shared``, the ``inline_*`` modules for our ``ptx`` ops);
* ``pipeline``: that text to PTX/cubin through a provider, and the ``toolchain()`` report;
* ``providers`` (``provider``, ``provider_config``; ``bindings`` + ``worker``, ``mlir_opt``):
  who runs MLIR;
* ``toolkit``: the CUDA toolkit (libdevice, ptxas) and the chip;
* ``diagnostics``, ``binary``: MLIR's messages at Python lines; objects out of ``gpu.binary``;
* ``backend``: ``MlirBackend`` (stages ``mlir``, ``ptx``, ``cubin``; loading and launching are
  ``backends/nvidia``'s).

``python -m mytriton.backends.mlir`` prints ``toolchain()``: what this machine has.
"""

from __future__ import annotations

import importlib
from typing import Any

# imported on first use: a process that takes its kernels from the disk cache never loads the
# emitter (nor the xDSL dialects it prints)
_LAZY = {
    "emit_mlir": "mytriton.backends.mlir.emit",
    "MlirBuild": "mytriton.backends.mlir.pipeline",
    "ToolchainReport": "mytriton.backends.mlir.pipeline",
    "compile_mlir": "mytriton.backends.mlir.pipeline",
    "toolchain": "mytriton.backends.mlir.pipeline",
}

__all__ = ["MlirBuild", "ToolchainReport", "compile_mlir", "emit_mlir", "toolchain"]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
