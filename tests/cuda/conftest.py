"""Fixtures of the CUDA backend tests: nvcc (compile checks) and CuPy / torch devices (GPU runs).

Every skip says what was missing, so a CI log shows which checks did not run; under
``MYTRITON_REQUIRE_CUDA=1`` a missing GPU fails instead (``tests/gpu_required.py``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from mytriton import backends
from mytriton.backends.cuda import CudaBackend
from tests.gpu_required import NVCC_MISSING, find_nvcc, require_gpu


@pytest.fixture(scope="session")
def nvcc() -> str:
    path = find_nvcc()
    if path is None:
        pytest.skip(NVCC_MISSING)
    return path


@pytest.fixture(scope="session")
def cupy() -> Any:
    """CuPy with a CUDA device (a skip without one, a failure under MYTRITON_REQUIRE_CUDA=1)."""
    return require_gpu("cupy")


@pytest.fixture(scope="session")
def torch_cuda(cupy: Any) -> Any:
    """torch with CUDA (and CuPy, through which kernels launch), same rule as ``cupy``."""
    return require_gpu("torch")


@pytest.fixture
def cuda_backend(monkeypatch: pytest.MonkeyPatch) -> Iterator[CudaBackend]:
    """Select the cuda backend for ``@jit`` launches (whatever ``get_backend`` registers)."""
    backend = CudaBackend()
    monkeypatch.setitem(backends._INSTANCES, "cuda", backend)
    for var in ("MYTRITON_INTERPRET", "TRITON_INTERPRET", "MYTRITON_PIPELINE"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("MYTRITON_BACKEND", "cuda")
    yield backend
