"""Triton 3.6's host-side compiler API (``triton.compiler.compiler``) over mytriton's runtime:
``ASTSource``, ``compile``, ``CompiledKernel``, ``make_backend``, ``triton_key``.

This is how TorchInductor drives Triton: it describes one specialization of a ``@jit`` kernel
(``ASTSource(fn, signature, constexprs, attrs)``), compiles it for a ``GPUTarget`` with an
options dict, and launches ``CompiledKernel.run(gx, gy, gz, stream, function, packed_metadata,
launch_metadata, enter_hook, exit_hook, *args)`` with every argument of the kernel in order
(constexprs included; they are compiled in and skipped). There is no second compile path: the
specialization becomes the runtime's argument specs and goes through ``compile_stages`` (the
stage table, dumps, overrides and the disk cache), and ``run`` launches through the runtime's
launcher (``runtime/launch.py``).
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import os
from collections import namedtuple
from collections.abc import Callable, Mapping
from typing import Any

from mytriton.backends import Backend as RuntimeBackend
from mytriton.backends import LaunchOptions, get_backend
from mytriton.backends.compiled import CompiledKernel as RuntimeKernel
from mytriton.backends.compiled import StageTexts
from mytriton.compat.backends import CompileOptions, make_backend
from mytriton.compat.ir_source import IRSource
from mytriton.compat.runner import (
    KernelArgumentCountError,
    Runner,
    StreamArgumentError,
    fast_maker,
    fast_path_enabled,
)
from mytriton.compat.signature import argument_specs, source_hash
from mytriton.compat.static_launch import publish_cubin
from mytriton.compat.target import GPUTarget, Language
from mytriton.errors import MyTritonError, debug_enabled
from mytriton.kernel_signature import KernelSignature

__all__ = [
    "ASTSource",
    "CompiledKernel",
    "KernelArgumentCountError",
    "LazyDict",
    "StreamArgumentError",
    "compile",
    "get_cache_key",
    "make_backend",
    "triton_key",
]


class ASTSource:
    """One specialization of a ``@jit`` kernel, as Triton describes it.

    ``signature`` maps every parameter name to its type (``"*fp32"``, ``"i32"``,
    ``"constexpr"``...); ``constexprs`` maps parameters (by name or as a path tuple ``(i,)``)
    to compile-time values; ``attrs`` maps path tuples to attributes
    (``{(0,): [["tt.divisibility", 16]]}``)."""

    def __init__(
        self,
        fn: Any,
        signature: Mapping[str, Any],
        constexprs: Mapping[Any, Any] | None = None,
        attrs: Mapping[tuple[int, ...], Any] | None = None,
    ) -> None:
        self.fn = fn
        self.language = Language.TRITON
        self.ext = "ttir"
        self.name = fn.__name__
        self.signature = dict(signature)
        self.constants: dict[tuple[int, ...], Any] = {}
        arg_names = list(getattr(fn, "arg_names", ()))
        for k, v in (constexprs or {}).items():
            if isinstance(k, str):
                if k not in arg_names:
                    raise TypeError(
                        f"ASTSource: {k!r} is not a parameter of {self.name} "
                        f"({', '.join(arg_names)})"
                    )
                k = (arg_names.index(k),)
            if not isinstance(k, tuple):
                raise TypeError(f"ASTSource: constexpr keys are names or tuples, got {k!r}")
            self.constants[k] = v
        self.attrs = dict(attrs or {})
        for k in self.signature:
            if not isinstance(k, str):
                raise TypeError("Signature keys must be string")

    def hash(self) -> str:
        """The specialization's identity: kernel source, attributes, types and constants."""
        return source_hash(self)

    def parse_options(self) -> dict[str, Any]:
        return {}


def triton_key() -> str:
    """The compiler's identity (Triton hashes its own sources): mytriton's version and the
    Triton API level it implements."""
    from mytriton.compat.alias import TRITON_API_VERSION
    from mytriton.version import __version__

    return f"mytriton-{__version__}-triton-api-{TRITON_API_VERSION}"


def get_cache_key(src: ASTSource, backend: Any, backend_options: Any, env_vars: Any = None) -> str:
    """What decides a compile's result (Triton's ``get_cache_key``)."""
    options = backend_options.hash() if hasattr(backend_options, "hash") else backend_options
    return f"{triton_key()}-{src.hash()}-{backend.hash()}-{options}-{env_vars or {}}"


def compile(  # noqa: A001 (Triton's name)
    src: Any,
    target: GPUTarget | None = None,
    options: Mapping[str, Any] | None = None,
    _env_vars: Any = None,
    *,
    stage: str | None = None,
    backend: str | None = None,
    num_warps: int | None = None,
) -> Any:
    """``triton.compile``: an ``ASTSource`` for ``target`` (default: the active driver's) with
    Triton's ``options`` dict, giving a Triton ``CompiledKernel``; or, as ``mytriton.compile``
    always did, a stage's IR (an ``IRSource``, a file path or the text) from ``stage`` on
    (``runtime/compile_ir``).
    """
    if isinstance(src, IRSource):  # a stage file: compiled from its stage on
        src = src.path
    if not isinstance(src, ASTSource):
        from mytriton.runtime.compile_ir import compile as compile_ir

        if num_warps is None and options:
            num_warps = options.get("num_warps")
        return compile_ir(src, stage=stage, backend=backend, num_warps=num_warps)
    try:
        return _compile_ast(src, target, options)
    except MyTritonError as e:
        if debug_enabled():
            raise
        raise e.with_traceback(None)  # noqa: B904 (keeps the cause of an internal error)


def _compile_ast(
    src: ASTSource, target: GPUTarget | None, options: Mapping[str, Any] | None
) -> CompiledKernel:
    from mytriton.runtime import driver
    from mytriton.runtime.compiler import compile_stages
    from mytriton.runtime.jit import _COMPILING, launch_options

    if target is None:
        target = driver.active.get_current_target()
    if not isinstance(target, GPUTarget):
        raise TypeError(f"target must be of GPUTarget type, got {type(target).__name__}")
    compiler = make_backend(target)
    parsed: CompileOptions = compiler.parse_options(dict(options or {}))
    runtime_backend = get_backend(parsed.backend_name)
    launch = _launch_options(parsed, runtime_backend, target, launch_options)
    specs = argument_specs(src)
    fn = getattr(src.fn, "fn", src.fn)
    key = ("triton.compile", src.hash(), parsed, target)
    with _COMPILING:
        try:
            check = getattr(src.fn, "check_unspecialized_constexprs", None)
            if check is not None:
                check()
            kernel = compile_stages(fn, specs, runtime_backend, launch, key)
        except MyTritonError as e:
            from mytriton.errors import CompilationError

            if isinstance(e, CompilationError):
                raise runtime_backend.compile_error(e) from e.__cause__
            raise
    digest = hashlib.sha256(get_cache_key(src, compiler, parsed).encode()).hexdigest()
    metadata = _metadata(kernel, parsed, target, digest)
    compiled = CompiledKernel(src, metadata, kernel.asm, digest)
    compiled.arg_layout = _arg_layout(specs)
    publish_cubin(src, metadata, kernel, digest)  # for TorchInductor's static launcher
    compiled._live = _ProcessLocal((kernel, launch))
    return compiled


def _arg_layout(specs: Mapping[str, Any]) -> tuple[int, tuple[int, ...]]:
    """How many arguments ``run`` takes, and the positions of those passed at run time (the
    others are compiled in)."""
    from mytriton.frontend.signature import ConstexprArg

    runtime = tuple(i for i, s in enumerate(specs.values()) if not isinstance(s, ConstexprArg))
    return len(specs), runtime


def _launch_options(
    parsed: CompileOptions,
    runtime_backend: RuntimeBackend,
    target: GPUTarget,
    check: Callable[..., LaunchOptions],
) -> LaunchOptions:
    """The runtime's options of a compile, checked by the runtime's rules (num_warps a power
    of 2, no clusters, no PDL...); a ``"cuda"`` target's arch is the capability compiled for."""
    raw = {
        "num_warps": parsed.num_warps,
        "num_stages": parsed.num_stages,
        "num_ctas": parsed.num_ctas,
        "maxnreg": parsed.maxnreg,
        "enable_fp_fusion": parsed.enable_fp_fusion,
        "enable_reflect_ftz": parsed.enable_reflect_ftz,
        "launch_cooperative_grid": parsed.launch_cooperative_grid,
        "launch_pdl": parsed.launch_pdl,
    }
    launch = check(raw, parsed.debug, runtime_backend)
    if target.backend == "cuda" and isinstance(target.arch, int):
        launch = dataclasses.replace(launch, capability=target.arch)
    return launch


def _metadata(
    kernel: RuntimeKernel, parsed: CompileOptions, target: GPUTarget, digest: str
) -> dict[str, Any]:
    """Triton's metadata of a compiled kernel, from the runtime's."""
    from mytriton.compat.alias import TRITON_API_VERSION

    return {
        **dataclasses.asdict(parsed),
        "hash": digest,
        "target": target,
        "name": kernel.name,
        # a GPU kernel's dynamic shared memory, what a launch passes (Triton's are all dynamic)
        "shared": _launch_shared(kernel),
        "cluster_dims": (1, 1, 1),
        # the runtime's launcher allocates the scratch itself (runtime/global_scratch.py)
        "global_scratch_size": int(kernel.metadata.get("global_scratch", 0)),
        "global_scratch_align": 128,
        "profile_scratch_size": 0,
        "profile_scratch_align": 1,
        "tmem_size": None,
        "triton_version": TRITON_API_VERSION,
    }


def _launch_shared(kernel: RuntimeKernel) -> int:
    """The shared memory bytes a launch of ``kernel`` passes: a GPU kernel's dynamic shared
    memory (its static arrays are the binary's own), else what its metadata says."""
    signature = getattr(getattr(kernel, "binary", None), "signature", None)
    if isinstance(signature, KernelSignature):
        return signature.shared
    return int(kernel.metadata.get("shared", 0))


@functools.lru_cache(maxsize=64)
def _metadata_class(fields: tuple[str, ...]) -> type:
    return namedtuple("KernelMetadata", fields)  # type: ignore[misc]


def _metadata_tuple(metadata: Mapping[str, Any]) -> Any:
    """Triton's ``KernelMetadata``: a namedtuple of the fields in sorted order."""
    fields = tuple(sorted(metadata))
    return _metadata_class(fields)(**{k: metadata[k] for k in fields})


class _ProcessLocal:
    """A value that belongs to this process (a loaded kernel): pickles as empty, so a
    ``CompiledKernel`` sent to another process rebuilds it there (``_init_handles``)."""

    __slots__ = ("value",)

    def __init__(self, value: Any = None) -> None:
        self.value = value

    def __reduce__(self) -> tuple[Any, ...]:
        return (_ProcessLocal, ())


class LazyDict:
    """Launch metadata computed only when a launch hook reads it (Triton's ``LazyDict``)."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        self.extras: list[tuple[Callable[..., Any], tuple[Any, ...]]] = []

    def get(self) -> dict[str, Any]:
        for func, args in self.extras:
            self.data = self.data | func(*args)
        self.extras.clear()
        return self.data

    def add(self, func: Callable[..., Any], args: tuple[Any, ...]) -> None:
        self.extras.append((func, args))


class CompiledKernel:
    """Triton's compiled kernel: ``hash``, ``name``, ``asm`` (every stage's text),
    ``metadata`` (a ``KernelMetadata`` namedtuple), ``packed_metadata``, ``kernel`` (the last
    stage), and once ``_init_handles()`` ran: ``function``, ``n_regs``, ``n_spills``; ``run``
    is the launcher. It pickles without its loaded state, which the receiving process rebuilds
    from the kernel's source or, without one, from its ``tt-opt`` stage."""

    def __init__(
        self, src: Any, metadata: Mapping[str, Any], asm: Mapping[str, Any], hash: str
    ) -> None:
        self.src = src
        self.hash = hash
        self.metadata = _metadata_tuple(metadata)
        self.name = self.metadata.name
        compiler = make_backend(self.metadata.target)
        self.packed_metadata = compiler.pack_metadata(self.metadata)
        self.asm = StageTexts(asm)
        self.metadata_group: dict[str, str] = {}
        binary_ext = getattr(compiler, "binary_ext", "")
        self.kernel = self.asm.get(binary_ext, next(reversed(self.asm.values()), None))
        self.module: Any = None
        self.function: Any = None
        self.n_regs: int | None = None
        self.n_spills: int | None = None
        self.n_max_threads: int | None = None
        #: what is loaded in this process (not pickled): the runtime's kernel, its options and,
        #: after ``_init_handles``, the launcher behind ``run``
        self._live = _ProcessLocal()
        #: the number of kernel arguments ``run`` takes, and which of them are passed on
        self.arg_layout: tuple[int, tuple[int, ...]] = _arg_layout(argument_specs(src))

    def _init_handles(self) -> None:
        """Load the kernel for launching here: its runtime kernel (rebuilt after unpickling),
        launcher, registers and spills."""
        live = getattr(self, "_live", None)
        if live is not None and live.value is not None and len(live.value) == 3:
            return
        if live is None or live.value is None:
            live = _ProcessLocal(self._rebuild())
            self._live = live
        kernel, launch = live.value
        runtime_backend = get_backend(self.metadata.backend_name)
        _wait_for_assertions(kernel)
        from mytriton.runtime.launch import make_launcher

        launcher = make_launcher(kernel, runtime_backend, launch)
        self.n_regs, self.n_spills = _registers(kernel, runtime_backend)
        self.n_max_threads = 1024
        self.function = id(kernel)  # an opaque handle, as Triton's CUfunction; run ignores it
        on_gpu = runtime_backend.runs_on != "host"
        make_fast = None
        if on_gpu and fast_path_enabled():
            make_fast = fast_maker(self.name, self.arg_layout, kernel, runtime_backend, launch)
        runner = Runner(self.name, self.arg_layout, launcher, on_gpu, make_fast)
        # without a fast path to switch to, ``run`` is the general path itself (no dispatch)
        live.value = (kernel, launch, runner if make_fast is not None else runner.general)

    def _rebuild(self) -> tuple[RuntimeKernel, LaunchOptions]:
        """The runtime kernel of this compile in a process that did not compile it: compiled
        again from the source where the ``ASTSource`` still has its kernel (a GPU backend's
        disk cache has it), else from the ``tt-opt`` stage's text."""
        target = self.metadata.target
        fields = {f.name for f in dataclasses.fields(CompileOptions)}
        parsed = CompileOptions(**{k: getattr(self.metadata, k) for k in fields})
        runtime_backend = get_backend(parsed.backend_name)
        from mytriton.runtime.jit import launch_options

        launch = _launch_options(parsed, runtime_backend, target, launch_options)
        fn = getattr(getattr(self.src, "fn", None), "fn", None)
        if isinstance(self.src, ASTSource) and callable(fn):
            from mytriton.runtime.compiler import compile_stages
            from mytriton.runtime.jit import _COMPILING

            key = ("triton.compile", self.src.hash(), parsed, target)
            with _COMPILING:
                kernel = compile_stages(fn, argument_specs(self.src), runtime_backend, launch, key)
            return kernel, launch
        from mytriton.backends.stages import parse_module
        from mytriton.runtime.compiler import run_stages

        kernel = RuntimeKernel(name=self.name, backend=runtime_backend.name)
        kernel.hash = self.hash
        run_stages(kernel, runtime_backend, launch, "tt-opt", parse_module(self.asm["tt-opt"]))
        return kernel, launch

    @property
    def run(self) -> Callable[..., None]:
        """Triton's launcher: ``run(gx, gy, gz, stream, function, packed_metadata,
        launch_metadata, enter_hook, exit_hook, *args)`` (``_init_handles`` on first use)."""
        self._init_handles()
        return self._live.value[2]  # type: ignore[no-any-return]

    def launch_metadata(self, grid: Any, stream: Any, *args: Any) -> LazyDict | None:
        """What the launch-enter hook receives (None when no hook is set), as in Triton."""
        from mytriton import knobs

        if knobs.runtime.launch_enter_hook is None:
            return None
        self._init_handles()
        data = LazyDict({"name": self.name, "function": self.function, "stream": stream})
        hook = getattr(getattr(self.src, "fn", None), "launch_metadata", None)
        if not isinstance(self.src, ASTSource) or hook is None:
            return data
        data.add(hook, (grid, self.metadata, dict(zip(self.src.fn.arg_names, args, strict=False))))
        return data

    def __getitem__(self, grid: Any) -> Callable[..., None]:
        """``kernel[grid](*args)``: a launch with every argument of the kernel."""
        self._init_handles()

        def runner(*args: Any, stream: Any = None) -> None:
            from mytriton import knobs

            g = tuple(grid) + (1,) * (3 - len(tuple(grid)))
            metadata = self.launch_metadata(g, stream, *args)
            self.run(
                g[0],
                g[1],
                g[2],
                stream,
                self.function,
                self.packed_metadata,
                metadata,
                knobs.runtime.launch_enter_hook,
                knobs.runtime.launch_exit_hook,
                *args,
            )

        return runner

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state.update(
            metadata=self.metadata._asdict(),
            module=None,
            function=None,
            _live=None,
            src=_portable_source(self.src),
        )
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        metadata = state.get("metadata")
        if isinstance(metadata, dict):
            state = {**state, "metadata": _metadata_tuple(metadata)}
        self.__dict__.update(state)
        if self.__dict__.get("_live") is None:
            self._live = _ProcessLocal()

    def __repr__(self) -> str:
        return f"<CompiledKernel {self.name} target={self.metadata.target} hash={self.hash[:12]}>"


def sync_asked() -> bool:
    """Whether launches should wait for kernels with device assertions, to report a failed one
    at its launch: ``CUDA_LAUNCH_BLOCKING=1``, as with Triton (whose launcher never waits
    otherwise; TorchInductor compiles every kernel with ``debug=True``)."""
    return os.environ.get("CUDA_LAUNCH_BLOCKING", "") not in ("", "0")


def _wait_for_assertions(kernel: RuntimeKernel) -> None:
    """A GPU kernel's launches keep its assertions but wait for it only when asked."""
    binary = getattr(kernel, "binary", None)
    if binary is not None and hasattr(binary, "wait_for_assertions"):
        binary.wait_for_assertions = sync_asked()


def _registers(kernel: RuntimeKernel, backend: RuntimeBackend) -> tuple[int, int]:
    """Registers and spills of a GPU kernel (loaded on the current device); 0 on the CPU."""
    if backend.runs_on == "host":
        return 0, 0
    try:
        return kernel.n_regs, kernel.n_spills
    except (AttributeError, MyTritonError):
        return 0, 0


def _portable_source(src: Any) -> Any:
    """``src`` for pickling on its own: its kernel by reference (module and qualified name),
    found again where it is importable, else None (the kernel then rebuilds from its
    ``tt-opt`` stage). TorchInductor pickles the ``ASTSource`` itself, kernel included."""
    if not isinstance(src, ASTSource) or isinstance(src.fn, _KernelRef):
        return src
    copy = ASTSource.__new__(ASTSource)
    copy.__dict__.update(src.__dict__)
    copy.fn = _KernelRef(src.fn)
    return copy


def _find_kernel(module: str, qualname: str) -> Any:
    """The object named ``qualname`` in ``module``, or None where it cannot be imported."""
    import importlib

    try:
        found: Any = importlib.import_module(module)
        for part in qualname.split("."):
            found = getattr(found, part)
    except (ImportError, AttributeError):
        return None
    return found


class _KernelRef:
    """A kernel pickled by name (``_find_kernel`` where it is unpickled)."""

    def __init__(self, kernel: Any) -> None:
        raw = getattr(kernel, "fn", kernel)
        self.module = getattr(raw, "__module__", "") or ""
        self.qualname = getattr(raw, "__qualname__", "") or ""

    def __reduce__(self) -> tuple[Any, ...]:
        return (_find_kernel, (self.module, self.qualname))
