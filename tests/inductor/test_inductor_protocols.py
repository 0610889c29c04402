"""What TorchInductor does to Triton's objects besides compiling, checked without torch:

- ``driver.active`` before Inductor picks a driver: Triton's rule (the default driver is the
  active one) under ``import triton`` as mytriton, the CPU driver when CUDA cannot be used;
  mytriton alone keeps the CUDA driver (whose queries raise ``BackendUnavailableError``);
- its compile workers' ``prepare_for_pickle``: ``fn.fn``, ``fn.__globals__`` and
  ``fn.used_global_vals`` set to None, ``fn.repr`` replaced, then the ``JITFunction`` pickled;
- ``debug=True`` kernels: ``CompiledKernel.run`` keeps their device assertions but does not wait
  for them unless ``CUDA_LAUNCH_BLOCKING=1`` asks (Triton's launcher never waits).
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import textwrap
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.compat import compiler as compat_compiler
from mytriton.compat.drivers import CPUDriver
from mytriton.runtime import driver as driver_module
from mytriton.runtime.driver import CudaDriver
from tests.gpu_required import require_gpu

ROOT = Path(__file__).resolve().parents[2]


@triton.jit
def double_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, mask=mask) * 2, mask=mask)


# ---- the default driver ------------------------------------------------------------------


_DRIVER_SCRIPT = """
import triton
from triton.backends.compiler import GPUTarget
from triton.compiler.compiler import make_backend
from triton.runtime.driver import driver
active = driver.active
print(type(active).__name__, active.is_active())
target = active.get_current_target()
print(target.backend, type(make_backend(target)).__name__)
"""


def _python(script: str, **env: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k != "MYTRITON_AS_TRITON"}
    path = os.pathsep.join(p for p in (str(ROOT), base.get("PYTHONPATH", "")) if p)
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(script)],
        capture_output=True,
        text=True,
        env={**base, "PYTHONPATH": path, **env},
        cwd=ROOT,
        timeout=300,
    )


def test_alias_default_driver_is_the_active_one() -> None:
    """What ``torch.utils._triton.triton_backend()`` does first, in a fresh process."""
    result = _python(
        "import mytriton; mytriton.install_as_triton()\n" + textwrap.dedent(_DRIVER_SCRIPT)
    )
    assert result.returncode == 0, result.stderr
    if CudaDriver.is_active():
        assert result.stdout.split() == ["CudaDriver", "True", "cuda", "CUDABackend"]
    else:
        assert result.stdout.split() == ["CPUDriver", "True", "cpu", "CPUBackend"]


def test_mytriton_alone_keeps_the_cuda_driver() -> None:
    result = _python("from mytriton.runtime import driver; print(type(driver.active).__name__)")
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["CudaDriver"]


def test_fallback_is_used_only_without_cuda(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(driver_module, "_fallback", None)
    monkeypatch.setattr(driver_module, "_default", None)
    monkeypatch.setattr(driver_module, "_active", None)
    try:
        driver_module.set_fallback(CPUDriver)
        expected = CudaDriver if CudaDriver.is_active() else CPUDriver
        assert type(driver_module.default) is expected
        assert driver_module.active is driver_module.default  # kept, not made again
        driver_module.set_fallback(None)
        assert type(driver_module.default) is CudaDriver
    finally:
        driver_module.set_fallback(None)


# ---- JITFunction through Inductor's pickling ----------------------------------------------


class _ConstRepr:
    """Inductor's replacement of ``fn.repr`` (``triton_heuristics._ConstRepr``)."""

    def __init__(self, value: str) -> None:
        self.value = value

    def __call__(self, _: Any = None) -> str:
        return self.value


def _launch(kernel: Any, n: int = 40) -> np.ndarray:
    x = np.arange(n, dtype=np.float32)
    out = np.zeros_like(x)
    kernel[(triton.cdiv(n, 16),)](x, out, n, BLOCK=16)
    return out


def test_jit_function_survives_inductors_prepare_for_pickle(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("MYTRITON_BACKEND", "interpreter")
    kernel = triton.jit(double_kernel.fn)
    np.testing.assert_array_equal(_launch(kernel), np.arange(40, dtype=np.float32) * 2)
    old = (kernel.fn, kernel.__globals__, kernel.used_global_vals, kernel.repr)
    kernel.fn = None
    kernel.__globals__ = None
    kernel.used_global_vals = None
    kernel.repr = _ConstRepr(kernel.repr(kernel))
    copy = pickle.loads(pickle.dumps(kernel))  # compiled kernels and plans are left out
    assert copy.fn is None and copy.__name__ == "double_kernel" and copy.cache == {}
    assert copy.arg_names == ["x_ptr", "out_ptr", "n", "BLOCK"]
    assert [p.is_constexpr for p in copy.params] == [False, False, False, True]
    assert copy.repr(None) == "double_kernel"
    assert "double_kernel" in repr(copy)
    # Inductor's restore_after_unpickle, then launches, in both processes
    kernel.fn, kernel.__globals__, kernel.used_global_vals, kernel.repr = old
    np.testing.assert_array_equal(_launch(kernel, 21), np.arange(21, dtype=np.float32) * 2)
    copy.fn, copy.__globals__, copy.used_global_vals = old[0], old[1], old[2]
    np.testing.assert_array_equal(_launch(copy, 33), np.arange(33, dtype=np.float32) * 2)


def test_used_global_vals_takes_only_dicts_or_none() -> None:
    kernel = triton.jit(double_kernel.fn)
    with pytest.raises(TypeError, match="dict or None"):
        kernel.used_global_vals = 3


# ---- debug kernels do not wait ------------------------------------------------------------


@pytest.mark.parametrize(("blocking", "waits"), [(None, False), ("0", False), ("1", True)])
def test_run_waits_for_assertions_only_when_asked(
    monkeypatch: pytest.MonkeyPatch, blocking: str | None, waits: bool
) -> None:
    if blocking is None:
        monkeypatch.delenv("CUDA_LAUNCH_BLOCKING", raising=False)
    else:
        monkeypatch.setenv("CUDA_LAUNCH_BLOCKING", blocking)
    binary = SimpleNamespace(has_assertions=True, wait_for_assertions=True)
    compat_compiler._wait_for_assertions(SimpleNamespace(binary=binary))  # type: ignore[arg-type]
    assert binary.wait_for_assertions is waits


def test_jit_launches_still_wait_for_assertions() -> None:
    from mytriton.backends.nvidia.cuda_driver import DeviceKernel

    binary = DeviceKernel(b"", SimpleNamespace(block=(128, 1, 1)), None)  # type: ignore[arg-type]
    assert binary.wait_for_assertions is True


@triton.jit
def assert_positive_kernel(x_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offsets, mask=offsets < n, other=1)
    tl.device_assert(x > 0, "x must be positive")


def test_gpu_debug_kernel_keeps_assertions_without_waiting(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    require_gpu("cupy")
    import cupy

    from mytriton.compiler import ASTSource
    from mytriton.compiler import compile as triton_compile
    from mytriton.runtime.driver import driver

    monkeypatch.delenv("CUDA_LAUNCH_BLOCKING", raising=False)
    src = ASTSource(
        assert_positive_kernel, {"x_ptr": "*fp32", "n": "i32", "BLOCK": "constexpr"}, {"BLOCK": 64}
    )
    compiled = triton_compile(src, driver.active.get_current_target(), {"debug": True})
    compiled._init_handles()
    binary = compiled._live.value[0].binary
    assert binary.has_assertions and not binary.wait_for_assertions
    x = cupy.ones(100, dtype=cupy.float32)
    compiled[(2,)](x, 100, 64)
    cupy.cuda.runtime.deviceSynchronize()
