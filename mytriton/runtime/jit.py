"""``@mytriton.jit``: the kernel object users decorate, launch, warm up and clear.

``kernel[grid](*args, **kwargs)`` binds the arguments, specializes (cache key), compiles on a
miss, and launches with the selected backend, or stops after compiling when the arrays cannot
run there (NumPy arrays under a GPU backend: the seed's compile-only mode).
"""

from __future__ import annotations

import contextlib
import dataclasses
import difflib
import functools
import inspect
import json
import operator
import os
import re
import threading
import types
from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager
from typing import Any, Generic, TypeVar, overload

from mytriton import knobs
from mytriton.backends import Backend, LaunchOptions, get_backend, selected_backend_name
from mytriton.backends.arrays import ArrayInfo
from mytriton.backends.compiled import CompiledKernel
from mytriton.backends.nvidia.cuda_driver import current_device
from mytriton.backends.nvidia.device_backend import DeviceBackend
from mytriton.backends.nvidia.device_launcher import FastLaunch
from mytriton.errors import (
    CompilationError,
    ConstexprError,
    GlobalChangedError,
    LaunchError,
    LaunchOptionError,
    MyTritonError,
    debug_enabled,
)
from mytriton.frontend.signature import ConstexprArg, DescriptorArg, TupleArg
from mytriton.frontend.source import KernelSource
from mytriton.language.constexpr_functions import (  # noqa: F401 (Triton's home of them)
    ConstexprFunction,
    constexpr_function,
)
from mytriton.passes.pipeline import pipeline_spec
from mytriton.runtime.autotuner import KernelInterface as KernelInterface  # Triton's home
from mytriton.runtime.binder import Unsure, make_binder, options_key
from mytriton.runtime.compiler import compile_stages
from mytriton.runtime.dependencies import Unstable, fingerprint, fingerprint_text, is_jit
from mytriton.runtime.descriptor_args import descriptor_runtime
from mytriton.runtime.device_caches import HOST, DeviceCaches, where_tag
from mytriton.runtime.fast_path import FastPath, make_fast_path
from mytriton.runtime.global_scratch import GlobalScratch, scratch_bytes
from mytriton.runtime.global_values import (
    MISSING,
    GlobalRead,
    check_unchanged,
    fast_guards,
    global_reads,
)
from mytriton.runtime.grid import normalize_grid
from mytriton.runtime.jit_hooks import LaunchMetadata, decode_spec, hook_arguments
from mytriton.runtime.kernel_params import KernelParam, kernel_params
from mytriton.runtime.launch import (
    can_execute,
    check_num_warps,
    launch_device,
    make_launcher,
    require_binary,
    warn_compile_only,
)
from mytriton.runtime.mock_tensor import MockTensor
from mytriton.runtime.native_fast_path import make_native_fast_path
from mytriton.runtime.specialization import SpecializationProxy, specialize, tuple_runtime
from mytriton.runtime.tensor_maps import fill_tensor_maps

T = TypeVar("T")

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
)

Grid = tuple[int, ...] | Callable[[dict[str, Any]], tuple[int, ...]]

#: held while a kernel compiles (``JITFunction._compile``); launches of compiled kernels never
#: take it. Reentrant: nothing should compile inside a compile, but a deadlock is worse.
_COMPILING = threading.RLock()


def _is_constexpr_annotation(ann: Any) -> bool:
    from mytriton.language import core

    if ann is core.constexpr or isinstance(ann, core.constexpr):
        return True
    return isinstance(ann, str) and ann.split(".")[-1] == "constexpr"


class JITFunction(Generic[T]):
    """A ``@jit`` kernel (or helper, when called from another kernel)."""

    is_mytriton_jit = True
    #: the kernel's name (``functools.update_wrapper``), kept when Inductor clears ``fn``
    __name__: str

    def __init__(
        self,
        fn: Callable[..., T],
        *,
        debug: bool | None = None,
        noinline: bool = False,
        repr: Callable[[SpecializationProxy], str] | None = None,
        launch_metadata: Callable[..., Any] | None = None,
        do_not_specialize: Iterable[int | str] | None = None,
        do_not_specialize_on_alignment: Iterable[int | str] | None = None,
    ):
        self.fn = fn
        self.debug = debug
        self.noinline = noinline
        #: names each compiled kernel from its specialization (Triton's ``repr=``)
        self._repr = repr
        #: Triton's profiler hook; accepted and stored, never called (mytriton has no profiler)
        self.launch_metadata = launch_metadata
        functools.update_wrapper(self, fn)  # type: ignore[arg-type]
        self.signature = inspect.signature(fn)
        self.arg_names = list(self.signature.parameters)
        self.do_not_specialize = self._parameters(do_not_specialize, "do_not_specialize")
        self.do_not_specialize_on_alignment = self._parameters(
            do_not_specialize_on_alignment, "do_not_specialize_on_alignment"
        )
        self.constexprs = frozenset(
            n
            for n, p in self.signature.parameters.items()
            if _is_constexpr_annotation(p.annotation)
        )
        #: Triton's attribute (TorchInductor clears and restores it around pickling)
        self.__globals__: dict[str, Any] | None = fn.__globals__
        self._init_process_state()
        #: called as ``hook(*args, **kwargs)`` with each launch's arguments before it binds
        #: them (``add_pre_run_hook``); a kernel with hooks launches by the general path
        self.pre_run_hooks: list[Callable[..., Any]] = []
        # *args, **kwargs, keyword- or positional-only parameters: the frontend rejects them
        # (with the `def` line); check before binding turns them into confusing arguments.
        self._unusual_params = any(
            p.kind is not inspect.Parameter.POSITIONAL_OR_KEYWORD
            for p in self.signature.parameters.values()
        )

    def _init_process_state(self) -> None:
        """What belongs to this process: compiled kernels, launch plans, tracked globals."""
        #: the compiled kernels, keyed by specialization and where they run
        #: (``device_caches.py``: ``device_caches[device][0]`` views it per device)
        self.cache: dict[tuple[Any, ...], CompiledKernel] = {}
        self.device_caches = DeviceCaches(self.cache, self._forget_plans)
        self._plans: dict[tuple[Any, ...], _LaunchPlan] = {}
        self._binder = make_binder(self.__name__, self.signature, self.constexprs)
        #: the fast path of the last plan launched (None: none yet, or it has none)
        self._fast: FastPath | None = None
        #: what ``kernel[grid]`` calls: the native fast path of the last plan, or ``_launch``
        self._entry: Callable[..., CompiledKernel] = self._launch
        #: the globals the compiled kernels hold, read at the first compile (None: none yet);
        #: every launch checks them (``global_values.py``), the fast paths by identity
        self._globals: list[GlobalRead] | None = None

    _PROCESS_STATE = ("cache", "device_caches", "_plans", "_binder", "_fast", "_entry", "_globals")

    def __getstate__(self) -> dict[str, Any]:
        """Pickles without what belongs to this process (rebuilt empty on unpickling).
        TorchInductor's compile workers send kernels so, having set ``fn`` and ``__globals__``
        to None; the function itself pickles by reference where it is given."""
        state = {k: v for k, v in self.__dict__.items() if k not in self._PROCESS_STATE}
        state["__wrapped__"] = state.get("fn")
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._init_process_state()

    def __repr__(self) -> str:
        fn = self.fn
        if fn is None:  # cleared for pickling (TorchInductor)
            return f"JITFunction({self.__module__}:{self.__qualname__})"
        return f"JITFunction({fn.__module__}:{fn.__qualname__})"

    def _parameters(self, which: Iterable[int | str] | None, option: str) -> frozenset[str]:
        """Parameter names given by name or position (``do_not_specialize=[0, "n"]``)."""
        names: set[str] = set()
        for p in which or ():
            if isinstance(p, int) and not isinstance(p, bool) and 0 <= p < len(self.arg_names):
                names.add(self.arg_names[p])
            elif isinstance(p, str) and p in self.arg_names:
                names.add(p)
            else:
                raise LaunchOptionError(
                    f"@jit({option}=...) of {self.fn.__name__}: {p!r} is not a parameter name "
                    f"or index (parameters: {', '.join(self.arg_names)})"
                )
        return frozenset(names)

    def check_unspecialized_constexprs(self) -> None:
        """A ``tl.constexpr`` parameter is its value: it cannot also be left unspecialized
        (Triton's compile error, at the parameter)."""
        from mytriton.frontend.source import KernelSource

        unspecialized = self.do_not_specialize | self.do_not_specialize_on_alignment
        if not unspecialized:
            return
        src = KernelSource.of(self.fn)
        params = src.parameters()
        for arg in src.function_def().args.args:
            if arg.arg in unspecialized and params.get(arg.arg) == "constexpr":
                raise ConstexprError(
                    f"{arg.arg} marked as constexpr and listed in do_not_specialize/"
                    "do_not_specialize_on_alignment. Remove constexpr designation to skip "
                    "specialization.",
                    src.location(arg),
                )

    def repr(self, specialization: SpecializationProxy) -> str:
        """The name of the kernel compiled for ``specialization`` (Triton's ``repr``)."""
        return self.__name__ if self._repr is None else self._repr(specialization)

    @property
    def cache_key(self) -> str:
        """A sha256 of the kernel's source, location and everything it reads (``@jit`` helpers
        recursively, globals by value): Triton's ``cache_key``, which changes when any of them
        does. Computed on each read, so it is never stale (Triton memoizes it in ``hash``)."""
        try:
            return fingerprint(self.fn)
        except Unstable as e:
            # a read with no stable text (an object printed with its address): name it in
            # this process (the launch's global checks still see it change)
            text, file, first = KernelSource.text_of(self.fn)
            return fingerprint_text(file, first, text, str(e))

    @property
    def hash(self) -> str:
        """Triton's memo of ``cache_key``; here ``cache_key`` itself (never stale)."""
        return self.cache_key

    @hash.setter  # noqa: A003 (Triton's attribute name)
    def hash(self, value: None) -> None:
        # Triton's callers reset the memo with ``fn.hash = None``: nothing to forget here
        if value is not None:
            raise AttributeError("JITFunction.hash can only be reset (set to None)")

    @property
    def src(self) -> str:
        """The kernel's source from its ``def`` line on, dedented (Triton's ``src``)."""
        return KernelSource.text_of(self.fn)[0]

    def _unsafe_update_src(self, new_src: str) -> None:
        """Compile this kernel from ``new_src`` from now on (Triton's test suite patches
        kernels so). The function object is copied first, so that other ``JITFunction``s of
        the same function keep their own source."""
        _, file, first = KernelSource.text_of(self.fn)
        fn = self.fn
        copy = types.FunctionType(
            fn.__code__, fn.__globals__, fn.__name__, fn.__defaults__, fn.__closure__
        )
        copy.__qualname__ = fn.__qualname__
        copy.__module__ = fn.__module__
        copy.__annotations__ = dict(fn.__annotations__)
        copy.__kwdefaults__ = fn.__kwdefaults__
        KernelSource.replace(copy, new_src, file, first)
        self.fn = copy
        self.cache.clear()
        self._globals = None
        self._plans.clear()
        self._fast = None
        self._entry = self._launch

    def __call__(self, *args: Any, **kwargs: Any) -> T:
        raise RuntimeError(
            f"@jit function {self.fn.__name__} cannot be called directly; launch it with "
            f"{self.fn.__name__}[grid](...) or call it from another @jit function"
        )

    def __getitem__(self, grid: Grid) -> Callable[..., CompiledKernel]:
        runtime = knobs.runtime
        if runtime.launch_enter_hook or runtime.launch_exit_hook:
            return functools.partial(self._general_launch, grid)  # the fast paths skip hooks
        return functools.partial(self._entry, grid)

    def _general_launch(self, grid: Grid, *args: Any, **kwargs: Any) -> CompiledKernel:
        return self.run(*args, grid=grid, warmup=False, **kwargs)

    def _launch(self, grid: Grid, *args: Any, **kwargs: Any) -> CompiledKernel:
        """``kernel[grid](*args, **kwargs)``: the generated fast path of the last plan
        launched (``fast_path.py``), which hands anything else to ``run``."""
        fast = self._fast
        if fast is not None:
            try:
                return fast(grid, *args, **kwargs)  # type: ignore[no-any-return]
            except TypeError as e:
                if e.__traceback__ is None or e.__traceback__.tb_next is not None:
                    raise  # raised inside: not a binding error
                # the arguments do not bind: run reports it as a LaunchError
            except MyTritonError as e:
                if debug_enabled():
                    raise
                raise e.with_traceback(None)  # noqa: B904 (keeps the cause of an internal error)
        return self.run(*args, grid=grid, warmup=False, **kwargs)

    def _general(self, grid: Grid, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        """The general path, for a launch a fast path turned away."""
        return self.run(*args, grid=grid, warmup=False, **kwargs)

    def warmup(self, *args: Any, grid: Grid, **kwargs: Any) -> CompiledKernel:
        """Compile for these arguments without launching (a torch dtype stands for an array
        of that dtype, as in Triton: ``MockTensor``)."""
        args = tuple(MockTensor.wrap_dtype(a) for a in args)
        kwargs = {k: MockTensor.wrap_dtype(v) for k, v in kwargs.items()}
        return self.run(*args, grid=grid, warmup=True, **kwargs)

    def preload(self, specialization_data: str) -> CompiledKernel | None:
        """Compile (or find) the kernel a compile hook's ``specialization_data`` describes,
        for the current backend and device, without arguments (Triton's ``preload``)."""
        data = json.loads(specialization_data)
        full_name = f"{self.fn.__module__}.{self.fn.__qualname__}"
        if data.get("name") != full_name:
            raise GlobalChangedError(
                f"Specialization data is for {data.get('name')} but trying to preload for "
                f"{full_name}"
            )
        if "specs" not in data:
            raise LaunchError(f"{full_name}: no specialization data: {data.get('unserializable')}")
        decoded = {n: decode_spec(v) for n, v in data["specs"].items()}
        specs = {n: spec for n, (spec, _) in decoded.items()}
        if list(specs) != self.arg_names:
            raise LaunchError(
                f"{full_name}: the specialization data's parameters {list(specs)} are not "
                f"{self.arg_names}"
            )
        options = LaunchOptions(**data["options"])
        backend = get_backend(selected_backend_name())
        try:
            key = tuple(part for _, part in decoded.values())
            found = self._kernel(specs, key, backend, options, [], warmup=True)
        except MyTritonError as e:
            if debug_enabled():
                raise
            raise e.with_traceback(None)  # noqa: B904
        return None if found is None else found[0]

    def add_pre_run_hook(self, hook: Callable[..., Any]) -> None:
        """Call ``hook(*args, **kwargs)`` with the arguments of every launch (and warmup) of
        this kernel before it runs, as Triton does (a hook may reset an output it accumulates
        into). Launches then leave the fast paths, which would skip the hook."""
        if not callable(hook):
            raise LaunchError(f"add_pre_run_hook of {self.fn.__name__}: {hook!r} is not callable")
        self.pre_run_hooks.append(hook)
        self._fast = None
        self._entry = self._launch

    def clear_cache(self) -> None:
        """Forget compiled specializations (and the parsed source: globals may have changed)."""
        self.cache.clear()
        self._forget_plans()
        self._globals = None
        KernelSource.forget(self.fn)

    def _forget_plans(self) -> None:
        """Drop the launch plans (they hold compiled kernels) and the fast paths."""
        self._plans.clear()
        self._fast = None
        self._entry = self._launch

    # ---- launch ----

    def _bind(
        self, args: Sequence[Any], kwargs: dict[str, Any]
    ) -> tuple[list[Any], dict[str, Any]]:
        # a parameter named like a launch option (tutorial 02's `num_stages`) takes the value,
        # as Triton's binder does
        options = {
            k: kwargs.pop(k)
            for k in list(kwargs)
            if k in LAUNCH_OPTIONS and k not in self.signature.parameters
        }
        unknown = [k for k in kwargs if k not in self.signature.parameters]
        if unknown:  # before bind: it would report the parameter the misspelling leaves unset
            raise LaunchError(unknown_keyword(self.fn.__name__, unknown[0], self.arg_names))
        try:
            bound = self.signature.bind(*args, **kwargs)
        except TypeError as e:
            raise LaunchError(f"{self.fn.__name__}: {e}") from None
        bound.apply_defaults()
        return [bound.arguments[n] for n in self.arg_names], options

    def _options(self, raw: dict[str, Any], backend: Backend) -> LaunchOptions:
        debug = raw.get("debug", self.debug)
        if debug is None:  # Triton's switch too: device assertions are on under either
            debug = debug_enabled() or os.environ.get("TRITON_DEBUG", "") not in ("", "0")
        return launch_options(raw, bool(debug), backend)

    def run(self, *args: Any, grid: Grid, warmup: bool, **kwargs: Any) -> CompiledKernel:
        for hook in self.pre_run_hooks:
            hook(*args, **kwargs)
        try:
            # Fast path: a launch whose arguments bind and describe like an earlier one's (same
            # kinds, dtypes, devices, alignment, constexpr values, options, environment)
            # reuses its plan: no inspect, no specialization, no compile-cache key.
            key: tuple[Any, ...] | None = None
            plan: _LaunchPlan | None = None
            values: Sequence[Any] = ()
            binder = self._binder
            if binder is not None:
                try:
                    values, options, described = binder(*args, **kwargs)
                    key = (described, options_key(options) if options else (), _environment())
                    plan = self._plans.get(key)
                except (Unsure, TypeError):
                    key = None
            if plan is None:
                planned = self._plan(args, kwargs, warmup)
                if planned is None:  # a jit_cache_hook skipped the compile
                    return None  # type: ignore[return-value]
                plan, values = planned
                if key is not None:
                    self._plans[key] = plan
            if self._globals and check_unchanged(self._globals, self.fn.__name__):
                self._forget_fast_paths()  # an equal value, another object: guards remade
            if warmup:
                return plan.kernel
            if callable(grid):
                grid = grid(dict(zip(self.arg_names, values, strict=True)))
            gx, gy, gz = normalize_grid(grid)
            if not plan.execute:
                warn_compile_only(plan.backend)
            elif gx and gy and gz:
                launch = plan.launch
                if launch is None:
                    launch = plan.bind_launch()
                args = plan.runtime(values)
                if plan.scratch is not None:  # the tensor maps it writes (global_scratch.py)
                    # Triton gives each CTA of a program's cluster its scratch: the allocator
                    # is asked for as much (only the first CTA's is used here)
                    ctas = gx * gy * gz * plan.options.num_ctas
                    args = (*args, plan.scratch.allocate(ctas))
                runtime = knobs.runtime
                enter, leave = runtime.launch_enter_hook, runtime.launch_exit_hook
                if enter or leave:
                    metadata = self._launch_metadata(plan.kernel, grid, values)
                    if enter:
                        enter(metadata)
                    launch(gx, gy, gz, args)
                    if leave:
                        leave(metadata)
                else:
                    launch(gx, gy, gz, args)
                if key is not None and not self.pre_run_hooks:
                    if not plan.fast_tried:
                        self._make_fast_path(plan, values, options, key[2])
                    self._fast = plan.fast
                    self._entry = plan.native or self._launch
            return plan.kernel
        except MyTritonError as e:
            # The message names the kernel's line; the compiler's frames only hide it.
            if debug_enabled():
                raise
            raise e.with_traceback(None)  # noqa: B904 (keeps the cause of an internal error)

    def _plan(
        self, args: Sequence[Any], kwargs: dict[str, Any], warmup: bool
    ) -> tuple[_LaunchPlan, Sequence[Any]] | None:
        """Bind, specialize, compile on a cache miss: everything a launch needs but the grid;
        and the parameters' values (None: a ``jit_cache_hook`` skipped the compile)."""
        if self._unusual_params:
            KernelSource.of(self.fn)  # raises UnsupportedSyntaxError at the `def` line
        values, raw_options = self._bind(args, dict(kwargs))
        backend = get_backend(selected_backend_name())
        options = self._options(raw_options, backend)
        specs, key, runtime, infos = self._specialize(values)
        if not warmup and any(isinstance(v, MockTensor) for v in runtime):
            raise LaunchError(
                f"{self.fn.__name__}: a MockTensor (or a dtype) stands for an array in "
                "warmup only; a launch needs the array"
            )
        found = self._kernel(specs, key, backend, options, infos, warmup)
        if found is None:
            return None
        kernel, execute, options = found
        plan = _LaunchPlan(
            kernel,
            backend,
            options,
            self._runtime_indices(specs),
            infos,
            execute,
        )
        if any(isinstance(spec, TupleArg) for spec in specs.values()):
            if any(isinstance(spec, DescriptorArg) for spec in specs.values()):
                raise LaunchError(
                    f"{self.fn.__name__}: tuple arguments together with tensor descriptor "
                    "arguments are not supported"
                )
            # their runtime elements are passed flattened; no generated or native fast path
            plan.runtime = tuple_runtime(specs, self.arg_names)
            plan.fast_tried = True
        if any(isinstance(spec, DescriptorArg) for spec in specs.values()):
            # a host tensor descriptor is several runtime arguments, made again at each launch
            # of this plan (``descriptor_runtime``); no generated or native fast path
            maps = kernel.metadata.get("tensor_maps") if execute else None
            if maps:  # the tensor maps its TMA copies read (their infos are the plan's)
                fill_tensor_maps(maps, backend, runtime, infos)
            plan.runtime = descriptor_runtime(specs, self.arg_names, runtime, infos, maps, backend)
            plan.fast_tried = True
        if execute and (per_program := scratch_bytes(kernel)):
            plan.scratch = GlobalScratch(per_program, infos)
            plan.infos = [*infos, plan.scratch.info]
            plan.fast_tried = True  # (the fast paths pass no scratch)
        return plan, values

    def _kernel(
        self,
        specs: dict[str, Any],
        key: tuple[Any, ...],
        backend: Backend,
        options: LaunchOptions,
        infos: list[ArrayInfo | None],
        warmup: bool,
    ) -> tuple[CompiledKernel, bool, LaunchOptions] | None:
        """The kernel of this specialization for these arrays (compiled on a cache miss),
        whether it runs on them, and the options it compiled with."""
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
        kernel = self.cache.get(cache_key)
        if kernel is None:
            kernel = self._compile(
                specs, backend, options, key, cache_key, on_device, device, warmup
            )
            if kernel is None:
                return None
        return kernel, execute, options

    def _launch_metadata(
        self, kernel: CompiledKernel, grid: Any, values: Sequence[Any]
    ) -> LaunchMetadata:
        """What the launch hooks get: the kernel's name, and ``launch_metadata``'s dict."""
        metadata = LaunchMetadata({"name": kernel.name, "function": kernel.name}, None)
        if self.launch_metadata is not None:
            args = dict(zip(self.arg_names, values, strict=True))
            metadata.add(self.launch_metadata, (grid, kernel.metadata, args))
        return metadata

    def _compile(
        self,
        specs: dict[str, Any],
        backend: Backend,
        options: LaunchOptions,
        key: tuple[Any, ...],
        cache_key: tuple[Any, ...],
        on_device: AbstractContextManager[None],
        device: Any = None,
        warmup: bool = False,
    ) -> CompiledKernel | None:
        """Compile the specialization ``key`` inside ``on_device`` and keep it in ``cache``
        under ``cache_key``.

        One compile at a time in the process (``_COMPILING``): the frontend, xDSL and the disk
        cache are not known to be safe to run from two threads at once, and two threads
        launching a new kernel at once (say, each on its own GPU) compile it once: the second
        finds the first's kernel when it gets the lock."""
        with _COMPILING:
            kernel = self.cache.get(cache_key)
            if kernel is not None:
                return kernel
            runtime = knobs.runtime
            hooks = runtime.jit_cache_hook, runtime.jit_post_compile_hook
            hook_kwargs: dict[str, Any] = {}
            if any(hooks):
                hook_kwargs = hook_arguments(self, cache_key, specs, options, device, warmup)
            if hooks[0] is not None and hooks[0](**hook_kwargs):
                return None  # the hook asked not to compile (Triton's rule)
            # the values this compile reads, kept once it succeeds (Triton: the first's)
            reads = global_reads(self.fn) if self._globals is None else None
            name = None
            if self._repr is not None:
                name = kernel_symbol(self.repr(SpecializationProxy(specs)))
            with on_device:
                try:
                    self.check_unspecialized_constexprs()
                    kernel = compile_stages(self.fn, specs, backend, options, key, name=name)
                except CompilationError as e:
                    raise backend.compile_error(e) from e.__cause__
            kernel.launcher = make_launcher(kernel, backend, options)
            self.cache[cache_key] = kernel
            if reads is not None:
                self._globals = reads
        if hooks[1] is not None:
            hooks[1](**hook_kwargs)
        return kernel

    def _make_fast_path(
        self,
        plan: _LaunchPlan,
        values: Sequence[Any],
        options: dict[str, Any],
        environment: tuple[Any, ...],
    ) -> None:
        """Give ``plan`` (just launched with these values, options and environment) its
        native fast path, else its generated Python one, where its backend has launch code."""
        plan.fast_tried = True
        global_guards = fast_guards(self._globals or [])
        if global_guards is None:
            return  # a global compared by value: every launch takes the general path
        code = plan.backend.launch_code(plan.kernel, plan.infos, plan.options)
        if code is None:
            return
        facts: dict[str, Any] = {
            "signature": self.signature,
            "constexprs": self.constexprs,
            "no_value": self.do_not_specialize,
            "no_alignment": self.do_not_specialize_on_alignment,
            "values": values,
            "environment": (_ENV_BYTES, environment),
            "runtime_indices": plan.runtime_indices,
            "kernel": plan.kernel,
            "global_guards": global_guards,
        }
        if code.native is not None:
            plan.native = make_native_fast_path(
                **facts,
                options=options,
                native=code.native,
                general=self._general,
                normalize=_normalize_grid,
            )
            if plan.native is not None:
                return
        plan.fast = make_fast_path(
            **facts,
            name=self.fn.__name__,
            options=options_key(options) if options else (),
            launch_code=code,
            slow=self._general,
            options_key=options_key,
        )

    def _forget_fast_paths(self) -> None:
        """Drop the fast paths made so far (their global guards hold stale objects); the next
        launch of each plan makes them again."""
        for plan in self._plans.values():
            if plan.fast is not None or plan.native is not None:
                plan.fast = plan.native = None
                plan.fast_tried = False
        self._fast = None
        self._entry = self._launch

    @property
    def used_global_vals(self) -> dict[tuple[str, int], tuple[Any, Any]]:
        """Triton's view of the tracked globals: ``(name, id(scope)) -> (value, scope)``, the
        ``@jit`` helpers left out (Triton does not track them; mytriton does, by identity)."""
        return {
            (r.name, id(r.scope)): (r.snapshot if r.snapshot is not MISSING else r.value, r.scope)
            for r in self._globals or ()
            if not is_jit(r.value)
        }

    @used_global_vals.setter
    def used_global_vals(self, value: dict[Any, Any] | None) -> None:
        """TorchInductor sets it to None before pickling and back after: the view derives from
        the tracked globals, which pickling drops and the next compile reads again."""
        if value is not None and not isinstance(value, dict):
            raise TypeError(f"used_global_vals is a dict or None, got {type(value).__name__}")

    @property
    def params(self) -> list[KernelParam]:
        """One ``KernelParam`` per parameter (Triton's ``JITFunction.params``)."""
        return kernel_params(
            self.signature,
            self.constexprs,
            self.do_not_specialize,
            self.do_not_specialize_on_alignment,
        )

    def _runtime_indices(self, specs: dict[str, Any]) -> tuple[int, ...]:
        """The positions of the parameters passed at run time (not compiled in)."""
        return tuple(
            i for i, n in enumerate(self.arg_names) if not isinstance(specs[n], ConstexprArg)
        )

    def runtime_arguments(self, *args: Any, **kwargs: Any) -> list[Any]:
        """The values a launch with these arguments passes to the compiled kernel, in order
        (constexprs and integers specialized to 1 are compiled in, so they are left out)."""
        values, _ = self._bind(args, dict(kwargs))
        _, _, runtime, _ = self._specialize(values)
        return runtime

    def _specialize(
        self, values: list[Any]
    ) -> tuple[dict[str, Any], tuple[Any, ...], list[Any], list[ArrayInfo | None]]:
        return specialize(
            self.arg_names,
            self.constexprs,
            values,
            self.do_not_specialize,
            self.do_not_specialize_on_alignment,
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


def kernel_symbol(name: str) -> str:
    """``name`` as a C identifier (what ``repr=`` returns names the PTX entry)."""
    symbol = re.sub(r"\W", "_", name)
    return symbol if symbol and not symbol[0].isdigit() else f"k_{symbol}"


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
    if raw.get("launch_cooperative_grid", False) and (backend is None or backend.runs_on != "host"):
        # A cooperative launch promises every program of the grid at once. The CPU backends
        # run every program of any grid (no residency limit; one after another, as Triton's
        # interpreter does), so it launches as usual there; a GPU launch is not cooperative yet.
        where = f"the {backend.name} backend" if backend is not None else "a GPU backend"
        raise LaunchOptionError(
            f"launch_cooperative_grid=True is not supported by {where} (its launches are "
            "ordinary launches); the CPU backends (interpreter, gpusim) take it"
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
        num_warps=num_warps,
        num_stages=int(raw.get("num_stages", 3)),
        debug=debug,
        enable_fp_fusion=bool(fusion),
        enable_reflect_ftz=bool(raw.get("enable_reflect_ftz", True)),
        maxnreg=maxnreg,
        num_ctas=num_ctas,
        launch_cooperative_grid=bool(raw.get("launch_cooperative_grid", False)),
    )


_ENV_KEYS = (
    "MYTRITON_BACKEND",
    "MYTRITON_INTERPRET",
    "TRITON_INTERPRET",
    "MYTRITON_PIPELINE",
    "MYTRITON_DEBUG",
    "TRITON_DEBUG",
    "TRITON_DEFAULT_FP_FUSION",
    "TRITON_F32_DEFAULT",
)


_ENV_BYTES = tuple(os.fsencode(k) for k in _ENV_KEYS)


def check_num_ctas(num_ctas: Any) -> int:
    """``num_ctas`` if it is a power of 2 from 1 to 16 (a Hopper cluster's most CTAs in
    Triton's layouts), else a ``LaunchOptionError`` saying the rule."""
    if isinstance(num_ctas, bool) or not isinstance(num_ctas, int):
        raise LaunchOptionError(f"num_ctas must be a power of 2 from 1 to 16, got {num_ctas!r}")
    if num_ctas <= 0 or num_ctas & (num_ctas - 1) or num_ctas > 16:
        raise LaunchOptionError(f"num_ctas must be a power of 2 from 1 to 16, got {num_ctas}")
    return num_ctas


def _environment() -> tuple[Any, ...]:
    """The settings that select backend and pipeline (read on every launch: they may change)."""
    data = getattr(os.environ, "_data", None)  # CPython's raw store: ~10x faster than .get()
    if isinstance(data, dict):
        return tuple(map(data.get, _ENV_BYTES))
    return tuple(os.environ.get(k) for k in _ENV_KEYS)


def _normalize_grid(grid: Any) -> tuple[int, int, int]:
    """``normalize_grid`` for the native fast path: its errors as ``run`` raises them."""
    try:
        return normalize_grid(grid)
    except MyTritonError as e:
        if debug_enabled():
            raise
        raise e.with_traceback(None)  # noqa: B904


class _LaunchPlan:
    """A specialization resolved for one argument signature: kernel, backend, which values
    are runtime arguments, and (bound on the first launch) the backend's launch function."""

    __slots__ = (
        "backend",
        "execute",
        "fast",
        "fast_tried",
        "infos",
        "kernel",
        "launch",
        "native",
        "options",
        "runtime",
        "runtime_indices",
        "scratch",
    )

    def __init__(
        self,
        kernel: CompiledKernel,
        backend: Backend,
        options: LaunchOptions,
        runtime_indices: tuple[int, ...],
        infos: list[ArrayInfo | None],
        execute: bool,
    ):
        self.kernel = kernel
        self.backend = backend
        self.options = options
        self.infos = infos
        self.execute = execute
        #: the runtime arguments out of all parameters' values, as a tuple
        self.runtime_indices = runtime_indices
        self.runtime: Callable[[Sequence[Any]], tuple[Any, ...]] = _picker(runtime_indices)
        self.launch: FastLaunch | None = None
        #: the generated fast path (made after the first launch), and whether it was tried
        self.fast: FastPath | None = None
        self.fast_tried = False
        #: the native fast path (``native_fast_path.py``), which replaces ``fast`` where made
        self.native: Callable[..., CompiledKernel] | None = None
        #: where the kernel writes tensor maps: each launch's scratch (``global_scratch.py``)
        self.scratch: GlobalScratch | None = None

    def bind_launch(self) -> FastLaunch:
        """The backend's launch function for this plan's kernel and arrays (first launch)."""
        require_binary(self.kernel)
        self.launch = self.backend.launcher(self.kernel, self.infos, self.options)
        return self.launch


def _picker(indices: tuple[int, ...]) -> Callable[[Sequence[Any]], tuple[Any, ...]]:
    """``values -> tuple(values[i] for i in indices)``, in C where it can be."""
    if len(indices) >= 2:
        return operator.itemgetter(*indices)
    if len(indices) == 1:
        (i,) = indices
        return lambda values: (values[i],)
    return lambda values: ()


@overload
def jit(fn: Callable[..., T]) -> JITFunction[T]: ...


@overload
def jit(
    fn: None = None,
    *,
    version: Any = None,
    repr: Callable[[SpecializationProxy], str] | None = None,
    launch_metadata: Callable[..., Any] | None = None,
    do_not_specialize: Iterable[int | str] | None = None,
    do_not_specialize_on_alignment: Iterable[int | str] | None = None,
    debug: bool | None = None,
    noinline: bool = False,
) -> Callable[[Callable[..., T]], JITFunction[T]]: ...


def jit(
    fn: Callable[..., T] | None = None,
    *,
    version: Any = None,
    repr: Callable[[SpecializationProxy], str] | None = None,
    launch_metadata: Callable[..., Any] | None = None,
    do_not_specialize: Iterable[int | str] | None = None,
    do_not_specialize_on_alignment: Iterable[int | str] | None = None,
    debug: bool | None = None,
    noinline: bool = False,
) -> JITFunction[T] | Callable[[Callable[..., T]], JITFunction[T]]:
    """Decorate a kernel: ``@jit`` or ``@jit(debug=True, ...)`` with Triton's options:
    ``repr`` names the compiled kernels, ``do_not_specialize`` /
    ``do_not_specialize_on_alignment`` (parameter names or indices) turn off the value-1 and
    divisibility-by-16 specializations; ``launch_metadata`` and ``version`` are accepted and
    unused."""

    def wrap(f: Callable[..., T]) -> JITFunction[T]:
        return JITFunction(
            f,
            debug=debug,
            noinline=noinline,
            repr=repr,
            launch_metadata=launch_metadata,
            do_not_specialize=do_not_specialize,
            do_not_specialize_on_alignment=do_not_specialize_on_alignment,
        )

    return wrap(fn) if fn is not None else wrap
