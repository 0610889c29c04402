"""What identifies the outside tools a GPU backend compiles with, for the disk cache's key.

Cheap to compute on every compile (no subprocess, no MLIR worker): versions CuPy reports, and
for executables and packages their path, size and modification time, which change when the
tool is upgraded in place. It tells a machine without CuPy, a GPU or an MLIR provider from one
with them, so a compile-only entry is never taken for a full one.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path


def file_stamp(path: str | Path | None) -> str:
    """``path`` with its size and modification time, or ``missing``."""
    if path is None:
        return "missing"
    try:
        st = os.stat(path)
    except OSError:
        return f"{path} (missing)"
    return f"{path} ({st.st_size} bytes, mtime {st.st_mtime_ns})"


def cuda_identity() -> str:
    """CuPy, NVRTC and driver versions, the ptxas that makes cubins, the current GPU's
    architecture and the PTX target compiled for (cuda backend)."""
    try:
        import cupy
    except ImportError:
        return "no CuPy"
    from mytriton.backends.nvidia.cuda_driver import current_device, device_arch

    device = current_device()
    if device is None:
        return f"CuPy {cupy.__version__}, no GPU"
    arch = device_arch(device)
    try:
        from cupy_backends.cuda.libs import nvrtc

        from mytriton.backends.cuda.compile import nvrtc_arch

        nvrtc_version = str(nvrtc.getVersion())
        target = f", compute_{nvrtc_arch(nvrtc, arch)}"  # 90a on Hopper
    except Exception:  # CuPy without NVRTC: the ptx stage says why
        nvrtc_version, target = "unavailable", ""
    from mytriton.backends.mlir.toolkit import find_cuda_toolkit

    driver = cupy.cuda.runtime.driverGetVersion()
    toolkit = find_cuda_toolkit()
    ptxas = file_stamp(toolkit.ptxas if toolkit is not None else None)
    return (
        f"CuPy {cupy.__version__}, NVRTC {nvrtc_version}, driver {driver}, ptxas {ptxas}, "
        f"sm_{arch}{target}"
    )


def mlir_identity() -> str:
    """The MLIR providers configured, the CUDA toolkit (ptxas, libdevice) and the chip."""
    from mytriton.backends.mlir.provider_config import configured_settings, find_mlir_opt
    from mytriton.backends.mlir.toolkit import find_cuda_toolkit, select_chip

    parts = []
    for kind, setting in configured_settings():
        if kind == "mlir-opt":
            parts.append(f"mlir-opt {file_stamp(find_mlir_opt(setting or None))}")
        else:
            parts.append(f"python bindings {setting}: {_package_stamp(setting)}")
    toolkit = find_cuda_toolkit()
    if toolkit is None:
        parts.append("no CUDA toolkit")
    else:
        parts.append(f"toolkit {toolkit.root}")
        parts.append(f"ptxas {file_stamp(toolkit.ptxas)}")
        parts.append(f"libdevice {file_stamp(toolkit.libdevice)}")
    parts.append(f"chip {select_chip()[0]}")
    return "; ".join(parts)


def _package_stamp(prefix: str) -> str:
    try:
        spec = importlib.util.find_spec(prefix.split(".")[0])
    except (ImportError, ValueError):
        spec = None
    if spec is None:
        return "not installed"
    return file_stamp(spec.origin)
