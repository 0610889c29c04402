"""CUDA C++ -> cubin with NVRTC (through CuPy), cached per source and GPU architecture.

CuPy is imported only here, when a kernel is compiled for a GPU; printing C++ needs neither
CuPy nor a GPU. A compile error carries NVRTC's log, whose line numbers are the Python
kernel's thanks to the ``#line`` directives.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from mytriton.errors import BackendError, BackendUnavailableError

INSTALL_HINT = (
    'install CuPy for your CUDA version: pip install "mytriton[cuda12]" (CUDA 12) or '
    'pip install "mytriton[cuda13]" (CUDA 13)'
)

#: NVRTC options besides -arch: the language mytriton prints, and line info for profilers
NVRTC_OPTIONS = ("-std=c++17", "-lineinfo")


@dataclass(frozen=True)
class CudaImage:
    """A compiled kernel: cubin (or PTX, when NVRTC is older than the GPU) for one architecture."""

    name: str
    arch: str  # "sm_90", or "compute_90" for PTX the driver compiles
    image: bytes  # what cuModuleLoadData takes
    log: str  # NVRTC's warnings

    @property
    def cubin(self) -> bytes | None:
        return self.image if self.arch.startswith("sm_") else None


def require_cupy() -> ModuleType:
    """CuPy, or a ``BackendUnavailableError`` that says how to install it."""
    try:
        import cupy
    except ImportError as e:
        raise BackendUnavailableError(
            f"the cuda backend needs CuPy to compile and launch kernels ({e}); {INSTALL_HINT}"
        ) from None
    return cupy


def device_arch(device: int) -> int:
    """Compute capability of ``device`` as an int (``90`` for an H100/H200)."""
    cupy = require_cupy()
    return int(cupy.cuda.Device(device).compute_capability)


_cache: dict[tuple[str, str, int], CudaImage] = {}
_lock = threading.Lock()


def compile_cuda(source: str, name: str, arch: int) -> CudaImage:
    """Compile ``source`` for compute capability ``arch`` (cached for the process)."""
    key = (source, name, arch)
    image = _cache.get(key)
    if image is None:
        with _lock:
            image = _cache.get(key) or _compile(source, name, arch)
            _cache[key] = image
    return image


def _nvrtc() -> Any:
    require_cupy()
    try:
        from cupy_backends.cuda.libs import nvrtc
    except ImportError as e:  # CuPy is there but cannot load NVRTC
        raise BackendUnavailableError(f"CuPy cannot load NVRTC ({e}); {INSTALL_HINT}") from None
    return nvrtc


def _supported_arch(nvrtc: Any, arch: int) -> tuple[str, int]:
    """``("sm", arch)`` when NVRTC knows the GPU, else PTX for the newest arch it knows."""
    get_archs = getattr(nvrtc, "getSupportedArchs", None)
    if get_archs is None:
        return "sm", arch
    known = [a for a in get_archs() if a <= arch]
    if arch in known or not known:
        return "sm", arch
    return "compute", max(known)


def _compile(source: str, name: str, arch: int) -> CudaImage:
    nvrtc = _nvrtc()
    kind, target = _supported_arch(nvrtc, arch)
    if kind == "sm" and not hasattr(nvrtc, "getCUBIN"):
        kind = "compute"  # an old CuPy that cannot hand out cubins: let the driver compile PTX
    options = (f"-arch={kind}_{target}", *NVRTC_OPTIONS)
    try:
        program = nvrtc.createProgram(source, f"{name}.cu", [], [])
    except nvrtc.NVRTCError as e:
        raise BackendError(f"NVRTC could not create a program for kernel {name}: {e}") from None
    try:
        try:
            nvrtc.compileProgram(program, options)
        except nvrtc.NVRTCError:
            log = nvrtc.getProgramLog(program)
            raise BackendError(
                f"NVRTC failed to compile kernel {name} ({' '.join(options)}):\n{log}"
            ) from None
        log = nvrtc.getProgramLog(program)
        if kind == "sm":
            image = bytes(nvrtc.getCUBIN(program))
        else:
            image = nvrtc.getPTX(program).encode() + b"\0"
    finally:
        nvrtc.destroyProgram(program)
    return CudaImage(name, f"{kind}_{target}", image, log)
