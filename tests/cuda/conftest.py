"""Fixtures of the CUDA backend tests: nvcc (compile checks) and CuPy / torch devices (GPU runs).

Every skip says what was missing, so a CI log shows which checks did not run.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mytriton import backends
from mytriton.backends.cuda import CudaBackend


def find_nvcc() -> str | None:
    found = shutil.which("nvcc")
    if found:
        return found
    for candidate in (
        os.environ.get("CUDA_HOME", ""),
        os.environ.get("CUDA_PATH", ""),
        "/usr/local/cuda",
    ):
        path = Path(candidate) / "bin" / "nvcc"
        if candidate and path.is_file():
            return str(path)
    return None


@pytest.fixture(scope="session")
def nvcc() -> str:
    path = find_nvcc()
    if path is None:
        pytest.skip(
            "nvcc not found (PATH, $CUDA_HOME, /usr/local/cuda): CUDA C++ not compile-checked"
        )
    return path


@pytest.fixture(scope="session")
def cupy() -> Any:
    cp = pytest.importorskip("cupy", reason="CuPy is not installed: GPU execution not tested")
    try:
        count = cp.cuda.runtime.getDeviceCount()
    except Exception as e:  # no driver, no device
        pytest.skip(f"CuPy finds no CUDA device: {e}")
    if count == 0:
        pytest.skip("CuPy finds no CUDA device")
    return cp


@pytest.fixture(scope="session")
def torch_cuda(cupy: Any) -> Any:
    torch = pytest.importorskip("torch", reason="torch is not installed: torch launches not tested")
    if not torch.cuda.is_available():
        pytest.skip("torch sees no CUDA device")
    return torch


@pytest.fixture
def cuda_backend(monkeypatch: pytest.MonkeyPatch) -> Iterator[CudaBackend]:
    """Select the cuda backend for ``@jit`` launches (whatever ``get_backend`` registers)."""
    backend = CudaBackend()
    monkeypatch.setitem(backends._INSTANCES, "cuda", backend)
    for var in ("MYTRITON_INTERPRET", "TRITON_INTERPRET", "MYTRITON_PIPELINE"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("MYTRITON_BACKEND", "cuda")
    yield backend
