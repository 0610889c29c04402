"""A launch's keyword options (``num_warps=``, ``num_stages=``, ...): which keywords they are,
how they are checked (as Triton checks them) and the ``LaunchOptions`` they compile with."""

from __future__ import annotations

import difflib
import os
import re
import warnings
from collections.abc import Sequence
from typing import Any

from mytriton.backends import Backend, LaunchOptions
from mytriton.dialects.tt.loop_attrs import DEFAULT_NUM_STAGES
from mytriton.errors import LaunchOptionError
from mytriton.runtime.launch import check_num_warps

LAUNCH_OPTIONS = (
    "num_warps",
    "num_stages",
    "num_ctas",
    "maxnreg",
    "enable_fp_fusion",
    "enable_reflect_ftz",
    "debug",
    "launch_cooperative_grid",
    "launch_pdl",
    "arch",
    "extern_libs",
)


def unknown_keyword(kernel: str, name: str, parameters: Sequence[str]) -> str:
    """The message for a launch keyword that is neither a parameter nor a launch option,
    suggesting the closest of them (``BLOK`` -> ``BLOCK``)."""
    close = difflib.get_close_matches(name, [*parameters, *LAUNCH_OPTIONS], n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    return (
        f"{kernel}: got an unexpected keyword argument {name!r} (not a parameter of {kernel} "
        f"nor a launch option){hint}"
    )


def launch_options(
    raw: dict[str, Any], debug: bool, backend: Backend | None = None
) -> LaunchOptions:
    """The compile options of a launch's keyword options, checked as Triton checks them (for
    ``backend``'s launches where it matters)."""
    num_warps = check_num_warps(raw.get("num_warps", 4))
    arch = raw.get("arch")
    num_ctas = check_num_ctas(raw.get("num_ctas", 1))
    if num_ctas != 1:
        digits = re.sub(r"\D", "", str(arch)) if arch is not None else ""
        if digits and int(digits) < 90:
            raise LaunchOptionError("num_ctas > 1 requires NVIDIA SM90+ (Hopper)")
    if arch is not None:
        raise LaunchOptionError(
            f"the arch option ({arch!r}) is not supported: mytriton compiles for the device"
        )
    if raw.get("launch_pdl", False):
        raise LaunchOptionError(
            "launch_pdl=True is not supported by mytriton (launches are ordinary launches)"
        )
    maxnreg = raw.get("maxnreg")
    if maxnreg is not None and (
        not isinstance(maxnreg, int) or isinstance(maxnreg, bool) or maxnreg <= 0
    ):
        raise LaunchOptionError(f"maxnreg must be a positive integer, got {maxnreg!r}")
    fusion = raw.get("enable_fp_fusion")
    if fusion is None:
        from mytriton import knobs

        fusion = knobs.language.default_fp_fusion
    return LaunchOptions(
        extern_libs=check_extern_libs(raw.get("extern_libs")),
        num_warps=num_warps,
        num_stages=int(raw.get("num_stages", DEFAULT_NUM_STAGES)),
        debug=debug,
        enable_fp_fusion=bool(fusion),
        enable_reflect_ftz=bool(raw.get("enable_reflect_ftz", True)),
        maxnreg=maxnreg,
        num_ctas=num_ctas,
        launch_cooperative_grid=bool(raw.get("launch_cooperative_grid", False)),
    )


def check_num_ctas(num_ctas: Any) -> int:
    """``num_ctas`` if it is a power of 2 from 1 to 16 (a Hopper cluster's most CTAs in
    Triton's layouts), else a ``LaunchOptionError`` saying the rule."""
    if isinstance(num_ctas, bool) or not isinstance(num_ctas, int):
        raise LaunchOptionError(f"num_ctas must be a power of 2 from 1 to 16, got {num_ctas!r}")
    if num_ctas <= 0 or num_ctas & (num_ctas - 1) or num_ctas > 16:
        raise LaunchOptionError(f"num_ctas must be a power of 2 from 1 to 16, got {num_ctas}")
    return num_ctas


_warned_libdevice: set[str] = set()


def check_extern_libs(libs: Any) -> tuple[tuple[str, str], ...]:
    """Triton's ``extern_libs`` (``{"libdevice": path}``) as ``((name, path), ...)``. Triton
    reads each file (its content keys the compile) and links it into kernels that call it.
    mytriton calls only libdevice's functions (``tl.extra.libdevice``), resolved against the
    CUDA toolkit's own libdevice by nvcc and MLIR: another library name is refused, a missing
    file too, and each file given is said once not to be linked. ``None`` or ``{}``: none
    (Triton's default libdevice)."""
    if libs is None:
        return ()
    if not isinstance(libs, dict) or not all(
        isinstance(k, str) and isinstance(v, (str, os.PathLike)) for k, v in libs.items()
    ):
        raise LaunchOptionError(f"extern_libs must map library names to file paths, got {libs!r}")
    out = []
    for name, path in sorted(libs.items()):
        if name != "libdevice":
            raise LaunchOptionError(
                f"extern_libs: mytriton links no library {name!r}; kernels call libdevice's "
                "functions only (tl.extra.libdevice), from the CUDA toolkit's libdevice"
            )
        path = os.fspath(path)
        if not os.path.isfile(path):
            raise LaunchOptionError(f"extern_libs: libdevice file {path!r} not found")
        if path not in _warned_libdevice:
            _warned_libdevice.add(path)
            warnings.warn(
                f"extern_libs: libdevice calls are resolved against the CUDA toolkit's "
                f"libdevice (nvcc and MLIR link it), not {path}; the option keys the compile only",
                UserWarning,
                stacklevel=4,
            )
        out.append((name, path))
    return tuple(out)
