"""Whether GPU tests can run here: the one rule every fixture that needs a CUDA device follows.

Without a device (or without CuPy, or torch with CUDA) GPU tests skip and say what was missing.
With ``MYTRITON_REQUIRE_CUDA=1`` (a GPU CI run) they fail instead, so a run on a misconfigured
machine cannot pass by testing nothing.
"""

from __future__ import annotations

import importlib
import os
import shutil
from pathlib import Path
from typing import Any, NoReturn

import pytest

REQUIRE_CUDA_ENV = "MYTRITON_REQUIRE_CUDA"
NVCC_MISSING = "nvcc not found (PATH, $CUDA_HOME, /usr/local/cuda): CUDA C++ not compile-checked"


def cuda_required() -> bool:
    """``MYTRITON_REQUIRE_CUDA`` is set to anything but ``0``."""
    return os.environ.get(REQUIRE_CUDA_ENV, "") not in ("", "0")


def gpu_missing(framework: str) -> str | None:
    """Why kernels cannot run here on ``framework``'s GPU arrays (``None`` when they can).

    CuPy is needed for either framework: the GPU backends compile and launch through it."""
    if framework not in ("cupy", "torch"):
        raise ValueError(f"unknown GPU array framework {framework!r}")
    try:
        cupy = importlib.import_module("cupy")
        count = cupy.cuda.runtime.getDeviceCount()
    except Exception as e:  # not installed, no driver
        return f"CuPy cannot use a GPU here ({type(e).__name__}: {e})"
    if count == 0:
        return "CuPy finds no CUDA device"
    if framework == "torch":
        try:
            torch = importlib.import_module("torch")
            available = torch.cuda.is_available()
        except Exception as e:
            return f"torch cannot use a GPU here ({type(e).__name__}: {e})"
        if not available:
            return "torch sees no CUDA device"
    return None


def skip_or_fail(why: str) -> NoReturn:
    """Skip the test because of ``why``, or fail it where a GPU run is required."""
    if cuda_required():
        pytest.fail(f"{REQUIRE_CUDA_ENV} is set but {why}", pytrace=False)
    pytest.skip(why)


def require_gpu(framework: str) -> Any:
    """``framework``'s module (``cupy`` or ``torch``) when it has a CUDA device here; otherwise
    skip the test (fail it under ``MYTRITON_REQUIRE_CUDA=1``)."""
    why = gpu_missing(framework)
    if why is not None:
        skip_or_fail(why)
    return importlib.import_module(framework)


def find_nvcc() -> str | None:
    """nvcc (the CUDA C++ compile checks' compiler): on PATH, in $CUDA_HOME, $CUDA_PATH or
    /usr/local/cuda; ``None`` when there is none (those checks skip, GPU or not)."""
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
