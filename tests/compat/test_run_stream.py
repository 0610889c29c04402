"""``CompiledKernel.run(gx, gy, gz, stream, ...)`` launches on the stream it is given (Triton's
launcher does; TorchInductor passes ``get_raw_stream(device)``): the stream reaches the
backend's launch, the GPU backends launch on it, the CPU backends take any value."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

import mytriton.language as tl
from mytriton.backends import get_backend
from mytriton.backends.nvidia.cuda_driver import DeviceKernel
from mytriton.compat.runner import Runner, StreamArgumentError
from mytriton.compiler import ASTSource, CompiledKernel
from mytriton.compiler import compile as triton_compile
from mytriton.kernel_signature import KernelSignature
from mytriton.runtime.driver import GPUTarget
from tests.compat import kernels
from tests.compat.test_compile_api import ADD_SIGNATURE, add_arrays, compile_add
from tests.gpu_required import require_gpu


@pytest.fixture(params=["interpreter", "gpusim"])
def cpu_backend(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("MYTRITON_CPU_BACKEND", request.param)
    return str(request.param)


def run(kernel: CompiledKernel, grid: int, stream: Any, *args: Any) -> None:
    kernel.run(grid, 1, 1, stream, kernel.function, kernel.packed_metadata, None, None, None, *args)


def record_streams(monkeypatch: pytest.MonkeyPatch, backend_name: str) -> list[Any]:
    """The ``stream`` of every launch of ``backend_name`` (which still runs the kernel)."""
    backend = get_backend(backend_name)
    real = backend.launch
    streams: list[Any] = []

    def launch(*args: Any, stream: int | None = None) -> None:
        assert len(args) == 5  # kernel, grid, args, arrays, options
        streams.append(stream)
        real(*args, stream=stream)

    monkeypatch.setattr(backend, "launch", launch)
    return streams


def test_the_stream_reaches_the_backend_launch(
    cpu_backend: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    kernel = compile_add()
    streams = record_streams(monkeypatch, cpu_backend)
    x, y, out = add_arrays()
    run(kernel, 2, 0x1234, x, y, out, 100, 64)
    np.testing.assert_array_equal(out, x + y)
    out[:] = 0
    run(kernel, 2, np.int64(7), x, y, out, 100, 64)  # any integer type
    np.testing.assert_array_equal(out, x + y)
    assert streams == [0x1234, 7]


def test_cpu_backends_take_any_stream_value(
    cpu_backend: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The host backends run on no stream: what Inductor passes there is accepted."""
    kernel = compile_add()
    streams = record_streams(monkeypatch, cpu_backend)
    for stream in (None, object(), "stream"):
        x, y, out = add_arrays()
        run(kernel, 2, stream, x, y, out, 100, 64)
        np.testing.assert_array_equal(out, x + y)
    assert streams == [None, None, None]


def test_a_gpu_kernel_needs_a_raw_stream_handle() -> None:
    """A GPU launch on something that is no ``CUstream`` handle is a typed ``TypeError``
    before anything launches (as Triton's launcher raises)."""
    launched: list[Any] = []
    runner = Runner("k", (1, (0,)), lambda grid, args, stream=None: launched.append(stream), True)
    with pytest.raises(StreamArgumentError, match="raw CUstream handle") as info:
        runner(1, 1, 1, object(), None, None, None, None, None, 5)
    assert isinstance(info.value, TypeError) and launched == []
    runner(1, 1, 1, 0x55, None, None, None, None, None, 5)
    runner(1, 1, 1, None, None, None, None, None, None, 5)
    assert launched == [0x55, None]


def test_device_kernel_hands_the_stream_to_its_launcher() -> None:
    """The GPU backends' ``launch(..., stream)`` reaches the generated launcher (whose use of
    it is tests/cuda/test_device_launcher.py's)."""
    from mytriton.backends.arrays import ArrayInfo

    calls: list[tuple[Any, ...]] = []

    def launcher(x: int, y: int, z: int, args: Sequence[Any], stream: int | None = None) -> None:
        calls.append((x, y, z, tuple(args), stream))

    kernel = DeviceKernel(b"", KernelSignature("k", ("ptr", "i32"), (128, 1, 1)))
    kernel._launchers[("cupy", 0, False)] = launcher
    info = ArrayInfo(framework="cupy", dtype=tl.float32, device=0, nbytes=4, address=0x1000)
    kernel((2, 1, 1), ["a", 3], [info, None], 0x99)
    kernel((2, 1, 1), ["a", 3], [info, None])
    assert calls == [(2, 1, 1, ("a", 3), 0x99), (2, 1, 1, ("a", 3), None)]


@pytest.mark.parametrize("framework", ["cupy", "torch"])
@pytest.mark.parametrize("gpu_backend", ["cuda", "mlir"])
def test_gpu_launch_runs_on_the_given_stream(
    framework: str, gpu_backend: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Launched on stream ``s`` while ``s`` is being captured into a CUDA graph, the kernel is
    recorded in the graph (it has not run when the capture ends) and runs when the graph is
    replayed on ``s``; a launch on any other stream would have run at once, or failed."""
    module = require_gpu(framework)
    cupy = require_gpu("cupy")
    monkeypatch.setenv("MYTRITON_BACKEND", gpu_backend)
    capability = int(cupy.cuda.Device().compute_capability)
    src = ASTSource(kernels.add_kernel, ADD_SIGNATURE, {"BLOCK": 64})
    kernel = triton_compile(src, target=GPUTarget("cuda", capability, 32), options={})
    kernel._init_handles()
    n = 1000
    if framework == "torch":
        x = module.arange(n, dtype=module.float32, device="cuda")
        y = module.full((n,), 0.5, dtype=module.float32, device="cuda")
        out = module.zeros(n, dtype=module.float32, device="cuda")
        torch_stream = module.cuda.Stream()
        handle = int(torch_stream.cuda_stream)
        stream = cupy.cuda.ExternalStream(handle)
    else:
        x = cupy.arange(n, dtype=cupy.float32)
        y = cupy.full(n, 0.5, dtype=cupy.float32)
        out = cupy.zeros(n, dtype=cupy.float32)
        stream = cupy.cuda.Stream(non_blocking=True)
        handle = int(stream.ptr)
    grid = (n + 63) // 64
    run(kernel, grid, handle, x, y, out, n, 64)  # loads the kernel and builds its launcher
    cupy.cuda.Device().synchronize()
    if framework == "torch":
        out.zero_()
    else:
        out.fill(0)
    cupy.cuda.Device().synchronize()
    stream.begin_capture()
    try:
        run(kernel, grid, handle, x, y, out, n, 64)
    finally:
        graph = stream.end_capture()
    cupy.cuda.Device().synchronize()
    got = out.cpu().numpy() if framework == "torch" else cupy.asnumpy(out)
    assert not got.any(), "the kernel ran outside the captured stream"
    graph.launch(stream)
    stream.synchronize()  # this stream only
    got = out.cpu().numpy() if framework == "torch" else cupy.asnumpy(out)
    np.testing.assert_array_equal(got, np.arange(n, dtype=np.float32) + 0.5)
