"""The MLIR backend: the lowered IR through upstream MLIR's gpu/nvvm pipeline to PTX and cubin.

* ``emit``: the lowered xDSL module as MLIR text upstream MLIR 22 parses (generic form, locations);
* ``pipeline``: that text to PTX/cubin through a provider, and the ``toolchain()`` report;
* ``providers`` (``bindings`` + ``worker``, ``mlir_opt``): who runs MLIR;
* ``toolkit``: the CUDA toolkit (libdevice, ptxas) and the chip;
* ``diagnostics``, ``binary``: MLIR's messages at Python lines; objects out of ``gpu.binary``;
* ``backend``, ``launch``: ``MlirBackend``, and launching the cubin with CuPy.

``python -m mytriton.backends.mlir`` prints ``toolchain()``: what this machine has.
"""

from __future__ import annotations

from mytriton.backends.mlir.emit import emit_mlir
from mytriton.backends.mlir.pipeline import MlirBuild, ToolchainReport, compile_mlir, toolchain

__all__ = ["MlirBuild", "ToolchainReport", "compile_mlir", "emit_mlir", "toolchain"]
