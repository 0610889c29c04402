"""The CUDA backend: prints the lowered IR as CUDA C++, compiles it with NVRTC, launches it.

``printer`` (IR -> C++), ``compile`` (NVRTC through CuPy), ``launch`` (CuPy arrays and torch
tensors), ``backend`` (the ``Backend`` the runtime calls). Only ``compile`` and ``launch``
import CuPy, and only when a kernel runs on a GPU.
"""

from __future__ import annotations

from mytriton.backends.cuda.backend import CudaBackend
from mytriton.backends.cuda.printer import print_cuda

__all__ = ["CudaBackend", "print_cuda"]
