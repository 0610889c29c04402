"""The generated GPU launcher without a GPU: CuPy's ``launchKernel`` is replaced by a fake
driver that decodes the parameter buffer exactly as ``cuLaunchKernel`` reads it (an array of
pointers, one per parameter)."""

from __future__ import annotations

import ctypes
import math
import sys
import threading
import types
from typing import Any

import numpy as np
import pytest

from mytriton.backends.nvidia.device_launcher import (
    ArgumentBuffer,
    build_launch_code,
    build_launcher,
)
from mytriton.errors import BackendError

_READ = {
    "i32": ctypes.c_int32,
    "i64": ctypes.c_uint64,
    "f32": ctypes.c_float,
    "f64": ctypes.c_double,
    "ptr": ctypes.c_uint64,
}
_SIZE = {"i32": 4, "i64": 8, "f32": 4, "f64": 8, "ptr": 8}


class FakeCupy:
    """What the launcher uses of CuPy: ``driver.launchKernel``, the device and the stream."""

    def __init__(self, params: tuple[str, ...], devices: int = 1):
        self.params = params
        self.launches: list[dict[str, Any]] = []
        self.device = 0
        self.device_log: list[int] = []
        self.fail = False

        class CUDADriverError(Exception):
            pass

        self.cuda = types.SimpleNamespace(
            driver=types.SimpleNamespace(
                launchKernel=self.launch_kernel, CUDADriverError=CUDADriverError
            ),
            runtime=types.SimpleNamespace(
                getDevice=lambda: self.device,
                setDevice=self.set_device,
                getDeviceCount=lambda: devices,
            ),
            stream=types.SimpleNamespace(get_current_stream_ptr=lambda: 0x5000 + self.device),
        )

    def set_device(self, device: int) -> None:
        self.device_log.append(device)
        self.device = device

    def launch_kernel(self, f: int, *dims_and_rest: int) -> None:
        gx, gy, gz, bx, by, bz, shared, stream, params, extra = dims_and_rest
        if self.fail:
            raise self.cuda.driver.CUDADriverError("CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES")
        pointers = ctypes.cast(params, ctypes.POINTER(ctypes.c_void_p))
        addresses = [pointers[i] for i in range(len(self.params))]
        values = [
            _READ[k].from_address(a).value for k, a in zip(self.params, addresses, strict=True)
        ]
        self.launches.append(
            {
                "function": f,
                "grid": (gx, gy, gz),
                "block": (bx, by, bz),
                "shared": shared,
                "stream": stream,
                "values": values,
                "addresses": addresses,
                "device": self.device,
                "extra": extra,
            }
        )


class FakeCupyArray:
    """Mimics a CuPy array's ``data.ptr`` (the only thing a launch reads of it)."""

    def __init__(self, ptr: int):
        self.data = types.SimpleNamespace(ptr=ptr)


class FakeTorchTensor:
    def __init__(self, ptr: int):
        self.ptr = ptr

    def data_ptr(self) -> int:
        return self.ptr


def launcher(
    monkeypatch: pytest.MonkeyPatch, params: tuple[str, ...], **kw: Any
) -> tuple[Any, FakeCupy]:
    fake = FakeCupy(params, kw.pop("devices", 1))
    monkeypatch.setitem(sys.modules, "cupy", fake)
    options: dict[str, Any] = {
        "name": "k",
        "function": 0xF00,
        "block": (128, 1, 1),
        "params": params,
        "framework": "cupy",
        "device": 0,
        "several_devices": False,
        "on_launched": None,
    }
    options.update(kw)
    return build_launcher(**options), fake


def test_every_kind_is_packed_aligned_and_in_order(monkeypatch: pytest.MonkeyPatch) -> None:
    params = ("i32", "ptr", "f32", "i64", "f64", "i32", "ptr")
    launch, fake = launcher(monkeypatch, params)
    a, b = FakeCupyArray(0x7F0000001000), FakeCupyArray(0x7F0000002010)
    launch(3, 2, 1, (7, a, 0.5, 2**40, 0.25, -3, b))
    (done,) = fake.launches
    assert done["values"] == [7, 0x7F0000001000, 0.5, 2**40, 0.25, -3, 0x7F0000002010]
    assert done["grid"] == (3, 2, 1) and done["block"] == (128, 1, 1)
    assert done["function"] == 0xF00 and done["shared"] == 0 and done["extra"] == 0
    assert done["stream"] == 0x5000  # CuPy's current stream
    for kind, address in zip(params, done["addresses"], strict=True):
        assert address % _SIZE[kind] == 0


def test_64_bit_integers_travel_as_their_bits(monkeypatch: pytest.MonkeyPatch) -> None:
    launch, fake = launcher(monkeypatch, ("i64", "i64"))
    launch(1, 1, 1, (-5, 2**64 - 1))
    assert fake.launches[0]["values"] == [(-5) & (2**64 - 1), 2**64 - 1]


def test_values_one_struct_cannot_pack_are_converted_as_c_converts_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    launch, fake = launcher(monkeypatch, ("f32", "i32", "f32", "f64"))
    launch(1, 1, 1, (1e300, np.int32(-4), np.float32(1.5), np.float64(2.5)))
    values = fake.launches[0]["values"]
    assert math.isinf(values[0]) and values[1:] == [-4, 1.5, 2.5]
    launch(1, 1, 1, (True, False, 0.0, 1))  # bools as ints, an int as a float
    assert fake.launches[1]["values"] == [1.0, 0, 0.0, 1.0]


def test_torch_launches_read_pointers_and_torch_s_stream(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    streams = []

    def current_raw_stream(device: int) -> int:
        streams.append(device)
        return 0xBEEF

    fake_torch = types.SimpleNamespace(_C=types.SimpleNamespace())
    fake_torch._C._cuda_getCurrentRawStream = current_raw_stream
    monkeypatch.setitem(sys.modules, "torch", fake_torch)
    launch, fake = launcher(monkeypatch, ("ptr", "i32"), framework="torch", device=0)
    launch(1, 1, 1, (FakeTorchTensor(0x1230), 9))
    assert fake.launches[0]["values"] == [0x1230, 9]
    assert fake.launches[0]["stream"] == 0xBEEF and streams == [0]


def test_raw_pointer_launcher_takes_addresses(monkeypatch: pytest.MonkeyPatch) -> None:
    launch, fake = launcher(monkeypatch, ("ptr", "ptr", "i32"), raw_pointers=True)
    launch(4, 1, 1, (0x1000, 0x2000, 16))
    assert fake.launches[0]["values"] == [0x1000, 0x2000, 16]


def test_other_device_is_made_current_for_the_launch_and_restored(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    launch, fake = launcher(monkeypatch, ("i32",), devices=2, device=1, several_devices=True)
    launch(1, 1, 1, (5,))
    assert fake.launches[0]["device"] == 1 and fake.launches[0]["stream"] == 0x5001
    assert fake.device == 0 and fake.device_log == [1, 0]


def test_driver_error_names_kernel_grid_and_block(monkeypatch: pytest.MonkeyPatch) -> None:
    launch, fake = launcher(monkeypatch, ("i32",), devices=2, several_devices=True, device=1)
    fake.fail = True
    with pytest.raises(BackendError, match=r"launching k \(grid \(9, 1, 1\), block \(128"):
        launch(9, 1, 1, (5,))
    assert fake.device == 0  # restored after the failure too


def test_on_launched_gets_the_stream(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = []
    launch, fake = launcher(monkeypatch, ("i32",), on_launched=seen.append)
    launch(1, 1, 1, (5,))
    assert seen == [0x5000] and len(fake.launches) == 1


def test_a_given_stream_is_launched_on_and_waited_for(monkeypatch: pytest.MonkeyPatch) -> None:
    """``launch(x, y, z, args, stream)`` launches on ``stream`` (Triton's ``CompiledKernel.run``
    names one), not on the framework's current stream; None keeps the current one."""
    seen: list[int] = []
    launch, fake = launcher(monkeypatch, ("i32",), on_launched=seen.append)
    launch(1, 1, 1, (5,), 0x7777)
    launch(1, 1, 1, (6,), 0)  # the legacy default stream is a stream too
    launch(1, 1, 1, (7,), None)
    assert [d["stream"] for d in fake.launches] == [0x7777, 0, 0x5000]
    assert seen == [0x7777, 0, 0x5000]


def test_a_given_stream_on_torch_and_on_another_device(monkeypatch: pytest.MonkeyPatch) -> None:
    fake_torch = types.SimpleNamespace(_C=types.SimpleNamespace())
    fake_torch._C._cuda_getCurrentRawStream = lambda device: 0xBEEF
    monkeypatch.setitem(sys.modules, "torch", fake_torch)
    launch, fake = launcher(
        monkeypatch, ("ptr",), framework="torch", devices=2, device=1, several_devices=True
    )
    launch(1, 1, 1, (FakeTorchTensor(0x1230),), 0xABC)
    assert fake.launches[0]["stream"] == 0xABC and fake.launches[0]["device"] == 1
    assert fake.device == 0


def test_a_cooperative_launch_calls_cu_launch_cooperative_kernel(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``cooperative=True``: ``cuLaunchCooperativeKernel`` (no ``extra`` argument), on the
    given stream too."""
    fake = FakeCupy(("i32",))
    cooperative: list[tuple[Any, ...]] = []

    def launch_cooperative(f: int, *rest: Any) -> None:
        assert len(rest) == 9  # grid, block, shared, stream, parameters
        cooperative.append((f, *rest[:8]))

    fake.cuda.driver.launchCooperativeKernel = launch_cooperative
    monkeypatch.setitem(sys.modules, "cupy", fake)
    options: dict[str, Any] = {
        "name": "k",
        "function": 0xF00,
        "block": (128, 1, 1),
        "params": ("i32",),
        "framework": "cupy",
        "device": 0,
        "several_devices": False,
        "on_launched": None,
        "cooperative": True,
    }
    launch = build_launcher(**options)
    launch(4, 2, 1, (5,))
    launch(4, 2, 1, (5,), 0x77)
    assert cooperative == [
        (0xF00, 4, 2, 1, 128, 1, 1, 0, 0x5000),
        (0xF00, 4, 2, 1, 128, 1, 1, 0, 0x77),
    ]
    assert fake.launches == []  # no ordinary launch
    raw = build_launch_code(**{**options, "raw_pointers": True})
    assert raw.native is None  # the native fast path launches ordinarily: not used


def test_a_cooperative_launch_needs_cupy_s_binding(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(BackendError, match="no cooperative launch"):
        launcher(monkeypatch, ("i32",), cooperative=True)


def test_kernel_without_parameters(monkeypatch: pytest.MonkeyPatch) -> None:
    launch, fake = launcher(monkeypatch, ())
    launch(2, 1, 1, ())
    assert fake.launches[0]["grid"] == (2, 1, 1) and fake.launches[0]["values"] == []


def test_each_thread_packs_into_its_own_buffer(monkeypatch: pytest.MonkeyPatch) -> None:
    launch, fake = launcher(monkeypatch, ("i32",))
    launch(1, 1, 1, (1,))
    worker = threading.Thread(target=launch, args=(1, 1, 1, (2,)))
    worker.start()
    worker.join()
    first, second = fake.launches
    assert first["values"] == [1] and second["values"] == [2]
    assert first["addresses"] != second["addresses"]


def test_unknown_framework_is_rejected(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(BackendError, match="numpy"):
        launcher(monkeypatch, ("ptr",), framework="numpy")


def test_wrong_argument_count_in_the_exact_packer() -> None:
    buffer = ArgumentBuffer(("i32", "i32"))
    (storage, _), _ = buffer.slot(0)
    with pytest.raises(BackendError, match="takes 2 runtime arguments, got 1"):
        buffer.pack_exact(storage, (1,), "cupy")
