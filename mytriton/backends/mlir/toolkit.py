"""Finding the CUDA toolkit MLIR needs, and the chip to compile for.

MLIR's ``gpu-module-to-binary`` links libdevice (``<toolkit>/nvvm/libdevice/libdevice.10.bc``,
without which every ``math.*`` op stays an unresolved ``__nv_*`` call) and runs ``ptxas``
(``<toolkit>/bin``, then ``PATH``) for cubins. Left to itself it silently skips libdevice and
fails on a ``CUDA_ROOT`` that points nowhere, so we find the toolkit ourselves and always pass
``toolkit=``. Places tried, in order: ``CUDA_HOME``, ``CUDA_PATH``, ``CUDA_ROOT``; the toolkit
around ``ptxas`` on ``PATH``; ``/usr/local/cuda``; the pip ``nvidia`` packages
(``site-packages/nvidia/cu13``, ``cu12``, ``cuda_nvcc``).
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import site
import sys
from dataclasses import dataclass
from pathlib import Path

from mytriton.errors import BackendError

TOOLKIT_ENV_VARS = ("CUDA_HOME", "CUDA_PATH", "CUDA_ROOT")
CHIP_ENV_VAR = "MYTRITON_MLIR_CHIP"
DEFAULT_CHIP = "sm_90a"  # Hopper with its wgmma, what kernels are laid out for by default
LIBDEVICE = Path("nvvm", "libdevice", "libdevice.10.bc")
PIP_LAYOUTS = ("cu13", "cu12", "cuda_nvcc")
SYSTEM_ROOTS = (Path("/usr/local/cuda"),)

_CHIP_RE = re.compile(r"sm_\d+[a-z]?")


@dataclass(frozen=True)
class CudaToolkit:
    """A CUDA toolkit as MLIR sees it: ``root`` (``toolkit=``), its libdevice and ptxas."""

    root: Path
    libdevice: Path | None
    ptxas: Path | None
    source: str  # where it was found, for the diagnostic report

    def __str__(self) -> str:
        parts = [f"{self.root} (from {self.source})"]
        parts.append(f"libdevice: {self.libdevice or 'missing'}")
        parts.append(f"ptxas: {self.ptxas or 'missing'}")
        return ", ".join(parts)


def _toolkit_at(root: Path, source: str, ptxas: Path | None = None) -> CudaToolkit | None:
    if not root.is_dir():
        return None
    libdevice = root / LIBDEVICE
    own_ptxas = root / "bin" / "ptxas"
    return CudaToolkit(
        root=root,
        libdevice=libdevice if libdevice.is_file() else None,
        ptxas=own_ptxas if _is_executable(own_ptxas) else ptxas,
        source=source,
    )


def _is_executable(path: Path) -> bool:
    return path.is_file() and os.access(path, os.X_OK)


def _ptxas_on_path() -> Path | None:
    found = shutil.which("ptxas")
    return Path(found) if found else None


def _site_packages() -> list[Path]:
    dirs = [*site.getsitepackages(), site.getusersitepackages()]
    dirs += [p for p in sys.path if p.endswith("site-packages")]
    return [Path(d) for d in dict.fromkeys(dirs)]


def _candidates() -> list[CudaToolkit]:
    """Every toolkit found, best first (one with libdevice beats one without)."""
    ptxas = _ptxas_on_path()
    found: list[CudaToolkit | None] = []
    for var in TOOLKIT_ENV_VARS:
        value = os.environ.get(var)
        if value:
            found.append(_toolkit_at(Path(value), f"${var}", ptxas))
    if ptxas is not None:
        # `ptxas` may be a wrapper script or a symlink: try the folder around both
        for exe in dict.fromkeys((ptxas, ptxas.resolve())):
            found.append(_toolkit_at(exe.parent.parent, "ptxas on PATH", ptxas))
    for root in SYSTEM_ROOTS:
        found.append(_toolkit_at(root, str(root), ptxas))
    for sp in _site_packages():
        for layout in PIP_LAYOUTS:
            found.append(_toolkit_at(sp / "nvidia" / layout, f"pip nvidia/{layout}", ptxas))
    toolkits = [t for t in found if t is not None]
    return sorted(toolkits, key=lambda t: (t.libdevice is None, t.ptxas is None))


def find_cuda_toolkit() -> CudaToolkit | None:
    """The CUDA toolkit to pass to MLIR, or ``None`` when the machine has none."""
    candidates = _candidates()
    return candidates[0] if candidates else None


def invalid_toolkit_env() -> list[str]:
    """``CUDA_*`` variables naming a missing folder: MLIR reports those as ``error:``."""
    return [
        var
        for var in TOOLKIT_ENV_VARS
        if os.environ.get(var) and not Path(os.environ[var]).is_dir()
    ]


def check_chip(chip: str) -> str:
    if not _CHIP_RE.fullmatch(chip):
        raise BackendError(f"invalid CUDA chip {chip!r}: expected a name such as sm_90 or sm_90a")
    return chip


#: compute capabilities compiled for their architecture-specific chip (``sm_90a``): Hopper's
#: ``wgmma`` exists only there, and a kernel compiled for the device runs on that device
ARCH_SPECIFIC = frozenset({"90"})


@functools.cache
def device_chip(device: int | None = None) -> str | None:
    """``sm_XY`` of the CUDA device (the current one by default; ``sm_90a`` for a 9.0 device),
    or ``None`` without one."""
    try:
        import cupy  # type: ignore[import-not-found,import-untyped,unused-ignore]

        if cupy.cuda.runtime.getDeviceCount() == 0:
            return None
        dev = cupy.cuda.Device(device) if device is not None else cupy.cuda.Device()
        capability = str(dev.compute_capability)
        return f"sm_{capability}{'a' if capability in ARCH_SPECIFIC else ''}"
    except Exception:  # no CuPy, no driver, no device: compile for the configured chip
        return None


def select_chip(explicit: str | None = None) -> tuple[str, str]:
    """The chip to compile for and why: an explicit choice, the device, the env var, sm_90.
    The device is, in a parallel-compile worker, its parent's (``assume_device``)."""
    from mytriton.backends.nvidia.cuda_driver import assumed_device

    if explicit:
        return check_chip(explicit), "explicit"
    assumed = assumed_device()
    chip = device_chip() if assumed is None else assumed.chip
    if chip is not None:
        return chip, "CUDA device"
    configured = os.environ.get(CHIP_ENV_VAR, "")
    if configured:
        return check_chip(configured), f"${CHIP_ENV_VAR}"
    return DEFAULT_CHIP, "default"


def tool_env(toolkit: CudaToolkit | None) -> dict[str, str]:
    """The environment to run MLIR in: our ptxas first on ``PATH``, and no ``CUDA_*`` variable
    naming a missing folder (MLIR would report it as an error even with ``toolkit=`` given)."""
    env = dict(os.environ)
    for var in invalid_toolkit_env():
        del env[var]
    if toolkit is not None and toolkit.ptxas is not None:
        env["PATH"] = os.pathsep.join([str(toolkit.ptxas.parent), env.get("PATH", "")])
    return env
