"""``MYTRITON_BACKEND=mlir``: the shared lowering, printed for upstream MLIR, run to PTX and cubin.

Its stages after ``gpu``: ``mlir`` (the upstream-dialect text), ``ptx`` (where an MLIR provider
exists) and ``cubin`` (where ptxas does). Compiling needs no GPU: with NumPy arrays (a warmup,
or CI) the kernel still gets every stage the machine can make; launching needs PTX or a cubin.
"""

from __future__ import annotations

import warnings
from typing import Any

from xdsl.dialects.builtin import ModuleOp

from mytriton.backends.lowering_stages import LOWERING_STAGES
from mytriton.backends.nvidia.device_backend import DeviceBackend
from mytriton.backends.stages import Stage, StageUnavailable, same_text

_warned = False


# The stages import what they run when they run: a kernel from the disk cache needs none of it.


def _emit(module: ModuleOp, options: Any) -> str:
    from mytriton.backends.mlir.emit import emit_mlir

    return emit_mlir(module, fp_fusion=bool(getattr(options, "enable_fp_fusion", True)))


def _ptx(text: str, options: Any) -> str:
    global _warned
    from mytriton.backends.mlir.pipeline import mlir_to_ptx, no_provider_message
    from mytriton.backends.mlir.providers import select_provider

    provider, considered = select_provider()
    if provider is None:
        reason = no_provider_message(considered)
        if not _warned:
            _warned = True
            warnings.warn(f"mlir backend: no PTX or cubin: {reason}", stacklevel=2)
        raise StageUnavailable(reason)
    from mytriton.backends.nvidia.ptx_directives import apply_ptx_options

    return apply_ptx_options(mlir_to_ptx(text), options)


def _cubin(ptx: str, options: Any) -> bytes:
    from mytriton.backends.mlir.pipeline import ptx_to_cubin

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


class MlirBackend(DeviceBackend):
    name = "mlir"
    stages = MLIR_STAGES

    def cache_identity(self) -> str:
        from mytriton.backends.nvidia.toolchain_identity import mlir_identity

        return mlir_identity()
