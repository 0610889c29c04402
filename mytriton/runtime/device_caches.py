"""A ``@jit`` function's compiled kernels seen per device (Triton's ``device_caches``).

mytriton keeps one compile cache per ``@jit`` function (``JITFunction.cache``), keyed by the
specialization and ending in where the kernel runs (``where_tag``): a GPU architecture (every
device of it shares the kernel), the host (interpreter, gpusim), or nowhere (a compile-only
launch). ``device_caches[device][0]`` is a view of the entries that run on ``device`` (an int
for a CUDA device, ``"cpu"`` for the CPU backends, as ``torch.cpu.current_device()`` names
it): it reads and deletes entries of that one cache, and deleting drops the launch plans that
hold a kernel, so the next launch compiles again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, MutableMapping
from typing import TYPE_CHECKING, Any, NamedTuple

from mytriton.backends import Backend

if TYPE_CHECKING:
    from mytriton.backends.compiled import CompiledKernel

#: the device name of the CPU backends' kernels
HOST = "cpu"
HOST_TAG: tuple[Any, ...] = ("host",)
COMPILE_ONLY_TAG: tuple[Any, ...] = ("compile-only",)


def where_tag(backend: Backend, target: int | None) -> tuple[Any, ...]:
    """The last element of a compile-cache key: where its kernel runs."""
    if backend.runs_on == "host":
        return HOST_TAG
    return COMPILE_ONLY_TAG if target is None else ("target", target)


def device_tag(device: Any) -> tuple[Any, ...]:
    """The ``where_tag`` of the kernels that run on ``device``."""
    if device == HOST:
        return HOST_TAG
    if device is None:
        return COMPILE_ONLY_TAG
    from mytriton.backends.nvidia.cuda_driver import compute_capability

    return ("target", compute_capability(int(device)))


class DeviceKernels(MutableMapping[Any, "CompiledKernel"]):
    """The entries of ``cache`` whose kernels run on one device (a live view)."""

    def __init__(
        self, cache: dict[Any, CompiledKernel], tag: tuple[Any, ...], forget: Callable[[], None]
    ):
        self._cache = cache
        self._tag = tag
        self._forget = forget

    def _mine(self, key: Any) -> bool:
        return isinstance(key, tuple) and bool(key) and key[-1] == self._tag

    def __getitem__(self, key: Any) -> CompiledKernel:
        if not self._mine(key):
            raise KeyError(key)
        return self._cache[key]

    def __setitem__(self, key: Any, kernel: CompiledKernel) -> None:
        if not self._mine(key):
            raise KeyError(f"{key!r} is not a key of a kernel for this device")
        self._cache[key] = kernel

    def __delitem__(self, key: Any) -> None:
        if not self._mine(key):
            raise KeyError(key)
        del self._cache[key]
        self._forget()

    def __iter__(self) -> Iterator[Any]:
        return iter([k for k in self._cache if self._mine(k)])

    def __len__(self) -> int:
        return sum(1 for k in self._cache if self._mine(k))

    def clear(self) -> None:
        for key in list(self):
            del self._cache[key]
        self._forget()


class DeviceCache(NamedTuple):
    """``device_caches[device]``: the kernels for it (Triton's tuple starts so too)."""

    kernels: DeviceKernels
    device: Any


class DeviceCaches:
    """``JITFunction.device_caches``: ``[device]`` gives that device's ``DeviceCache``;
    ``clear()`` forgets every compiled kernel."""

    def __init__(self, cache: dict[Any, CompiledKernel], forget: Callable[[], None]):
        self._cache = cache
        self._forget = forget

    def __getitem__(self, device: Any) -> DeviceCache:
        return DeviceCache(DeviceKernels(self._cache, device_tag(device), self._forget), device)

    def clear(self) -> None:
        self._cache.clear()
        self._forget()

    def __repr__(self) -> str:
        return f"DeviceCaches({len(self._cache)} kernels)"
