"""A ``@jit`` kernel's compiled kernel for a specialization: found in its in-memory cache
(keyed by specialization, backend, options, pipeline and device architecture), else compiled
there, one compile at a time in the process, between the compile hooks."""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import re
import threading
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

from mytriton import knobs
from mytriton.backends import Backend, LaunchOptions
from mytriton.backends.arrays import ArrayInfo
from mytriton.backends.compiled import CompiledKernel
from mytriton.backends.nvidia.cuda_driver import current_device
from mytriton.backends.nvidia.device_backend import DeviceBackend
from mytriton.errors import CompilationError, GlobalChangedError, LaunchError, LaunchOptionError
from mytriton.passes.pipeline import pipeline_spec
from mytriton.runtime.async_compile import FutureKernel, active_mode
from mytriton.runtime.compiler import compile_stages
from mytriton.runtime.device_caches import HOST, where_tag
from mytriton.runtime.global_values import check_inner_values, global_reads
from mytriton.runtime.jit_hooks import decode_spec, hook_arguments
from mytriton.runtime.launch import can_execute, launch_device, make_launcher
from mytriton.runtime.specialization import SpecializationProxy

if TYPE_CHECKING:
    from mytriton.runtime.jit import JITFunction

#: held while a kernel compiles (``compile_specialization``); launches of compiled kernels
#: never take it. Reentrant: nothing should compile inside a compile, but a deadlock is worse.
COMPILING = threading.RLock()


def kernel_symbol(name: str) -> str:
    """``name`` as a C identifier (what ``repr=`` returns names the PTX entry)."""
    symbol = re.sub(r"\W", "_", name)
    return symbol if symbol and not symbol[0].isdigit() else f"k_{symbol}"


def find_kernel(
    jit_fn: JITFunction[Any],
    specs: dict[str, Any],
    key: tuple[Any, ...],
    backend: Backend,
    options: LaunchOptions,
    infos: list[ArrayInfo | None],
    warmup: bool,
) -> tuple[CompiledKernel | FutureKernel, bool, LaunchOptions] | None:
    """The kernel of this specialization for these arrays (compiled on a cache miss; a
    warmup inside ``AsyncCompileMode`` gets the compile's future), whether it runs on them,
    and the options it compiled with."""
    # arrays of two frameworks, host and GPU, or two devices: refused before compiling
    execute = can_execute(backend, infos)
    # A GPU kernel is compiled for the architecture of its arrays' device (without arrays,
    # the current device's), with that device current; devices of one architecture share
    # the compiled kernel, and each loads its own copy of it (DeviceKernel keeps the loaded
    # function per device).
    target: int | None = None
    device: Any = HOST if backend.runs_on == "host" else None
    on_device: AbstractContextManager[None] = contextlib.nullcontext()
    if isinstance(backend, DeviceBackend):
        device = launch_device(infos)
        if device is None and not any(infos):
            device = current_device()
        if device is not None:
            target = backend.target(device)
            on_device = backend.compiling_on(device)
    if options.num_ctas > 1 and target is not None and target < 90:
        raise LaunchOptionError("num_ctas > 1 requires NVIDIA SM90+ (Hopper)")
    # $TRITON_F32_DEFAULT picks the precision of f32 dots that do not name one
    key = (*key, backend.name, options, pipeline_spec(), os.environ.get("TRITON_F32_DEFAULT"))
    # the architecture keys the in-memory cache only: the disk cache's key has it already
    # (the backend's toolchain identity), and the dump folder stays the one NumPy
    # arguments (compile-only) give, so a stage dumped there overrides GPU launches too
    cache_key = (*key, where_tag(backend, target))
    if target is not None:  # layouts and instructions for the device's chip
        options = dataclasses.replace(options, capability=target)
    kernel = jit_fn.cache.get(cache_key)
    if kernel is None:
        made = compile_specialization(
            jit_fn, specs, backend, options, key, cache_key, on_device, device, warmup
        )
        if made is None:
            return None
        if isinstance(made, FutureKernel):
            if warmup:  # Triton's warmup returns the future
                return made, execute, options
            made = made.result()  # a launch waits for its compile
        kernel = made
    return kernel, execute, options


def compile_specialization(
    jit_fn: JITFunction[Any],
    specs: dict[str, Any],
    backend: Backend,
    options: LaunchOptions,
    key: tuple[Any, ...],
    cache_key: tuple[Any, ...],
    on_device: AbstractContextManager[None],
    device: Any = None,
    warmup: bool = False,
) -> CompiledKernel | FutureKernel | None:
    """Compile the specialization ``key`` inside ``on_device`` and keep it in ``jit_fn``'s
    ``cache`` under ``cache_key``; inside ``AsyncCompileMode``, submit that to its executor
    (``async_compile.py``) and return the compile's future.

    One compile at a time in the process (``COMPILING``): the frontend, xDSL and the disk
    cache are not known to be safe to run from two threads at once, and two threads
    launching a new kernel at once (say, each on its own GPU) compile it once: the second
    finds the first's kernel when it gets the lock."""
    runtime = knobs.runtime
    hooks = runtime.jit_cache_hook, runtime.jit_post_compile_hook
    hook_kwargs: dict[str, Any] = {}
    if any(hooks):
        hook_kwargs = hook_arguments(jit_fn, cache_key, specs, options, device, warmup)
    if hooks[0] is not None and hooks[0](**hook_kwargs):
        return None  # the hook asked not to compile (Triton's rule)

    def compile_now() -> tuple[CompiledKernel, list[Any] | None, bool]:
        return _compile(jit_fn, specs, backend, options, key, cache_key, on_device)

    def store(made: tuple[CompiledKernel, list[Any] | None, bool]) -> CompiledKernel:
        kernel, reads, fresh = made
        if not fresh:  # another thread compiled and kept it
            return kernel
        with COMPILING:
            kernel = jit_fn.cache.setdefault(cache_key, kernel)
            if reads is not None and jit_fn._globals is None:
                jit_fn._globals = reads
        return kernel

    def finish(made: tuple[CompiledKernel, list[Any] | None, bool], kept: CompiledKernel) -> Any:
        if made[2] and hooks[1] is not None:  # the post-compile hook, outside the lock
            hooks[1](**hook_kwargs)
        return kept

    mode = active_mode.get()
    if mode is not None:
        return mode.submit((jit_fn, cache_key), compile_now, lambda m: finish(m, store(m)))
    # compiled and kept in one hold of the lock: a thread that waited for this compile
    # finds its kernel in the cache (released in between, it would compile it again)
    with COMPILING:
        made = compile_now()
        kept = store(made)
    return finish(made, kept)


def _compile(
    jit_fn: JITFunction[Any],
    specs: dict[str, Any],
    backend: Backend,
    options: LaunchOptions,
    key: tuple[Any, ...],
    cache_key: tuple[Any, ...],
    on_device: AbstractContextManager[None],
) -> tuple[CompiledKernel, list[Any] | None, bool]:
    """The compiled kernel, the globals it read (where they are the function's first) and
    whether it is new (else the cached one: another thread compiled it meanwhile)."""
    with COMPILING:
        kernel = jit_fn.cache.get(cache_key)
        if kernel is not None:
            return kernel, None, False
        # the values this compile reads, kept once it succeeds (Triton: the first's)
        reads = global_reads(jit_fn.fn) if jit_fn._globals is None else None
        if reads is not None:
            check_inner_values(reads, jit_fn.fn.__name__)
        name = None
        if jit_fn._repr is not None:
            name = kernel_symbol(jit_fn.repr(SpecializationProxy(specs)))
        with on_device:
            try:
                jit_fn.check_unspecialized_constexprs()
                kernel = compile_stages(jit_fn.fn, specs, backend, options, key, name=name)
            except CompilationError as e:
                raise backend.compile_error(e) from e.__cause__
        kernel.launcher = make_launcher(kernel, backend, options)
        return kernel, reads, True


def preload_specialization(
    jit_fn: JITFunction[Any], specialization_data: str
) -> tuple[dict[str, Any], tuple[Any, ...], LaunchOptions]:
    """The specialization, its cache key and the options a compile hook's
    ``specialization_data`` describes, checked against ``jit_fn``'s parameters."""
    data = json.loads(specialization_data)
    full_name = f"{jit_fn.fn.__module__}.{jit_fn.fn.__qualname__}"
    if data.get("name") != full_name:
        raise GlobalChangedError(
            f"Specialization data is for {data.get('name')} but trying to preload for {full_name}"
        )
    if "specs" not in data:
        raise LaunchError(f"{full_name}: no specialization data: {data.get('unserializable')}")
    decoded = {n: decode_spec(v) for n, v in data["specs"].items()}
    specs = {n: spec for n, (spec, _) in decoded.items()}
    if list(specs) != jit_fn.arg_names:
        raise LaunchError(
            f"{full_name}: the specialization data's parameters {list(specs)} are not "
            f"{jit_fn.arg_names}"
        )
    options = LaunchOptions(**data["options"])
    key = tuple(part for _, part in decoded.values())
    return specs, key, options
