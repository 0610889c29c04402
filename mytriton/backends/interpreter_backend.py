"""The interpreter as a backend: runs optimised `tt` IR on host arrays, in place."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mytriton.backends import Backend, LaunchOptions
from mytriton.runtime.arrays import ArrayInfo, as_host_numpy
from mytriton.runtime.compiled import CompiledKernel


class InterpreterBackend(Backend):
    name = "interpreter"
    runs_on = "host"

    def compile(self, kernel: CompiledKernel, options: LaunchOptions) -> None:
        return None  # the interpreter executes the tt-opt module itself

    def launch(
        self,
        kernel: CompiledKernel,
        grid: tuple[int, int, int],
        args: Sequence[Any],
        arrays: Sequence[ArrayInfo | None],
        options: LaunchOptions,
    ) -> None:
        from mytriton.backends.interpreter import run_kernel

        assert kernel.module is not None
        host_args = [
            as_host_numpy(a) if info is not None else a
            for a, info in zip(args, arrays, strict=True)
        ]
        run_kernel(kernel.module, kernel.name, grid, host_args, debug=options.debug)
