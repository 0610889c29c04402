"""``triton.autotune``, ``triton.heuristics`` and ``triton.Config`` (Triton 3.6 semantics).

``@autotune(configs, key)`` above ``@jit`` (with ``@heuristics`` above or below it) returns an
:class:`Autotuner`. Its ``kernel[grid](...)`` looks up the best config for the values of the
``key`` arguments (and the dtypes of the array arguments), benchmarking the (pruned) configs on a
miss, and launches with the winner's meta-parameters and launch options.

On the host backends (interpreter, gpusim) configs are not timed, unless a ``do_bench`` is
given: the first config that compiles wins, and a one-time warning says so. On the GPU
backends every config is compiled before any is timed (and by ``warmup``), at once in worker
processes (``parallel_compile.py``, ``MYTRITON_AUTOTUNE_COMPILE_JOBS``).
"""

from __future__ import annotations

import builtins
import contextlib
import functools
import inspect
import math
import time
import warnings
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from mytriton import knobs
from mytriton.backends import get_backend, selected_backend_name
from mytriton.dialects.tt.loop_attrs import DEFAULT_NUM_STAGES
from mytriton.errors import (
    AutotuneError,
    AutotuneTypeError,
    BackendError,
    BackendUnavailableError,
    DeviceAssertionError,
    KernelValueError,
)
from mytriton.errors import OutOfResources as OutOfResources  # Triton's home of them
from mytriton.errors import PTXASError as PTXASError
from mytriton.knobs import env_flag
from mytriton.runtime import autotune_cache
from mytriton.runtime.autotune_config import Config as Config
from mytriton.runtime.autotune_config import KernelInterface as KernelInterface
from mytriton.runtime.autotune_config import _base_function, _jit_function
from mytriton.runtime.heuristics import Heuristics as Heuristics
from mytriton.runtime.heuristics import heuristics as heuristics

Timing = list[float]
Bench = Callable[..., Any]

_QUANTILES = (0.5, 0.2, 0.8)


def _source_of(fn: Any) -> str:
    """The kernel's source (for the disk cache key), whatever wraps it."""
    try:
        return str(_jit_function(fn).src)
    except AttributeError:  # not a @jit kernel underneath: its Python function
        return inspect.getsource(_base_function(fn))


def print_autotuning() -> bool:
    """``MYTRITON_PRINT_AUTOTUNING=1`` or ``TRITON_PRINT_AUTOTUNING=1``."""
    return env_flag("MYTRITON_PRINT_AUTOTUNING", "TRITON_PRINT_AUTOTUNING")


def is_resource_error(e: BaseException) -> bool:
    """A config that cannot be built or run on this machine (too much shared memory, a
    compile-time assertion, the assembler refusing it): skipped, as Triton skips
    ``OutOfResources``, ``CompileTimeAssertionFailure`` and ``PTXASError``."""
    if isinstance(e, BackendError):
        return not isinstance(e, (BackendUnavailableError, DeviceAssertionError))
    if isinstance(e, KernelValueError):
        return "static_assert failed" in e.message
    return "OUT_OF_RESOURCES" in str(e) or "too many resources" in str(e)


# ---- array helpers for reset_to_zero / restore_value (torch, CuPy, NumPy) ----


def _zero(a: Any) -> None:
    if hasattr(a, "zero_"):
        a.zero_()
    else:
        a[...] = 0


def _clone(a: Any) -> Any:
    return a.clone() if hasattr(a, "clone") else a.copy()


def _copy_into(dst: Any, src: Any) -> None:
    if hasattr(dst, "copy_"):
        dst.copy_(src)
    else:
        dst[...] = src


def _timing(result: Any) -> Timing:
    """A benchmark's result as a list of floats (``do_bench`` may return one or several)."""
    if isinstance(result, (list, tuple)):
        return [float(x) for x in result]
    return [float(result)]


_UNTIMED_WARNED = False


def _warn_untimed(backend: str) -> None:
    global _UNTIMED_WARNED
    if not _UNTIMED_WARNED:
        _UNTIMED_WARNED = True
        warnings.warn(
            f"autotune: configs are not timed on the {backend} backend; the first config that "
            "compiles is used",
            stacklevel=6,  # the kernel[grid](...) call
        )


def default_do_bench(warmup: int | None, rep: int | None, use_cuda_graph: bool = False) -> Bench:
    """The GPU benchmarker: ``mytriton.testing.do_bench`` (``do_bench_cudagraph`` with
    ``use_cuda_graph``), with Triton's budgets of 25 ms warm-up and 100 ms timing."""
    w = 25 if warmup is None else warmup
    r = 100 if rep is None else rep

    def bench(fn: Callable[[], Any], quantiles: Sequence[float] = _QUANTILES) -> Any:
        from mytriton import testing  # late: it loads the GPU timers

        if use_cuda_graph:
            return testing.do_bench_cudagraph(fn, rep=r, quantiles=list(quantiles))
        return testing.do_bench(fn, warmup=w, rep=r, quantiles=list(quantiles))

    return bench


class Autotuner(KernelInterface):
    """A kernel whose meta-parameters and launch options are chosen per key by benchmarking."""

    def __init__(
        self,
        fn: Any,
        arg_names: list[str],
        configs: Sequence[Config] | None,
        key: Iterable[str],
        reset_to_zero: Iterable[str] | None = None,
        restore_value: Iterable[str] | None = None,
        pre_hook: Callable[..., Any] | None = None,
        post_hook: Callable[..., Any] | None = None,
        prune_configs_by: dict[str, Any] | None = None,
        warmup: int | None = None,
        rep: int | None = None,
        use_cuda_graph: bool = False,
        do_bench: Bench | None = None,
        cache_results: bool = False,
    ) -> None:
        self.fn = fn
        self.base_fn = _base_function(fn)
        self.arg_names = list(arg_names)
        self.configs = (
            list(configs) if configs else [Config({}, num_warps=4, num_stages=DEFAULT_NUM_STAGES)]
        )
        self.keys = list(key)
        self.cache: dict[tuple[Any, ...], Config] = {}
        self.best_config: Config | None = None
        self.configs_timings: dict[Config, Timing] = {}
        self.bench_time = 0.0
        self.nargs: dict[str, Any] | None = None
        self.cache_results = cache_results or env_flag(
            "MYTRITON_CACHE_AUTOTUNING", "TRITON_CACHE_AUTOTUNING"
        )
        self.reset_to_zero = list(reset_to_zero or [])
        self.restore_value = list(restore_value or [])
        self._restore_copies: dict[str, Any] = {}
        self.user_defined_pre_hook = pre_hook is not None
        self.user_defined_post_hook = post_hook is not None
        self.pre_hook: Callable[..., Any] = pre_hook or self._default_pre_hook
        self.post_hook: Callable[..., Any] = post_hook or self._default_post_hook
        prune = prune_configs_by or {}
        self.perf_model: Callable[..., Any] | None = prune.get("perf_model")
        self.configs_top_k: int | float = prune.get("top_k", 1.0)
        self.early_config_prune: Callable[..., Any] | None = prune.get("early_config_prune")
        self.num_warmups = warmup
        self.num_reps = rep
        self.use_cuda_graph = use_cuda_graph
        if warmup is not None or rep is not None or use_cuda_graph:
            warnings.warn(
                "warmup, rep, and use_cuda_graph parameters are deprecated (as in Triton)",
                DeprecationWarning,
                stacklevel=3,
            )
        self._do_bench = do_bench

    def __repr__(self) -> str:
        return f"Autotuner({self.fn!r})"

    # ---- hooks: reset_to_zero / restore_value ----

    def _default_pre_hook(self, kwargs: dict[str, Any], reset_only: bool = False) -> None:
        for name in self.reset_to_zero:
            if kwargs.get(name) is not None:
                _zero(kwargs[name])
        if not reset_only:
            self._restore_copies = {
                n: _clone(kwargs[n]) for n in self.restore_value if kwargs.get(n) is not None
            }

    def _default_post_hook(self, kwargs: dict[str, Any], exception: BaseException | None) -> None:
        for name, value in self._restore_copies.items():
            _copy_into(kwargs[name], value)
        self._restore_copies = {}

    # ---- tuning ----

    def _timed(self) -> bool:
        """Whether configs are benchmarked (a ``do_bench`` was given, or a GPU backend)."""
        if self._do_bench is not None:
            return True
        backend = get_backend(selected_backend_name())
        if backend.runs_on == "gpu":
            return True
        _warn_untimed(backend.name)
        return False

    def do_bench(self, fn: Callable[[], Any], quantiles: Sequence[float] = _QUANTILES) -> Any:
        bench = self._do_bench or default_do_bench(
            self.num_warmups, self.num_reps, self.use_cuda_graph
        )
        return bench(fn, quantiles=quantiles)

    def _current(self, config: Config, meta: dict[str, Any]) -> dict[str, Any]:
        conflicts = meta.keys() & config.kwargs.keys()
        if conflicts:
            raise AutotuneError(
                f"{self.base_fn.__name__}: conflicting meta-parameters: "
                f"{', '.join(sorted(conflicts))}; make sure that you don't re-define auto-tuned "
                "symbols"
            )
        return {**meta, **config.all_kwargs()}

    def _bench(self, *args: Any, config: Config, **meta: Any) -> Timing:
        verbose = print_autotuning()
        if verbose:
            print(f"Autotuning kernel {self.base_fn.__name__} with config {config}")
        current = self._current(config, meta)
        full_nargs = {**(self.nargs or {}), **current}

        def kernel_call() -> None:
            if config.pre_hook:
                config.pre_hook(full_nargs)
            self.pre_hook(full_nargs)
            try:
                self.fn.run(*args, **current)
            except Exception as e:
                self.post_hook(full_nargs, exception=e)
                raise
            self.post_hook(full_nargs, exception=None)

        try:
            return _timing(self.do_bench(kernel_call, quantiles=_QUANTILES))
        except Exception as e:
            if not is_resource_error(e):
                raise
            if verbose:
                print(f"Autotuning failed with {e}")
            return [math.inf] * len(_QUANTILES)

    def _compile_all(
        self, warmups: Sequence[Callable[[], Any]]
    ) -> contextlib.AbstractContextManager[Any]:
        """Inside it, the configs are compiled already, at once by this process and worker
        processes (``parallel_compile.py``), where that gives what compiling each on its first
        timed launch does: a GPU backend, a ``@jit`` kernel (under ``@heuristics`` at most)
        without pre-run hooks, no compile hooks, and more than one job
        (``MYTRITON_AUTOTUNE_COMPILE_JOBS``). ``warmups``: per config, a warmup launch that
        compiles it as the block's launch of that config will."""
        none = contextlib.nullcontext()
        if len(warmups) < 2 or get_backend(selected_backend_name()).runs_on != "gpu":
            return none
        runtime = knobs.runtime
        if runtime.jit_cache_hook or runtime.jit_post_compile_hook or not _plain_jit(self.fn):
            return none
        if any(c.pre_hook for c in self.configs):
            # a config's pre_hook may set what its compile specializes on (a descriptor's
            # block shape): collecting the compiles first would run the hooks in another
            # order and once more each, which the user can see (the GPU run of
            # test_placeholder_blocks_set_by_an_autotune_pre_hook failed so): serial
            return none
        from mytriton.runtime import parallel_compile

        jobs = parallel_compile.compile_jobs(len(warmups))
        if jobs < 2:
            return none
        return parallel_compile.compiled_at_once(_jit_function(self.fn).fn, jobs, warmups)

    def _warmup_config(self, args: Sequence[Any], config: Config, meta: dict[str, Any]) -> None:
        """Compile ``config`` as its timed launch will (its pre-hook may set what the compile
        specializes on), without launching it."""
        current = self._current(config, {**meta, "warmup": True})
        if config.pre_hook:
            config.pre_hook({**(self.nargs or {}), **current})
        self.fn.run(*args, **current)

    def _first_valid(
        self, args: Sequence[Any], configs: list[Config], meta: dict[str, Any]
    ) -> Config:
        """Untimed selection: the first config that compiles (the others are skipped)."""
        verbose = print_autotuning()
        for config in configs:
            if verbose:
                print(f"Autotuning kernel {self.base_fn.__name__} with config {config}")
            current = self._current(config, {**meta, "warmup": True})
            if config.pre_hook:  # it may set what the compile specializes on (descriptors)
                config.pre_hook({**(self.nargs or {}), **meta, **config.all_kwargs()})
            try:
                self.fn.run(*args, **current)
            except Exception as e:
                if not is_resource_error(e):
                    raise
                if verbose:
                    print(f"Autotuning failed with {e}")
                self.configs_timings[config] = [math.inf]
                continue
            self.configs_timings[config] = [0.0]
            return config
        return configs[0]  # none compiles: the launch raises the first config's error

    def _tuning_key(self, args: Sequence[Any], kwargs: dict[str, Any]) -> tuple[Any, ...]:
        given = {**dict(zip(self.arg_names, args, strict=False)), **kwargs}
        named = {k: v for k, v in given.items() if k in self.arg_names}
        key: list[Any] = [named[k] for k in self.keys if k in named]
        key += [str(v.dtype) for v in named.values() if hasattr(v, "dtype")]
        return tuple(key)

    def _disk_cache_path(self, key: tuple[Any, ...], configs: list[Config]) -> Any:
        backend = selected_backend_name()
        parts = [
            _source_of(self.fn),
            backend,
            _device_name(backend),
            str(key),
            *(str(c) for c in configs),
        ]
        return autotune_cache.cache_path(self.base_fn.__name__, parts)

    def _load_from_disk(self, path: Any, configs: list[Config]) -> Config | None:
        data = autotune_cache.load(path)
        if data is None:
            return None
        by_text = {str(c): c for c in configs}
        timings: dict[Config, Timing] = {}
        for entry, timing in data.get("configs_timings", []):
            try:
                config = by_text.get(str(Config(**entry)))
            except TypeError:
                return None
            if config is not None:
                timings[config] = _timing(timing)
        if not timings:
            return None
        self.configs_timings = timings
        return builtins.min(timings, key=lambda c: timings[c])

    def _tune(self, key: tuple[Any, ...], args: Sequence[Any], kwargs: dict[str, Any]) -> bool:
        """Choose the config for ``key``; whether a stored result was used (nothing ran)."""
        configs = self.prune_configs(kwargs)
        if len(configs) == 1:
            self.cache[key] = configs[0]
            return True
        start = time.time()
        if not self._timed():
            self.configs_timings = {}
            self.cache[key] = self._first_valid(args, configs, kwargs)
        else:
            path = None
            if self.cache_results and not any(c.pre_hook for c in configs):
                path = self._disk_cache_path(key, configs)
                stored = self._load_from_disk(path, configs)
                if stored is not None:
                    self.cache[key] = stored
                    return True
            warmups = [functools.partial(self._warmup_config, args, c, kwargs) for c in configs]
            with self._compile_all(warmups):
                timings = {c: self._bench(*args, config=c, **kwargs) for c in configs}
            self.configs_timings = timings
            self.cache[key] = builtins.min(timings, key=lambda c: timings[c])
            if path is not None:
                autotune_cache.store(
                    path,
                    {
                        "key": [str(k) for k in key],
                        "configs_timings": [(c.to_json(), t) for c, t in timings.items()],
                    },
                )
        self.bench_time = time.time() - start
        full_nargs = {**(self.nargs or {}), **kwargs, **self.cache[key].all_kwargs()}
        self.pre_hook(full_nargs, reset_only=True)
        return False

    def run(self, *args: Any, **kwargs: Any) -> Any:
        if kwargs.get("warmup"):  # a wrapper's warmup: compile every config, time nothing
            return self.warmup(*args, **kwargs)
        self.nargs = dict(zip(self.arg_names, args, strict=False))
        try:
            used_cached_result = True
            key: tuple[Any, ...] = ()
            if len(self.configs) > 1:
                key = self._tuning_key(args, kwargs)
                if key not in self.cache:
                    used_cached_result = self._tune(key, args, kwargs)
                config = self.cache[key]
            else:
                config = self.configs[0]
            self.best_config = config
            if print_autotuning() and not used_cached_result:
                print(
                    f"Triton autotuning for function {self.base_fn.__name__},\n"
                    f"with key as {key},\nfinished after {self.bench_time:.2f}s,\n"
                    f"best config selected: {config};"
                )
            if config.pre_hook is not None:
                config.pre_hook({**self.nargs, **kwargs, **config.all_kwargs()})
            return self.fn.run(*args, **self._current(config, kwargs))
        finally:
            self.nargs = None

    def prune_configs(self, kwargs: dict[str, Any]) -> list[Config]:
        """The configs left after ``early_config_prune`` and the ``perf_model``'s ``top_k``."""
        configs = self.configs
        nargs = self.nargs or {}
        if self.early_config_prune is not None:
            configs = list(self.early_config_prune(self.configs, nargs, **kwargs))
            if not configs:
                # Triton's exact text (its tests compare it whole)
                raise AutotuneError(
                    "Autotuner error: No valid autotuner configs after pruning. "
                    "`early_config_prune` should return at least one config."
                )
        if self.perf_model is not None:
            top_k = self.configs_top_k
            if isinstance(top_k, float) and top_k <= 1.0:
                top_k = max(1, int(len(configs) * top_k))
            elif not isinstance(top_k, int):
                raise AutotuneTypeError(
                    f"{self.base_fn.__name__}: prune_configs_by's top_k must be a float <= 1.0 "
                    f"or an int, got {top_k!r}"
                )
            if len(configs) > top_k:
                model = self.perf_model
                estimates = {c: model(**nargs, **kwargs, **c.all_kwargs()) for c in configs}
                configs = sorted(configs, key=lambda c: estimates[c])[:top_k]
        return list(configs)

    def _run(self, args: Sequence[Any], meta: dict[str, Any], config: Config) -> Any:
        return self.fn.run(*args, **meta, **config.all_kwargs())

    def warmup(self, *args: Any, **kwargs: Any) -> list[Any]:
        """Compile every (pruned) config for these arguments; returns the compiled kernels."""
        self.nargs = dict(zip(self.arg_names, args, strict=False))
        try:
            kwargs = {k: v for k, v in kwargs.items() if k != "warmup"}
            meta = {**kwargs, "warmup": True}
            runs = [functools.partial(self._run, args, meta, c) for c in self.prune_configs(kwargs)]
            with self._compile_all(runs):  # then each finds its kernel compiled
                return [run() for run in runs]
        finally:
            self.nargs = None


def _plain_jit(fn: Any) -> bool:
    """Whether ``fn`` is a ``@jit`` kernel, under ``@heuristics`` at most, without pre-run hooks
    (its warmup launch compiles and does nothing else)."""
    from mytriton.runtime.jit import JITFunction

    while isinstance(fn, Heuristics):
        fn = fn.fn
    return isinstance(fn, JITFunction) and not fn.pre_run_hooks


def _device_name(backend: str) -> str:
    """The GPU's name for the disk cache key (the backend name on the host backends)."""
    try:
        if get_backend(backend).runs_on != "gpu":
            return backend
        import cupy

        props = cupy.cuda.runtime.getDeviceProperties(cupy.cuda.Device().id)
        name = props["name"]
        return name.decode() if isinstance(name, bytes) else str(name)
    except Exception:
        return backend


def autotune(
    configs: Sequence[Config],
    key: Iterable[str],
    prune_configs_by: dict[str, Any] | None = None,
    reset_to_zero: Iterable[str] | None = None,
    restore_value: Iterable[str] | None = None,
    pre_hook: Callable[..., Any] | None = None,
    post_hook: Callable[..., Any] | None = None,
    warmup: int | None = None,
    rep: int | None = None,
    use_cuda_graph: bool = False,
    do_bench: Bench | None = None,
    cache_results: bool = False,
) -> Callable[[Any], Autotuner]:
    """Decorate a ``@jit`` kernel (or a ``@heuristics`` one) to pick among ``configs`` per
    value of the ``key`` arguments. ``TRITON_PRINT_AUTOTUNING=1`` prints the winner."""

    def decorator(fn: Any) -> Autotuner:
        return Autotuner(
            fn,
            fn.arg_names,
            configs,
            key,
            reset_to_zero,
            restore_value,
            pre_hook=pre_hook,
            post_hook=post_hook,
            prune_configs_by=prune_configs_by,
            warmup=warmup,
            rep=rep,
            use_cuda_graph=use_cuda_graph,
            do_bench=do_bench,
            cache_results=cache_results,
        )

    return decorator
