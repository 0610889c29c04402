"""The backends every execution test runs on: the interpreter and gpusim always (CI has no GPU),
the cuda and mlir backends with CuPy arrays and with torch tensors where a GPU is present.

``MYTRITON_REQUIRE_CUDA=1`` turns a missing GPU into a failure instead of a skip, so a GPU run
cannot silently test nothing (``tests/gpu_required.py``, shared by every GPU fixture).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

from tests.gpu_required import require_gpu

BACKENDS = [
    ("interpreter", "numpy"),
    ("gpusim", "numpy"),
    ("cuda", "cupy"),
    ("cuda", "torch"),
    ("mlir", "cupy"),
    ("mlir", "torch"),
]


@dataclass
class Runner:
    """Launches a kernel on one backend with NumPy arrays, copying through the GPU if needed."""

    backend: str
    framework: str

    def __call__(
        self, kernel: Any, grid: Any, *args: Any, num_warps: int = 4, **constexprs: Any
    ) -> Any:
        if self.framework == "numpy":
            return kernel[grid](*args, num_warps=num_warps, **constexprs)
        device_args = [self._to_device(a) for a in args]
        compiled = kernel[grid](*device_args, num_warps=num_warps, **constexprs)
        for host, dev in zip(args, device_args, strict=True):
            if isinstance(host, np.ndarray):
                np.copyto(host, self._to_host(dev))
        return compiled

    def _to_device(self, a: Any) -> Any:
        if not isinstance(a, np.ndarray):
            return a
        if self.framework == "cupy":
            import cupy

            return cupy.asarray(a)
        import torch

        return torch.from_numpy(a.copy()).to("cuda")

    def _to_host(self, a: Any) -> np.ndarray:
        if self.framework == "cupy":
            import cupy

            return cupy.asnumpy(a)
        return a.cpu().numpy()


@pytest.fixture(params=BACKENDS, ids=[f"{b}-{f}" for b, f in BACKENDS])
def run(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Callable[..., Any]]:
    backend, framework = request.param
    if framework != "numpy":
        require_gpu(framework)
    monkeypatch.setenv("MYTRITON_BACKEND", backend)
    monkeypatch.delenv("MYTRITON_INTERPRET", raising=False)
    monkeypatch.delenv("TRITON_INTERPRET", raising=False)
    yield Runner(backend, framework)
