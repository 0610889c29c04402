"""CUDA C++ -> PTX with NVRTC (through CuPy), cached per source and GPU architecture.

CuPy is imported only here and in the shared driver, when a kernel is compiled for a GPU;
printing C++ needs neither CuPy nor a GPU. A compile error carries NVRTC's log, whose line
numbers are the Python kernel's thanks to the ``#line`` directives. The driver then makes the
cubin of the PTX (``link_cubin``), so an edited PTX file goes the same way.
"""

from __future__ import annotations

import threading
from typing import Any

from mytriton.backends.nvidia.cuda_driver import CUPY_HINT, require_cupy
from mytriton.errors import BackendError, BackendUnavailableError

#: NVRTC options besides -arch: the language mytriton prints, and line info for profilers
NVRTC_OPTIONS = ("-std=c++17", "-lineinfo")

_cache: dict[tuple[str, str, int, bool], str] = {}
_lock = threading.Lock()


def compile_ptx(source: str, name: str, arch: int, *, fmad: bool = True) -> str:
    """The PTX of ``source`` for compute capability ``arch`` (``compute_90a`` for 9.0:
    ``nvrtc_arch``; cached for the process);
    ``fmad=False`` keeps NVRTC from fusing a*b+c into an FMA (``enable_fp_fusion=False``)."""
    key = (source, name, arch, fmad)
    ptx = _cache.get(key)
    if ptx is None:
        with _lock:
            ptx = _cache.get(key) or _compile(source, name, arch, fmad)
            _cache[key] = ptx
    return ptx


def _nvrtc() -> Any:
    require_cupy()
    try:
        from cupy_backends.cuda.libs import nvrtc
    except ImportError as e:  # CuPy is there but cannot load NVRTC
        raise BackendUnavailableError(f"CuPy cannot load NVRTC ({e}); {CUPY_HINT}") from None
    return nvrtc


def _virtual_arch(nvrtc: Any, arch: int) -> int:
    """``arch`` when NVRTC knows it, else the newest architecture it knows below it (the
    driver compiles that PTX for the newer GPU)."""
    get_archs = getattr(nvrtc, "getSupportedArchs", None)
    if get_archs is None:
        return arch
    known = [a for a in get_archs() if a <= arch]
    return arch if arch in known or not known else max(known)


#: architectures compiled for their architecture-specific target (``compute_90a``): Hopper's
#: ``wgmma`` exists only there, and the PTX of such a target runs on exactly that architecture,
#: the device's, which is what we compile for
ARCH_SPECIFIC = frozenset({90})
#: the first NVRTC that knows ``compute_90a`` (``getSupportedArchs`` lists plain numbers only)
ARCH_SPECIFIC_NVRTC = (12, 0)


def nvrtc_arch(nvrtc: Any, arch: int) -> str:
    """The ``compute_*`` target NVRTC compiles for on a device of compute capability ``arch``:
    ``90a`` for Hopper where NVRTC knows it, else ``_virtual_arch``'s number."""
    virtual = _virtual_arch(nvrtc, arch)
    if virtual == arch and arch in ARCH_SPECIFIC:  # 90a PTX runs on 9.0 devices only
        try:
            version = tuple(nvrtc.getVersion())
        except Exception:  # an NVRTC that cannot say: the plain target
            version = ()
        if version >= ARCH_SPECIFIC_NVRTC:
            return f"{virtual}a"
    return str(virtual)


def _compile(source: str, name: str, arch: int, fmad: bool = True) -> str:
    nvrtc = _nvrtc()
    fusion = () if fmad else ("--fmad=false",)
    options = (f"-arch=compute_{nvrtc_arch(nvrtc, arch)}", *NVRTC_OPTIONS, *fusion)
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
        ptx = nvrtc.getPTX(program)
    finally:
        nvrtc.destroyProgram(program)
    return ptx.decode() if isinstance(ptx, bytes) else str(ptx)
