"""A kernel of scalar arguments only (``kernel[grid](6)``): Triton runs it on the current device,
so its load hooks and launch hooks run; so do the GPU backends where a GPU is present. Without
one it compiles only, as a launch on host arrays does."""

from __future__ import annotations

import sys
import types

import pytest

from mytriton.backends import get_backend
from mytriton.backends.nvidia import cuda_driver
from mytriton.errors import BackendUnavailableError
from mytriton.runtime import launch as launch_module
from mytriton.runtime.launch import can_execute


@pytest.mark.parametrize("device", [None, 0])
def test_scalar_launch_runs_where_a_device_is(
    monkeypatch: pytest.MonkeyPatch, device: int | None
) -> None:
    monkeypatch.setattr(launch_module, "current_device", lambda: device)
    assert can_execute(get_backend("cuda"), [None, None]) is (device is not None)
    assert can_execute(get_backend("mlir"), []) is (device is not None)
    assert can_execute(get_backend("interpreter"), [None]) is True


def test_scalar_launch_place(monkeypatch: pytest.MonkeyPatch) -> None:
    """The current device; torch's current stream where torch is loaded, else CuPy's."""
    monkeypatch.setattr(cuda_driver, "current_device", lambda: 1)
    monkeypatch.delitem(sys.modules, "torch", raising=False)
    assert cuda_driver.launch_place([None]) == ("cupy", 1)
    monkeypatch.setitem(sys.modules, "torch", types.ModuleType("torch"))
    assert cuda_driver.launch_place([]) == ("torch", 1)
    monkeypatch.setattr(cuda_driver, "current_device", lambda: None)
    with pytest.raises(BackendUnavailableError, match="no CUDA device"):
        cuda_driver.launch_place([None])


@pytest.mark.gpu
@pytest.mark.parametrize("backend", ["cuda", "mlir"])
@pytest.mark.parametrize("framework", ["cupy", "torch"])
def test_scalar_kernel_loads_and_launches_on_the_gpu(
    monkeypatch: pytest.MonkeyPatch, backend: str, framework: str
) -> None:
    """Triton's test_load_hook and test_metadata: the load hooks and the launch hook run."""
    import mytriton as triton
    from mytriton import knobs
    from tests.gpu_required import require_gpu

    require_gpu(framework)
    if framework == "cupy":
        monkeypatch.delitem(sys.modules, "torch", raising=False)
    monkeypatch.setenv("MYTRITON_BACKEND", backend)
    seen: list[object] = []

    @triton.jit(launch_metadata=lambda grid, kernel, args: {"grid": grid, "x": args["x"]})
    def scalar_only(x):
        pass

    def start(module, function, name, metadata_group, hash):
        seen.append(("start", hash))

    def end(module, function, name, metadata_group, hash):
        seen.append(("end", hash))

    def enter(metadata):
        seen.append(metadata.get())

    knobs.runtime.kernel_load_start_hook.add(start)
    knobs.runtime.kernel_load_end_hook.add(end)
    knobs.runtime.launch_enter_hook.add(enter)
    try:
        scalar_only[(1, 3, 2)](6)
    finally:
        knobs.runtime.kernel_load_start_hook.remove(start)
        knobs.runtime.kernel_load_end_hook.remove(end)
        knobs.runtime.launch_enter_hook.remove(enter)
    assert [s[0] for s in seen[:2]] == ["start", "end"] and seen[0][1] == seen[1][1]
    assert seen[2]["grid"] == (1, 3, 2) and seen[2]["x"] == 6
    for value in (7, 8, 9):  # without hooks: the launch plans' fast paths
        scalar_only[(2,)](value)
