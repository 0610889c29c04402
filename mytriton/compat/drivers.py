"""The ``"cpu"`` driver of ``triton.backends.backends``: kernels compiled for
``GPUTarget("cpu", ...)`` run on the host, on mytriton's interpreter or gpusim backend
(``MYTRITON_CPU_BACKEND``). TorchInductor makes it ``driver.active`` for its CPU kernels
(``torch._inductor.config.cpu_backend = "triton"``). The ``"nvidia"`` driver is mytriton's
``runtime/driver.py`` ``CudaDriver``."""

from __future__ import annotations

import os
import platform
import time
from collections.abc import Callable, Sequence
from typing import Any

from mytriton.compat.target import DriverBase, GPUTarget
from mytriton.dialects.tt import dtype_table
from mytriton.testing import _summarize

#: the scalar types of Triton's signatures as C types (``map_python_to_cpp_type``), and the
#: two spellings of Triton's table that are no row's signature name (an unsigned ``i1``, ``f32``)
_CPP_TYPES = {
    **{r.signature: r.launcher_cpp for r in dtype_table.ROWS if r.launcher_cpp is not None},
    "u1": "uint8_t",
    "f32": "double",
}


class CPUUtils:
    """``driver.active.utils`` of the CPU driver."""

    def get_device_properties(self, device: Any = 0) -> dict[str, int]:
        """The host as Triton's device properties (no shared-memory or register limit the
        CPU backends enforce; ``multiprocessor_count`` is the number of cores)."""
        return {
            "multiprocessor_count": os.cpu_count() or 1,
            "max_shared_mem": 2**31 - 1,
            "max_num_regs": 2**31 - 1,
            "warpSize": 1,
            "sm_clock_rate": 0,
            "mem_clock_rate": 0,
            "mem_bus_width": 0,
        }


class CPUDriver(DriverBase):
    """Runs kernels on the host: device 0, stream 0, target ``GPUTarget("cpu", arch, 1)``."""

    backend = "cpu"

    def __init__(self) -> None:
        self.utils = CPUUtils()

    @staticmethod
    def is_active() -> bool:
        """The CPU backends run anywhere mytriton runs."""
        return True

    def get_current_device(self) -> int:
        return 0

    def set_current_device(self, device: int) -> None:
        if int(device) != 0:
            raise ValueError(f"the CPU driver has one device, 0; got {device}")

    def get_current_stream(self, device: int | None = None) -> int:
        return 0

    def get_device_capability(self, device: int | None = None) -> tuple[int, int]:
        return (0, 0)

    def get_current_target(self) -> GPUTarget:
        return GPUTarget("cpu", platform.machine() or "cpu", 1)

    def get_active_torch_device(self) -> Any:
        import torch

        return torch.device("cpu")

    def get_device_interface(self) -> Any:
        import torch

        return torch.cpu

    def map_python_to_cpp_type(self, ty: str) -> str:
        return "void*" if ty.startswith("*") else _CPP_TYPES.get(ty, ty)

    def get_benchmarker(self) -> Callable[..., Any]:
        return cpu_bench

    def get_empty_cache_for_benchmark(self) -> Any:
        import torch

        return torch.empty(0)

    def clear_cache(self, cache: Any) -> None:
        """Nothing to flush on the host."""

    def __repr__(self) -> str:
        return "CPUDriver()"


def cpu_bench(
    kernel_call: Callable[[], Any],
    warmup: int = 1,
    rep: int = 5,
    quantiles: Sequence[float] | None = None,
    return_mode: str = "mean",
    **kwargs: Any,
) -> Any:
    """Milliseconds per call of ``kernel_call`` on the host (``rep`` timed calls after
    ``warmup``): ``quantiles`` of them if given, else their ``return_mode``."""
    for _ in range(max(warmup, 0)):
        kernel_call()
    times = []
    for _ in range(max(rep, 1)):
        start = time.perf_counter()
        kernel_call()
        times.append((time.perf_counter() - start) * 1e3)
    return _summarize(times, quantiles, return_mode)
