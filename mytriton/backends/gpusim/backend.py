"""``gpusim`` as a backend: the real lowering, executed by the simulator on host arrays."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from mytriton.backends import Backend, LaunchOptions
from mytriton.backends.arrays import ArrayInfo, host_arrays
from mytriton.backends.compiled import CompiledKernel
from mytriton.backends.gpusim.launch import SimKernel
from mytriton.backends.lowering_stages import LOWERING_STAGES


class GpuSimBackend(Backend):
    """Compiles like the GPU backends (``asm["ttg"]``, ``asm["gpu"]``), runs on the CPU."""

    name = "gpusim"
    runs_on = "host"
    stages = LOWERING_STAGES

    def load(
        self, kernel: CompiledKernel, artifacts: Mapping[str, Any], options: LaunchOptions
    ) -> None:
        kernel.binary = SimKernel(artifacts["gpu"])

    def launch(
        self,
        kernel: CompiledKernel,
        grid: tuple[int, int, int],
        args: Sequence[Any],
        arrays: Sequence[ArrayInfo | None],
        options: LaunchOptions,
    ) -> None:
        assert isinstance(kernel.binary, SimKernel)
        with host_arrays(args, arrays) as host:
            kernel.binary.run(grid, host)
