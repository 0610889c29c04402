"""Running printed kernels on a GPU with CuPy arrays and torch tensors (skipped without one).

Hand-built samples check the printer op by op against NumPy; the seed kernels run end to end
through ``@jit`` and are compared with their NumPy references and with the interpreter.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from xdsl.dialects import arith
from xdsl.dialects.builtin import ModuleOp, f32, i32

from mytriton.backends.arrays import describe_array, is_array
from mytriton.backends.cuda import emitter
from mytriton.backends.cuda.compile import compile_ptx
from mytriton.backends.cuda.printer import print_cuda
from mytriton.backends.nvidia.cuda_driver import DeviceKernel, device_arch, link_cubin
from mytriton.errors import BackendError, LaunchError
from mytriton.passes.gpu_lowering.abi import kernel_signature
from tests import kernels
from tests.cuda.seed_cases import SEED_CASES
from tests.dot_precision import compiled_tol
from tests.gpu_ir_samples import (
    add_2d_grid_module,
    op_case_slots,
    op_cases_module,
    pointer_walk_module,
    row_sum_module,
    sample_inputs,
    vector_copy_module,
    vector_ops_module,
    vector_ops_reference,
)
from tests.kernel_references import assert_matches_reference

pytestmark = pytest.mark.gpu

FRAMEWORKS = ["cupy", "torch"]


@pytest.fixture(params=FRAMEWORKS)
def to_device(request: pytest.FixtureRequest, cupy: Any) -> Callable[[Any], Any]:
    """Moves NumPy arrays to the GPU with CuPy or torch (other values pass through)."""
    if request.param == "torch":
        torch = request.getfixturevalue("torch_cuda")
        return lambda x: torch.from_numpy(x).cuda() if isinstance(x, np.ndarray) else x
    return lambda x: cupy.asarray(x) if isinstance(x, np.ndarray) else x


def to_host(x: Any) -> np.ndarray:
    if hasattr(x, "get"):
        return x.get()
    return x.cpu().numpy()


def launch(module: ModuleOp, grid: tuple[int, int, int], args: list[Any]) -> None:
    signature = kernel_signature(module)
    ptx = compile_ptx(print_cuda(module), signature.name, device_arch(0))
    launcher = DeviceKernel(link_cubin(ptx, 0, signature.name), signature, ptx)
    infos = [describe_array(a, "arg") if is_array(a) else None for a in args]
    launcher(grid, args, infos)


def synchronize(x: Any) -> None:
    if hasattr(x, "get"):
        import cupy

        cupy.cuda.get_current_stream().synchronize()
    else:
        import torch

        torch.cuda.synchronize()


# ---------------------------------------------------------------------------- samples


def test_add_on_a_2d_grid(to_device: Callable[[Any], Any]) -> None:
    n = 1000
    rng = np.random.default_rng(1)
    x, y = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    out = to_device(np.full(n + 5, -1.0, np.float32))
    launch(add_2d_grid_module(), (3, 3, 1), [to_device(x), to_device(y), out, n])
    result = to_host(out)
    np.testing.assert_array_equal(result[:n], x + y)
    np.testing.assert_array_equal(result[n:], -1.0)  # masked off


@pytest.mark.parametrize("n", [1, 100, 128, 1000, 4097])
def test_row_sum_with_shuffles_and_shared_memory(to_device: Callable[[Any], Any], n: int) -> None:
    rows, stride = 7, 4100
    x = np.random.default_rng(n).standard_normal((rows, stride)).astype(np.float32)
    out = to_device(np.zeros(rows, np.float32))
    launch(row_sum_module(), (rows, 1, 1), [to_device(x), out, n, stride])
    np.testing.assert_allclose(to_host(out), x[:, :n].sum(axis=1), rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("iters", [0, 1, 5])
def test_pointer_walk_carries_and_swaps(to_device: Callable[[Any], Any], iters: int) -> None:
    x = np.random.default_rng(2).standard_normal(max(iters, 1) * 64).astype(np.float32)
    out = to_device(np.zeros(64, np.float32))
    launch(pointer_walk_module(), (1, 1, 1), [to_device(x), out, iters])
    weights = np.array([1.0 if i % 2 == 0 else 2.0 for i in range(iters)], np.float32)
    acc = (x[: iters * 64].reshape(iters, 64) * weights[:, None]).sum(axis=0) if iters else 0.0
    final = 1.0 if iters % 2 == 0 else 2.0
    np.testing.assert_allclose(to_host(out), acc + final, rtol=1e-6)


def test_every_op_computes_what_it_means(cupy: Any) -> None:
    """Each case of OP_CASES on the GPU against its NumPy reference (NaN, inf, INT_MIN...)."""
    n = 300
    a, c, i, j = sample_inputs(n)
    slots = op_case_slots()
    n_float = sum(1 for _, f, _ in slots if f)
    out_f = cupy.full(n_float * n, -7.0, dtype=np.float32)
    out_i = cupy.full((len(slots) - n_float) * n, -7, dtype=np.int32)
    args = [cupy.asarray(v) for v in (a, c, i, j)]
    launch(op_cases_module(), (3, 1, 1), [*args, out_f, out_i, n])
    got_f, got_i = out_f.get().reshape(-1, n), out_i.get().reshape(-1, n)
    failures = []
    for case, is_float, k in slots:
        got = got_f[k] if is_float else got_i[k]
        expected = case.expected(a, c, i, j).astype(got.dtype)
        if case.rtol is None:
            same = (got == expected) | (np.isnan(got) & np.isnan(expected))
            if is_float and case.signed_zero:  # NaN signs differ between CPUs and GPUs
                same &= (np.signbit(got) == np.signbit(expected)) | np.isnan(got)
        else:
            same = np.isclose(got, expected, rtol=case.rtol, atol=1e-6, equal_nan=True)
        bad = np.flatnonzero(~same)[:4]
        if bad.size:
            rows = [
                f"a={a[x]!r} c={c[x]!r} i={i[x]} j={j[x]}: {got[x]!r} != {expected[x]!r}"
                for x in bad
            ]
            failures.append(f"{case.name}: " + "; ".join(rows))
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize(
    ("lanes", "dtype", "n", "start"), [(4, np.float32, 400, 4), (2, np.int32, 250, 2)]
)
def test_vector_copy(
    to_device: Callable[[Any], Any], lanes: int, dtype: Any, n: int, start: int
) -> None:
    """float4 / int2 loads and stores; threads past ``n`` are masked off and address memory
    past the end of ``x``."""
    x = (np.arange(n + start) * 3 - 7).astype(dtype)
    out = to_device(np.zeros(n + start, dtype))
    module = vector_copy_module(lanes, i32 if dtype == np.int32 else f32)
    launch(module, (3, 1, 1), [to_device(x), out, n, start])
    result = to_host(out)
    np.testing.assert_array_equal(result[start:], x[start:])
    np.testing.assert_array_equal(result[:start], 0)


@pytest.mark.parametrize("iters", [0, 3])
def test_vector_ops(cupy: Any, iters: int) -> None:
    rng = np.random.default_rng(iters)
    x = rng.standard_normal(128).astype(np.float32)
    idx = rng.integers(-(2**31), 2**31, 64).astype(np.int32)
    out, out_i = cupy.zeros(128, np.float32), cupy.zeros(64, np.int32)
    launch(
        vector_ops_module(), (1, 1, 1), [cupy.asarray(x), cupy.asarray(idx), out, out_i, 1.5, iters]
    )
    ref, ref_i = vector_ops_reference(x, idx, 1.5, iters)
    np.testing.assert_allclose(out.get(), ref, rtol=1e-6)  # nvcc may contract a * s + b to an fma
    np.testing.assert_array_equal(out_i.get(), ref_i)


def test_nvrtc_errors_name_the_python_line(cupy: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    original = emitter.OP_PRINTERS[arith.AddfOp]

    def broken_addf(self: emitter.Emitter, op: arith.AddfOp) -> None:
        self._stmt(op, f"float {self.names.define(op.result)} = undefined_name;")

    monkeypatch.setitem(emitter.OP_PRINTERS, arith.AddfOp, broken_addf)
    source = print_cuda(add_2d_grid_module())
    monkeypatch.setitem(emitter.OP_PRINTERS, arith.AddfOp, original)
    with pytest.raises(BackendError) as err:
        compile_ptx(source, "add_kernel", device_arch(0))
    assert "/samples/kernels.py(16): error" in str(err.value)
    assert "undefined_name" in str(err.value)


def test_ptx_is_cached_per_source_and_architecture(cupy: Any) -> None:
    source = print_cuda(row_sum_module())
    first = compile_ptx(source, "row_sum", device_arch(0))
    assert compile_ptx(source, "row_sum", device_arch(0)) is first
    assert ".entry row_sum(" in first
    assert link_cubin(first, 0, "row_sum").startswith(b"\x7fELF")


# ---------------------------------------------------------------------------- streams


def test_torch_launch_runs_on_the_current_torch_stream(torch_cuda: Any, cupy: Any) -> None:
    """torch op, kernel, torch op on a side stream: the kernel must wait for the first."""
    torch = torch_cuda
    n = 1 << 22
    x = torch.randn(n, device="cuda")
    ones = torch.ones(n, device="cuda")
    y = torch.empty_like(x)
    out = torch.empty_like(x)
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        torch.cuda._sleep(100_000_000)  # keeps the side stream busy for a while
        y.copy_(x * 2)
        launch(add_2d_grid_module(), (n // 128, 1, 1), [y, ones, out, n])
        z = out * 3
    side.synchronize()
    torch.testing.assert_close(z, (x * 2 + 1) * 3)


def test_cupy_launch_runs_on_the_current_cupy_stream(cupy: Any) -> None:
    spin = cupy.RawKernel(
        r"""extern "C" __global__ void spin(long long cycles, float* x, float v) {
            long long start = clock64();
            while (clock64() - start < cycles) {}
            x[threadIdx.x] = v;
        }""",
        "spin",
    )
    n = 128
    x = cupy.zeros(n, np.float32)
    out = cupy.zeros(n, np.float32)
    stream = cupy.cuda.Stream(non_blocking=True)
    with stream:
        spin((1,), (n,), (np.int64(200_000_000), x, np.float32(42.0)))
        launch(add_2d_grid_module(), (1, 1, 1), [x, x, out, n])
    stream.synchronize()
    np.testing.assert_array_equal(out.get(), 84.0)


# ---------------------------------------------------------------------------- seed kernels


@pytest.mark.parametrize("name", list(SEED_CASES))
def test_seed_kernel_matches_numpy_and_the_interpreter(
    name: str, to_device: Callable[[Any], Any], monkeypatch: pytest.MonkeyPatch, cuda_backend: Any
) -> None:
    """The GPU result against the case's float64 NumPy reference (which catches frontend and
    `tt`-pass bugs the interpreter shares), and against the interpreter; the interpreter's own
    result against the reference too."""
    case = SEED_CASES[name]
    host = case.args(seed=3)
    reference = case.expected(host)
    expected = [a.copy() if isinstance(a, np.ndarray) else a for a in host]
    monkeypatch.setenv("MYTRITON_BACKEND", "interpreter")
    case.kernel[case.grid](*expected, num_warps=case.num_warps, **case.constexprs)
    assert_matches_reference(expected, reference, what="interpreter: ")
    monkeypatch.setenv("MYTRITON_BACKEND", "cuda")
    device_args = [to_device(a) for a in host]
    compiled = case.kernel[case.grid](*device_args, num_warps=case.num_warps, **case.constexprs)
    assert compiled.asm["cubin"].startswith(b"\x7fELF")
    tol = compiled_tol(compiled, k=64)  # f32 dots at Triton's default precision: tf32
    assert_matches_reference(device_args, reference, to_host, what="cuda: ", **tol)
    for got, want in zip(device_args, expected, strict=True):
        if isinstance(want, np.ndarray):
            np.testing.assert_allclose(to_host(got), want, **tol)


def test_kernel_runs_on_the_arrays_device(cupy: Any, cuda_backend: Any) -> None:
    if cupy.cuda.runtime.getDeviceCount() < 2:
        pytest.skip("needs two GPUs (cuda:0 and cuda:1)")
    n = 1000
    with cupy.cuda.Device(1):
        x = cupy.arange(n, dtype=np.float32)
        out = cupy.zeros(n, np.float32)
    with cupy.cuda.Device(0):
        kernels.add_kernel[(4,)](x, x, out, n, BLOCK=256)
        assert cupy.cuda.runtime.getDevice() == 0
    with cupy.cuda.Device(1):
        np.testing.assert_array_equal(out.get(), 2 * np.arange(n, dtype=np.float32))


def test_torch_tensors_on_the_second_device(torch_cuda: Any, cuda_backend: Any) -> None:
    torch = torch_cuda
    if torch.cuda.device_count() < 2:
        pytest.skip("needs two GPUs (cuda:0 and cuda:1)")
    n = 1000
    x = torch.arange(n, dtype=torch.float32, device="cuda:1")
    out = torch.zeros(n, device="cuda:1")
    side = torch.cuda.Stream(device="cuda:1")
    with torch.cuda.device(0), torch.cuda.stream(side):
        y = x * 3  # queued on the side stream of cuda:1: the kernel must come after it
        kernels.add_kernel[(4,)](x, y, out, n, BLOCK=256)
    side.synchronize()
    torch.testing.assert_close(out.cpu(), 4 * torch.arange(n, dtype=torch.float32))


# ---------------------------------------------------------------------------- launch errors


def test_mixed_frameworks_are_rejected(cupy: Any, torch_cuda: Any, cuda_backend: Any) -> None:
    x = cupy.zeros(64, np.float32)
    y = torch_cuda.zeros(64, device="cuda")
    with pytest.raises(LaunchError, match="cannot mix array frameworks"):
        kernels.add_kernel[(1,)](x, y, x, 64, BLOCK=64)


def test_host_and_device_arrays_are_rejected(cupy: Any, cuda_backend: Any) -> None:
    x = cupy.zeros(64, np.float32)
    with pytest.raises(LaunchError, match="cannot mix host"):
        kernels.add_kernel[(1,)](x, np.zeros(64, np.float32), x, 64, BLOCK=64)


def test_arrays_on_different_devices_are_rejected(cupy: Any, cuda_backend: Any) -> None:
    if cupy.cuda.runtime.getDeviceCount() < 2:
        pytest.skip("needs two GPUs (cuda:0 and cuda:1)")
    with cupy.cuda.Device(0):
        x = cupy.zeros(64, np.float32)
    with cupy.cuda.Device(1):
        y = cupy.zeros(64, np.float32)
    with pytest.raises(LaunchError, match="one CUDA device"):
        kernels.add_kernel[(1,)](x, y, x, 64, BLOCK=64)


def test_views_pass_their_first_element(cupy: Any, cuda_backend: Any) -> None:
    """As in Triton, only the pointer to a view's first element is passed: a kernel indexing
    contiguously from it reads and writes the memory after it, whatever the view's strides."""
    x = cupy.arange(128, dtype=cupy.float32)
    out = cupy.zeros(128, np.float32)
    kernels.add_kernel[(1,)](x[3::2], x[3::2], out[5::-1], 64, BLOCK=64)
    expected = np.zeros(128, np.float32)
    expected[5:69] = 2 * np.arange(3, 67)
    np.testing.assert_array_equal(out.get(), expected)
