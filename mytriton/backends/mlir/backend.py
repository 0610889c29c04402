"""``MYTRITON_BACKEND=mlir``: the shared lowering, printed for upstream MLIR, run to PTX and cubin.

Its stages after ``gpu``: ``mlir`` (the upstream-dialect text), ``ptx`` (where an MLIR provider
exists) and ``cubin`` (where ptxas does). Compiling needs no GPU: with NumPy arrays (a warmup,
or CI) the kernel still gets every stage the machine can make; launching needs PTX or a cubin.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from typing import Any

from xdsl.dialects.builtin import ModuleOp

from mytriton.backends import Backend, LaunchOptions
from mytriton.backends.arrays import ArrayInfo
from mytriton.backends.compiled import CompiledKernel
from mytriton.backends.cuda_driver import load_device_kernel
from mytriton.backends.lowering_stages import LOWERING_STAGES
from mytriton.backends.mlir.emit import emit_mlir
from mytriton.backends.mlir.pipeline import mlir_to_ptx, no_provider_message, ptx_to_cubin
from mytriton.backends.mlir.providers import select_provider
from mytriton.backends.stages import Stage, StageUnavailable, same_text

_warned = False


def _emit(module: ModuleOp, options: Any) -> str:
    return emit_mlir(module)


def _ptx(text: str, options: Any) -> str:
    global _warned
    provider, considered = select_provider()
    if provider is None:
        reason = no_provider_message(considered)
        if not _warned:
            _warned = True
            warnings.warn(f"mlir backend: no PTX or cubin: {reason}", stacklevel=2)
        raise StageUnavailable(reason)
    from mytriton.backends.ptx_directives import apply_ptx_options

    return apply_ptx_options(mlir_to_ptx(text), options)


def _cubin(ptx: str, options: Any) -> bytes:
    cubin = ptx_to_cubin(ptx)
    if cubin is None:
        raise StageUnavailable("no ptxas was found to make a cubin (the driver compiles the PTX)")
    return cubin


MLIR_STAGES = (
    *LOWERING_STAGES,
    Stage("mlir", ".nvvm.mlir", _emit, same_text, same_text),
    Stage("ptx", ".ptx", _ptx, same_text, lambda t: t.decode() if isinstance(t, bytes) else t),
    Stage("cubin", ".cubin", _cubin, same_text, same_text),
)


class MlirBackend(Backend):
    name = "mlir"
    runs_on = "gpu"
    stages = MLIR_STAGES

    def load(
        self, kernel: CompiledKernel, artifacts: Mapping[str, Any], options: LaunchOptions
    ) -> None:
        load_device_kernel(kernel, artifacts)

    def cache_identity(self) -> str:
        from mytriton.backends.toolchain_identity import mlir_identity

        return mlir_identity()

    def launch(
        self,
        kernel: CompiledKernel,
        grid: tuple[int, int, int],
        args: Sequence[Any],
        arrays: Sequence[ArrayInfo | None],
        options: LaunchOptions,
    ) -> None:
        kernel.binary(grid, args, arrays)
