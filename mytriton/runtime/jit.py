"""``@mytriton.jit``: the kernel object users decorate, launch, warm up and clear.

``kernel[grid](*args, **kwargs)`` binds the arguments, specializes (cache key), compiles on a
miss, and launches with the selected backend, or stops after compiling when the arrays cannot
run there (NumPy arrays under a GPU backend: the seed's compile-only mode).
"""

from __future__ import annotations

import functools
import inspect
import os
import re
import types
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, overload

import numpy as np

from mytriton.backends import Backend, LaunchOptions, get_backend, selected_backend_name
from mytriton.backends.arrays import ArrayInfo
from mytriton.backends.compiled import CompiledKernel
from mytriton.errors import LaunchError, LaunchOptionError, MyTritonError, debug_enabled
from mytriton.frontend.signature import DIVISIBILITY, ConstexprArg
from mytriton.frontend.source import KernelSource
from mytriton.passes.pipeline import pipeline_spec
from mytriton.runtime.compiler import compile_stages
from mytriton.runtime.grid import normalize_grid
from mytriton.runtime.launch import can_execute, make_launcher, require_binary, warn_compile_only
from mytriton.runtime.specialization import (
    SpecializationProxy,
    constexpr_key,
    int_kind,
    specialize,
)

T = TypeVar("T")

LAUNCH_OPTIONS = (
    "num_warps",
    "num_stages",
    "num_ctas",
    "maxnreg",
    "enable_fp_fusion",
    "debug",
    "launch_cooperative_grid",
    "launch_pdl",
    "arch",
)

Grid = tuple[int, ...] | Callable[[dict[str, Any]], tuple[int, ...]]


def _is_constexpr_annotation(ann: Any) -> bool:
    from mytriton.language import core

    if ann is core.constexpr or isinstance(ann, core.constexpr):
        return True
    return isinstance(ann, str) and ann.split(".")[-1] == "constexpr"


class JITFunction(Generic[T]):
    """A ``@jit`` kernel (or helper, when called from another kernel)."""

    is_mytriton_jit = True

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
        self.cache: dict[tuple[Any, ...], CompiledKernel] = {}
        self._plans: dict[tuple[Any, ...], _LaunchPlan] = {}
        self._compile_time_positions = frozenset(
            i for i, n in enumerate(self.arg_names) if n in self.constexprs
        )
        # *args, **kwargs, keyword- or positional-only parameters: the frontend rejects them
        # (with the `def` line); check before binding turns them into confusing arguments.
        self._unusual_params = any(
            p.kind is not inspect.Parameter.POSITIONAL_OR_KEYWORD
            for p in self.signature.parameters.values()
        )

    def __repr__(self) -> str:
        return f"JITFunction({self.fn.__module__}:{self.fn.__qualname__})"

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

    def repr(self, specialization: SpecializationProxy) -> str:
        """The name of the kernel compiled for ``specialization`` (Triton's ``repr``)."""
        return self.fn.__name__ if self._repr is None else self._repr(specialization)

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
        self._plans.clear()

    def __call__(self, *args: Any, **kwargs: Any) -> T:
        raise RuntimeError(
            f"@jit function {self.fn.__name__} cannot be called directly; launch it with "
            f"{self.fn.__name__}[grid](...) or call it from another @jit function"
        )

    def __getitem__(self, grid: Grid) -> Callable[..., CompiledKernel]:
        return lambda *args, **kwargs: self.run(*args, grid=grid, warmup=False, **kwargs)

    def warmup(self, *args: Any, grid: Grid, **kwargs: Any) -> CompiledKernel:
        """Compile for these arguments without launching."""
        return self.run(*args, grid=grid, warmup=True, **kwargs)

    def clear_cache(self) -> None:
        """Forget compiled specializations (and the parsed source: globals may have changed)."""
        self.cache.clear()
        self._plans.clear()
        KernelSource.forget(self.fn)

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
        return launch_options(raw, backend, bool(debug))

    def _grid(self, grid: Grid, values: list[Any]) -> tuple[int, int, int]:
        if callable(grid):
            grid = grid(dict(zip(self.arg_names, values, strict=True)))
        return normalize_grid(grid)

    def run(self, *args: Any, grid: Grid, warmup: bool, **kwargs: Any) -> CompiledKernel:
        try:
            # Fast path: a launch that looks like an earlier one (same argument kinds, dtypes,
            # devices and constexpr values, same environment) reuses its plan.
            fast_key = self._fast_key(args, kwargs)
            plan = self._plans.get(fast_key) if fast_key is not None else None
            if plan is None:
                plan = self._plan(args, kwargs)
                if fast_key is not None:
                    self._plans[fast_key] = plan
            if warmup:
                return plan.kernel
            if callable(grid):
                g = self._grid(grid, self._bind(args, dict(kwargs))[0])
            else:
                g = self._grid(grid, [])
            if plan.execute:
                if plan.kernel.binary is None:
                    require_binary(plan.kernel)
                if g[0] * g[1] * g[2] > 0:
                    if plan.defaults:
                        kwargs = {**plan.defaults, **kwargs}
                    runtime = [args[i] if i >= 0 else kwargs[plan.names[i]] for i in plan.sources]
                    plan.backend.launch(plan.kernel, g, runtime, plan.infos, plan.options)
            else:
                warn_compile_only(plan.backend)
            return plan.kernel
        except MyTritonError as e:
            # The message names the kernel's line; the compiler's frames only hide it.
            if debug_enabled():
                raise
            raise e.with_traceback(None)  # noqa: B904 (keeps the cause of an internal error)

    def _plan(self, args: Sequence[Any], kwargs: dict[str, Any]) -> _LaunchPlan:
        """Bind, specialize, compile on a cache miss: everything a launch needs but the grid."""
        if self._unusual_params:
            KernelSource.of(self.fn)  # raises UnsupportedSyntaxError at the `def` line
        values, raw_options = self._bind(args, dict(kwargs))
        backend = get_backend(selected_backend_name())
        options = self._options(raw_options, backend)
        specs, key, _, infos = self._specialize(values)
        key = (*key, backend.name, options, pipeline_spec())
        kernel = self.cache.get(key)
        if kernel is None:
            name = None
            if self._repr is not None:
                name = kernel_symbol(self.repr(SpecializationProxy(specs)))
            kernel = compile_stages(self.fn, specs, backend, options, key, name=name)
            kernel.launcher = make_launcher(kernel, backend, options)
            self.cache[key] = kernel
        sources, names = self._sources(specs, len(args))
        given = set(self.arg_names[: len(args)]) | set(kwargs)
        defaults = {
            n: p.default
            for n, p in self.signature.parameters.items()
            if n not in given and p.default is not inspect.Parameter.empty
        }
        return _LaunchPlan(
            kernel, backend, options, sources, names, defaults, infos, can_execute(backend, infos)
        )

    def _sources(
        self, specs: dict[str, Any], npositional: int
    ) -> tuple[tuple[int, ...], dict[int, str]]:
        """Where each runtime argument comes from: a position in args, or a keyword (-1-k)."""
        positions = {n: i for i, n in enumerate(self.arg_names[:npositional])}
        sources: list[int] = []
        names: dict[int, str] = {}
        for n in self.arg_names:
            if isinstance(specs[n], ConstexprArg):
                continue
            if n in positions:
                sources.append(positions[n])
            else:
                tag = -1 - len(names)
                names[tag] = n
                sources.append(tag)
        return tuple(sources), names

    def runtime_arguments(self, *args: Any, **kwargs: Any) -> list[Any]:
        """The values a launch with these arguments passes to the compiled kernel, in order
        (constexprs and integers specialized to 1 are compiled in, so they are left out)."""
        values, _ = self._bind(args, dict(kwargs))
        specs, _, _, _ = self._specialize(values)
        sources, names = self._sources(specs, len(args))
        bound = dict(zip(self.arg_names, values, strict=True))
        return [args[i] if i >= 0 else bound[names[i]] for i in sources]

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

    def _fast_key(self, args: Sequence[Any], kwargs: dict[str, Any]) -> tuple[Any, ...] | None:
        """A cheap key identifying the specialization and environment, or None if unsure."""
        key: list[Any] = [len(args)]
        compile_time = self._compile_time_positions
        try:
            for i, v in enumerate(args):
                key.append(_describe(v, i in compile_time))
            for k, v in kwargs.items():
                key.append(k)
                key.append(_describe(v, k in self.constexprs or k in LAUNCH_OPTIONS))
            key.append(_environment())
            t = tuple(key)
            hash(t)
            return t
        except _Unsure:
            return None
        except TypeError:
            return None


def kernel_symbol(name: str) -> str:
    """``name`` as a C identifier (what ``repr=`` returns names the PTX entry)."""
    symbol = re.sub(r"\W", "_", name)
    return symbol if symbol and not symbol[0].isdigit() else f"k_{symbol}"


def _power_of_two(n: Any) -> bool:
    return isinstance(n, int) and n > 0 and n & (n - 1) == 0


def launch_options(raw: dict[str, Any], backend: Backend, debug: bool) -> LaunchOptions:
    """The compile options of a launch's keyword options, checked as Triton checks them."""
    num_warps = raw.get("num_warps", 4)
    if not _power_of_two(num_warps):
        raise LaunchOptionError(f"num_warps must be a power of 2, got {num_warps!r}")
    if num_warps > 32:
        raise LaunchOptionError(f"num_warps must be at most 32, got {num_warps}")
    arch = raw.get("arch")
    if raw.get("num_ctas", 1) != 1:
        digits = re.sub(r"\D", "", str(arch)) if arch is not None else ""
        if digits and int(digits) < 90:
            raise LaunchOptionError("num_ctas > 1 requires NVIDIA SM90+ (Hopper)")
        raise LaunchOptionError(
            f"num_ctas > 1 (thread block clusters) is not supported by mytriton, got "
            f"num_ctas={raw['num_ctas']!r}"
        )
    if arch is not None:
        raise LaunchOptionError(
            f"the arch option ({arch!r}) is not supported: mytriton compiles for the device"
        )
    for flag in ("launch_cooperative_grid", "launch_pdl"):
        if raw.get(flag, False):
            raise LaunchOptionError(
                f"{flag}=True is not supported by mytriton (launches are ordinary launches)"
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
    if not fusion and backend.name == "mlir":
        raise LaunchOptionError(
            "enable_fp_fusion=False is not supported by the mlir backend; use the cuda backend"
        )
    return LaunchOptions(
        num_warps=num_warps,
        num_stages=int(raw.get("num_stages", 3)),
        debug=debug,
        enable_fp_fusion=bool(fusion),
        maxnreg=maxnreg,
    )


_ENV_KEYS = (
    "MYTRITON_BACKEND",
    "MYTRITON_INTERPRET",
    "TRITON_INTERPRET",
    "MYTRITON_PIPELINE",
    "MYTRITON_DEBUG",
    "TRITON_DEBUG",
    "TRITON_DEFAULT_FP_FUSION",
)


_ENV_BYTES = tuple(os.fsencode(k) for k in _ENV_KEYS)


def _environment() -> tuple[Any, ...]:
    """The settings that select backend and pipeline (read on every launch: they may change)."""
    data = getattr(os.environ, "_data", None)  # CPython's raw store: ~10x faster than .get()
    if isinstance(data, dict):
        return tuple(data.get(k) for k in _ENV_BYTES)
    return tuple(os.environ.get(k) for k in _ENV_KEYS)


class _Unsure(Exception):
    """An argument the fast path cannot describe cheaply: take the slow path."""


def _describe(v: Any, compile_time: bool) -> Any:
    """What of one argument value matters for the specialization (cheap to compute)."""
    t = type(v)
    if compile_time:
        return constexpr_key(v)
    if t is int:
        # int32, int64 or uint64 (specialization.int_dtype), 1, divisible
        # (out of range: no plan matches, the slow path raises the OverflowError)
        return (int, int_kind(v), v == 1, v % DIVISIBILITY == 0)
    if t is float or t is bool or v is None:
        return (t, v) if v is None else t
    module = t.__module__
    if module == "torch":
        return (t, v.dtype, v.device, v.data_ptr() % DIVISIBILITY == 0)
    if module.startswith("cupy"):
        return (t, v.dtype, v.device.id, v.data.ptr % DIVISIBILITY == 0)
    if t is np.ndarray:
        return (t, v.dtype, v.ctypes.data % DIVISIBILITY == 0)
    raise _Unsure


@dataclass(frozen=True)
class _LaunchPlan:
    """A specialization resolved for one argument signature: kernel, backend and arg mapping."""

    kernel: CompiledKernel
    backend: Backend
    options: LaunchOptions
    sources: tuple[int, ...]  # per runtime argument: its position, or -1-k for keyword k
    names: dict[int, str]
    defaults: dict[str, Any]  # parameters the launch leaves to their default values
    infos: list[ArrayInfo | None]
    execute: bool


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
