"""``triton.runtime.driver``: the active GPU driver as Triton's host code sees it.

``driver.active`` answers what tutorials and autotuners ask of the machine: the current device
and stream, its compute capability, the compilation target (``GPUTarget("cuda", 90, 32)``) and
``utils.get_device_properties(device)``. Everything is read through CuPy's CUDA runtime (the
library mytriton launches with), following torch's current device and stream when torch has
CUDA. On a machine without a GPU the queries raise ``BackendUnavailableError``; creating and
inspecting the driver object itself never fails.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from mytriton.errors import BackendUnavailableError

# cudaDeviceAttr numbers (driver_types.h) of the properties Triton's get_device_properties gives
_ATTRIBUTES: dict[str, int] = {
    "max_shared_mem": 97,  # cudaDevAttrMaxSharedMemoryPerBlockOptin
    "max_num_regs": 12,  # cudaDevAttrMaxRegistersPerBlock
    "multiprocessor_count": 16,  # cudaDevAttrMultiProcessorCount
    "warpSize": 10,  # cudaDevAttrWarpSize
    "sm_clock_rate": 13,  # cudaDevAttrClockRate (kHz)
    "mem_clock_rate": 36,  # cudaDevAttrMemoryClockRate (kHz)
    "mem_bus_width": 37,  # cudaDevAttrGlobalMemoryBusWidth (bits)
}


@dataclass(frozen=True)
class GPUTarget:
    """What a kernel is compiled for (Triton's ``triton.backends.compiler.GPUTarget``)."""

    backend: str
    arch: int | str
    warp_size: int


def _cuda_runtime() -> Any:
    """CuPy's CUDA runtime with at least one device, or a ``BackendUnavailableError``."""
    try:
        import cupy
    except ImportError as e:
        from mytriton.backends.nvidia.cuda_driver import CUPY_HINT

        raise BackendUnavailableError(f"querying the GPU needs CuPy ({e}); {CUPY_HINT}") from None
    runtime = cupy.cuda.runtime
    try:
        count = int(runtime.getDeviceCount())
    except Exception as e:  # no driver, or CuPy built for another CUDA
        raise BackendUnavailableError(f"no usable CUDA device: {e}") from None
    if count == 0:
        raise BackendUnavailableError("no CUDA device on this machine")
    return runtime


def _torch_cuda() -> Any | None:
    """``torch.cuda`` when torch is already imported and has a device, else None."""
    torch = sys.modules.get("torch")
    if torch is None:
        return None
    try:
        return torch.cuda if torch.cuda.is_available() else None
    except Exception:
        return None


class CudaUtils:
    """``driver.active.utils``: per-device properties."""

    def get_device_properties(self, device: int | Any) -> dict[str, int]:
        """``multiprocessor_count``, ``max_shared_mem`` (bytes, opt-in per block),
        ``max_num_regs`` (per block), ``warpSize``, ``sm_clock_rate`` / ``mem_clock_rate``
        (kHz) and ``mem_bus_width`` (bits) of ``device`` (an index or a torch device)."""
        runtime = _cuda_runtime()
        index = _device_index(device)
        count = int(runtime.getDeviceCount())
        if not 0 <= index < count:
            raise BackendUnavailableError(
                f"there is no CUDA device {index} (this machine has {count})"
            )
        return {name: int(runtime.deviceGetAttribute(a, index)) for name, a in _ATTRIBUTES.items()}


def _device_index(device: int | Any) -> int:
    index = getattr(device, "index", device)  # torch.device("cuda", 1) -> 1
    if index is None:  # torch.device("cuda"): the current one
        return CudaDriver().get_current_device()
    return int(index)


class CudaDriver:
    """``driver.active``: devices, streams and the compilation target of CUDA."""

    backend = "cuda"
    binary_ext = "cubin"

    def __init__(self) -> None:
        self.utils = CudaUtils()

    @staticmethod
    def is_active() -> bool:
        """Whether a CUDA device can be used here (static, as Triton's drivers' is: registries
        ask the class). Where torch is loaded, torch's answer, as Triton's driver gives it: in
        TorchInductor's compile workers (forked from a process that may have used CUDA, with
        torch's library path) CuPy's runtime can fail to initialise although the GPU is there,
        and torch's ``set_driver_to_gpu`` then finds no active backend."""
        torch = sys.modules.get("torch")
        if torch is not None:
            try:
                if torch.cuda.is_available() and torch.version.hip is None:
                    return True
            except Exception:
                pass  # a torch without CUDA support: CuPy decides
        try:
            _cuda_runtime()
        except BackendUnavailableError:
            return False
        return True

    def get_current_device(self) -> int:
        """torch's current CUDA device when torch is in use, else CuPy's."""
        runtime = _cuda_runtime()
        torch_cuda = _torch_cuda()
        if torch_cuda is not None:
            return int(torch_cuda.current_device())
        return int(runtime.getDevice())

    def set_current_device(self, device: int) -> None:
        runtime = _cuda_runtime()
        torch_cuda = _torch_cuda()
        if torch_cuda is not None:
            torch_cuda.set_device(device)
        runtime.setDevice(int(device))

    def get_current_stream(self, device: int | None = None) -> int:
        """The raw handle of the current stream of ``device`` (default: the current device):
        torch's when torch is in use (kernels on torch tensors run there), else CuPy's."""
        _cuda_runtime()
        if device is None:
            device = self.get_current_device()
        torch_cuda = _torch_cuda()
        if torch_cuda is not None:
            return int(torch_cuda.current_stream(device).cuda_stream)
        import cupy

        with cupy.cuda.Device(device):
            return int(cupy.cuda.get_current_stream().ptr)

    def get_device_capability(self, device: int | None = None) -> tuple[int, int]:
        """(major, minor) compute capability, e.g. ``(9, 0)`` on an H100/H200."""
        _cuda_runtime()
        import cupy

        cc = str(
            cupy.cuda.Device(
                self.get_current_device() if device is None else device
            ).compute_capability
        )
        return int(cc[:-1]), int(cc[-1])

    def get_current_target(self) -> GPUTarget:
        """What kernels compile for on the current device: ``GPUTarget("cuda", 90, 32)``."""
        major, minor = self.get_device_capability()
        return GPUTarget("cuda", major * 10 + minor, 32)

    def get_active_torch_device(self) -> Any:
        """``torch.device("cuda", current)``: where tutorials allocate their tensors."""
        import torch

        return torch.device("cuda", self.get_current_device())

    def get_device_interface(self) -> Any:
        """``torch.cuda`` (Triton's benchmarking helpers synchronise through it)."""
        import torch

        return torch.cuda

    def __repr__(self) -> str:
        return "CudaDriver()"


_active: Any = None
_default: Any = None
#: what ``default`` is when CUDA cannot be used here (None: the CUDA driver all the same, whose
#: queries then raise ``BackendUnavailableError``); ``set_fallback`` sets it
_fallback: Callable[[], Any] | None = None


def set_fallback(factory: Callable[[], Any] | None) -> None:
    """Make ``factory()`` the default driver on a machine where CUDA cannot be used (Triton's
    rule: the default driver is the one that is active). mytriton alone keeps the CUDA driver;
    ``import triton`` as mytriton (``mytriton/compat``) falls back to its CPU driver, as a Triton
    with a CPU backend does."""
    global _fallback, _default
    _fallback = factory
    _default = None


def _default_driver() -> Any:
    global _default
    if _default is None:
        use_fallback = _fallback is not None and not CudaDriver.is_active()
        _default = _fallback() if use_fallback and _fallback is not None else CudaDriver()
    return _default


def set_active(driver: Any) -> None:
    """Make ``driver`` the one ``active`` returns (Triton's ``driver.set_active``)."""
    global _active
    _active = driver


def reset_active() -> None:
    """Back to ``default``."""
    global _active
    _active = None


def __getattr__(name: str) -> Any:
    # ``triton.runtime.driver.active``: the module is the driver configuration, as Triton's object
    if name == "active":
        return _active if _active is not None else _default_driver()
    if name == "default":
        return _default_driver()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: ``from triton.runtime.driver import driver``: Triton's ``DriverConfig`` object, whose
#: ``active``, ``default``, ``set_active`` and ``reset_active`` this module provides itself
driver = sys.modules[__name__]
