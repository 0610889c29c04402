"""A recording host backend, so launch behaviour is tested without any real backend."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from mytriton.backends import Backend, LaunchOptions
from mytriton.backends.arrays import ArrayInfo
from mytriton.backends.compiled import CompiledKernel
from mytriton.runtime import jit as jit_module


class RecordingBackend(Backend):
    """Runs on host arrays; records compiles and launches instead of executing."""

    name = "recording"
    runs_on = "host"

    def __init__(self) -> None:
        self.compiled: list[str] = []
        self.launches: list[tuple[str, tuple[int, int, int], list[Any], LaunchOptions]] = []

    def load(
        self, kernel: CompiledKernel, artifacts: Mapping[str, Any], options: LaunchOptions
    ) -> None:
        self.compiled.append(kernel.name)
        kernel.asm["recording"] = f"// {kernel.name}"
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
        self.launches.append((kernel.name, grid, list(args), options))


@pytest.fixture
def recording(monkeypatch: pytest.MonkeyPatch) -> RecordingBackend:
    backend = RecordingBackend()
    monkeypatch.setattr(jit_module, "get_backend", lambda name: backend)
    return backend


@pytest.fixture(autouse=True)
def default_backend(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests here assume the default (compile-only for NumPy) backend and pipeline."""
    for var in ("MYTRITON_BACKEND", "MYTRITON_INTERPRET", "TRITON_INTERPRET", "MYTRITON_PIPELINE"):
        monkeypatch.delenv(var, raising=False)
