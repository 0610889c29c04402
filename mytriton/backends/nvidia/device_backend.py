"""What both GPU backends share once their stages have made a cubin or PTX: loading it on the
driver and launching it (``cuda_driver``, ``device_launcher``). They differ only in how they
get from the lowered IR to PTX."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Any

from mytriton.backends import Backend, LaunchOptions
from mytriton.backends.arrays import ArrayInfo
from mytriton.backends.compiled import CompiledKernel
from mytriton.backends.nvidia.cuda_driver import (
    compute_capability,
    device_current,
    device_launch_code,
    device_launcher,
    load_device_kernel,
)
from mytriton.backends.nvidia.cuda_tensor_map import device_tensor_map
from mytriton.backends.nvidia.device_launcher import FastLaunch, LaunchCode
from mytriton.backends.nvidia.tensor_maps import TensorMapRequest


class DeviceBackend(Backend):
    """A backend whose kernels run on CuPy arrays and CUDA torch tensors."""

    runs_on = "gpu"

    def target(self, device: int) -> int | None:
        """What of ``device`` decides the compiled code: its compute capability (None where
        CuPy cannot say). The runtime's compile cache keys GPU kernels on it, so devices of
        one architecture share a compiled kernel (each still loads its own copy)."""
        return compute_capability(device)

    def compiling_on(self, device: int) -> AbstractContextManager[None]:
        """What a kernel for arrays on ``device`` compiles inside: ``device`` made current,
        since the stages and the disk cache's identity read the current device's
        architecture."""
        return device_current(device)

    def check_tt(self, module: Any, options: LaunchOptions) -> None:
        """Triton's NVIDIA rules on fp8 dtypes (``nvidia_fp8``) and dot sizes
        (``nvidia_dots``)."""
        from mytriton.backends.nvidia.nvidia_dots import check_dot_sizes
        from mytriton.backends.nvidia.nvidia_fp8 import check_fp8_types, warn_fp8e4b15_dots

        check_fp8_types(module, options.capability, self.name)
        check_dot_sizes(module, self.name)
        warn_fp8e4b15_dots(module, options.capability)

    def load(
        self, kernel: CompiledKernel, artifacts: Mapping[str, Any], options: LaunchOptions
    ) -> None:
        load_device_kernel(kernel, artifacts)

    def launch(
        self,
        kernel: CompiledKernel,
        grid: tuple[int, int, int],
        args: Sequence[Any],
        arrays: Sequence[ArrayInfo | None],
        options: LaunchOptions,
        stream: int | None = None,
    ) -> None:
        kernel.binary(grid, args, arrays, stream, options.launch_cooperative_grid)

    def launcher(
        self, kernel: CompiledKernel, arrays: Sequence[ArrayInfo | None], options: LaunchOptions
    ) -> FastLaunch:
        return device_launcher(kernel, arrays, options.launch_cooperative_grid)

    def tensor_map(self, request: TensorMapRequest) -> Any:
        return device_tensor_map(request)

    def launch_code(
        self, kernel: CompiledKernel, arrays: Sequence[ArrayInfo | None], options: LaunchOptions
    ) -> LaunchCode:
        return device_launch_code(kernel, arrays, options.launch_cooperative_grid)
