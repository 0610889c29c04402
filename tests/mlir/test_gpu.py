"""The MLIR backend on a GPU: the kernel suite against each kernel's NumPy reference and the
interpreter, with CuPy arrays and Torch tensors, and hand-built samples against NumPy."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from mytriton.backends.arrays import describe_array
from mytriton.backends.mlir import compile_mlir, emit_mlir
from mytriton.backends.mlir.backend import MlirBackend
from mytriton.backends.nvidia.cuda_driver import DeviceKernel
from mytriton.passes.gpu_lowering.abi import kernel_signature
from tests import kernels
from tests.dot_precision import compiled_tol
from tests.gpu_required import require_gpu
from tests.kernel_references import assert_matches_reference, expected_outputs
from tests.mlir import samples
from tests.mlir.conftest import requires_provider
from tests.mlir.suite import CASES, Case

pytestmark = [pytest.mark.gpu, requires_provider]


@pytest.fixture
def cupy() -> Any:
    """CuPy with a device (a skip without one, a failure under ``MYTRITON_REQUIRE_CUDA=1``)."""
    return require_gpu("cupy")


def _interpret(case: Case, args: list[Any], constexprs: dict[str, Any], monkeypatch: Any) -> None:
    monkeypatch.setenv("MYTRITON_BACKEND", "interpreter")
    case.kernel[case.grid](*args, **constexprs)
    monkeypatch.setenv("MYTRITON_BACKEND", "mlir")


def _assert_same(
    got: list[Any],
    want: list[Any],
    to_host: Callable[[Any], np.ndarray],
    tol: dict[str, float] | None = None,
) -> None:
    for index, (g, w) in enumerate(zip(got, want, strict=True)):
        if isinstance(w, np.ndarray):
            np.testing.assert_allclose(
                to_host(g), w, **(tol or {"rtol": 1e-4, "atol": 1e-4}), err_msg=f"argument {index}"
            )


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_suite_matches_numpy_and_the_interpreter(
    case: Case, cupy: Any, mlir_backend: MlirBackend, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The GPU result against the kernel's float64 NumPy reference (which catches frontend and
    `tt`-pass bugs the interpreter shares) and against the interpreter, whose own result is
    checked against the reference too."""
    host, constexprs = case.make(np.random.default_rng(1))
    reference = expected_outputs(case.kernel, host, constexprs)
    want = [a.copy() if isinstance(a, np.ndarray) else a for a in host]
    _interpret(case, want, constexprs, monkeypatch)
    assert_matches_reference(want, reference, what="interpreter: ")
    device = [cupy.asarray(a) if isinstance(a, np.ndarray) else a for a in host]
    kernel = case.kernel[case.grid](*device, **constexprs)
    assert "cubin" in kernel.asm or "ptx" in kernel.asm
    cupy.cuda.get_current_stream().synchronize()
    tol = compiled_tol(kernel, k=64)  # f32 dots at Triton's default precision: tf32
    assert_matches_reference(device, reference, cupy.asnumpy, what="mlir: ", **tol)
    _assert_same(device, want, cupy.asnumpy, tol)


@pytest.mark.parametrize("case", [c for c in CASES if c.name in ("add", "softmax", "tiled_matmul")],
                         ids=lambda c: c.name)  # fmt: skip
def test_torch_tensors_on_their_current_stream(
    case: Case, cupy: Any, mlir_backend: MlirBackend, monkeypatch: pytest.MonkeyPatch
) -> None:
    torch = require_gpu("torch")
    host, constexprs = case.make(np.random.default_rng(2))
    reference = expected_outputs(case.kernel, host, constexprs)
    want = [a.copy() if isinstance(a, np.ndarray) else a for a in host]
    _interpret(case, want, constexprs, monkeypatch)
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        tensors = [torch.from_numpy(a).cuda() if isinstance(a, np.ndarray) else a for a in host]
        case.kernel[case.grid](*tensors, **constexprs)
    side.synchronize()
    assert_matches_reference(tensors, reference, lambda t: t.cpu().numpy(), what="mlir: ")
    _assert_same(tensors, want, lambda t: t.cpu().numpy())


def test_launch_follows_the_cupy_stream(cupy: Any, mlir_backend: MlirBackend) -> None:
    x = cupy.arange(4096, dtype=cupy.float32)
    out = cupy.zeros_like(x)
    stream = cupy.cuda.Stream(non_blocking=True)
    with stream:
        kernels.copy_kernel[(16,)](x, out, 4096, BLOCK=256)
    stream.synchronize()
    assert bool((out == x).all())


# ---------------------------------------------------------------- hand-built samples


def _run_sample(cupy: Any, name: str, grid: tuple[int, int, int], *args: Any) -> None:
    module = samples.SAMPLES[name]()
    build = compile_mlir(emit_mlir(module), kernel=name)
    image = build.cubin if build.cubin is not None else build.ptx.encode()
    infos = [
        describe_array(a, "arg") if hasattr(a, "__cuda_array_interface__") else None for a in args
    ]
    DeviceKernel(image, kernel_signature(module))(grid, list(args), infos)
    cupy.cuda.get_current_stream().synchronize()


def test_sample_add(cupy: Any) -> None:
    x, y = cupy.random.rand(1000, dtype=cupy.float32), cupy.random.rand(1000, dtype=cupy.float32)
    out = cupy.zeros(1000, cupy.float32)
    _run_sample(cupy, "add_kernel", (8, 1, 1), x, y, out, 1000)
    np.testing.assert_allclose(cupy.asnumpy(out), cupy.asnumpy(x + y))


def test_sample_shuffle_sums_a_warp(cupy: Any) -> None:
    x = cupy.arange(32, dtype=cupy.float32)
    out = cupy.zeros(32, cupy.float32)
    _run_sample(cupy, "shuffle", (1, 1, 1), x, out)
    assert bool((out == 496).all())


def test_sample_shared_memory_and_barrier(cupy: Any) -> None:
    x = cupy.arange(128, dtype=cupy.float32)
    out = cupy.zeros(128, cupy.float32)
    _run_sample(cupy, "memory", (1, 1, 1), x, out)
    np.testing.assert_array_equal(
        cupy.asnumpy(out), np.arange(128, dtype=np.float32)[np.arange(128) ^ 1]
    )


def test_sample_control_flow(cupy: Any) -> None:
    host = np.random.default_rng(3).standard_normal(128).astype(np.float32)
    x, out = cupy.asarray(host), cupy.zeros(128, cupy.float32)
    _run_sample(cupy, "control_flow", (1, 1, 1), x, out, 100)
    want = np.zeros(128, np.float32)
    want[:100] = (host[:100] + np.float32(sum(range(100)))) * np.float32(0.0625)
    np.testing.assert_allclose(cupy.asnumpy(out), want, rtol=1e-6)


def test_sample_float_arith_and_remf(cupy: Any) -> None:
    out = cupy.zeros(128, cupy.float32)
    x = np.float32(1.75)
    _run_sample(cupy, "float_arith", (1, 1, 1), out, x)
    t = np.arange(128, dtype=np.float32)
    want = np.fmod(-(((t + x) - np.float32(0.5)) * x / x), x)
    np.testing.assert_allclose(cupy.asnumpy(out), want, rtol=1e-6, atol=1e-6)


def test_sample_compare_select(cupy: Any) -> None:
    out = cupy.zeros(128, cupy.int32)
    n, x = 64, np.float32(50.0)
    _run_sample(cupy, "compare_select", (1, 1, 1), out, n, x)
    t = np.arange(128)
    ints = [t == n, t != n, t < n, t <= n, t > n, t >= n, t < n, t <= n, t > n, t >= n]
    v = t.astype(np.float32)
    floats = [
        v == x,
        v > x,
        v >= x,
        v < x,
        v <= x,
        v != x,
        v != x,
        np.zeros(128, bool),
        np.ones(128, bool),
    ]
    want = sum(c.astype(np.int32) for c in ints + floats)
    np.testing.assert_array_equal(cupy.asnumpy(out), want)


def test_sample_conversions(cupy: Any) -> None:
    out = cupy.zeros(128, cupy.float32)
    _run_sample(cupy, "conversions", (1, 1, 1), out, 1, np.float32(1.7))
    v = np.float64(np.float32(np.float16(np.float32(1.7) + np.float32(1.0))))
    k = int(np.float32(v * v))
    np.testing.assert_array_equal(cupy.asnumpy(out), (k * np.arange(128)).astype(np.float32))
