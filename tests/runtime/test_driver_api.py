"""``triton.runtime.driver.active``: the device queries tutorials and autotuners make.

Without a GPU each query raises ``BackendUnavailableError``; with one, the answers match CuPy's."""

from __future__ import annotations

import importlib
import sys

import pytest

import mytriton as triton
from mytriton.errors import BackendUnavailableError
from mytriton.runtime import driver as driver_module
from tests.gpu_required import gpu_missing, require_gpu

PROPERTIES = {
    "multiprocessor_count",
    "max_shared_mem",
    "max_num_regs",
    "warpSize",
    "sm_clock_rate",
    "mem_clock_rate",
    "mem_bus_width",
}


def test_driver_is_an_attribute_of_runtime() -> None:
    assert triton.runtime.driver is importlib.import_module("mytriton.runtime.driver")
    active = triton.runtime.driver.active
    assert active is driver_module.default
    assert active.backend == "cuda"
    assert callable(active.utils.get_device_properties)


def test_set_and_reset_active() -> None:
    other = driver_module.CudaDriver()
    driver_module.set_active(other)
    try:
        assert triton.runtime.driver.active is other
    finally:
        driver_module.reset_active()
    assert triton.runtime.driver.active is driver_module.default


@pytest.mark.skipif(gpu_missing("cupy") is None, reason="this machine has a GPU")
@pytest.mark.parametrize(
    "query",
    [
        lambda d: d.get_current_device(),
        lambda d: d.get_current_stream(),
        lambda d: d.get_device_capability(),
        lambda d: d.get_current_target(),
        lambda d: d.utils.get_device_properties(0),
    ],
)
def test_queries_without_a_gpu_raise_a_typed_error(query: object) -> None:
    active = triton.runtime.driver.active
    assert not active.is_active()
    with pytest.raises(BackendUnavailableError):
        query(active)  # type: ignore[operator]


def test_gpu_target_fields() -> None:
    target = driver_module.GPUTarget("cuda", 90, 32)
    assert (target.backend, target.arch, target.warp_size) == ("cuda", 90, 32)


def test_queries_on_the_gpu() -> None:
    cupy = require_gpu("cupy")
    active = triton.runtime.driver.active
    device = active.get_current_device()
    props = active.utils.get_device_properties(device)
    assert set(props) == PROPERTIES
    attrs = cupy.cuda.runtime.getDeviceProperties(device)
    assert props["multiprocessor_count"] == attrs["multiProcessorCount"]
    assert props["warpSize"] == 32
    assert props["max_shared_mem"] >= attrs["sharedMemPerBlock"]
    major, minor = active.get_device_capability()
    target = active.get_current_target()
    assert target == driver_module.GPUTarget("cuda", major * 10 + minor, 32)
    assert str(cupy.cuda.Device(device).compute_capability) == f"{major}{minor}"
    assert isinstance(active.get_current_stream(), int)


def test_torch_device_on_the_gpu() -> None:
    torch = require_gpu("torch")
    active = triton.runtime.driver.active
    assert active.get_active_torch_device() == torch.device("cuda", torch.cuda.current_device())
    assert active.get_current_stream() == torch.cuda.current_stream().cuda_stream
    props = active.utils.get_device_properties(torch.cuda.current_device())
    assert (
        props["multiprocessor_count"] == torch.cuda.get_device_properties(0).multi_processor_count
    )


def test_is_active_takes_torchs_answer_where_cupy_cannot_start(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """In TorchInductor's compile workers CuPy's runtime may fail to initialise although torch
    sees the GPU; Triton's driver asks torch, so the active backend is found there."""
    import types

    def no_cupy() -> None:
        raise BackendUnavailableError("no usable CUDA device: initialization error")

    monkeypatch.setattr(driver_module, "_cuda_runtime", no_cupy)
    cuda = types.SimpleNamespace(is_available=lambda: True)
    fake = types.SimpleNamespace(cuda=cuda, version=types.SimpleNamespace(hip=None))
    monkeypatch.setitem(sys.modules, "torch", fake)
    assert driver_module.CudaDriver.is_active()
    cuda.is_available = lambda: False  # torch without a GPU: CuPy decides (here: none)
    assert not driver_module.CudaDriver.is_active()
    fake.version.hip = "6.0"  # a ROCm torch is not this driver's
    cuda.is_available = lambda: True
    assert not driver_module.CudaDriver.is_active()
