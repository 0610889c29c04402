"""Fixtures of the MLIR backend tests: providers found on this machine, FileCheck, the backend."""

from __future__ import annotations

import functools
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import mytriton.backends as backends
from mytriton.backends.mlir.backend import MlirBackend
from mytriton.backends.mlir.providers import PROVIDER_ENV_VAR, configured_providers

PROVIDER_NAMES = ("python", "mlir-opt")


@functools.cache
def usable_providers() -> dict[str, str | None]:
    """Each provider's name -> ``None`` when usable here, else why not."""
    return {p.name: p.unavailable_reason() for p in configured_providers()}


def provider_params() -> list[object]:
    """One parameter per provider, skipped (with the reason) where this machine lacks it."""
    out: list[object] = []
    for name in PROVIDER_NAMES:
        reason = usable_providers().get(name, "excluded by $" + PROVIDER_ENV_VAR)
        marks = [pytest.mark.skip(reason=f"MLIR provider {name}: {reason}")] if reason else []
        out.append(pytest.param(name, marks=marks, id=name))
    return out


def any_provider() -> bool:
    return any(reason is None for reason in usable_providers().values())


requires_provider = pytest.mark.skipif(
    not any_provider(),
    reason="no MLIR provider here (pip install 'mytriton[mlir]' or mlir-22-tools)",
)


@pytest.fixture(params=provider_params())
def provider(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run the test with one provider forced (``$MYTRITON_MLIR_PROVIDER``)."""
    monkeypatch.setenv(PROVIDER_ENV_VAR, request.param)
    return str(request.param)


@pytest.fixture
def filecheck(tmp_path: Path) -> Callable[[str, str], None]:
    """``filecheck(text, checks)``: LLVM FileCheck semantics (the ``filecheck`` package)."""

    def run(text: str, checks: str) -> None:
        check_file = tmp_path / "checks.txt"
        check_file.write_text(checks)
        proc = subprocess.run(
            [sys.executable, "-m", "filecheck", str(check_file)],
            input=text,
            capture_output=True,
            text=True,
        )
        assert proc.returncode == 0, f"FileCheck failed:\n{proc.stdout}{proc.stderr}"

    return run


@pytest.fixture
def mlir_backend(monkeypatch: pytest.MonkeyPatch) -> Iterator[MlirBackend]:
    """``MYTRITON_BACKEND=mlir`` with a fresh ``MlirBackend`` (whatever the registry holds)."""
    backend = MlirBackend()
    monkeypatch.setitem(backends._INSTANCES, "mlir", backend)
    monkeypatch.setenv("MYTRITON_BACKEND", "mlir")
    for var in ("MYTRITON_INTERPRET", "TRITON_INTERPRET"):
        monkeypatch.delenv(var, raising=False)
    yield backend
