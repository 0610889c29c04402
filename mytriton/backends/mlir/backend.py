"""``MYTRITON_BACKEND=mlir``: the shared lowering, printed for upstream MLIR, run to PTX and cubin.

Compiling needs no GPU: with NumPy arrays (a warmup, or CI) the kernel still gets ``asm["gpu"]``
and ``asm["mlir"]``, plus ``asm["ptx"]`` where an MLIR provider exists and ``asm["cubin"]``
where ptxas does. Without a provider, compiling records why and only launching fails.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

from mytriton.backends import Backend, LaunchOptions
from mytriton.backends.cuda.signature import kernel_signature
from mytriton.backends.mlir.emit import emit_mlir, print_generic
from mytriton.backends.mlir.launch import MlirLauncher
from mytriton.backends.mlir.pipeline import compile_mlir, no_provider_message
from mytriton.backends.mlir.providers import select_provider
from mytriton.errors import BackendUnavailableError
from mytriton.runtime.arrays import ArrayInfo
from mytriton.runtime.compiled import CompiledKernel

UNAVAILABLE = "mlir_unavailable"  # metadata key: why no PTX was built


class MlirBackend(Backend):
    name = "mlir"
    runs_on = "gpu"

    def __init__(self) -> None:
        self._warned = False

    def compile(self, kernel: CompiledKernel, options: LaunchOptions) -> None:
        from mytriton.passes.lower_to_gpu import lower_to_gpu  # the lowering imports much

        assert kernel.module is not None, "the tt stages run before the backend"
        lowered = lower_to_gpu(kernel.module, options, kernel.asm)
        kernel.asm["gpu"] = print_generic(lowered)
        text = emit_mlir(lowered)
        kernel.asm["mlir"] = text
        signature = kernel_signature(lowered, default_block=options.num_warps * 32)
        kernel.metadata.update(
            kernel_name=signature.name, params=signature.params, block=signature.block
        )
        provider, considered = select_provider()
        if provider is None:
            reason = no_provider_message(considered)
            kernel.metadata[UNAVAILABLE] = reason
            if not self._warned:
                self._warned = True
                warnings.warn(f"mlir backend: no PTX or cubin: {reason}", stacklevel=2)
            return
        build = compile_mlir(text, kernel=signature.name)
        kernel.asm["ptx"] = build.ptx
        if build.cubin is not None:
            kernel.asm["cubin"] = build.cubin
        kernel.metadata.update(chip=build.chip, mlir_provider=build.provider)
        image = build.cubin if build.cubin is not None else build.ptx.encode()
        kernel.binary = MlirLauncher(image, signature)

    def launch(
        self,
        kernel: CompiledKernel,
        grid: tuple[int, int, int],
        args: Sequence[Any],
        arrays: Sequence[ArrayInfo | None],
        options: LaunchOptions,
    ) -> None:
        if not isinstance(kernel.binary, MlirLauncher):
            reason = kernel.metadata.get(UNAVAILABLE, "the kernel has no PTX or cubin")
            raise BackendUnavailableError(f"the mlir backend cannot run `{kernel.name}`: {reason}")
        kernel.binary(grid, args, arrays)
