"""Launching a compiled kernel on its runtime arguments: the arrays' framework and device
decide whether it runs (host arrays under a GPU backend only compile), the grid is checked,
and a kernel its machine could not build says why."""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from mytriton.backends import Backend, LaunchOptions
from mytriton.backends.arrays import ArrayInfo, describe_array, is_array
from mytriton.backends.compiled import CompiledKernel, Launch
from mytriton.backends.nvidia.cuda_driver import current_device
from mytriton.errors import (
    BackendUnavailableError,
    CompileOnlyWarning,
    LaunchError,
    LaunchOptionError,
    MyTritonError,
    OutOfResources,
    debug_enabled,
)
from mytriton.runtime.global_scratch import with_scratch
from mytriton.runtime.grid import normalize_grid


def require_binary(kernel: CompiledKernel) -> None:
    """A ``BackendUnavailableError`` saying which stage this machine could not build."""
    if kernel.binary is None:
        reason = kernel.metadata.get("unavailable", "it has no binary")
        raise BackendUnavailableError(
            f"the {kernel.backend} backend cannot run `{kernel.name}`: {reason}"
        )


def check_num_warps(num_warps: Any) -> int:
    """``num_warps`` if it is a launch's warp count: a power of 2 from 1 to 32 (a block holds
    at most 1024 threads); else a ``LaunchOptionError`` saying the rule, before any layout
    is built from it. A larger power of 2 is Triton's ``OutOfResources`` for threads (what
    its driver raises loading such a kernel; autotuners skip the config)."""
    if isinstance(num_warps, bool) or not isinstance(num_warps, (int, np.integer)):
        raise LaunchOptionError(
            f"num_warps must be a power of 2 from 1 to 32, got {type(num_warps).__name__} "
            f"{num_warps!r}"
        )
    n = int(num_warps)
    if n > 32 and not n & (n - 1):
        raise OutOfResources(n * 32, 1024, "threads")
    if n <= 0 or n & (n - 1):
        raise LaunchOptionError(f"num_warps must be a power of 2 from 1 to 32, got {n}")
    return n


def make_launcher(kernel: CompiledKernel, backend: Backend, options: LaunchOptions) -> Launch:
    """What ``kernel[grid](*args)`` calls: a launch with the runtime arguments only, on
    ``stream`` where one is given (a GPU backend's; the host backends take any value)."""

    def launch(grid: Any, args: tuple[Any, ...], stream: int | None = None) -> None:
        try:
            g = normalize_grid(grid({}) if callable(grid) else grid)
            infos = [
                describe_array(a, f"argument {i}") if is_array(a) else None
                for i, a in enumerate(args)
            ]
            if not can_execute(backend, infos):
                warn_compile_only(backend)
                return
            require_binary(kernel)
            if g[0] * g[1] * g[2] > 0:
                args = with_scratch(kernel, g, args, infos, stream)
                backend.launch(kernel, g, list(args), infos, options, stream=stream)
        except MyTritonError as e:
            if debug_enabled():
                raise
            raise e.with_traceback(None)  # noqa: B904 (keeps the cause of an internal error)

    return launch


_warned_compile_only = False


def warn_compile_only(backend: Backend) -> None:
    """Say once per process that a launch on host arrays under a GPU backend ran nothing."""
    global _warned_compile_only
    if _warned_compile_only:
        return
    _warned_compile_only = True
    warnings.warn(
        f"the {backend.name} backend compiled this kernel but did not run it: its arguments are "
        "host (NumPy or CPU torch) arrays, so their contents are unchanged. Pass CuPy arrays or "
        "CUDA torch tensors to run on the GPU, or set MYTRITON_INTERPRET=1 (or "
        "MYTRITON_BACKEND=interpreter) to run on the CPU.",
        CompileOnlyWarning,
        stacklevel=4,
    )


def can_execute(backend: Backend, infos: Sequence[ArrayInfo | None]) -> bool:
    """Whether these arrays run on ``backend``; host arrays under a GPU backend compile only,
    as does a launch without arrays where no GPU is present."""
    arrays = [i for i in infos if i is not None]
    if not arrays:  # scalars only: a GPU backend runs it on the current device, if any
        return backend.runs_on == "host" or current_device() is not None
    on_gpu = {i.on_gpu for i in arrays}
    if len(on_gpu) > 1:
        raise LaunchError("one launch cannot mix host (CPU) and CUDA arrays")
    gpu = on_gpu.pop()
    frameworks = {i.framework for i in arrays}
    if gpu:
        if len(frameworks) > 1:
            raise LaunchError(
                f"one launch cannot mix array frameworks ({', '.join(sorted(frameworks))}); pass "
                "all CuPy arrays or all Torch tensors"
            )
        devices = {i.device for i in arrays}
        if len(devices) > 1:
            raise LaunchError(
                "all arrays must be on one CUDA device, got devices "
                f"{sorted(d for d in devices if d is not None)}"
            )
        if backend.runs_on == "host":
            raise LaunchError(
                f"the {backend.name} backend runs on host arrays (NumPy or CPU torch), "
                "not CUDA arrays"
            )
        return True
    return backend.runs_on == "host"


def launch_device(infos: Sequence[ArrayInfo | None]) -> int | None:
    """The CUDA device a launch on these arrays runs on: the device of its arrays (all on one,
    which ``can_execute`` checks first), whatever device is current; None for host arrays or
    none at all."""
    for info in infos:
        if info is not None:
            return info.device
    return None
