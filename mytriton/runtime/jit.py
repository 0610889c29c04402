"""``@mytriton.jit``: the kernel object users decorate, launch, warm up and clear.

``kernel[grid](*args, **kwargs)`` binds the arguments, specializes (cache key), compiles on a
miss, and launches with the selected backend, or stops after compiling when the arrays cannot
run there (NumPy arrays under a GPU backend: the seed's compile-only mode).

Beside it: ``launch_options.py`` (the launch keywords, checked), ``launch_plan.py`` (what later
launches of one argument signature reuse, and their fast paths), ``compile_on_miss.py`` (the
compiled kernel of a specialization, compiled on a cache miss).
"""

from __future__ import annotations

import functools
import inspect
import os
import types
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Generic, TypeVar, overload

from mytriton import knobs
from mytriton.backends import Backend, LaunchOptions, get_backend, selected_backend_name
from mytriton.backends.arrays import ArrayInfo
from mytriton.backends.compiled import CompiledKernel
from mytriton.errors import (
    ConstexprError,
    LaunchError,
    LaunchOptionError,
    MyTritonError,
    debug_enabled,
)
from mytriton.frontend.signature import ConstexprArg
from mytriton.frontend.source import KernelSource
from mytriton.language.constexpr_functions import (  # noqa: F401 (Triton's home of them)
    ConstexprFunction,
    constexpr_function,
)
from mytriton.runtime.annotated_types import (
    annotated_scalars,
    checked_ranges,
    is_constexpr_annotation,
)
from mytriton.runtime.async_compile import FutureKernel
from mytriton.runtime.autotuner import KernelInterface as KernelInterface  # Triton's home
from mytriton.runtime.binder import Unsure, make_binder, options_key
from mytriton.runtime.compile_on_miss import COMPILING as _COMPILING  # noqa: F401 (old home)
from mytriton.runtime.compile_on_miss import find_kernel, preload_specialization
from mytriton.runtime.dependencies import Unstable, fingerprint, fingerprint_text, is_jit
from mytriton.runtime.device_caches import DeviceCaches
from mytriton.runtime.fast_path import FastPath
from mytriton.runtime.global_values import MISSING, GlobalRead, check_unchanged
from mytriton.runtime.grid import normalize_grid
from mytriton.runtime.jit_hooks import LaunchMetadata
from mytriton.runtime.kernel_params import KernelParam, kernel_params
from mytriton.runtime.launch import warn_compile_only
from mytriton.runtime.launch_options import LAUNCH_OPTIONS, launch_options, unknown_keyword
from mytriton.runtime.launch_plan import (
    LaunchPlan,
    launch_environment,
    make_plan_fast_path,
    pass_special_arguments,
)
from mytriton.runtime.mock_tensor import MockTensor
from mytriton.runtime.specialization import SpecializationProxy, specialize

T = TypeVar("T")

Grid = tuple[int, ...] | Callable[[dict[str, Any]], tuple[int, ...]]


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
        #: Triton's ``launch_metadata(grid, metadata, args)``: its dict reaches the launch hooks
        self.launch_metadata = launch_metadata
        functools.update_wrapper(self, fn)  # type: ignore[arg-type]
        self.signature = inspect.signature(fn)
        self.arg_names = list(self.signature.parameters)
        self.do_not_specialize = self._parameters(do_not_specialize, "do_not_specialize")
        self.do_not_specialize_on_alignment = self._parameters(
            do_not_specialize_on_alignment, "do_not_specialize_on_alignment"
        )
        self.constexprs = frozenset(
            n for n, p in self.signature.parameters.items() if is_constexpr_annotation(p.annotation)
        )
        #: the scalar parameters an annotation types (``annotated_types.py``)
        self.annotated = annotated_scalars(self.signature.parameters, self.constexprs)
        #: those whose values each launch checks against the type's range (no fast path)
        self.checked_ranges = checked_ranges(self.annotated)
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
        self._plans: dict[tuple[Any, ...], LaunchPlan] = {}
        self._binder = make_binder(
            self.__name__, self.signature, self.constexprs, self.checked_ranges
        )
        #: the fast path of the last plan launched (None: none yet, or it has none)
        self._fast: FastPath | None = None
        #: what ``kernel[grid]`` calls: the native fast path of the last plan, or ``_launch``
        self._entry: Callable[..., CompiledKernel] = self._launch
        #: the globals the compiled kernels hold, read at the first compile (None: none yet);
        #: every launch checks them (``global_values.py``), the fast paths by identity
        self._globals: list[GlobalRead] | None = None
        #: as a helper: the globals it read when the first kernel calling it compiled
        #: (``global_values.check_inner_values``: Triton's rule); None: not yet
        self.inner_reads: list[GlobalRead] | None = None

    _PROCESS_STATE: tuple[str, ...] = ("cache", "device_caches", "_plans", "_binder", "_fast")
    _PROCESS_STATE += ("_entry", "_globals", "inner_reads")

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
        # Triton's callers reset the memo with ``fn.hash = None``, which also forgets the
        # globals a helper read when first compiled
        if value is not None:
            raise AttributeError("JITFunction.hash can only be reset (set to None)")
        self.inner_reads = None

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
        indent = KernelSource.of(fn).indent if self._source_parses() else 0
        copy = types.FunctionType(
            fn.__code__, fn.__globals__, fn.__name__, fn.__defaults__, fn.__closure__
        )
        copy.__qualname__ = fn.__qualname__
        copy.__module__ = fn.__module__
        copy.__annotations__ = dict(fn.__annotations__)
        copy.__kwdefaults__ = fn.__kwdefaults__
        KernelSource.replace(copy, new_src, file, first, indent)
        self.fn = copy
        self.cache.clear()
        self._globals = None
        self.inner_reads = None
        self._plans.clear()
        self._fast = None
        self._entry = self._launch

    def _source_parses(self) -> bool:
        try:
            KernelSource.of(self.fn)
        except (MyTritonError, SyntaxError):
            return False
        return True

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

    def preload(self, specialization_data: str) -> CompiledKernel | FutureKernel | None:
        """Compile (or find) the kernel a compile hook's ``specialization_data`` describes,
        for the current backend and device, without arguments (Triton's ``preload``; its
        future inside ``AsyncCompileMode``)."""
        specs, key, options = preload_specialization(self, specialization_data)
        backend = get_backend(selected_backend_name())
        try:
            found = find_kernel(self, specs, key, backend, options, [], warmup=True)
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
        """Forget compiled specializations (and the parsed source: globals may have changed),
        and what the helpers it reads recorded of the globals (``inner_reads``)."""
        for read in self._globals or ():
            if is_jit(read.value):
                read.value.inner_reads = None
        self.inner_reads = None
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
            plan: LaunchPlan | None = None
            values: Sequence[Any] = ()
            binder = self._binder
            if binder is not None:
                try:
                    values, options, described = binder(*args, **kwargs)
                    key = (described, options_key(options) if options else (), launch_environment())
                    plan = self._plans.get(key)
                except (Unsure, TypeError):
                    key = None
            if plan is None:
                planned = self._plan(args, kwargs, warmup)
                if planned is None:  # a jit_cache_hook skipped the compile
                    return None  # type: ignore[return-value]
                if isinstance(planned, FutureKernel):  # a warmup in AsyncCompileMode
                    return planned  # type: ignore[return-value]
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
                        make_plan_fast_path(self, plan, values, options, key[2])
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
    ) -> tuple[LaunchPlan, Sequence[Any]] | FutureKernel | None:
        """Bind, specialize, compile on a cache miss: everything a launch needs but the grid;
        and the parameters' values (None: a ``jit_cache_hook`` skipped the compile; a warmup
        in ``AsyncCompileMode`` gets its compile's future)."""
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
        found = find_kernel(self, specs, key, backend, options, infos, warmup)
        if found is None:
            return None
        kernel, execute, options = found
        if isinstance(kernel, FutureKernel):
            return kernel
        plan = LaunchPlan(
            kernel,
            backend,
            options,
            self._runtime_indices(specs),
            infos,
            execute,
        )
        pass_special_arguments(plan, self.fn.__name__, specs, self.arg_names, runtime)
        return plan, values

    def _launch_metadata(
        self, kernel: CompiledKernel, grid: Any, values: Sequence[Any]
    ) -> LaunchMetadata:
        """What the launch hooks get: the kernel's name, and ``launch_metadata``'s dict."""
        metadata = LaunchMetadata({"name": kernel.name, "function": kernel.name}, None)
        if self.launch_metadata is not None:
            args = dict(zip(self.arg_names, values, strict=True))
            metadata.add(self.launch_metadata, (grid, kernel.metadata, args))
        return metadata

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
            self.annotated,
        )


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
    divisibility-by-16 specializations; ``launch_metadata``'s dict reaches the launch hooks;
    ``version`` is accepted and unused."""

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
