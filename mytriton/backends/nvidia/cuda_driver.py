"""The CUDA driver both GPU backends share: devices, loading an image, packing arguments,
streams and launching a kernel on CuPy arrays or CUDA torch tensors, zero-copy.

The image is a cubin (loaded as is) or PTX (the driver compiles it for the device); the cuda
backend gets it from NVRTC, the mlir backend from upstream MLIR.

Arrays are passed as raw device pointers (``numpy.uint64``), scalars as ``numpy.int32`` /
``numpy.float32`` (bools as int32, the ABI of ``docs/gpu-ir.md``). The kernel runs on the
arrays' device, on the stream the caller names (Triton's ``CompiledKernel.run`` takes one) or
else on torch's current stream for torch tensors and on CuPy's current stream otherwise, so it
is ordered with the work around it without synchronising. Everything that does
not change between launches (the packer, the loaded function per device) is computed once.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from mytriton.backends.arrays import ArrayInfo
from mytriton.backends.compiled import CompiledKernel
from mytriton.backends.nvidia.device_launcher import FastLaunch, LaunchCode, build_launch_code
from mytriton.errors import BackendError, BackendUnavailableError, DeviceAssertionError
from mytriton.kernel_signature import STATIC_SHARED_LIMIT, KernelSignature

CUPY_HINT = (
    'install CuPy for your CUDA version: pip install "mytriton[cuda12]" (CUDA 12) or '
    'pip install "mytriton[cuda13]" (CUDA 13)'
)

_Convert = Callable[[Any], Any]


def require_cupy() -> ModuleType:
    """CuPy, or a ``BackendUnavailableError`` that says how to install it."""
    try:
        import cupy
    except ImportError as e:
        raise BackendUnavailableError(
            f"launching on the GPU needs CuPy ({e}); {CUPY_HINT}"
        ) from None
    return cupy


@dataclass(frozen=True)
class AssumedDevice:
    """What a process that compiles for another one takes as its device (``assume_device``):
    that process's current device (None: none), its compute capability, and the chip the
    mlir backend compiles for there (``mlir.toolkit.device_chip``)."""

    device: int | None
    arch: int | None
    chip: str | None


#: set in a parallel-compile worker (``runtime/parallel_compile.py``): the device facts of the
#: process it compiles for, so that it compiles the same code without asking the driver (no
#: CUDA context in the worker)
_assumed: AssumedDevice | None = None


class DriverNeeded(Exception):
    """A compile under ``assume_device`` needs the CUDA driver (the driver's own PTX
    compiler): the process it compiles for does this compile itself."""


def assume_device(facts: AssumedDevice | None) -> None:
    """Compile as a process whose device is ``facts`` (None: ask the driver again)."""
    global _assumed
    _assumed = facts


def assumed_device() -> AssumedDevice | None:
    """The facts ``assume_device`` set, if any."""
    return _assumed


def current_device() -> int | None:
    """The current CUDA device, or None where CuPy or a GPU is missing (compile-only)."""
    if _assumed is not None:
        return _assumed.device
    try:
        import cupy

        if cupy.cuda.runtime.getDeviceCount() == 0:
            return None
        return int(cupy.cuda.runtime.getDevice())
    except Exception:  # no CuPy, no driver
        return None


def device_arch(device: int) -> int:
    """Compute capability of ``device`` as an int (``90`` for an H100/H200)."""
    if _assumed is not None and _assumed.arch is not None and device == _assumed.device:
        return _assumed.arch
    cupy = require_cupy()
    return int(cupy.cuda.Device(device).compute_capability)


_CAPABILITIES: dict[int, int | None] = {}


def compute_capability(device: int) -> int | None:
    """``device_arch(device)``, or None where CuPy or the device is missing (the kernel then
    compiles only as far as this machine can take it, and its launch says why).

    Asked once per device and process: a kernel compiled for one device runs unchanged on
    every device of the same capability, so the runtime's in-memory compile cache keys its
    kernels on this rather than on the device."""
    if device not in _CAPABILITIES:
        try:
            _CAPABILITIES[device] = device_arch(device)
        except Exception:  # no CuPy, no driver, no such device
            _CAPABILITIES[device] = None
    return _CAPABILITIES[device]


@contextmanager
def device_current(device: int) -> Iterator[None]:
    """``device`` current in this thread for the block, and what was current after it.

    Compiling reads the current device (the cuda backend's target architecture, the disk
    cache's toolchain identity), so the runtime compiles a launch's kernel with the arrays'
    device current: a launch on ``cuda:1`` from a thread whose current device is 0 builds for
    device 1. Without CuPy there is nothing to switch (nothing compiles for a device), nor
    under ``assume_device`` (the facts are the device's already)."""
    try:
        import cupy
    except ImportError:
        yield
        return
    if _assumed is not None:
        yield
        return
    with cupy.cuda.Device(device):
        yield


_CU_JIT_INPUT_PTX = 1


def link_cubin(ptx: str, device: int, name: str) -> bytes:
    """The cubin the driver's JIT (ptxas) makes of ``ptx`` for ``device``'s architecture."""
    if _assumed is not None:
        raise DriverNeeded(name)
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
_MAX_DYNAMIC_SHARED_SIZE = 8  # CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
_MAX_SHARED_PER_BLOCK_OPTIN = 97  # cudaDevAttrMaxSharedMemoryPerBlockOptin


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


class DeviceKernel:
    """A compiled kernel, loaded per device on first use and launched on the arrays' device.

    ``image`` is a cubin or PTX; ``ptx`` (when the image is a cubin) is loaded instead on a
    device of another architecture, which the driver then compiles it for.
    ``on_loaded`` is told the metadata of the first load (registers, spills, shared memory).
    Launches go through a launcher generated per (framework, device)
    (``device_launcher.build_launcher``).

    A ``CUmodule`` and its ``CUfunction`` belong to the context they were loaded in (each
    device's primary context): a function loaded on device 0 cannot be launched on device 1.
    So everything loaded or built from a function is kept per device, and the first load on a
    device happens once under a lock: two threads launching on one device at once must not
    each load a module, or the launch code built from the one whose module is dropped (and
    unloaded) would launch a function that no longer exists.
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
        self._codes: dict[tuple[str, int, bool, bool], LaunchCode] = {}
        self._launchers: dict[tuple[str, int, bool], FastLaunch] = {}
        self._array_index = -1
        self._load_lock = threading.Lock()
        #: the compiled kernel's hash, passed to ``knobs.runtime.kernel_load_*_hook``
        self.hash = ""
        #: the kernel holds device assertions (``llvm.intr.trap``): launches wait for it
        self.has_assertions = False
        #: whether launches of a kernel with assertions wait for it (mytriton's ``@jit``
        #: launches do; Triton's ``CompiledKernel.run`` does not unless asked: mytriton/compat)
        self.wait_for_assertions = True

    @property
    def devices(self) -> tuple[int, ...]:
        """The devices this kernel is loaded on, in the order it was loaded."""
        return tuple(self._functions)

    def function(self, device: int) -> Any:
        """The kernel loaded on ``device`` (a module per device: each has its own context),
        loaded on the first call for that device, once even when threads race to it."""
        fn = self._functions.get(device)
        if fn is None:
            with self._load_lock:
                fn = self._functions.get(device)
                if fn is None:
                    fn = self._load(device)
        return fn

    def _load(self, device: int) -> Any:
        """Load the image on ``device`` (the caller holds ``_load_lock``)."""
        cupy = require_cupy()
        error = cupy.cuda.driver.CUDADriverError
        from mytriton import knobs

        name, group = self.signature.name, {"device": str(device)}
        start, end = knobs.runtime.kernel_load_start_hook, knobs.runtime.kernel_load_end_hook
        if start:
            start(None, None, name, group, self.hash)
        with cupy.cuda.Device(device):
            # the module is loaded into the context current in this thread: make sure it is
            # the device's primary context (CuPy's Device skips cudaSetDevice when the device is
            # current already, which in a thread that made no CUDA call yet binds none)
            cupy.cuda.runtime.free(0)
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
            if self.signature.shared > STATIC_SHARED_LIMIT:
                self._allow_dynamic_shared(cupy, fn, device)
        if end:
            end(module, fn, name, group, self.hash)
        self._modules[device] = module
        self._functions[device] = fn  # last: another thread may read it without the lock
        if self._on_loaded is not None:
            self._on_loaded(function_metadata(fn))
            self._on_loaded = None
        return fn

    def _allow_dynamic_shared(self, cupy: Any, fn: Any, device: int) -> None:
        """Let ``fn`` launch with its dynamic shared memory past the 48 KiB default, or say
        that ``device`` has less than it needs."""
        need = self.signature.shared
        most = int(cupy.cuda.runtime.deviceGetAttribute(_MAX_SHARED_PER_BLOCK_OPTIN, device))
        if need > most:
            raise BackendError(
                f"kernel `{self.signature.name}` needs {need} bytes of shared memory, more than "
                f"the {most} bytes a program may use on device {device}; use smaller blocks or "
                "fewer stages"
            )
        cupy.cuda.driver.funcSetAttribute(fn.ptr, _MAX_DYNAMIC_SHARED_SIZE, need)

    def launch_code(
        self, framework: str, device: int, raw_pointers: bool, cooperative: bool = False
    ) -> LaunchCode:
        """The statements launching this kernel for arrays of ``framework`` on ``device``
        (built once); ``raw_pointers``: they take the arrays' addresses instead of the arrays;
        ``cooperative``: a cooperative launch (``launch_cooperative_grid``)."""
        key = (framework, device, raw_pointers, cooperative)
        code = self._codes.get(key)
        if code is None:
            fn = self.function(device)
            cupy = sys.modules["cupy"]
            code = build_launch_code(
                name=self.signature.name,
                function=int(fn.ptr),
                block=self.block,
                params=self.signature.params,
                framework=framework,
                device=device,
                several_devices=cupy.cuda.runtime.getDeviceCount() > 1,
                on_launched=(
                    self._wait_for_assertions
                    if self.has_assertions and self.wait_for_assertions
                    else None
                ),
                raw_pointers=raw_pointers,
                shared=self.signature.shared,
                cooperative=cooperative,
            )
            self._codes[key] = code
        return code

    def launcher(self, framework: str, device: int, cooperative: bool = False) -> FastLaunch:
        """The launch function for arrays of ``framework`` on ``device`` (built once)."""
        launch = self._launchers.get((framework, device, cooperative))
        if launch is None:
            code = self.launch_code(framework, device, False, cooperative)
            launch = code.as_function(len(self.signature.params))
            self._launchers[(framework, device, cooperative)] = launch
        return launch

    def __call__(
        self,
        grid: tuple[int, int, int],
        args: Sequence[Any],
        arrays: Sequence[ArrayInfo | None],
        stream: int | None = None,
        cooperative: bool = False,
    ) -> None:
        """Launch on the arrays' device, on ``stream`` (a raw ``CUstream``) or, None, on the
        current stream of the arrays' framework; ``cooperative``: every program at once."""
        if any(a is not None for a in arrays):
            info = arrays[self._first_array(arrays)]
            assert info is not None and info.device is not None
            framework, device = info.framework, info.device
        else:
            framework, device = launch_place(arrays)
        if len(args) != len(self.signature.params):
            raise BackendError(
                f"kernel {self.signature.name} takes {len(self.signature.params)} runtime "
                f"arguments, got {len(args)}"
            )
        launch = self.launcher(framework, device, cooperative)
        launch(grid[0], grid[1], grid[2], args, stream)

    def _wait_for_assertions(self, stream: int) -> None:
        """A kernel with device assertions (debug mode) is waited for, so that a failed one
        (the kernel trapped: its message is in the process's output) is reported here as a
        ``DeviceAssertionError`` rather than as a CUDA error of some later call."""
        cupy = sys.modules["cupy"]
        try:
            cupy.cuda.runtime.streamSynchronize(stream)
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


def device_launcher(
    kernel: CompiledKernel, arrays: Sequence[ArrayInfo | None], cooperative: bool = False
) -> FastLaunch:
    """The launch function of a GPU backend's kernel for arrays like ``arrays`` (framework and
    device of the first of them); ``cooperative``: a cooperative launch."""
    framework, device = launch_place(arrays)
    return _device_kernel(kernel).launcher(framework, device, cooperative)


def device_launch_code(
    kernel: CompiledKernel, arrays: Sequence[ArrayInfo | None], cooperative: bool = False
) -> LaunchCode:
    """The launch statements of a GPU backend's kernel taking addresses for arrays like
    ``arrays`` (what the runtime's generated fast path inlines)."""
    framework, device = launch_place(arrays)
    return _device_kernel(kernel).launch_code(framework, device, True, cooperative)


def _device_kernel(kernel: CompiledKernel) -> DeviceKernel:
    binary: DeviceKernel = kernel.binary
    return binary


def launch_place(arrays: Sequence[ArrayInfo | None]) -> tuple[str, int]:
    """The array framework (whose current stream a launch takes) and the device of a launch on
    ``arrays``: the first array's. A kernel of scalar arguments only runs, as in Triton, on
    the current device, on torch's current stream where torch is loaded, else CuPy's."""
    info = next((a for a in arrays if a is not None), None)
    if info is not None:
        assert info.device is not None
        return info.framework, info.device
    device = current_device()
    if device is None:
        raise BackendUnavailableError("no CUDA device to launch a kernel without arrays on")
    return ("torch" if "torch" in sys.modules else "cupy"), device


def load_device_kernel(kernel: CompiledKernel, artifacts: Mapping[str, Any]) -> None:
    """Make a GPU backend's kernel launchable: its cubin (else its PTX) on this driver, with
    the ABI of its ``gpu`` stage. Without either, ``kernel.binary`` stays unset."""
    ptx, cubin = artifacts.get("ptx"), artifacts.get("cubin")
    if ptx is None and cubin is None:
        return
    gpu = artifacts["gpu"]
    has_assertions = any(op.name == "llvm.intr.trap" for op in gpu.walk())
    from mytriton.passes.gpu_lowering.abi import kernel_signature  # the lowering's: compiles only

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
    device_kernel.hash = kernel.hash
    kernel.binary = device_kernel
