"""The CUDA driver both GPU backends share: devices, loading an image, packing arguments,
streams and launching a kernel on CuPy arrays or CUDA torch tensors, zero-copy.

The image is a cubin (loaded as is) or PTX (the driver compiles it for the device); the cuda
backend gets it from NVRTC, the mlir backend from upstream MLIR.

Arrays are passed as raw device pointers (``numpy.uint64``), scalars as ``numpy.int32`` /
``numpy.float32`` (bools as int32, the ABI of ``docs/gpu-ir.md``). The kernel runs on the
arrays' device, on torch's current stream for torch tensors and on CuPy's current stream
otherwise, so it is ordered with the work around it without synchronising. Everything that does
not change between launches (the packer, the loaded function per device) is computed once.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from types import ModuleType
from typing import Any

import numpy as np

from mytriton.backends.arrays import ArrayInfo
from mytriton.backends.compiled import CompiledKernel
from mytriton.errors import BackendError, BackendUnavailableError, DeviceAssertionError
from mytriton.passes.gpu_lowering.abi import KernelSignature, kernel_signature

CUPY_HINT = (
    'install CuPy for your CUDA version: pip install "mytriton[cuda12]" (CUDA 12) or '
    'pip install "mytriton[cuda13]" (CUDA 13)'
)

_Convert = Callable[[Any], Any]


def _int64_bits(value: Any) -> np.int64:
    """A 64-bit integer argument; a uint64 above int64's range travels as its bits."""
    v = int(value)
    return np.int64(v - (1 << 64) if v >= 1 << 63 else v)


_SCALARS: dict[str, _Convert] = {
    "i32": np.int32,
    "i64": _int64_bits,
    "f32": np.float32,
    "f64": np.float64,
}


def require_cupy() -> ModuleType:
    """CuPy, or a ``BackendUnavailableError`` that says how to install it."""
    try:
        import cupy
    except ImportError as e:
        raise BackendUnavailableError(
            f"launching on the GPU needs CuPy ({e}); {CUPY_HINT}"
        ) from None
    return cupy


def current_device() -> int | None:
    """The current CUDA device, or None where CuPy or a GPU is missing (compile-only)."""
    try:
        import cupy

        if cupy.cuda.runtime.getDeviceCount() == 0:
            return None
        return int(cupy.cuda.runtime.getDevice())
    except Exception:  # no CuPy, no driver
        return None


def device_arch(device: int) -> int:
    """Compute capability of ``device`` as an int (``90`` for an H100/H200)."""
    cupy = require_cupy()
    return int(cupy.cuda.Device(device).compute_capability)


_CU_JIT_INPUT_PTX = 1


def link_cubin(ptx: str, device: int, name: str) -> bytes:
    """The cubin the driver's JIT (ptxas) makes of ``ptx`` for ``device``'s architecture."""
    cupy = require_cupy()
    driver = cupy.cuda.driver
    with cupy.cuda.Device(device):
        cupy.cuda.runtime.free(0)  # make the device's primary context current
        state = driver.linkCreate()
        try:
            driver.linkAddData(state, _CU_JIT_INPUT_PTX, ptx.encode() + b"\0", f"{name}.ptx")
            return bytes(driver.linkComplete(state))
        except driver.CUDADriverError as e:
            raise BackendError(f"the CUDA driver cannot compile the PTX of `{name}`: {e}") from None
        finally:
            driver.linkDestroy(state)


# cuFuncGetAttribute's attributes (CUfunction_attribute)
_SHARED_SIZE_BYTES, _LOCAL_SIZE_BYTES, _NUM_REGS = 1, 3, 4


def function_metadata(fn: Any) -> dict[str, int]:
    """Registers, spills (local memory words, as Triton counts them) and static shared memory
    of a loaded kernel."""
    driver = sys.modules["cupy"].cuda.driver
    attr = driver.funcGetAttribute
    return {
        "n_regs": int(attr(_NUM_REGS, fn.ptr)),
        "n_spills": int(attr(_LOCAL_SIZE_BYTES, fn.ptr)) // 4,
        "shared": int(attr(_SHARED_SIZE_BYTES, fn.ptr)),
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


class DeviceKernel:
    """A compiled kernel, loaded per device on first use and launched on the arrays' device.

    ``image`` is a cubin or PTX; ``ptx`` (when the image is a cubin) is loaded instead on a
    device of another architecture, which the driver then compiles it for.
    ``on_loaded`` is told the metadata of the first load (registers, spills, shared memory).
    """

    def __init__(
        self,
        image: bytes,
        signature: KernelSignature,
        ptx: str | None = None,
        on_loaded: Callable[[dict[str, int]], None] | None = None,
    ):
        self.image = image
        self.ptx = ptx
        self.signature = signature
        self.block = signature.block
        self._on_loaded = on_loaded
        self._modules: dict[int, Any] = {}  # device -> cupy Module, kept loaded
        self._functions: dict[int, Any] = {}  # device -> cupy.cuda.Function
        self._packers: dict[str, list[_Convert]] = {}
        self._streams: dict[tuple[int, int], Any] = {}  # (torch stream, device) -> CuPy stream
        self._several_devices = True  # False once we know there is only one GPU
        self._ready: dict[tuple[str, int], tuple[Any, ...]] = {}
        self._array_index = -1
        self._runtime: Any = None
        self._driver_error: type[BaseException] = Exception
        #: the kernel holds device assertions (``llvm.intr.trap``): launches wait for it
        self.has_assertions = False

    def function(self, device: int) -> Any:
        """The kernel loaded on ``device`` (a module per device: each has its own context)."""
        fn = self._functions.get(device)
        if fn is None:
            cupy = require_cupy()
            error = cupy.cuda.driver.CUDADriverError
            with cupy.cuda.Device(device):
                module = cupy.cuda.function.Module()
                try:
                    module.load(self.image)
                except error as e:
                    if self.ptx is None:
                        raise BackendError(
                            f"the driver cannot load kernel `{self.signature.name}`: {e}"
                        ) from None
                    module = cupy.cuda.function.Module()
                    module.load(self.ptx.encode() + b"\0")  # a cubin of another architecture
                fn = module.get_function(self.signature.name)
            self._modules[device] = module
            self._functions[device] = fn
            self._several_devices = cupy.cuda.runtime.getDeviceCount() > 1
            if self._on_loaded is not None:
                self._on_loaded(function_metadata(fn))
                self._on_loaded = None
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
            if self.has_assertions:
                self._wait_for_assertions(stream)
        except self._driver_error as e:
            raise BackendError(
                f"launching {self.signature.name} (grid {grid}, block {self.block}) failed: {e}"
            ) from None
        finally:
            if previous != device:
                runtime.setDevice(previous)

    def _wait_for_assertions(self, stream: Any) -> None:
        """A kernel with device assertions (debug mode) is waited for, so that a failed one
        (the kernel trapped: its message is in the process's output) is reported here as a
        ``DeviceAssertionError`` rather than as a CUDA error of some later call."""
        cupy = sys.modules["cupy"]
        try:
            if stream is not None:
                stream.synchronize()
            else:
                cupy.cuda.get_current_stream().synchronize()
        except Exception as e:  # CUDARuntimeError / CUDADriverError: the context is lost
            raise DeviceAssertionError(
                f"device assertion failed in kernel `{self.signature.name}` (the kernel trapped; "
                f"the assertion's message, line and program are in the process's output); "
                f"the CUDA context is unusable from here on: {e}"
            ) from None

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


def load_device_kernel(kernel: CompiledKernel, artifacts: Mapping[str, Any]) -> None:
    """Make a GPU backend's kernel launchable: its cubin (else its PTX) on this driver, with
    the ABI of its ``gpu`` stage. Without either, ``kernel.binary`` stays unset."""
    ptx, cubin = artifacts.get("ptx"), artifacts.get("cubin")
    if ptx is None and cubin is None:
        return
    gpu = artifacts["gpu"]
    has_assertions = any(op.name == "llvm.intr.trap" for op in gpu.walk())
    attach_device_kernel(kernel, cubin, ptx, kernel_signature(gpu), has_assertions)


def attach_device_kernel(
    kernel: CompiledKernel,
    cubin: bytes | None,
    ptx: str | None,
    signature: KernelSignature,
    has_assertions: bool,
) -> None:
    """Set ``kernel.binary`` to its cubin (else its PTX) with this ABI (the disk cache rebuilds
    a kernel so, without its ``gpu`` module)."""
    image = cubin or (ptx.encode() + b"\0" if ptx is not None else None)
    if image is None:
        return
    device_kernel = DeviceKernel(image, signature, ptx, kernel.metadata.update)
    device_kernel.has_assertions = has_assertions
    kernel.binary = device_kernel
