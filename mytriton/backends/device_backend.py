"""What both GPU backends share once their stages have made a cubin or PTX: loading it on the
driver and launching it (``cuda_driver``, ``device_launcher``). They differ only in how they
get from the lowered IR to PTX."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from mytriton.backends import Backend, LaunchOptions
from mytriton.backends.arrays import ArrayInfo
from mytriton.backends.compiled import CompiledKernel
from mytriton.backends.cuda_driver import device_launch_code, device_launcher, load_device_kernel
from mytriton.backends.device_launcher import FastLaunch, LaunchCode


class DeviceBackend(Backend):
    """A backend whose kernels run on CuPy arrays and CUDA torch tensors."""

    runs_on = "gpu"

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
    ) -> None:
        kernel.binary(grid, args, arrays)

    def launcher(
        self, kernel: CompiledKernel, arrays: Sequence[ArrayInfo | None], options: LaunchOptions
    ) -> FastLaunch:
        return device_launcher(kernel, arrays)

    def launch_code(
        self, kernel: CompiledKernel, arrays: Sequence[ArrayInfo | None], options: LaunchOptions
    ) -> LaunchCode:
        return device_launch_code(kernel, arrays)
