"""The ``cuda`` backend: lowered IR -> CUDA C++ -> PTX (NVRTC) -> cubin (ptxas) -> launch.

Its stages after ``gpu``: ``cuda`` (the C++, printed without CuPy or a GPU, so NumPy arguments
still give the source: compile-only mode), ``ptx`` and ``cubin`` (for the current device's
architecture, where CuPy and a GPU are present). The cubin is the CUDA toolkit's ptxas's where
one is found (``backends/nvidia/ptxas.py`` says why), else the driver's: also where that ptxas
rejects the PTX (one older than NVRTC does not know its ``.version``).
"""

from __future__ import annotations

from typing import Any

from xdsl.dialects.builtin import ModuleOp

from mytriton.backends.lowering_stages import LOWERING_STAGES
from mytriton.backends.nvidia.cuda_driver import (
    CUPY_HINT,
    current_device,
    device_arch,
    link_cubin,
)
from mytriton.backends.nvidia.device_backend import DeviceBackend
from mytriton.backends.stages import Stage, StageUnavailable, same_text


def _device() -> int:
    device = current_device()
    if device is None:
        try:
            import cupy  # noqa: F401
        except ImportError:
            raise StageUnavailable(
                f"the cuda backend builds PTX and cubins with CuPy; {CUPY_HINT}"
            ) from None
        raise StageUnavailable("the cuda backend finds no CUDA GPU to build PTX and cubins for")
    return device


def _kernel_name(source: str) -> str:
    return source.split('extern "C" __global__ void ', 1)[-1].split("(", 1)[0].strip()


def _print(module: ModuleOp, options: Any) -> str:
    from mytriton.backends.cuda.printer import print_cuda  # imported when compiling only

    return print_cuda(module)


def _ptx(source: str, options: Any) -> str:
    from mytriton.backends.cuda.compile import compile_ptx
    from mytriton.backends.nvidia.ptx_directives import apply_ptx_options

    fmad = getattr(options, "enable_fp_fusion", True)
    ptx = compile_ptx(source, _kernel_name(source), device_arch(_device()), fmad=fmad)
    return apply_ptx_options(ptx, options)


def _cubin(ptx: str, options: Any) -> bytes:
    from mytriton.backends.mlir.toolkit import find_cuda_toolkit
    from mytriton.backends.nvidia.ptxas import ptx_target, run_ptxas
    from mytriton.errors import BackendError

    device = _device()
    toolkit, chip = find_cuda_toolkit(), ptx_target(ptx)
    if toolkit is not None and toolkit.ptxas is not None and chip is not None:
        try:
            return run_ptxas(toolkit.ptxas, ptx, chip, "kernel")
        except BackendError:  # the driver compiles it, or says what is wrong with it
            pass
    return link_cubin(ptx, device, "kernel")


CUDA_STAGES = (
    *LOWERING_STAGES,
    Stage("cuda", ".cu", _print, same_text, same_text),
    Stage("ptx", ".ptx", _ptx, same_text, lambda t: t.decode() if isinstance(t, bytes) else t),
    Stage("cubin", ".cubin", _cubin, same_text, same_text),
)


class CudaBackend(DeviceBackend):
    name = "cuda"
    stages = CUDA_STAGES

    def cache_identity(self) -> str:
        from mytriton.backends.nvidia.toolchain_identity import cuda_identity

        return cuda_identity()
