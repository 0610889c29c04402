"""A compiled kernel: every IR stage's text (``asm``), and what its backend needs to launch it."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from xdsl.dialects.builtin import ModuleOp

STAGE_ORDER = ("tt", "tt-opt", "ttg", "gpu", "cuda", "mlir", "ptx", "cubin")


@dataclass
class CompiledKernel:
    """One specialization of a kernel, compiled for one backend.

    ``asm`` maps stage names to text (``"tt"``, ``"tt-opt"``, then the backend's stages, and
    ``"cubin"`` bytes). For the seed's example it unpacks as ``ir_before, ir_after, src``.
    """

    name: str
    backend: str
    asm: dict[str, Any] = field(default_factory=dict)
    module: ModuleOp | None = None  # the optimised tt module
    binary: Any = None  # backend-specific launchable artifact
    metadata: dict[str, Any] = field(default_factory=dict)

    @property
    def source(self) -> str | None:
        """The backend's source text: CUDA C++ or MLIR (``None`` before a backend stage)."""
        for stage in ("cuda", "mlir"):
            if stage in self.asm:
                return self.asm[stage]
        return None

    def __iter__(self) -> Iterator[Any]:
        yield self.asm.get("tt")
        yield self.asm.get("tt-opt")
        yield self.source

    def __repr__(self) -> str:
        stages = ", ".join(s for s in STAGE_ORDER if s in self.asm)
        return f"<CompiledKernel {self.name} backend={self.backend} stages=[{stages}]>"
