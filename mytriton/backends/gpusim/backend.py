"""``gpusim`` as a backend: the real lowering, executed by the simulator on host arrays."""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

from xdsl.dialects.builtin import ModuleOp
from xdsl.printer import Printer

from mytriton.backends import Backend, LaunchOptions
from mytriton.backends.gpusim.launch import SimKernel
from mytriton.runtime.arrays import ArrayInfo, as_host_numpy
from mytriton.runtime.compiled import CompiledKernel


def generic_text(module: ModuleOp) -> str:
    out = io.StringIO()
    Printer(out, print_generic_format=True).print_op(module)
    return out.getvalue()


class GpuSimBackend(Backend):
    """Compiles like the GPU backends (``asm["ttg"]``, ``asm["gpu"]``), runs on the CPU."""

    name = "gpusim"
    runs_on = "host"

    def compile(self, kernel: CompiledKernel, options: LaunchOptions) -> None:
        from mytriton.passes.lower_to_gpu import lower_to_gpu

        assert kernel.module is not None
        lowered = lower_to_gpu(kernel.module, options, kernel.asm)
        kernel.asm["gpu"] = generic_text(lowered)
        kernel.binary = SimKernel(lowered)

    def launch(
        self,
        kernel: CompiledKernel,
        grid: tuple[int, int, int],
        args: Sequence[Any],
        arrays: Sequence[ArrayInfo | None],
        options: LaunchOptions,
    ) -> None:
        assert isinstance(kernel.binary, SimKernel)
        host = [
            as_host_numpy(a) if info is not None else a
            for a, info in zip(args, arrays, strict=True)
        ]
        kernel.binary.run(grid, host)
