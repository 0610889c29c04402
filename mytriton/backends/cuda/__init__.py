"""The CUDA backend: prints the lowered IR as CUDA C++, compiles it with NVRTC, launches it.

``printer`` (IR -> C++), ``compile`` (NVRTC through CuPy), ``launch`` (CuPy arrays and torch
tensors), ``backend`` (the ``Backend`` the runtime calls). Only ``compile`` and ``launch``
import CuPy, and only when a kernel runs on a GPU.
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
