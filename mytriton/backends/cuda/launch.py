"""Launching a compiled kernel on CuPy arrays or CUDA torch tensors, zero-copy.

Arrays are passed as raw device pointers (``numpy.uint64``), scalars as ``numpy.int32`` /
``numpy.float32`` (bools as int32, the ABI of ``docs/gpu-ir.md``). The kernel runs on the
arrays' device, on torch's current stream for torch tensors and on CuPy's current stream
otherwise, so it is ordered with the work around it without synchronising. Everything that does
not change between launches (the packer, the loaded function per device) is computed once.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from mytriton.backends.cuda.compile import CudaImage, compile_cuda, device_arch, require_cupy
from mytriton.backends.cuda.signature import KernelSignature
from mytriton.errors import BackendError
from mytriton.runtime.arrays import ArrayInfo

_Convert = Callable[[Any], Any]

_SCALARS: dict[str, _Convert] = {
    "i32": np.int32,
    "i64": np.int64,
    "f32": np.float32,
    "f64": np.float64,
}


def _cupy_pointer(x: Any) -> np.uint64:
    return np.uint64(x.data.ptr)


def _torch_pointer(x: Any) -> np.uint64:
    return np.uint64(x.data_ptr())


_POINTERS: dict[str, _Convert] = {"cupy": _cupy_pointer, "torch": _torch_pointer}


def argument_packer(params: Sequence[str], framework: str) -> list[_Convert]:
    """One converter per kernel parameter, for arrays of ``framework``."""
    pointer = _POINTERS.get(framework)
    if pointer is None:
        raise BackendError(f"the cuda backend cannot launch on {framework} arrays")
    return [pointer if kind == "ptr" else _SCALARS[kind] for kind in params]


class _StreamHandle:
    """A raw CUDA stream in the CUDA stream protocol (what ``Stream.from_external`` takes)."""

    def __init__(self, ptr: int):
        self.ptr = ptr

    def __cuda_stream__(self) -> tuple[int, int]:
        return (0, self.ptr)


def _cupy_stream(ptr: int, device: int) -> Any:
    cupy = require_cupy()
    from_external = getattr(cupy.cuda.Stream, "from_external", None)  # CuPy >= 14
    if from_external is not None:
        return from_external(_StreamHandle(ptr))
    return cupy.cuda.ExternalStream(ptr, device)


class CudaLauncher:
    """A printed kernel that compiles (per GPU architecture) and loads (per device) on demand.

    ``on_compiled`` is told about each new image (the backend records ``asm["cubin"]``).
    """

    def __init__(
        self,
        source: str,
        signature: KernelSignature,
        on_compiled: Callable[[CudaImage], None] | None = None,
    ):
        self.source = source
        self.signature = signature
        self.block = signature.block
        self._on_compiled = on_compiled
        self._functions: dict[int, Any] = {}  # device -> cupy.cuda.Function
        self._packers: dict[str, list[_Convert]] = {}
        self._streams: dict[tuple[int, int], Any] = {}  # (torch stream, device) -> CuPy stream
        self._several_devices = True  # False once we know there is only one GPU
        self._ready: dict[tuple[str, int], tuple[Any, ...]] = {}
        self._array_index = -1
        self._runtime: Any = None
        self._driver_error: type[BaseException] = Exception

    def function(self, device: int) -> Any:
        """The kernel loaded on ``device`` (compiled for its architecture on first use)."""
        fn = self._functions.get(device)
        if fn is None:
            cupy = require_cupy()
            image = compile_cuda(self.source, self.signature.name, device_arch(device))
            if self._on_compiled is not None:
                self._on_compiled(image)
            with cupy.cuda.Device(device):
                module = cupy.cuda.function.Module()
                module.load(image.image)
                fn = module.get_function(self.signature.name)
            self._functions[device] = fn
            self._several_devices = cupy.cuda.runtime.getDeviceCount() > 1
        return fn

    def _packer(self, framework: str, nargs: int) -> list[_Convert]:
        packer = self._packers.get(framework)
        if packer is None:
            if nargs != len(self.signature.params):
                raise BackendError(
                    f"kernel {self.signature.name} takes {len(self.signature.params)} runtime "
                    f"arguments, got {nargs}"
                )
            packer = self._packers[framework] = argument_packer(self.signature.params, framework)
        return packer

    def _torch_stream(self, device: int) -> Any:
        """Torch's current stream on ``device`` as a CuPy stream (one wrapper per stream)."""
        torch = sys.modules["torch"]  # a torch tensor was passed, so torch is imported
        raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)  # what Triton calls: fast
        ptr = raw(device) if raw is not None else torch.cuda.current_stream(device).cuda_stream
        stream = self._streams.get((ptr, device))
        if stream is None:
            stream = self._streams[(ptr, device)] = _cupy_stream(ptr, device)
        return stream

    def __call__(
        self, grid: tuple[int, int, int], args: Sequence[Any], arrays: Sequence[ArrayInfo | None]
    ) -> None:
        # the hot path: everything that depends only on (framework, device) is looked up once
        info = arrays[self._first_array(arrays)]
        assert info is not None and info.device is not None
        ready = self._ready.get((info.framework, info.device))
        if ready is None:
            ready = self._prepare(info.framework, info.device, len(args))
        fn, packer, device, torch_stream = ready
        packed = [convert(a) for convert, a in zip(packer, args, strict=True)]
        stream = self._torch_stream(device) if torch_stream else None
        runtime = self._runtime
        previous = runtime.getDevice() if self._several_devices else device
        if previous != device:
            runtime.setDevice(device)
        try:
            fn(grid, self.block, packed, stream=stream)
        except self._driver_error as e:
            raise BackendError(
                f"launching {self.signature.name} (grid {grid}, block {self.block}) failed: {e}"
            ) from None
        finally:
            if previous != device:
                runtime.setDevice(previous)

    def _first_array(self, arrays: Sequence[ArrayInfo | None]) -> int:
        if self._array_index < 0 or arrays[self._array_index] is None:
            self._array_index = next(i for i, a in enumerate(arrays) if a is not None)
        return self._array_index

    def _prepare(self, framework: str, device: int, nargs: int) -> tuple[Any, ...]:
        fn = self.function(device)
        cupy = sys.modules["cupy"]
        self._runtime = cupy.cuda.runtime
        self._driver_error = cupy.cuda.driver.CUDADriverError
        ready = (fn, self._packer(framework, nargs), device, framework == "torch")
        self._ready[(framework, device)] = ready
        return ready
