"""Launching what MLIR built, with the cuda backend's launcher, so both GPU backends share one ABI.

``CudaLauncher`` (``mytriton/backends/cuda/launch.py``) packs the arguments (bare device
pointers, ``int``/``float`` scalars, bools as ``int32``), picks the arrays' device and the current
stream (Torch's for Torch tensors, CuPy's otherwise) and launches with the grid and the block of
``known_block_size``. It compiles CUDA C++ per device on first use; ours loads the cubin (or the
PTX, which the driver compiles) that upstream MLIR already made.
"""

from __future__ import annotations

from typing import Any

from mytriton.backends.cuda.compile import require_cupy
from mytriton.backends.cuda.launch import CudaLauncher
from mytriton.backends.cuda.signature import KernelSignature
from mytriton.errors import BackendError


class MlirLauncher(CudaLauncher):
    """``CudaLauncher`` over a prebuilt image: a cubin, or PTX where no ptxas was found."""

    def __init__(self, image: bytes, signature: KernelSignature):
        super().__init__(source="", signature=signature)
        self.image = image
        self._modules: dict[int, Any] = {}  # device -> cupy Module, kept loaded

    def function(self, device: int) -> Any:
        """The kernel loaded on ``device`` (a module per device: each has its own context)."""
        fn = self._functions.get(device)
        if fn is None:
            cupy = require_cupy()
            with cupy.cuda.Device(device):
                module = cupy.cuda.function.Module()
                try:
                    module.load(self.image)
                except cupy.cuda.driver.CUDADriverError as e:
                    raise BackendError(
                        f"the driver cannot load kernel `{self.signature.name}` built by MLIR: {e}"
                    ) from None
                fn = module.get_function(self.signature.name)
            self._modules[device] = module
            self._functions[device] = fn
        return fn
