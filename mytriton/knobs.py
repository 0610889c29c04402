"""``triton.knobs``: mytriton's settings as attributes, grouped as Triton 3.6 groups them.

Every knob mirrors one environment variable (Triton's name) and reads it each time (the
variable is the one source of truth: the compiler reads the environment where it needs a
setting). Where mytriton also reads its own variable (``MYTRITON_KERNEL_DUMP`` beside
``TRITON_KERNEL_DUMP``), the knob reads what the compiler acts on: either switch on, or the
``MYTRITON_`` value first. Setting a knob writes its variable and removes the ``MYTRITON_``
one, so the value set is the value used (``None`` unsets both); ``knobs.runtime.interpret
= True`` switches launches to the interpreter at once. ``reset()`` unsets the knobs set through
that knob set object, and ``with group.scope():`` restores the group's variables and
attributes (hooks included) on leaving. Unlike Triton, ``propagate_env`` is always honoured as
True: mytriton has no second store for these values, so ``refresh_knobs()`` has nothing to
re-read.

``knobs.runtime`` also holds Triton's hooks: ``jit_cache_hook`` / ``jit_post_compile_hook``
(called before and after each compile of a ``@jit`` kernel), and the chains
``launch_enter_hook`` / ``launch_exit_hook`` (around each launch) and
``kernel_load_start_hook`` / ``kernel_load_end_hook`` (around loading a GPU binary).

Knobs marked ``ignored`` are Triton's names that test and user code set; they are accepted and
stored, but nothing in mytriton reads them (yet).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

#: Triton's switch; mytriton always writes a set knob to the environment (see the module doc)
propagate_env: bool = True

_FALSE = ("", "0", "false", "off", "no")


def _parse_bool(text: str) -> bool:
    return text.strip().lower() not in _FALSE


def env_flag(*names: str) -> bool:
    """Whether any of these environment switches is on, by the knobs' rule (empty, ``0``,
    ``false``, ``off`` and ``no`` are off): for code that reads a switch without a knob."""
    return any(_parse_bool(os.environ.get(n, "")) for n in names)


def _show_bool(value: Any) -> str:
    return "1" if value else "0"


class env_knob:  # noqa: N801 - Triton names its knob descriptors so (env_bool, env_str)
    """One knob: the environment variable ``key``, parsed on every read, ``default`` when unset."""

    def __init__(
        self,
        key: str,
        default: Any = None,
        *,
        parse: Callable[[str], Any] = str,
        show: Callable[[Any], str] = str,
        ignored: bool = False,
        alias: str | None = None,
    ):
        self.key = key
        #: mytriton's own variable for the same setting, read first (or-ed, for switches)
        self.alias = alias
        self.default = default
        self.parse = parse
        self.show = show
        #: accepted for Triton compatibility; nothing in mytriton reads it
        self.ignored = ignored
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def get(self) -> Any:
        text = os.environ.get(self.key)
        if self.alias is not None:
            mine = os.environ.get(self.alias)
            if mine and (self.parse is not _parse_bool or _parse_bool(mine)):
                text = mine
        if text is None:
            return self.default() if callable(self.default) else self.default
        return self.parse(text)

    def __get__(self, obj: object | None, objtype: type | None = None) -> Any:
        if obj is None:
            return self
        return self.get()

    def __set__(self, obj: object, value: Any) -> None:
        if self.alias is not None:
            os.environ.pop(self.alias, None)
        if value is None:
            os.environ.pop(self.key, None)
        else:
            os.environ[self.key] = self.show(value)
        obj.__dict__.setdefault("_set", set()).add(self.name)

    def __delete__(self, obj: object) -> None:
        self.__set__(obj, None)


def env_bool(
    key: str, default: bool = False, *, ignored: bool = False, alias: str | None = None
) -> env_knob:
    return env_knob(key, default, parse=_parse_bool, show=_show_bool, ignored=ignored, alias=alias)


def env_str(
    key: str, default: Any = None, *, ignored: bool = False, alias: str | None = None
) -> env_knob:
    return env_knob(key, default, ignored=ignored, alias=alias)


def env_int(key: str, default: int = 0, *, ignored: bool = False) -> env_knob:
    return env_knob(key, default, parse=int, ignored=ignored)


def _load_class(text: str) -> type:
    """The class ``module.path:ClassName`` names (Triton's ``env_class`` format)."""
    import importlib

    module, sep, name = text.strip().partition(":")
    if not sep or not module or not name:
        raise ValueError(f"expected 'module.path:ClassName', got {text!r}")
    cls = importlib.import_module(module)
    for part in name.split("."):
        cls = getattr(cls, part)
    if not isinstance(cls, type):
        raise TypeError(f"{text!r} names {cls!r}, not a class")
    return cls


def _show_class(value: Any) -> str:
    return value if isinstance(value, str) else f"{value.__module__}:{value.__qualname__}"


def env_class(key: str) -> env_knob:
    """A knob naming a class as ``module.path:ClassName``; reading it imports the class."""
    return env_knob(key, None, parse=_load_class, show=_show_class)


K = TypeVar("K", bound="base_knobs")


class base_knobs:  # noqa: N801 - Triton's name
    """A group of knobs (``knobs.runtime``, ``knobs.compilation``...)."""

    knob_descriptors: ClassVar[dict[str, env_knob]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.knob_descriptors = {
            n: v
            for c in reversed(cls.__mro__)
            for n, v in vars(c).items()
            if isinstance(v, env_knob)
        }

    @property
    def knobs(self) -> dict[str, Any]:
        """Every knob of the group with its current value."""
        return {n: getattr(self, n) for n in self.knob_descriptors}

    def copy(self: K) -> K:
        new = type(self)()
        new.__dict__.update(self.__dict__)
        return new

    def reset(self: K) -> K:
        """Unset the variables of the knobs set through this object."""
        for name in self.__dict__.pop("_set", set()):
            os.environ.pop(self.knob_descriptors[name].key, None)
        return self

    @contextlib.contextmanager
    def scope(self) -> Iterator[None]:
        """Restore, on leaving, the variables of this group's knobs and the attributes set on
        it (hooks), as they were on entering (Triton's ``fresh_triton_cache`` fixture)."""
        keys = {k.key for k in self.knob_descriptors.values()}
        keys |= {k.alias for k in self.knob_descriptors.values() if k.alias is not None}
        saved_env = {k: os.environ.get(k) for k in keys}
        saved = {k: (set(v) if k == "_set" else v) for k, v in self.__dict__.items()}
        try:
            yield
        finally:
            self.__dict__.clear()
            self.__dict__.update(saved)
            for k, v in saved_env.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v


def _default_backend() -> str:
    from mytriton.backends import DEFAULT_BACKEND

    return DEFAULT_BACKEND


def _disk_cache_dir() -> str:
    from mytriton.runtime.disk_cache import cache_dir

    return str(cache_dir())


def _home_dir(name: str) -> Callable[[], str]:
    return lambda: os.path.join(os.path.expanduser("~"), ".mytriton", name)


class cache_knobs(base_knobs):  # noqa: N801
    #: where stages are dumped under ``compilation.dump_ir`` (default ``~/.mytriton/dump``)
    dump_dir = env_str("TRITON_DUMP_DIR", _home_dir("dump"), alias="MYTRITON_DUMP_DIR")
    #: where stage overrides are looked for under ``compilation.override``
    override_dir = env_str(
        "TRITON_OVERRIDE_DIR", _home_dir("override"), alias="MYTRITON_OVERRIDE_DIR"
    )
    #: the on-disk kernel cache's folder (default ``~/.cache/mytriton``)
    dir = env_str("TRITON_CACHE_DIR", _disk_cache_dir, alias="MYTRITON_CACHE_DIR")
    #: a ``triton.runtime.cache.CacheManager`` subclass that stores the disk cache's entries
    #: (``module.path:ClassName``; unset: mytriton's own layout under ``cache.dir``)
    manager_class = env_class("TRITON_CACHE_MANAGER")
    home_dir = env_str("TRITON_HOME", os.path.expanduser("~/"), ignored=True)


@dataclass
class CompileTimes:
    """How long one compile took, in microseconds (Triton's model, handed to
    ``knobs.compilation.listener``): making the IR (on a disk-cache hit: finding the entry),
    each lowering stage by name, and storing the result."""

    ir_initialization: int
    lowering_stages: list[tuple[str, int]]
    store_results: int

    @property
    def total_lowering(self) -> int:
        return sum(t for _, t in self.lowering_stages)

    @property
    def total(self) -> int:
        return self.ir_initialization + self.total_lowering + self.store_results


class compilation_knobs(base_knobs):  # noqa: N801
    #: write every stage of each compiled kernel to ``cache.dump_dir``
    dump_ir = env_bool("TRITON_KERNEL_DUMP", alias="MYTRITON_KERNEL_DUMP")
    #: replace a stage by the file of the same name under ``cache.override_dir``
    override = env_bool("TRITON_KERNEL_OVERRIDE", alias="MYTRITON_KERNEL_OVERRIDE")
    #: recompile instead of loading from the disk cache
    always_compile = env_bool("TRITON_ALWAYS_COMPILE", alias="MYTRITON_ALWAYS_COMPILE")
    disable_line_info = env_bool("TRITON_DISABLE_LINE_INFO", ignored=True)
    front_end_debugging = env_bool("TRITON_FRONT_END_DEBUGGING", ignored=True)
    #: let kernels read plain (non-constexpr) globals and closure variables
    allow_non_constexpr_globals = env_bool("TRITON_ALLOW_NON_CONSTEXPR_GLOBALS")
    #: called after each compile of a kernel, disk-cache hits included:
    #: ``listener(src=, metadata=, metadata_group=, times=CompileTimes, cache_hit=)``
    listener: Callable[..., Any] | None = None
    store_binary_only = env_bool("TRITON_STORE_BINARY_ONLY", ignored=True)
    enable_asan = env_bool("TRITON_ENABLE_ASAN", ignored=True)


class autotuning_knobs(base_knobs):  # noqa: N801
    #: print the best configuration the autotuner found
    print = env_bool("TRITON_PRINT_AUTOTUNING", alias="MYTRITON_PRINT_AUTOTUNING")
    #: keep autotuning results on disk
    cache = env_bool("TRITON_CACHE_AUTOTUNING", alias="MYTRITON_CACHE_AUTOTUNING")


F = TypeVar("F", bound=Callable[..., Any])


class HookChain(Generic[F]):
    """Hooks of one kind, called in the order added (``reversed``: last added first), each
    added once (Triton's ``HookChain``). Empty, it is false: launches skip it."""

    def __init__(self, reversed: bool = False):
        self.calls: list[F] = []
        self.reversed = reversed

    def add(self, func: F) -> None:
        if func not in self.calls:
            self.calls.append(func)

    def remove(self, func: F) -> None:
        if func in self.calls:
            self.calls.remove(func)

    def __bool__(self) -> bool:
        return bool(self.calls)

    def __call__(self, *args: Any, **kwargs: Any) -> None:
        for call in reversed(self.calls) if self.reversed else list(self.calls):
            call(*args, **kwargs)


class runtime_knobs(base_knobs):  # noqa: N801
    #: run kernels on the CPU with the interpreter (as ``TRITON_INTERPRET=1``)
    interpret = env_bool("TRITON_INTERPRET", alias="MYTRITON_INTERPRET")
    #: device assertions on (``tl.device_assert``), as ``@jit(debug=True)``
    debug = env_bool("TRITON_DEBUG")
    override_arch = env_str("TRITON_OVERRIDE_ARCH", ignored=True)
    #: ``hook(metadata)`` before / after each launch (``metadata.get()``: the kernel's name,
    #: the grid, and what ``@jit(launch_metadata=fn)`` returns); a launch with hooks takes
    #: the general path
    launch_enter_hook: HookChain[Callable[..., Any]] = HookChain()
    launch_exit_hook: HookChain[Callable[..., Any]] = HookChain(reversed=True)
    #: ``hook(module, function, name, metadata_group, hash)`` around loading a GPU binary
    #: (module and function are None for the start hook)
    kernel_load_start_hook: HookChain[Callable[..., Any]] = HookChain()
    kernel_load_end_hook: HookChain[Callable[..., Any]] = HookChain(reversed=True)
    #: ``hook(key=, repr=, fn=, compile=, is_manual_warmup=, already_compiled=)`` before each
    #: compile of a ``@jit`` kernel; a true result skips the compile (the launch returns None)
    jit_cache_hook: Callable[..., Any] | None = None
    #: the same call after each compile
    jit_post_compile_hook: Callable[..., Any] | None = None


class language_knobs(base_knobs):  # noqa: N801
    #: the default of the ``enable_fp_fusion`` launch option (fuse a*b+c into an FMA)
    default_fp_fusion = env_bool("TRITON_DEFAULT_FP_FUSION", True)
    fp32_default = env_str("TRITON_F32_DEFAULT", ignored=True)


def _parse_jobs(text: str) -> int:
    """A positive count of jobs (a ``LaunchOptionError`` naming the variable otherwise)."""
    try:
        jobs = int(text)
    except ValueError:
        jobs = 0
    if jobs < 1:
        from mytriton.errors import LaunchOptionError

        raise LaunchOptionError(
            f"MYTRITON_AUTOTUNE_COMPILE_JOBS must be a positive integer, got {text!r}"
        )
    return jobs


class mytriton_knobs:  # noqa: N801
    """mytriton's own settings (not in Triton). Not a ``base_knobs`` group, so that Triton's
    ``fresh_knobs`` test fixture, which unsets every group's variables, keeps the backend."""

    #: the backend kernels compile and run with: cuda, mlir, interpreter or gpusim
    backend = env_str("MYTRITON_BACKEND", _default_backend)
    #: the `tt` pass pipeline (None: the default one)
    pipeline = env_str("MYTRITON_PIPELINE")
    #: interpreter poison checks, and errors keep the compiler's stack
    debug = env_bool("MYTRITON_DEBUG")
    #: print every stage's text of each compiled kernel to stderr
    dump = env_bool("MYTRITON_DUMP")
    #: how many of an autotuner's configs compile at once on the GPU backends: this process
    #: and N - 1 worker processes (``runtime/parallel_compile.py``); None: one per config, up
    #: to the CPU cores; 1: one after the other, in this process
    autotune_compile_jobs = env_knob("MYTRITON_AUTOTUNE_COMPILE_JOBS", None, parse=_parse_jobs)


def refresh_knobs() -> None:
    """Triton re-reads the knobs it keeps in memory (``runtime.debug``); mytriton's knobs read
    their variable on every use, so a changed variable already counts."""


cache = cache_knobs()
compilation = compilation_knobs()
autotuning = autotuning_knobs()
runtime = runtime_knobs()
language = language_knobs()
mytriton = mytriton_knobs()
