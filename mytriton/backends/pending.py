"""GPU backends whose code generation is not built yet: they stop after the `tt` stages."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mytriton.backends import Backend, LaunchOptions
from mytriton.errors import BackendUnavailableError
from mytriton.runtime.arrays import ArrayInfo
from mytriton.runtime.compiled import CompiledKernel


class PendingBackend(Backend):
    """Compiles to optimised `tt` only; launching on a GPU raises a clear error."""

    runs_on = "gpu"

    def __init__(self, name: str):
        self.name = name  # type: ignore[misc]

    def compile(self, kernel: CompiledKernel, options: LaunchOptions) -> None:
        return None

    def launch(
        self,
        kernel: CompiledKernel,
        grid: tuple[int, int, int],
        args: Sequence[Any],
        arrays: Sequence[ArrayInfo | None],
        options: LaunchOptions,
    ) -> None:
        raise BackendUnavailableError(
            f"the {self.name} backend cannot execute kernels yet; use MYTRITON_BACKEND=interpreter"
        )
