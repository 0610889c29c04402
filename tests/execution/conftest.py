"""The backends every execution test runs on: the interpreter and gpusim always (CI has no GPU),
the cuda and mlir backends with CuPy arrays and with torch tensors where a GPU is present.

``MYTRITON_REQUIRE_CUDA=1`` turns a missing GPU into a failure instead of a skip, so a GPU run
cannot silently test nothing (``tests/gpu_required.py``, shared by every GPU fixture).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.tools.tensor_descriptor import TensorDescriptor
from tests.gpu_required import require_gpu

BACKENDS = [
    ("interpreter", "numpy"),
    ("gpusim", "numpy"),
    ("cuda", "cupy"),
    ("cuda", "torch"),
    ("mlir", "cupy"),
    ("mlir", "torch"),
]


# ml_dtypes' fp8 dtypes (torch has the same names) and the tl dtypes they hold
_FP8 = {
    "float8_e4m3fn": tl.float8e4nv,
    "float8_e5m2": tl.float8e5,
    "float8_e4m3fnuz": tl.float8e4b8,
    "float8_e5m2fnuz": tl.float8e5b16,
}


@dataclass(frozen=True)
class AddressTable:
    """An int64 array holding the addresses of ``arrays`` (a grouped GEMM's table of matrices),
    made where the kernel runs: the host arrays' on the CPU backends, their device copies' on a
    GPU (which are copied back after the launch like any argument's)."""

    arrays: tuple[np.ndarray, ...]

    def host(self) -> np.ndarray:
        return np.array([a.ctypes.data for a in self.arrays], np.int64)


@dataclass
class Runner:
    """Launches a kernel on one backend with NumPy arrays, copying through the GPU if needed.

    A NumPy view becomes the same view (shape, strides, offset) of a device copy of the array
    owning its memory, one copy per such array, so views sharing memory share it on the GPU
    too; after the launch each copy is copied back whole, as a kernel may store anywhere in it.
    """

    backend: str
    framework: str

    @property
    def takes_small_dots(self) -> bool:
        """Whether this backend compiles a ``tl.dot`` below Triton's NVIDIA minimum (K < 16;
        < 32 for 8-bit operands): the CPU backends do, as Triton's interpreter; the cuda and
        mlir backends refuse it with ``DotSizeError``, as Triton's NVIDIA backend."""
        return self.backend in ("interpreter", "gpusim")

    def __call__(
        self, kernel: Any, grid: Any, *args: Any, num_warps: int = 4, **constexprs: Any
    ) -> Any:
        if self.framework == "numpy":
            host = [a.host() if isinstance(a, AddressTable) else a for a in args]
            return kernel[grid](*host, num_warps=num_warps, **constexprs)
        blocks: dict[int, tuple[np.ndarray, Any]] = {}
        device_args = [self._to_device(a, blocks) for a in args]
        compiled = kernel[grid](*device_args, num_warps=num_warps, **constexprs)
        for host, dev in blocks.values():
            if host.flags.writeable:
                np.copyto(host, self._to_host(dev).view(np.uint8))
        for a, d in zip(args, device_args, strict=True):  # what a pre_hook set on a descriptor
            if isinstance(a, TensorDescriptor):
                a.block_shape = list(d.block_shape)
        return compiled

    def _to_device(self, a: Any, blocks: dict[int, tuple[np.ndarray, Any]]) -> Any:
        """``a`` as a view of the device copy of its owner's bytes (made once per owner)."""
        if isinstance(a, triton.TensorWrapper):
            return triton.reinterpret(self._to_device(a.base, blocks), a.dtype)
        if isinstance(a, AddressTable):  # the device copies' addresses, in a device array
            copies = [self._to_device(x, blocks) for x in a.arrays]
            ptrs = [c.data.ptr if self.framework == "cupy" else c.data_ptr() for c in copies]
            return self._to_device(np.array(ptrs, np.int64), blocks)
        if isinstance(a, TensorDescriptor):  # the same descriptor of the base's device copy
            base = self._to_device(a.base, blocks)
            return TensorDescriptor(base, a.shape, a.strides, a.block_shape, a.padding)
        if isinstance(a, tuple):  # a tuple argument: its arrays copied (a NamedTuple stays one)
            items = [self._to_device(x, blocks) for x in a]
            return type(a)(*items) if hasattr(type(a), "_fields") else type(a)(items)
        if not isinstance(a, np.ndarray):
            return a
        owner = a
        while isinstance(owner.base, np.ndarray):
            owner = owner.base
        raw = owner.ravel(order="K").view(np.uint8)  # its memory, in address order
        assert np.shares_memory(raw, owner), "the test's array must own C/F-contiguous memory"
        offset = a.ctypes.data - raw.ctypes.data
        if id(owner) not in blocks:
            blocks[id(owner)] = (raw, self._bytes_to_device(raw))
        dev = blocks[id(owner)][1]
        if self.framework == "cupy":
            import cupy

            if a.dtype.name == "bfloat16":
                pytest.skip("CuPy has no bfloat16 dtype (torch tensors test it)")
            if a.dtype.name in _FP8:  # CuPy has no fp8 dtypes: bytes, reinterpreted (Triton's way)
                raw = cupy.ndarray(a.shape, np.uint8, memptr=dev.data + offset, strides=a.strides)
                return triton.reinterpret(raw, _FP8[a.dtype.name])
            return cupy.ndarray(a.shape, a.dtype, memptr=dev.data + offset, strides=a.strides)
        import torch

        if any(s < 0 for s in a.strides):
            pytest.skip("torch tensors cannot have negative strides")
        size = a.dtype.itemsize
        if a.dtype.name == "bfloat16" or a.dtype.name in _FP8:  # ml_dtypes' NumPy types
            typed = dev.view(getattr(torch, a.dtype.name))
        else:
            typed = dev.view(torch.from_numpy(np.empty(0, a.dtype)).dtype)
        return typed.as_strided(a.shape, [s // size for s in a.strides], offset // size)

    def _bytes_to_device(self, raw: np.ndarray) -> Any:
        if self.framework == "cupy":
            import cupy

            return cupy.asarray(raw)
        import torch

        return torch.from_numpy(raw.copy()).to("cuda")

    def _to_host(self, a: Any) -> np.ndarray:
        if self.framework == "cupy":
            import cupy

            return cupy.asnumpy(a)
        return a.cpu().numpy()


@pytest.fixture(params=BACKENDS, ids=[f"{b}-{f}" for b, f in BACKENDS])
def run(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Callable[..., Any]]:
    backend, framework = request.param
    if framework != "numpy":
        require_gpu(framework)
    monkeypatch.setenv("MYTRITON_BACKEND", backend)
    monkeypatch.delenv("MYTRITON_INTERPRET", raising=False)
    monkeypatch.delenv("TRITON_INTERPRET", raising=False)
    yield Runner(backend, framework)
