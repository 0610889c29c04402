"""A compiled kernel: every IR stage's text (``asm``), its metadata, and what its backend needs
to launch it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

from xdsl.dialects.builtin import ModuleOp


class KernelMetadata(dict[str, Any]):
    """Metadata read as Triton's is, by key or attribute: ``name``, ``num_warps``, and once
    loaded on a GPU ``shared`` (static shared memory bytes), ``n_regs``, ``n_spills``."""

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(f"kernel metadata has no {name!r} (yet)") from None


#: Triton's names of its NVIDIA stages and the mytriton stage each reads: ``ttir`` is the
#: optimised `tt` (Triton's ttir has its inliner and combine passes run), ``ttgir`` the laid-out
#: `ttg`, ``llir`` the mlir backend's LLVM/NVVM-dialect module (the cuda backend has C++ there
#: instead); ``ptx`` and ``cubin`` are the same names
TRITON_STAGE_NAMES = {"ttir": "tt-opt", "ttgir": "ttg", "llir": "mlir"}


class StageTexts(dict[str, Any]):
    """``asm``: each stage's text by mytriton's stage name, also read under Triton's name
    (``asm["ttir"]`` is ``asm["tt-opt"]``); iteration and ``in`` see mytriton's names only."""

    def __missing__(self, key: str) -> Any:
        stage = TRITON_STAGE_NAMES.get(key)
        if stage is not None and dict.__contains__(self, stage):
            return self[stage]
        raise KeyError(key)


class Launch(Protocol):
    """``kernel[grid](*args)``'s launch: the grid, the runtime arguments, and the stream a GPU
    kernel runs on (a raw ``CUstream``; None: the current stream of the arrays' framework)."""

    def __call__(
        self, grid: tuple[int, int, int] | Any, args: tuple[Any, ...], stream: int | None = None
    ) -> None: ...


@dataclass
class CompiledKernel:
    """One specialization of a kernel, compiled for one backend.

    ``asm`` maps stage names to text (``"tt"``, ``"tt-opt"``, then the backend's stages, and
    ``"cubin"`` bytes), also under Triton's names (``StageTexts``). ``kernel[grid](*args)``
    launches it with its runtime arguments (the constexprs are compiled in). For the seed's
    example it unpacks as ``ir_before, ir_after, src``.
    """

    name: str
    backend: str
    asm: dict[str, Any] = field(default_factory=StageTexts)
    _module: ModuleOp | None = field(default=None, repr=False)  # the optimised tt module
    binary: Any = None  # backend-specific launchable artifact
    metadata: KernelMetadata = field(default_factory=KernelMetadata)
    hash: str = ""  # names the kernel's dump and override folder
    launcher: Launch | None = None  # set by the runtime

    @property
    def module(self) -> ModuleOp | None:
        """The optimised `tt` module (parsed from ``asm["tt-opt"]`` for a kernel the disk
        cache gave, on first use)."""
        if self._module is None and "tt-opt" in self.asm:
            from mytriton.backends.stages import parse_module

            self._module = parse_module(self.asm["tt-opt"])
        return self._module

    @module.setter
    def module(self, module: ModuleOp | None) -> None:
        self._module = module

    @property
    def source(self) -> str | None:
        """The backend's source text: CUDA C++ or MLIR (``None`` before a backend stage)."""
        for stage in ("cuda", "mlir"):
            if stage in self.asm:
                return self.asm[stage]
        return None

    @property
    def n_regs(self) -> int:
        return int(self._loaded()["n_regs"])

    @property
    def n_spills(self) -> int:
        return int(self._loaded()["n_spills"])

    def _loaded(self) -> KernelMetadata:
        """The metadata, after loading the kernel on the current GPU if it was not yet."""
        if "n_regs" not in self.metadata:
            load = getattr(self.binary, "function", None)
            if load is None:
                raise AttributeError(
                    f"kernel `{self.name}` ({self.backend} backend) has no GPU binary: registers "
                    "and spills are known once it is compiled for a GPU"
                )
            from mytriton.backends.nvidia.cuda_driver import current_device

            device = current_device()
            load(0 if device is None else device)
        return self.metadata

    def __getitem__(self, grid: Any) -> Callable[..., None]:
        if self.launcher is None:
            raise TypeError(f"kernel `{self.name}` was not compiled to be launched")
        launcher = self.launcher
        return lambda *args: launcher(grid, args)

    def __iter__(self) -> Iterator[Any]:
        yield self.asm.get("tt")
        yield self.asm.get("tt-opt")
        yield self.source

    def __repr__(self) -> str:
        return f"<CompiledKernel {self.name} backend={self.backend} stages=[{', '.join(self.asm)}]>"
