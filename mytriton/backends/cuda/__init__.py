"""The CUDA backend: the lowered GPU IR printed as CUDA C++, compiled to PTX by NVRTC.

``printer`` prints a module with one printer per op, the ``OP_PRINTERS`` table of ``emitter``
(``@prints(Op)``), grouped in the ``print_*`` modules by dialect or feature; ``c_types``,
``names``, ``literals`` and ``writer`` spell its types, variables, constants and lines.
``compile`` runs NVRTC (through CuPy); ``backend`` is ``CudaBackend``, whose stages after the
shared ``ttg`` and ``gpu`` are ``cuda``, ``ptx`` and ``cubin``; ptxas, loading and launching
are ``backends/nvidia``'s. CuPy is imported only when a kernel is compiled or run on a GPU.
"""

from __future__ import annotations

from typing import Any

from mytriton.backends.cuda.backend import CudaBackend

__all__ = ["CudaBackend", "print_cuda"]


def __getattr__(name: str) -> Any:
    """``print_cuda``, imported on first use (a kernel from the disk cache never prints)."""
    if name == "print_cuda":
        from mytriton.backends.cuda.printer import print_cuda

        return print_cuda
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
