"""Kernels on several GPUs (issue 13): a kernel runs on the device of its arrays, compiled once
per architecture, loaded once per device (and thread-safely), launched with that device current
on its current stream; arrays on two devices in one launch are a ``LaunchError``.

The first part runs anywhere: fake devices stand in for the GPUs (a fake GPU backend with
per-device architectures, a fake CuPy that records which device was current when a module was
loaded or a kernel launched). The second part needs 2 CUDA devices and skips, saying so, on a
machine with one, also under ``MYTRITON_REQUIRE_CUDA=1`` (a one-GPU machine is not a
misconfigured one; with no GPU at all that setting fails them, as every GPU test). The last part
runs ``examples/distributed_layernorm.py``: under ``torchrun`` on 2 GPUs (NCCL), as one process
on one GPU, and on the CPU interpreter with gloo (1 and 2 processes).
"""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
import threading
import time
import types
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.backends import LaunchOptions
from mytriton.backends.arrays import ArrayInfo
from mytriton.backends.compiled import CompiledKernel
from mytriton.backends.nvidia import cuda_driver as cuda_driver_module
from mytriton.backends.nvidia.cuda_driver import DeviceKernel, compute_capability, device_current
from mytriton.backends.nvidia.device_backend import DeviceBackend
from mytriton.backends.nvidia.device_launcher import LaunchCode, build_launcher
from mytriton.errors import BackendError, LaunchError
from mytriton.kernel_signature import KernelSignature
from mytriton.runtime import compile_on_miss, native_build
from mytriton.runtime import jit as jit_module
from mytriton.runtime.launch import launch_device
from tests.gpu_required import gpu_missing, skip_or_fail

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "distributed_layernorm.py"


@triton.jit
def axpy_kernel(x, y, out, a, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    xs = tl.load(x + offs, mask=mask)
    tl.store(out + offs, a * xs + tl.load(y + offs, mask=mask), mask=mask)


@pytest.fixture(autouse=True)
def fresh_kernel() -> None:
    """Every test starts from a kernel with no compiled specializations, plans or fast paths
    (the fake backend's would otherwise stay beside the GPU's)."""
    axpy_kernel.clear_cache()


# ------------------------------------------------------------------ fake devices (no GPU needed)


class _Device:
    def __init__(self, index: int):
        self.id = index


class _Memory:
    def __init__(self, ptr: int):
        self.ptr = ptr


class FakeDeviceArray:
    """What mytriton reads of a CuPy array: dtype, device, size and address."""

    __cuda_array_interface__: dict[str, Any] = {}

    def __init__(self, device: int, ptr: int = 0x10000):
        self.dtype = np.dtype("float32")
        self.device = _Device(device)
        self._data = _Memory(ptr)
        self.nbytes = 1024

    @property
    def data(self) -> _Memory:
        return self._data


FakeDeviceArray.__module__ = "cupy.fake"


class FakeDeviceBackend(DeviceBackend):
    """A GPU backend over fake devices 0 and 1 (one architecture) and 2 (another): it records
    which device was current while each kernel compiled, and on which device each launch ran."""

    name = "fakedevice"
    ARCH = {0: 90, 1: 90, 2: 80}

    def __init__(self) -> None:
        self.current = 0
        self.compiled_on: list[int] = []
        self.launches: list[int | None] = []

    def target(self, device: int) -> int | None:
        return self.ARCH[device]

    def compiling_on(self, device: int) -> Any:
        @contextmanager
        def current() -> Iterator[None]:
            previous, self.current = self.current, device
            try:
                yield
            finally:
                self.current = previous

        return current()

    def load(
        self, kernel: CompiledKernel, artifacts: Mapping[str, Any], options: LaunchOptions
    ) -> None:
        self.compiled_on.append(self.current)
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
        self.launches.append(launch_device(arrays))

    def launcher(
        self, kernel: CompiledKernel, arrays: Sequence[ArrayInfo | None], options: LaunchOptions
    ) -> Any:
        device = launch_device(arrays)
        return lambda x, y, z, args: self.launches.append(device)

    def launch_code(
        self, kernel: CompiledKernel, arrays: Sequence[ArrayInfo | None], options: LaunchOptions
    ) -> LaunchCode | None:
        return None  # every launch takes the general path: it records the device


@pytest.fixture
def fake_devices(monkeypatch: pytest.MonkeyPatch) -> FakeDeviceBackend:
    backend = FakeDeviceBackend()
    monkeypatch.setattr(jit_module, "get_backend", lambda name: backend)
    return backend


def axpy_on(device: int, **kw: Any) -> CompiledKernel:
    x, y, out = (FakeDeviceArray(kw.pop(name, device), ptr) for name, ptr in
                 (("x", 0x1000), ("y", 0x2000), ("out", 0x3000)))  # fmt: skip
    return axpy_kernel[(4,)](x, y, out, 2.0, 1000, BLOCK=256)


def test_kernels_compile_per_architecture_with_the_arrays_device_current(
    fake_devices: FakeDeviceBackend,
) -> None:
    on_1 = axpy_on(1)
    assert fake_devices.compiled_on == [1]  # built for device 1, though device 0 is current
    assert fake_devices.current == 0  # and device 0 current again after
    on_0 = axpy_on(0)
    assert on_0 is on_1 and fake_devices.compiled_on == [1]  # same architecture: shared
    on_2 = axpy_on(2)
    assert on_2 is not on_1 and fake_devices.compiled_on == [1, 2]  # another architecture
    axpy_on(1)
    assert fake_devices.launches == [1, 0, 2, 1]  # each on its arrays' device
    assert len(axpy_kernel.cache) == 2


def test_arrays_on_two_devices_are_refused_before_compiling(
    fake_devices: FakeDeviceBackend,
) -> None:
    with pytest.raises(LaunchError, match=r"all arrays must be on one CUDA device.*\[0, 1\]"):
        axpy_on(0, y=1)
    assert fake_devices.compiled_on == [] and fake_devices.launches == []
    axpy_on(0)
    with pytest.raises(LaunchError, match="one CUDA device"):  # a plan for device 0 exists
        axpy_on(0, out=1)
    assert fake_devices.launches == [0]


class _YieldingLock:
    """A reentrant lock whose holder, on letting it go, waits a moment before going on."""

    def __init__(self) -> None:
        self._lock = threading.RLock()

    def __enter__(self) -> None:
        self._lock.acquire()

    def __exit__(self, *exc: object) -> None:
        self._lock.release()
        time.sleep(0.02)


def test_threads_launching_a_new_kernel_on_two_devices_compile_it_once(
    fake_devices: FakeDeviceBackend, monkeypatch: pytest.MonkeyPatch
) -> None:
    load = fake_devices.load

    def slow_load(*args: Any) -> None:
        time.sleep(0.05)  # a compile long enough for the other thread to miss the cache
        load(*args)

    monkeypatch.setattr(fake_devices, "load", slow_load)
    # the compile lock lets a waiting thread in whenever it is let go (as a busy machine with
    # few cores may): the waiting thread must find the kernel kept by then
    monkeypatch.setattr(compile_on_miss, "COMPILING", _YieldingLock())
    barrier = threading.Barrier(2)
    kernels: list[CompiledKernel] = []

    def launch(device: int) -> None:
        barrier.wait()
        kernels.append(axpy_on(device))

    threads = [threading.Thread(target=launch, args=(d,)) for d in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(fake_devices.compiled_on) == 1 and len(kernels) == 2
    assert kernels[0] is kernels[1] and set(fake_devices.launches) == {0, 1}


def test_launch_device_is_the_arrays_device() -> None:
    def info(device: int | None) -> ArrayInfo:
        return ArrayInfo("cupy", tl.float32, device, 4, 0)

    assert launch_device([None, info(1), None, info(1)]) == 1
    assert launch_device([None, None]) is None
    assert launch_device([info(None)]) is None


class FakeCupy:
    """What loading a module and launching a kernel use of CuPy, with a current device per
    thread, and a driver context bound per thread only by ``setDevice`` or ``free(0)``."""

    def __init__(self, devices: int = 2) -> None:
        self._local = threading.local()
        self._lock = threading.Lock()
        self.loads: list[int] = []  # the device current at each module load
        self.launches: list[tuple[int, int]] = []  # (function, device current)
        self.attempts = 0
        fake = self

        class CUDADriverError(Exception):
            def __init__(self, status: int):
                super().__init__(f"CUDA driver error {status}")
                self.status = status

        class Device:
            def __init__(self, device: int):
                self.id = device

            def __enter__(self) -> Device:
                self.previous = fake.get_device()
                if self.previous != self.id:
                    fake.set_device(self.id)
                return self

            def __exit__(self, *exc: Any) -> None:
                if self.previous != self.id:
                    fake.set_device(self.previous)

        class Module:
            def load(self, image: bytes) -> None:
                time.sleep(0.02)  # room for a racing thread to load too
                self.device = fake.get_device()
                with fake._lock:
                    fake.loads.append(self.device)

            def get_function(self, name: str) -> Any:
                return types.SimpleNamespace(ptr=0xF00 + 0x100 * self.device, module=self)

        self.CUDADriverError = CUDADriverError
        self.cuda = types.SimpleNamespace(
            Device=Device,
            function=types.SimpleNamespace(Module=Module),
            driver=types.SimpleNamespace(
                CUDADriverError=CUDADriverError, launchKernel=self.launch_kernel
            ),
            runtime=types.SimpleNamespace(
                getDevice=self.get_device,
                setDevice=self.set_device,
                getDeviceCount=lambda: devices,
                free=self.free,
            ),
            stream=types.SimpleNamespace(get_current_stream_ptr=lambda: 0x5000),
        )

    def get_device(self) -> int:
        return getattr(self._local, "device", 0)

    def set_device(self, device: int) -> None:
        self._local.device = device
        self._local.bound = True

    def free(self, pointer: int) -> None:
        self._local.bound = True

    def launch_kernel(self, f: int, *rest: Any) -> None:
        self.attempts += 1
        if not getattr(self._local, "bound", False):
            raise self.CUDADriverError(201)  # CUDA_ERROR_INVALID_CONTEXT
        self.launches.append((f, self.get_device()))


@pytest.fixture
def fake_cupy(monkeypatch: pytest.MonkeyPatch) -> FakeCupy:
    fake = FakeCupy()
    monkeypatch.setitem(sys.modules, "cupy", fake)
    return fake


def test_a_kernel_is_loaded_once_per_device_even_when_threads_race(fake_cupy: FakeCupy) -> None:
    kernel = DeviceKernel(b"cubin", KernelSignature("k", ("ptr",), (128, 1, 1)))
    got: list[Any] = []
    threads = [threading.Thread(target=lambda: got.append(kernel.function(1))) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert fake_cupy.loads == [1]  # one module on device 1, loaded with device 1 current
    assert len(got) == 8 and all(fn is got[0] for fn in got)
    on_0 = kernel.function(0)
    assert fake_cupy.loads == [1, 0] and on_0 is not got[0]  # its own module on device 0
    assert (on_0.ptr, got[0].ptr) == (0xF00, 0x1000)
    assert kernel.devices == (1, 0) and fake_cupy.get_device() == 0


def test_launch_code_of_each_device_launches_that_device_s_function(fake_cupy: FakeCupy) -> None:
    kernel = DeviceKernel(b"cubin", KernelSignature("k", ("ptr",), (128, 1, 1)))
    fake_cupy.set_device(0)
    for device in (1, 0):
        kernel.launcher("cupy", device)(1, 1, 1, (FakeDeviceArray(device),))
    assert fake_cupy.launches == [(0x1000, 1), (0xF00, 0)]
    assert fake_cupy.get_device() == 0


def _launcher_for(device: int, devices: int) -> Any:
    return build_launcher(
        name="k",
        function=0xF00,
        block=(128, 1, 1),
        params=("i32",),
        framework="cupy",
        device=device,
        several_devices=devices > 1,
        on_launched=None,
    )


@pytest.mark.parametrize("devices", [1, 2])
def test_a_thread_without_a_context_binds_the_device_s_and_launches(
    monkeypatch: pytest.MonkeyPatch, devices: int
) -> None:
    """cuLaunchKernel from a thread that made no CUDA runtime call has no context current
    (CUDA_ERROR_INVALID_CONTEXT): the launcher binds the device's and launches once more."""
    fake = FakeCupy(devices)
    monkeypatch.setitem(sys.modules, "cupy", fake)
    launch = _launcher_for(0, devices)
    failures: list[BaseException] = []

    def fresh_thread() -> None:
        try:
            launch(1, 1, 1, (5,))
        except BaseException as e:
            failures.append(e)

    t = threading.Thread(target=fresh_thread)
    t.start()
    t.join()
    assert failures == [] and fake.launches == [(0xF00, 0)] and fake.attempts == 2


def test_other_driver_errors_are_not_retried(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = FakeCupy(2)
    monkeypatch.setitem(sys.modules, "cupy", fake)

    def out_of_resources(*args: Any) -> None:
        fake.attempts += 1
        raise fake.CUDADriverError(701)

    fake.cuda.driver.launchKernel = out_of_resources
    with pytest.raises(BackendError, match=r"launching k .*CUDA driver error 701"):
        _launcher_for(1, 2)(1, 1, 1, (5,))
    assert fake.attempts == 1 and fake.get_device() == 0


def test_threads_making_their_first_plans_share_one_native_build(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A thread whose first plan is made while another builds the native module waits for it
    (rather than keeping the generated Python fast path for that plan)."""
    monkeypatch.delenv("MYTRITON_NATIVE_LAUNCH", raising=False)
    monkeypatch.setattr(native_build, "_tried", False)
    monkeypatch.setattr(native_build, "_module", None)
    monkeypatch.setattr(native_build, "_reason", "not built yet")
    builds: list[int] = []

    def slow_build() -> Path:
        builds.append(1)
        time.sleep(0.1)  # the C compiler running
        path = tmp_path / "fake_fast_launch.py"
        path.write_text("BUILT = True\n")
        return path

    monkeypatch.setattr(native_build, "_built", slow_build)
    got: list[Any] = []
    threads = [threading.Thread(target=lambda: got.append(native_build.load())) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert builds == [1] and len(got) == 2
    assert got[0] is not None and got[0] is got[1] and got[0].BUILT


def test_device_current_switches_and_restores(fake_cupy: FakeCupy) -> None:
    with device_current(1):
        assert fake_cupy.get_device() == 1
    assert fake_cupy.get_device() == 0


def test_without_cupy_nothing_switches_and_no_capability_is_known(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "cupy", None)  # `import cupy` raises ImportError
    monkeypatch.setattr(cuda_driver_module, "_CAPABILITIES", {})
    with device_current(1):
        pass
    assert compute_capability(1) is None


# ------------------------------------------------------------------------ on 2 CUDA devices


def require_devices(framework: str, count: int = 2) -> Any:
    """``framework``'s module (``cupy`` or ``torch``) where ``count`` CUDA devices can run
    kernels; otherwise the test skips with "needs 2 CUDA devices" (without any GPU, the shared
    rule: a failure under ``MYTRITON_REQUIRE_CUDA=1``)."""
    needs = f"needs {count} CUDA device{'s' if count > 1 else ''}"
    why = gpu_missing(framework)
    if why is not None:
        skip_or_fail(f"{needs}: {why}")
    cupy = importlib.import_module("cupy")
    have = int(cupy.cuda.runtime.getDeviceCount())
    if framework == "torch":
        have = min(have, int(importlib.import_module("torch").cuda.device_count()))
    if have < count:
        pytest.skip(f"{needs}; this machine has {have}")
    return importlib.import_module(framework)


N = 3000
_RNG = np.random.default_rng(13)
XS, YS = _RNG.standard_normal(N, dtype=np.float32), _RNG.standard_normal(N, dtype=np.float32)


def expected_axpy(a: float) -> np.ndarray:
    return (np.float32(a) * XS + YS).astype(np.float32)


def grid(meta: dict[str, Any]) -> tuple[int]:
    return (triton.cdiv(meta["n"], meta["BLOCK"]),)


def same_architecture() -> bool:
    return compute_capability(0) == compute_capability(1) is not None


def test_torch_kernel_on_cuda1_then_cuda0() -> None:
    torch = require_devices("torch")
    current = torch.cuda.current_device()
    kernels = []
    # a first launch per device, a fast-path one on the same device, and back and forth
    for device in ("cuda:1", "cuda:1", "cuda:0", "cuda:0", "cuda:1"):
        x, y = torch.from_numpy(XS).to(device), torch.from_numpy(YS).to(device)
        out = torch.full_like(x, float("nan"))
        kernels.append(axpy_kernel[grid](x, y, out, 2.5, N, BLOCK=256))
        assert torch.cuda.current_device() == current  # the launch left the current device
        np.testing.assert_allclose(out.cpu().numpy(), expected_axpy(2.5), rtol=1e-5, atol=1e-5)
    with torch.cuda.device(1):  # and the other way round: cuda:0's arrays, device 1 current
        x, y = torch.from_numpy(XS).to("cuda:0"), torch.from_numpy(YS).to("cuda:0")
        out = torch.full_like(x, float("nan"))
        axpy_kernel[grid](x, y, out, -1.0, N, BLOCK=256)
        assert torch.cuda.current_device() == 1
    np.testing.assert_allclose(out.cpu().numpy(), expected_axpy(-1.0), rtol=1e-5, atol=1e-5)
    for kernel in kernels:
        assert set(kernel.binary.devices) == {0, 1}  # loaded on each device
    if same_architecture():
        assert all(k is kernels[0] for k in kernels) and len(axpy_kernel.cache) == 1


def test_cupy_kernel_on_device_1_then_device_0() -> None:
    cupy = require_devices("cupy")
    for device in (1, 1, 0, 0, 1):
        with cupy.cuda.Device(device):
            x, y = cupy.asarray(XS), cupy.asarray(YS)
            out = cupy.full_like(x, np.nan)
        with cupy.cuda.Device(1 - device):  # the other device current at the launch
            compiled = axpy_kernel[grid](x, y, out, 0.5, N, BLOCK=256)
            assert cupy.cuda.runtime.getDevice() == 1 - device
        with cupy.cuda.Device(device):
            np.testing.assert_allclose(out.get(), expected_axpy(0.5), rtol=1e-5, atol=1e-5)
    assert set(compiled.binary.devices) == {0, 1}


def _in_threads(work: Any, devices: Sequence[int]) -> None:
    """Run ``work(device)`` in one thread per device, started together; re-raise a failure."""
    barrier = threading.Barrier(len(devices))
    failures: list[tuple[int, BaseException]] = []

    def run(device: int) -> None:
        try:
            barrier.wait()
            work(device)
        except BaseException as e:
            failures.append((device, e))

    threads = [threading.Thread(target=run, args=(d,)) for d in devices]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert not any(t.is_alive() for t in threads), "a launching thread hangs"
    if failures:
        device, error = failures[0]
        raise AssertionError(f"the thread launching on device {device} failed: {error!r}")


def test_two_threads_compile_load_and_launch_on_two_devices_at_once() -> None:
    torch = require_devices("torch")  # a fresh kernel: both threads compile and load it
    results: dict[int, np.ndarray] = {}

    def work(device: int) -> None:
        x = torch.from_numpy(XS).to(f"cuda:{device}")
        y = torch.from_numpy(YS).to(f"cuda:{device}")
        out = torch.full_like(x, float("nan"))
        for i in range(50):
            axpy_kernel[grid](x, y, out, float(device * 100 + i), N, BLOCK=256)
        results[device] = out.cpu().numpy()

    _in_threads(work, [0, 1])
    for device in (0, 1):
        want = expected_axpy(device * 100 + 49)
        np.testing.assert_allclose(results[device], want, rtol=1e-5, atol=1e-4)


def test_fresh_threads_launch_a_loaded_kernel_on_two_devices_at_once() -> None:
    """Threads that made no CUDA call yet launch kernels already loaded on both devices, on
    arrays made by the main thread: each launch must bind its device's context itself."""
    torch = require_devices("torch")
    arrays = {}
    for device in (0, 1):
        x = torch.from_numpy(XS).to(f"cuda:{device}")
        y = torch.from_numpy(YS).to(f"cuda:{device}")
        arrays[device] = (x, y, torch.full_like(x, float("nan")))
        axpy_kernel[grid](*arrays[device], 0.0, N, BLOCK=256)  # compiled and loaded here
    torch.cuda.synchronize(0)
    torch.cuda.synchronize(1)

    def work(device: int) -> None:
        for i in range(50):
            axpy_kernel[grid](*arrays[device], float(device * 100 + i), N, BLOCK=256)

    _in_threads(work, [0, 1])
    for device in (0, 1):
        out = arrays[device][2].cpu().numpy()
        np.testing.assert_allclose(out, expected_axpy(device * 100 + 49), rtol=1e-5, atol=1e-4)


def test_torch_arrays_on_two_devices_in_one_launch_are_a_launch_error() -> None:
    torch = require_devices("torch")
    x0 = torch.zeros(64, device="cuda:0")
    x1 = torch.zeros(64, device="cuda:1")
    with pytest.raises(LaunchError, match=r"all arrays must be on one CUDA device.*\[0, 1\]"):
        axpy_kernel[(1,)](x0, x1, x0, 1.0, 64, BLOCK=64)
    axpy_kernel[(1,)](x0, x0, x0, 1.0, 64, BLOCK=64)  # a plan (and fast path) for cuda:0
    axpy_kernel[(1,)](x0, x0, x0, 1.0, 64, BLOCK=64)
    with pytest.raises(LaunchError, match="one CUDA device"):
        axpy_kernel[(1,)](x0, x0, x1, 1.0, 64, BLOCK=64)


def test_cupy_arrays_on_two_devices_in_one_launch_are_a_launch_error() -> None:
    cupy = require_devices("cupy")
    with cupy.cuda.Device(1):
        x1 = cupy.zeros(64, np.float32)
    x0 = cupy.zeros(64, np.float32)
    axpy_kernel[(1,)](x0, x0, x0, 1.0, 64, BLOCK=64)
    axpy_kernel[(1,)](x0, x0, x0, 1.0, 64, BLOCK=64)
    with pytest.raises(LaunchError, match="one CUDA device"):
        axpy_kernel[(1,)](x1, x0, x0, 1.0, 64, BLOCK=64)


# ------------------------------------------------------------- examples/distributed_layernorm.py


def run_example(command: list[str], env: dict[str, str], timeout: int = 480) -> str:
    """Run the example (with this checkout's mytriton); its output, or a failure showing it."""
    root = str(EXAMPLE.parents[1])
    env = {**env, "PYTHONPATH": os.pathsep.join(filter(None, [root, env.get("PYTHONPATH")]))}
    done = subprocess.run(
        command, env=env, capture_output=True, text=True, timeout=timeout, cwd=EXAMPLE.parent
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, f"exit status {done.returncode}:\n{output[-6000:]}"
    return output


def torchrun(nproc: int) -> list[str]:
    # torchrun itself, as the module of this interpreter's torch (the same environment)
    return [sys.executable, "-m", "torch.distributed.run", "--standalone",
            f"--nproc-per-node={nproc}", str(EXAMPLE)]  # fmt: skip


def test_example_under_torchrun_on_two_gpus() -> None:
    require_devices("torch")
    output = run_example(torchrun(2), dict(os.environ))
    assert "rank 0/2: rows 0:515 normalised on cuda:0" in output
    assert "rank 1/2: rows 515:1031 normalised on cuda:1" in output
    assert "ok: layer norm of 1031x1000 over 2 rank(s) (nccl)" in output


def test_example_as_one_process_on_one_gpu() -> None:
    require_devices("torch", count=1)
    output = run_example([sys.executable, str(EXAMPLE)], dict(os.environ))
    assert "ok: layer norm of 1031x1000 over 1 rank(s) (nccl)" in output


def _cpu_distributed() -> dict[str, str]:
    """The environment of the example on the CPU interpreter with gloo (skip without it)."""
    dist = pytest.importorskip("torch.distributed")
    if not dist.is_available() or not dist.is_gloo_available():
        pytest.skip("torch.distributed with the gloo backend is not available")
    return {**os.environ, "MYTRITON_BACKEND": "interpreter"}


def test_example_as_one_process_on_the_cpu() -> None:
    output = run_example([sys.executable, str(EXAMPLE)], _cpu_distributed())
    assert "rank 0/1: rows 0:1031 normalised on cpu" in output
    assert "ok: layer norm of 1031x1000 over 1 rank(s) (gloo)" in output


def test_example_under_torchrun_on_the_cpu() -> None:
    output = run_example(torchrun(2), _cpu_distributed())
    assert "rank 1/2: rows 515:1031 normalised on cpu" in output
    assert "ok: layer norm of 1031x1000 over 2 rank(s) (gloo)" in output


def test_example_keeps_nvlink_multicast_off() -> None:
    """The variables are set before torch (and so torch.distributed) is imported; nothing of
    mytriton creates multicast objects."""
    source = EXAMPLE.read_text()
    first_torch = source.index("\nimport torch")
    for setting in ('"NCCL_NVLS_ENABLE", "0"', '"TORCH_SYMM_MEM_DISABLE_MULTICAST", "1"'):
        assert -1 < source.index(f"os.environ.setdefault({setting})") < first_torch
    package = Path(triton.__file__).parent
    users = [p for p in package.rglob("*.*") if p.suffix in (".py", ".c")
             if "cuMulticastCreate" in p.read_text()]  # fmt: skip
    assert users == []
