"""``CompiledKernel.run``'s fast path (``compat/runner.py``): made by the first launch on a GPU
backend, it launches later calls whose pointer arguments are arrays of the first launch's type
on its device with the backend's launch statements, and hands every other call to the general
path (hooks, another array type or device, an odd grid or stream, a wrong argument count)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

from mytriton.backends.nvidia.device_launcher import LaunchCode
from mytriton.compat import runner as runner_module
from mytriton.compat.runner import KernelArgumentCountError, Runner, fast_maker
from mytriton.knobs import HookChain
from tests.gpu_required import require_gpu


class FakeTensor:
    """Stands for a CUDA torch tensor: the guard reads its type, device and address."""

    def __init__(self, address: int, device: int = 0) -> None:
        self.address, self.device = address, device

    def get_device(self) -> int:
        return self.device

    def data_ptr(self) -> int:
        return self.address


FakeTensor.__module__ = "torch.fake"


class OtherTensor(FakeTensor):
    pass


class FakeSignature:
    def __init__(self, params: Sequence[str]) -> None:
        self.params = tuple(params)


class FakeBinary:
    def __init__(self, params: Sequence[str]) -> None:
        self.signature = FakeSignature(params)


class FakeKernel:
    """A runtime kernel of two pointers and an i32 (the launch reads ``binary.signature``)."""

    def __init__(self, scratch: int = 0) -> None:
        self.binary = FakeBinary(("ptr", "i32", "ptr"))
        self.metadata = {"global_scratch": scratch} if scratch else {}


class FakeBackend:
    """Launch statements that record the grid, the values passed and the stream."""

    def __init__(self) -> None:
        self.launched: list[tuple[Any, ...]] = []

    def launch_code(self, kernel: Any, arrays: Any, options: Any) -> LaunchCode:
        def render(args: list[str], stream: str | None) -> str:
            return (
                f"_mt_Lrecord((_mt_x, _mt_y, _mt_z), ({''.join(a + ', ' for a in args)}), {stream})"
            )

        namespace = {"_mt_Lrecord": lambda *a: self.launched.append(a)}
        return LaunchCode("k", namespace, render)


@pytest.fixture
def fake_arrays(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runner_module, "is_array", lambda a: isinstance(a, FakeTensor))
    monkeypatch.setattr(runner_module, "describe_array", lambda a, what: a.device)


def make_runner(backend: FakeBackend, kernel: Any) -> tuple[Runner, list[tuple[Any, ...]]]:
    """A runner of a kernel with parameters (x, n, BLOCK constexpr, out): runtime 0, 1, 3."""
    general: list[tuple[Any, ...]] = []

    def launcher(grid: Any, args: Sequence[Any], stream: int | None = None) -> None:
        general.append((grid, tuple(args), stream))

    layout = (4, (0, 1, 3))
    make = fast_maker("k", layout, kernel, backend, None)  # type: ignore[arg-type]
    return Runner("k", layout, launcher, True, make), general


def call(
    runner: Runner, *args: Any, grid: Any = (3, 1, 1), stream: Any = 7, hook: Any = None
) -> None:
    runner(*grid, stream, None, None, None, hook, None, *args)


@pytest.mark.usefixtures("fake_arrays")
def test_an_empty_hook_chain_is_no_hook() -> None:
    """Inductor passes ``knobs.runtime.launch_enter_hook``, a ``HookChain``: empty, the launch
    takes the fast path; once a hook is in it, the general path, which calls the hook."""
    backend = FakeBackend()
    runner, general = make_runner(backend, FakeKernel())
    chain: HookChain[Any] = HookChain()
    call(runner, FakeTensor(0x100), 10, 64, FakeTensor(0x200), hook=chain)
    call(runner, FakeTensor(0x100), 10, 64, FakeTensor(0x200), hook=chain)
    assert len(backend.launched) == 1 and len(general) == 1
    seen: list[Any] = []
    chain.add(seen.append)
    call(runner, FakeTensor(0x100), 10, 64, FakeTensor(0x200), hook=chain)
    assert len(backend.launched) == 1 and len(general) == 2 and seen == [None]


@pytest.mark.usefixtures("fake_arrays")
def test_later_launches_take_the_fast_path() -> None:
    backend = FakeBackend()
    runner, general = make_runner(backend, FakeKernel())
    x, out = FakeTensor(0x100), FakeTensor(0x200)
    call(runner, x, 10, 64, out)
    assert len(general) == 1 and backend.launched == []
    call(runner, FakeTensor(0x300), 11, 64, FakeTensor(0x400), grid=(2, 3, 4), stream=None)
    assert backend.launched == [((2, 3, 4), (0x300, 11, 0x400), None)]
    assert len(general) == 1


@pytest.mark.usefixtures("fake_arrays")
@pytest.mark.parametrize(
    "args, kw",
    [
        ((FakeTensor(1, device=1), 10, 64, FakeTensor(2)), {}),  # another device
        ((OtherTensor(1), 10, 64, FakeTensor(2)), {}),  # another array type
        ((FakeTensor(1), 10, 64, 0x200), {}),  # an address for a pointer
        ((FakeTensor(1), 10, 64, FakeTensor(2)), {"hook": lambda metadata: None}),
        ((FakeTensor(1), 10, 64, FakeTensor(2)), {"grid": (0, 1, 1)}),  # nothing to launch
        ((FakeTensor(1), 10, 64, FakeTensor(2)), {"grid": (np.int64(2), 1, 1)}),
        ((FakeTensor(1), 10, 64, FakeTensor(2)), {"grid": (1, 65536, 1)}),
        ((FakeTensor(1), 10, 64, FakeTensor(2)), {"stream": np.int64(5)}),
    ],
)
def test_other_launches_take_the_general_path(args: tuple[Any, ...], kw: dict[str, Any]) -> None:
    backend = FakeBackend()
    runner, general = make_runner(backend, FakeKernel())
    call(runner, FakeTensor(0x100), 10, 64, FakeTensor(0x200))
    call(runner, *args, **kw)
    assert backend.launched == [] and len(general) == 2


@pytest.mark.usefixtures("fake_arrays")
def test_a_wrong_argument_count_is_still_the_typed_error() -> None:
    backend = FakeBackend()
    runner, general = make_runner(backend, FakeKernel())
    call(runner, FakeTensor(0x100), 10, 64, FakeTensor(0x200))
    with pytest.raises(KernelArgumentCountError, match="takes the kernel's 4 arguments"):
        call(runner, FakeTensor(0x100), 10, FakeTensor(0x200))
    assert backend.launched == [] and len(general) == 1


@pytest.mark.usefixtures("fake_arrays")
@pytest.mark.parametrize(
    "first", [(0x100, 10, 64, FakeTensor(2)), (FakeTensor(1, -1), 10, 64, FakeTensor(2))]
)
def test_no_fast_path_without_gpu_arrays_in_every_pointer(first: tuple[Any, ...]) -> None:
    """An address, or a host tensor (device -1), for a pointer on the first launch: every
    launch stays on the general path."""
    backend = FakeBackend()
    runner, general = make_runner(backend, FakeKernel())
    call(runner, *first)
    call(runner, FakeTensor(0x100), 10, 64, FakeTensor(0x200))
    assert backend.launched == [] and len(general) == 2


@pytest.mark.usefixtures("fake_arrays")
def test_no_fast_path_for_a_kernel_that_needs_scratch() -> None:
    backend = FakeBackend()
    runner, general = make_runner(backend, FakeKernel(scratch=128))
    for _ in range(2):
        call(runner, FakeTensor(0x100), 10, 64, FakeTensor(0x200))
    assert backend.launched == [] and len(general) == 2


@pytest.mark.parametrize("gpu_backend", ["cuda", "mlir"])
def test_fast_path_launches_compute_right_on_the_gpu(
    gpu_backend: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On the GPU: the second and later launches (fast path) give the right sums on new
    tensors and sizes; a parameter (another tensor type) takes the general path, which
    still computes it."""
    torch = require_gpu("torch")
    cupy = require_gpu("cupy")
    monkeypatch.setenv("MYTRITON_BACKEND", gpu_backend)
    monkeypatch.setenv("MYTRITON_RUN_FAST_PATH", "1")
    from mytriton.compiler import ASTSource
    from mytriton.compiler import compile as triton_compile
    from mytriton.runtime.driver import GPUTarget
    from tests.compat import kernels
    from tests.compat.test_compile_api import ADD_SIGNATURE

    capability = int(cupy.cuda.Device().compute_capability)
    src = ASTSource(kernels.add_kernel, ADD_SIGNATURE, {"BLOCK": 64})
    kernel = triton_compile(src, target=GPUTarget("cuda", capability, 32), options={})
    stream = torch.cuda.current_stream().cuda_stream
    for n in (1000, 77, 4096, 1):
        x = torch.randn(n, device="cuda")
        y = torch.randn(n, device="cuda")
        out = torch.full((n,), float("nan"), device="cuda")
        grid = (n + 63) // 64
        kernel.run(grid, 1, 1, stream, kernel.function, None, None, None, None, x, y, out, n, 64)
        torch.testing.assert_close(out, x + y, rtol=0, atol=0)
    fast = kernel._live.value[2].call
    assert getattr(fast, "__name__", "") == "fast", "no fast path was made"
    param = torch.nn.Parameter(torch.ones(100, device="cuda"), requires_grad=False)
    out = torch.zeros(100, device="cuda")
    kernel.run(2, 1, 1, stream, None, None, None, None, None, param, param, out, 100, 64)
    torch.testing.assert_close(out, torch.full_like(out, 2.0))
