"""Backends: what turns optimised `tt` IR into something that runs, and runs it.

``Backend`` (this module) is what the runtime calls: a backend's ``stages`` after ``tt-opt``,
then ``load`` and ``launch``; ``FACTORIES`` names each backend's class, imported on first use.
One package per backend: ``interpreter`` runs `tt` on NumPy, ``gpusim`` runs the lowered GPU IR
on NumPy, ``cuda`` prints that IR as CUDA C++ for NVRTC, ``mlir`` hands it to upstream MLIR for
PTX and cubin; ``nvidia`` is what the two GPU backends share (driver, launcher, ptxas, tensor
maps). The modules beside them are the records every backend shares: array arguments
(``arrays``), the compiled kernel (``compiled``), stages as data (``stages``, and
``lowering_stages``: ``ttg`` and ``gpu``), ``reinterpret`` (``tensor_wrapper``), and how the
host backends run a cooperative grid (``cooperative``); ``compiler`` and ``driver`` are Triton's
module names, re-exporting ``mytriton/compat``.
``MYTRITON_BACKEND`` picks one (``MYTRITON_INTERPRET=1`` or ``TRITON_INTERPRET=1`` picks the
interpreter).
"""

from __future__ import annotations

import importlib
import os
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from mytriton.backends.arrays import ArrayInfo
from mytriton.backends.compiled import CompiledKernel
from mytriton.backends.nvidia.device_launcher import FastLaunch, LaunchCode
from mytriton.backends.nvidia.tensor_maps import TensorMapRequest
from mytriton.backends.stages import Stage
from mytriton.dialects.tt.loop_attrs import DEFAULT_NUM_STAGES
from mytriton.errors import BackendError, BackendUnavailableError, CompilationError

DEFAULT_BACKEND = "cuda"


@dataclass(frozen=True)
class LaunchOptions:
    """Options of one launch that are part of the compiled specialization."""

    num_warps: int = 4
    num_stages: int = DEFAULT_NUM_STAGES
    debug: bool = False
    #: fuse a*b+c into one FMA (Triton's ``enable_fp_fusion``; default ``knobs.language``)
    enable_fp_fusion: bool = True
    #: flush f32 subnormals to zero in the functions Triton takes from libdevice, which it links
    #: with ``__CUDA_FTZ`` on (Triton's ``enable_reflect_ftz``): ``tl.exp2``'s ``ex2.approx``
    enable_reflect_ftz: bool = True
    #: the most registers a thread of the kernel may use (``.maxnreg`` in the PTX), or None
    maxnreg: int | None = None
    #: CTAs per program (a thread-block cluster on Hopper in Triton): a power of 2 up to 16.
    #: Each program still runs as one CTA here: what it computes is the same, only the
    #: cluster split of its work (a performance feature) is not implemented
    num_ctas: int = 1
    #: launch the grid cooperatively (every program resident at once)
    launch_cooperative_grid: bool = False
    #: the compute capability to compile for (``major * 10 + minor``): the launch device's, or
    #: ``ttg.DEFAULT_CAPABILITY`` where there is none (gpusim, a compile-only launch)
    capability: int = 90
    #: Triton's ``extern_libs`` as ``((name, path), ...)``: only ``libdevice``, whose calls the
    #: GPU backends resolve against the CUDA toolkit's libdevice (``launch_options.py``); it
    #: keys the compile as in Triton
    extern_libs: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        # JSON (a compile hook's specialization data) gives lists: kept hashable
        libs = tuple((str(name), str(path)) for name, path in self.extern_libs)
        object.__setattr__(self, "extern_libs", libs)


class Backend(ABC):
    """Compiles a kernel's optimised `tt` IR through its stages, and launches it."""

    name: ClassVar[str]
    #: "host" backends run NumPy/CPU-torch arrays; "gpu" backends run CuPy/CUDA-torch arrays
    runs_on: ClassVar[str]
    #: the stages after ``tt-opt``, in order (the runtime runs, prints, dumps and overrides them)
    stages: ClassVar[tuple[Stage, ...]] = ()

    @abstractmethod
    def load(
        self, kernel: CompiledKernel, artifacts: Mapping[str, Any], options: LaunchOptions
    ) -> None:
        """Make ``kernel`` launchable from its stages' artifacts (set ``kernel.binary``).
        ``artifacts`` holds every stage that ran; a stage that could not run here is absent."""

    def compile_error(self, error: CompilationError) -> CompilationError:
        """What a launch on this backend raises when compiling its kernel failed with ``error``:
        ``error`` itself, unless the backend has one error class for every kernel error."""
        return error

    def check_tt(self, module: Any, options: LaunchOptions) -> None:
        """Reject, with a typed error at the kernel's line, a `tt` module (before ``tt-opt``,
        so dead code counts as in Triton's frontend) that this backend's target cannot
        compile. By default every module is taken."""
        return None

    def cache_identity(self) -> str | None:
        """What besides mytriton's own code decides this backend's output (toolkit versions,
        target architecture), for the disk cache's key; ``None``: not cached on disk."""
        return None

    @abstractmethod
    def launch(
        self,
        kernel: CompiledKernel,
        grid: tuple[int, int, int],
        args: Sequence[Any],
        arrays: Sequence[ArrayInfo | None],
        options: LaunchOptions,
        stream: int | None = None,
    ) -> None:
        """Run ``kernel`` over ``grid``; ``args`` are the runtime arguments in order.
        ``stream``: the raw ``CUstream`` a GPU backend launches on (None: the current stream
        of the arrays' framework); the host backends have none and take any value."""

    def launcher(
        self, kernel: CompiledKernel, arrays: Sequence[ArrayInfo | None], options: LaunchOptions
    ) -> FastLaunch:
        """What a launch plan calls for every launch of ``kernel`` on arrays like ``arrays``:
        ``launch(x, y, z, args, stream=None)``. GPU backends return their generated launcher."""

        def launch(
            x: int, y: int, z: int, args: Sequence[Any], stream: int | None = None, /
        ) -> None:
            self.launch(kernel, (x, y, z), args, arrays, options, stream=stream)

        return launch

    def tensor_map(self, request: TensorMapRequest) -> Any:
        """The array to pass as the tensor map ``request`` describes, in the form this
        backend's TMA copies read (``tensor_maps.py``); only backends that run the ``ttg``
        pipeline are asked."""
        raise BackendError(f"the {self.name} backend copies no blocks by TMA")

    def launch_code(
        self, kernel: CompiledKernel, arrays: Sequence[ArrayInfo | None], options: LaunchOptions
    ) -> LaunchCode | None:
        """The statements launching ``kernel`` on arrays like ``arrays`` given each array as
        its address (an int), which the runtime's generated fast path inlines after reading
        the addresses to check alignment. None: this backend has none (its launches take the
        general path)."""
        return None


def selected_backend_name() -> str:
    for var in ("MYTRITON_INTERPRET", "TRITON_INTERPRET"):
        if os.environ.get(var, "") not in ("", "0"):
            return "interpreter"
    return os.environ.get("MYTRITON_BACKEND", DEFAULT_BACKEND) or DEFAULT_BACKEND


_INSTANCES: dict[str, Backend] = {}


def get_backend(name: str) -> Backend:
    """The backend called ``name`` (created once per process)."""
    if name not in _INSTANCES:
        _INSTANCES[name] = _create(name)
    return _INSTANCES[name]


#: each backend's class, as ``module:Class`` (imported when first asked for: a process that
#: runs one backend loads no other)
FACTORIES: dict[str, str] = {
    "cuda": "mytriton.backends.cuda:CudaBackend",
    "mlir": "mytriton.backends.mlir.backend:MlirBackend",
    "interpreter": "mytriton.backends.interpreter.backend:InterpreterBackend",
    "gpusim": "mytriton.backends.gpusim:GpuSimBackend",
}


def _create(name: str) -> Backend:
    factory = FACTORIES.get(name)
    if factory is None:
        raise BackendUnavailableError(
            f"unknown backend {name!r}; MYTRITON_BACKEND must be one of "
            + ", ".join(sorted(FACTORIES))
        )
    module, _, cls = factory.partition(":")
    backend: Backend = getattr(importlib.import_module(module), cls)()
    return backend


def __getattr__(name: str) -> Any:
    # Triton's ``triton.backends.backends`` registry ("nvidia", "cpu") and its classes: the
    # compatibility layer's (mytriton/compat/backends.py), loaded on first use
    if name == "backends":
        from mytriton.compat import backends as registry

        return registry.backends
    if name == "BaseBackend":
        from mytriton.compat.target import BaseBackend

        return BaseBackend
    if name == "DriverBase":
        from mytriton.compat.target import DriverBase

        return DriverBase
    raise AttributeError(f"module 'mytriton.backends' has no attribute {name!r}")
