"""The generated fast path of a launch plan: it launches only what the general path would launch
with the same plan, and hands every other launch (another dtype, alignment, width, value 1,
constexpr, option, environment, device; arguments that do not bind) to the general path.

A fake GPU backend records how each launch arrived: ``general`` (the plan's launch function,
through ``Backend.launch``) or ``fast`` (the launch code the fast path inlines, given
addresses). Arrays are fake CuPy arrays: the fast path reads their dtype, device and address.
"""

from __future__ import annotations

import ctypes
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.backends import Backend, LaunchOptions
from mytriton.backends.arrays import ArrayInfo
from mytriton.backends.compiled import CompiledKernel
from mytriton.backends.nvidia.device_launcher import LaunchCode, NativeLaunch
from mytriton.errors import DeviceAssertionError, GlobalChangedError, LaunchError
from mytriton.runtime import jit as jit_module
from mytriton.runtime import native_build


class _Device:
    def __init__(self, index: int):
        self.id = index


class _Memory:
    def __init__(self, ptr: int):
        self.ptr = ptr


class FakeDeviceArray:
    """What mytriton reads of a CuPy array: dtype, device, size and address."""

    __cuda_array_interface__: dict[str, Any] = {}

    def __init__(self, dtype: str = "float32", ptr: int = 0x10000, device: int = 0):
        self.dtype = np.dtype(dtype)
        self.device = _Device(device)
        self._data = _Memory(ptr)
        self.nbytes = 1024

    @property
    def data(self) -> _Memory:  # a property, as CuPy's
        return self._data


FakeDeviceArray.__module__ = "cupy.fake"


_KIND = {"i1": "i32", "i32": "i32", "i64": "i64", "ui64": "i64", "f32": "f32", "f64": "f64"}
_READ = {
    "ptr": ctypes.c_uint64,
    "i32": ctypes.c_int32,
    "i64": ctypes.c_int64,
    "f32": ctypes.c_float,
    "f64": ctypes.c_double,
}
_LAUNCH_KERNEL = ctypes.CFUNCTYPE(
    ctypes.c_int,
    ctypes.c_void_p,
    *[ctypes.c_uint] * 7,
    ctypes.c_void_p,
    ctypes.POINTER(ctypes.c_void_p),
    ctypes.c_void_p,
)


def abi_kinds(kernel: CompiledKernel) -> tuple[str, ...]:
    """The ABI kind of each runtime parameter, from the kernel's `tt` function."""
    assert kernel.module is not None
    func = next(op for op in kernel.module.walk() if op.name == "func.func")
    types = [str(t) for t in func.function_type.inputs.data]  # type: ignore[attr-defined]
    return tuple("ptr" if t.startswith("!tt.ptr") else _KIND[t] for t in types)


class FakeGpuBackend(Backend):
    name = "fakegpu"
    runs_on = "gpu"

    def __init__(self, native: bool) -> None:
        self.native = native
        self.compiled: list[CompiledKernel] = []
        self.launches: list[tuple[str, tuple[int, int, int], tuple[Any, ...], int | None]] = []
        self._callbacks: list[Any] = []  # keeps the C callbacks alive
        #: native launches: (get_device, set_device) of a machine with several GPUs, and the
        #: hook called after each launch
        self.switch: tuple[Any, Any] | None = None
        self.after: Any = None
        self.current_device = 0  # what the fake get_device/set_device keep

    def load(
        self, kernel: CompiledKernel, artifacts: Mapping[str, Any], options: LaunchOptions
    ) -> None:
        self.compiled.append(kernel)
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
        device = next(a for a in arrays if a is not None).device
        self.launches.append(("general", grid, tuple(args), device))

    def launch_code(
        self, kernel: CompiledKernel, arrays: Sequence[ArrayInfo | None], options: LaunchOptions
    ) -> LaunchCode:
        device = next(a for a in arrays if a is not None).device

        def record(x: int, y: int, z: int, args: tuple[Any, ...]) -> None:
            self.launches.append(("fast", (x, y, z), args, device))

        return LaunchCode(
            "fake",
            {"_mt_Lrecord": record},
            lambda args, stream: (
                f"_mt_Lrecord(_mt_x, _mt_y, _mt_z, ({''.join(a + ', ' for a in args)}))"
            ),
            self._native(kernel, device) if self.native else None,
        )

    def _native(self, kernel: CompiledKernel, device: int | None) -> NativeLaunch:
        """A native launch whose ``cuLaunchKernel`` is a C callback decoding the parameters."""
        kinds = abi_kinds(kernel)

        def launch_kernel(f: Any, x: int, y: int, z: int, *rest: Any) -> int:
            _bx, _by, _bz, _shared, stream, params, _extra = rest
            assert f == 0xF00 and stream == 0x5000
            args = tuple(_READ[k].from_address(params[i]).value for i, k in enumerate(kinds))
            launched_on = self.current_device if self.switch is not None else device
            self.launches.append(("fast", (x, y, z), args, launched_on))
            return 0

        callback = _LAUNCH_KERNEL(launch_kernel)
        self._callbacks.append(callback)
        return NativeLaunch(
            launch_address=ctypes.cast(callback, ctypes.c_void_p).value or 0,
            function=0xF00,
            block=(128, 1, 1),
            params=kinds,
            stream_of=lambda: 0x5000,
            stream_arg=None,
            on_error=lambda *a: False,
            device=device or 0,
            switch=self.switch,
            after=self.after,
        )

    def routes(self) -> list[str]:
        return [route for route, *_ in self.launches]


@pytest.fixture(params=["python", "native"])
def gpu(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> FakeGpuBackend:
    """The fake GPU backend, giving plans the generated Python fast path or the native one."""
    return install(FakeGpuBackend(native=request.param == "native"), monkeypatch)


@pytest.fixture
def native_gpu(monkeypatch: pytest.MonkeyPatch) -> FakeGpuBackend:
    """The fake GPU backend giving plans the native fast path."""
    return install(FakeGpuBackend(native=True), monkeypatch)


def install(backend: FakeGpuBackend, monkeypatch: pytest.MonkeyPatch) -> FakeGpuBackend:
    monkeypatch.setattr(jit_module, "get_backend", lambda name: backend)
    add_kernel.clear_cache()
    counted_kernel.clear_cache()
    if backend.native:
        assert native_build.load() is not None, native_build.status()
    return backend


@triton.jit
def add_kernel(x, y, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out + offs, tl.load(x + offs, mask=mask) + tl.load(y + offs, mask=mask), mask=mask)


@triton.jit(do_not_specialize=["n"])
def counted_kernel(out, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out + offs, tl.zeros((BLOCK,), tl.float32) + n, mask=offs < n)


X, Y, OUT = FakeDeviceArray(ptr=0x1000), FakeDeviceArray(ptr=0x2000), FakeDeviceArray(ptr=0x3000)


def launch_base(**changes: Any) -> CompiledKernel:
    args: dict[str, Any] = {"x": X, "y": Y, "out": OUT, "n": 100, "BLOCK": 16}
    options = {k: changes.pop(k) for k in list(changes) if k in ("num_warps", "num_stages")}
    args.update(changes)
    return add_kernel[(2,)](**args, **options)


def test_later_launches_take_the_fast_path_with_addresses(gpu: FakeGpuBackend) -> None:
    first = add_kernel[(2,)](X, Y, OUT, 100, BLOCK=16)
    second = add_kernel[(2,)](X, Y, OUT, 100, BLOCK=16)
    third = add_kernel[(3, 2)](X, Y, out=OUT, n=100, BLOCK=16)  # keywords bind the same
    assert first is second is third and len(gpu.compiled) == 1
    assert gpu.routes() == ["general", "fast", "fast"]
    assert gpu.launches[1] == ("fast", (2, 1, 1), (0x1000, 0x2000, 0x3000, 100), 0)
    assert gpu.launches[2][1] == (3, 2, 1)


@pytest.mark.parametrize(
    ("change", "recompiles"),
    [
        ({"x": FakeDeviceArray("float16", ptr=0x1000)}, True),  # dtype
        ({"y": FakeDeviceArray(ptr=0x2004)}, True),  # 16-byte alignment
        ({"n": 1}, True),  # compiled in as 1
        ({"n": 2**40}, True),  # int64
        ({"n": 2**63}, True),  # uint64
        ({"n": 96}, True),  # divisible by 16
        ({"n": 100.0}, True),  # a float
        ({"n": True}, True),  # a bool
        ({"BLOCK": 32}, True),  # constexpr value
        ({"BLOCK": tl.constexpr(16)}, False),  # wrapped: same code, another plan
        ({"num_warps": 8}, True),  # a launch option
        ({"out": FakeDeviceArray(ptr=0x3000, device=1)}, False),  # the device (same code)
        ({"x": FakeDeviceArray(ptr=0x1000, device=1), "y": FakeDeviceArray(device=1),
          "out": FakeDeviceArray(device=1)}, False),
    ],
    ids=[
        "dtype", "alignment", "one", "int64", "uint64", "divisible", "float", "bool",
        "constexpr", "constexpr-wrapped", "num_warps", "mixed-devices", "device",
    ],
)  # fmt: skip
def test_a_launch_unlike_the_plan_s_leaves_the_fast_path(
    gpu: FakeGpuBackend, change: dict[str, Any], recompiles: bool
) -> None:
    base = launch_base()
    launch_base()
    assert gpu.routes() == ["general", "fast"]
    if "out" in change and "x" not in change:  # arrays on two devices: the general path says so
        with pytest.raises(LaunchError, match="one CUDA device"):
            launch_base(**change)
        return
    other = launch_base(**change)
    assert gpu.routes()[2] == "general"  # the general path found or built the plan
    assert (other is not base) == recompiles
    assert len(gpu.compiled) == (2 if recompiles else 1)
    if "x" in change and not recompiles:
        assert gpu.launches[2][3] == 1  # launched on the arrays' device
    assert launch_base(**change) is other and gpu.routes()[3] == "fast"
    assert launch_base() is base and gpu.routes()[4:] == ["general", "fast"][:1]


def test_environment_changes_leave_the_fast_path(
    gpu: FakeGpuBackend, monkeypatch: pytest.MonkeyPatch
) -> None:
    base = launch_base()
    launch_base()
    monkeypatch.setenv("TRITON_DEBUG", "1")  # debug kernels: another compile
    debug = launch_base()
    assert debug is not base and debug.metadata.get("debug", True)
    assert gpu.routes() == ["general", "fast", "general"]
    monkeypatch.delenv("TRITON_DEBUG")
    assert launch_base() is base and gpu.routes()[-1] == "general"


def test_arguments_that_do_not_bind_are_launch_errors(gpu: FakeGpuBackend) -> None:
    launch_base()
    launch_base()
    with pytest.raises(LaunchError, match="missing a required argument"):
        add_kernel[(1,)](X, Y, BLOCK=16)
    with pytest.raises(LaunchError, match="unexpected keyword argument 'BLOKC'"):
        add_kernel[(1,)](X, Y, OUT, 100, BLOCK=16, BLOKC=16)
    with pytest.raises(LaunchError, match="too many positional arguments"):
        add_kernel[(1,)](X, Y, OUT, 100, 16, 17)
    assert gpu.routes() == ["general", "fast"]


def test_grid_function_is_called_once_with_every_parameter(gpu: FakeGpuBackend) -> None:
    seen: list[dict[str, Any]] = []

    def grid(meta: dict[str, Any]) -> tuple[int]:
        seen.append(meta)
        return (triton.cdiv(meta["n"], meta["BLOCK"]),)

    for _ in range(3):
        add_kernel[grid](X, Y, OUT, 100, BLOCK=16)
    assert gpu.routes() == ["general", "fast", "fast"] and len(seen) == 3
    assert seen[2] == {"x": X, "y": Y, "out": OUT, "n": 100, "BLOCK": 16}
    assert gpu.launches[2][1] == (7, 1, 1)


def test_bad_grid_on_the_fast_path_is_a_launch_error_evaluated_once(
    gpu: FakeGpuBackend,
) -> None:
    launch_base()
    launch_base()
    calls = []

    def grid(meta: dict[str, Any]) -> Any:
        calls.append(1)
        return (1.5,)

    with pytest.raises(LaunchError, match="must be an integer"):
        add_kernel[grid](X, Y, OUT, 100, BLOCK=16)
    assert calls == [1]


def test_empty_grid_launches_nothing_on_the_fast_path(gpu: FakeGpuBackend) -> None:
    launch_base()
    launch_base()
    assert add_kernel[(0,)](X, Y, OUT, 100, BLOCK=16) is not None
    assert gpu.routes() == ["general", "fast"]


def test_do_not_specialize_values_stay_on_the_fast_path(gpu: FakeGpuBackend) -> None:
    for n in (16, 17, 1, 32):
        counted_kernel[(1,)](OUT, n, BLOCK=16)
    assert gpu.routes() == ["general", "fast", "fast", "fast"]
    assert [launch[2][1] for launch in gpu.launches] == [16, 17, 1, 32]
    assert len(gpu.compiled) == 1
    counted_kernel[(1,)](OUT, 2**40, BLOCK=16)  # int64: another kernel
    assert gpu.routes()[-1] == "general" and len(gpu.compiled) == 2


def test_grid_of_four_entries_on_the_fast_path(gpu: FakeGpuBackend) -> None:
    launch_base()
    add_kernel[(3, 2, 1, 5)](X, Y, OUT, 100, BLOCK=16)
    assert gpu.routes() == ["general", "fast"] and gpu.launches[1][1] == (3, 2, 1)


def test_a_pre_run_hook_is_called_on_every_launch(gpu: FakeGpuBackend) -> None:
    """Adding a hook drops the fast path of the plans made before it (it would skip it)."""
    launch_base()
    launch_base()
    calls: list[tuple[Any, ...]] = []
    add_kernel.add_pre_run_hook(lambda *args, **kwargs: calls.append((args, kwargs)))
    try:
        for _ in range(3):
            add_kernel[(2,)](X, Y, OUT, 100, BLOCK=16)
        assert gpu.routes() == ["general", "fast", "general", "general", "general"]
        assert calls == [((X, Y, OUT, 100), {"BLOCK": 16})] * 3
        with pytest.raises(LaunchError, match="not callable"):
            add_kernel.add_pre_run_hook(3)  # type: ignore[arg-type]
    finally:
        add_kernel.pre_run_hooks.clear()


FAST_SCALE = tl.constexpr(2.0)
FAST_OFFSET = tl.constexpr(1000.5)


@triton.jit
def scaled_kernel(out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out + offs, tl.zeros((BLOCK,), tl.float32) + FAST_SCALE + FAST_OFFSET)


def test_a_changed_global_is_caught_on_the_fast_path(
    gpu: FakeGpuBackend, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As Triton checks on every launch: a launch that would take the fast path raises too."""
    scaled_kernel.clear_cache()
    scaled_kernel[(1,)](OUT, BLOCK=16)
    scaled_kernel[(1,)](OUT, BLOCK=16)
    assert gpu.routes() == ["general", "fast"]
    monkeypatch.setitem(globals(), "FAST_OFFSET", tl.constexpr(7.0))
    with pytest.raises(
        GlobalChangedError, match=r"FAST_OFFSET has changed .* to constexpr\[7\.0\]"
    ):
        scaled_kernel[(1,)](OUT, BLOCK=16)
    monkeypatch.setitem(globals(), "FAST_OFFSET", tl.constexpr(float("1000.5")))
    scaled_kernel[(1,)](OUT, BLOCK=16)  # an equal new object: the general path, once
    scaled_kernel[(1,)](OUT, BLOCK=16)
    assert gpu.routes() == ["general", "fast", "general", "fast"]
    FAST_SCALE.value = 3.0  # a constexpr changed in place
    try:
        with pytest.raises(GlobalChangedError, match=r"from constexpr\[2.0\] to constexpr\[3.0\]"):
            scaled_kernel[(1,)](OUT, BLOCK=16)
    finally:
        FAST_SCALE.value = 2.0
    assert gpu.routes() == ["general", "fast", "general", "fast"]  # nothing launched
    scaled_kernel.clear_cache()


@triton.jit
def tuple_kernel(ptrs, n):
    tl.store(ptrs[0], tl.load(ptrs[1]) + n[0])


def test_tuple_arguments_take_the_general_path_flattened(gpu: FakeGpuBackend) -> None:
    """No fast path guards a tuple: each launch specializes it and passes its leaves."""
    a, b = FakeDeviceArray(ptr=0x1000), FakeDeviceArray(ptr=0x2000)
    tuple_kernel.clear_cache()
    tuple_kernel[(1,)]((a, b), (5, 1))
    tuple_kernel[(1,)]((b, a), (7, 1))
    assert gpu.routes() == ["general", "general"] and len(gpu.compiled) == 1
    assert [launch[2] for launch in gpu.launches] == [(a, b, 5), (b, a, 7)]


def test_clear_cache_drops_the_fast_path(gpu: FakeGpuBackend) -> None:
    launch_base()
    launch_base()
    add_kernel.clear_cache()
    launch_base()
    assert gpu.routes() == ["general", "fast", "general"] and len(gpu.compiled) == 2


def test_native_launch_makes_the_arrays_device_current_and_restores_it(
    native_gpu: FakeGpuBackend,
) -> None:
    gpu = native_gpu
    switched: list[int] = []

    def set_device(d: int) -> None:
        switched.append(d)
        gpu.current_device = d

    gpu.switch = (lambda: gpu.current_device, set_device)
    x, y, out = (FakeDeviceArray(ptr=p, device=1) for p in (0x1000, 0x2000, 0x3000))
    for _ in range(2):
        add_kernel[(1,)](x, y, out, 100, BLOCK=16)
    assert gpu.routes() == ["general", "fast"]
    assert gpu.launches[1][3] == 1  # launched with device 1 current
    assert switched == [1, 0] and gpu.current_device == 0


def test_native_after_hook_sees_the_stream_and_its_error_propagates(
    native_gpu: FakeGpuBackend,
) -> None:
    gpu = native_gpu
    seen: list[int] = []

    def after(stream: int) -> None:
        seen.append(stream)
        if len(seen) > 1:
            raise DeviceAssertionError("device assertion failed in kernel `add_kernel`")

    gpu.after = after
    launch_base()
    launch_base()
    assert seen == [0x5000] and gpu.routes() == ["general", "fast"]
    with pytest.raises(DeviceAssertionError, match="device assertion failed"):
        launch_base()
