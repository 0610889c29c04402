"""The interpreter as a backend: runs optimised `tt` IR on host arrays, in place."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from mytriton.backends import Backend, LaunchOptions
from mytriton.backends.arrays import ArrayInfo, host_arrays
from mytriton.backends.compiled import CompiledKernel
from mytriton.backends.interpreter.errors import as_interpreter_error
from mytriton.errors import CompilationError


class InterpreterBackend(Backend):
    name = "interpreter"
    runs_on = "host"
    stages = ()  # it executes the tt-opt module itself

    def compile_error(self, error: CompilationError) -> CompilationError:
        return as_interpreter_error(error)

    def load(
        self, kernel: CompiledKernel, artifacts: Mapping[str, Any], options: LaunchOptions
    ) -> None:
        kernel.binary = artifacts["tt-opt"]

    def launch(
        self,
        kernel: CompiledKernel,
        grid: tuple[int, int, int],
        args: Sequence[Any],
        arrays: Sequence[ArrayInfo | None],
        options: LaunchOptions,
        stream: int | None = None,
    ) -> None:
        from mytriton.backends.interpreter import run_kernel

        with host_arrays(args, arrays) as host_args:
            run_kernel(
                kernel.binary,
                kernel.name,
                grid,
                host_args,
                debug=options.debug,
                cooperative=options.launch_cooperative_grid,
            )
