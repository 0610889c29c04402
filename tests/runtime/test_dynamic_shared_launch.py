"""Kernels past 48 KiB of shared memory (``gpu_lowering/dynamic_shared.py``): the launch passes
their dynamic shared memory bytes, the function's limit is raised to them once it is loaded,
and a device with less gets a clear error instead of a failed launch. Against a fake CuPy (the
GPU run of the same path: tests/cuda/test_dynamic_shared.py)."""

from __future__ import annotations

import sys
from typing import Any

import pytest

from mytriton.backends.nvidia.cuda_driver import DeviceKernel
from mytriton.errors import BackendError
from mytriton.kernel_signature import KernelSignature
from tests.runtime.test_multi_device import FakeCupy, FakeDeviceArray


class SharedFakeCupy(FakeCupy):
    """``FakeCupy`` with a per-device opt-in shared memory limit, the function attribute set
    by the driver and the shared bytes of each launch."""

    def __init__(self, most: int) -> None:
        super().__init__(devices=1)
        self.attributes: list[tuple[int, int, int]] = []
        self.shared: list[int] = []
        self.cuda.runtime.deviceGetAttribute = lambda attr, device: most if attr == 97 else 0
        self.cuda.driver.funcSetAttribute = lambda f, a, v: self.attributes.append((f, a, v))

    def launch_kernel(self, f: int, *rest: Any) -> None:
        self.shared.append(rest[6])  # gx, gy, gz, bx, by, bz, shared, stream, params, extra
        super().launch_kernel(f, *rest)


def _install(monkeypatch: pytest.MonkeyPatch, most: int) -> SharedFakeCupy:
    fake = SharedFakeCupy(most)
    monkeypatch.setitem(sys.modules, "cupy", fake)
    return fake


def test_a_kernel_launches_with_its_dynamic_shared_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = _install(monkeypatch, 227 * 1024)
    kernel = DeviceKernel(b"cubin", KernelSignature("k", ("ptr",), (128, 1, 1), 100_000))
    kernel.launcher("cupy", 0)(2, 1, 1, (FakeDeviceArray(0),))
    kernel.launcher("cupy", 0)(2, 1, 1, (FakeDeviceArray(0),))
    assert fake.shared == [100_000, 100_000]
    # CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, once, when the function was loaded
    assert fake.attributes == [(0xF00, 8, 100_000)]


def test_static_shared_memory_needs_no_attribute(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = _install(monkeypatch, 227 * 1024)
    kernel = DeviceKernel(b"cubin", KernelSignature("k", ("ptr",), (128, 1, 1)))
    kernel.launcher("cupy", 0)(1, 1, 1, (FakeDeviceArray(0),))
    assert fake.shared == [0] and fake.attributes == []


def test_a_device_with_less_shared_memory_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = _install(monkeypatch, 99 * 1024)
    kernel = DeviceKernel(b"cubin", KernelSignature("k", ("ptr",), (128, 1, 1), 150_000))
    with pytest.raises(
        BackendError,
        match=r"needs 150000 bytes of shared memory, more than the "
        r"101376 bytes a program may use on device 0",
    ):
        kernel.launcher("cupy", 0)(1, 1, 1, (FakeDeviceArray(0),))
    assert fake.shared == []
