"""``triton.backends.backends``: Triton's registry of backends, ``"nvidia"`` and ``"cpu"``, each
a compiler class (``BaseBackend``) and a driver class (``is_active()`` static), and
``make_backend(target)``.

Both compile with mytriton's own stage table; they only choose which mytriton backend a
``GPUTarget`` means: ``"cuda"`` targets the selected GPU backend (``MYTRITON_BACKEND``, ``cuda``
or ``mlir``), ``"cpu"`` targets the interpreter or gpusim (``MYTRITON_CPU_BACKEND``, else
``MYTRITON_BACKEND`` when it names one of them, else the interpreter).
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
from dataclasses import dataclass
from typing import Any, ClassVar

from mytriton.backends import get_backend
from mytriton.compat.drivers import CPUDriver
from mytriton.compat.target import BaseBackend, DriverBase, GPUTarget
from mytriton.dialects.tt.loop_attrs import DEFAULT_NUM_STAGES
from mytriton.runtime.driver import CudaDriver

GPU_BACKENDS = ("cuda", "mlir")
CPU_BACKENDS = ("interpreter", "gpusim")


@dataclass(frozen=True)
class CompileOptions:
    """The options of one ``triton.compile`` (Triton's ``CUDAOptions`` fields that mytriton
    reads or reports); ``parse_options`` ignores other keys, as Triton's backends do."""

    num_warps: int = 4
    num_ctas: int = 1
    num_stages: int = DEFAULT_NUM_STAGES
    warp_size: int = 32
    maxnreg: int | None = None
    enable_fp_fusion: bool = True
    enable_reflect_ftz: bool = True
    launch_cooperative_grid: bool = False
    launch_pdl: bool = False
    debug: bool = False
    sanitize_overflow: bool = True
    arch: str | None = None
    #: the mytriton backend that compiles and runs: cuda, mlir, interpreter or gpusim
    backend_name: str = "interpreter"

    def hash(self) -> str:
        key = "_".join(f"{k}-{v}" for k, v in sorted(dataclasses.asdict(self).items()))
        return hashlib.sha256(key.encode()).hexdigest()


class _MytritonBackend(BaseBackend):
    """What both registry entries share: options, metadata packing, identity."""

    target_backend: ClassVar[str]
    binary_ext: str

    @classmethod
    def supports_target(cls, target: GPUTarget) -> bool:  # type: ignore[override]
        return getattr(target, "backend", None) == cls.target_backend

    def mytriton_backend(self) -> str:
        """The mytriton backend this target compiles with (read from the environment)."""
        raise NotImplementedError

    def parse_options(self, options: dict[str, Any]) -> CompileOptions:
        fields = {f.name for f in dataclasses.fields(CompileOptions)} - {"backend_name"}
        given = {k: v for k, v in options.items() if k in fields and v is not None}
        if "enable_fp_fusion" not in given:
            from mytriton import knobs

            given["enable_fp_fusion"] = knobs.language.default_fp_fusion
        given.setdefault("warp_size", self.target.warp_size)
        return CompileOptions(**given, backend_name=self.mytriton_backend())

    def pack_metadata(self, metadata: Any) -> tuple[int, int, int]:
        """What ``CompiledKernel.run`` receives as ``packed_metadata``, as Triton's CUDA
        backend packs it."""
        return (metadata.num_warps, metadata.num_ctas, metadata.shared)

    def hash(self) -> str:
        from mytriton.version import __version__

        name = self.mytriton_backend()
        try:
            identity = get_backend(name).cache_identity() or name
        except Exception:  # a GPU toolchain that is not on this machine: its name says enough
            identity = name
        return f"mytriton-{__version__}-{identity}-{self.target.arch}"

    def get_codegen_implementation(self, options: Any) -> dict[str, Any]:
        return {}


class CUDABackend(_MytritonBackend):
    """``GPUTarget("cuda", arch, 32)``: mytriton's cuda or mlir backend."""

    target_backend = "cuda"

    def __init__(self, target: GPUTarget) -> None:
        super().__init__(target)
        self.binary_ext = "cubin"

    def mytriton_backend(self) -> str:
        chosen = os.environ.get("MYTRITON_BACKEND", "")
        return chosen if chosen in GPU_BACKENDS else "cuda"


class CPUBackend(_MytritonBackend):
    """``GPUTarget("cpu", arch, warp_size)``: mytriton's interpreter or gpusim."""

    target_backend = "cpu"

    def __init__(self, target: GPUTarget) -> None:
        super().__init__(target)
        self.binary_ext = "tt-opt" if self.mytriton_backend() == "interpreter" else "gpu"

    def mytriton_backend(self) -> str:
        chosen = os.environ.get("MYTRITON_CPU_BACKEND", "") or os.environ.get(
            "MYTRITON_BACKEND", ""
        )
        if chosen in CPU_BACKENDS:
            return chosen
        if os.environ.get("MYTRITON_CPU_BACKEND", ""):
            raise ValueError(
                f"MYTRITON_CPU_BACKEND must be one of {', '.join(CPU_BACKENDS)}, got {chosen!r}"
            )
        return "interpreter"


@dataclass(frozen=True)
class Backend:
    """One entry of the registry: Triton's ``triton.backends.Backend``."""

    compiler: type[BaseBackend]
    driver: type[DriverBase] | type[CudaDriver]


backends: dict[str, Backend] = {
    "nvidia": Backend(compiler=CUDABackend, driver=CudaDriver),
    "cpu": Backend(compiler=CPUBackend, driver=CPUDriver),
}


def make_backend(target: GPUTarget) -> BaseBackend:
    """The compiler of the one registered backend that supports ``target``."""
    actives = [b.compiler for b in backends.values() if b.compiler.supports_target(target)]
    if len(actives) != 1:
        raise RuntimeError(
            f"{len(actives)} compatible backends for target ({getattr(target, 'backend', target)})"
            f" ({actives}). There should only be one."
        )
    return actives[0](target)
