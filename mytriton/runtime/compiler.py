"""The compile driver: the ordered table of stages, run one after the other.

``tt`` (the frontend) and ``tt-opt`` (the `tt` pass pipeline) come first, then the backend's
stages (``ttg``, ``gpu``, then ``cuda``/``ptx``/``cubin`` or ``mlir``/``ptx``/``cubin``). From
this one table, every stage is printed once (``asm[stage]``), dumped to a folder, replaced by
an edited file, and compilation can start from any stage's text (``compile_ir``).

Dumps and overrides use Triton's switches as well as ours: ``MYTRITON_KERNEL_DUMP=1`` (or
``TRITON_KERNEL_DUMP=1``) writes each stage to ``$MYTRITON_DUMP_DIR`` (``$TRITON_DUMP_DIR``,
default ``~/.mytriton/dump``) as ``<hash>/<kernel><suffix>``; ``MYTRITON_KERNEL_OVERRIDE=1``
(``TRITON_KERNEL_OVERRIDE=1``) replaces a stage by the file of the same name under
``$MYTRITON_OVERRIDE_DIR`` (``$TRITON_OVERRIDE_DIR``, default ``~/.mytriton/override``), where
``<hash>`` identifies the kernel's source, specialization, options and backend.
"""

from __future__ import annotations

import ast
import hashlib
import os
import sys
import warnings
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from xdsl.dialects.builtin import ModuleOp

from mytriton.backends import Backend, LaunchOptions
from mytriton.backends.compiled import CompiledKernel
from mytriton.backends.stages import (
    Stage,
    StageUnavailable,
    Text,
    parse_module,
    print_module,
)
from mytriton.dialects.tt.loop_attrs import set_module_num_stages
from mytriton.dialects.tt.tensor_map import module_global_scratch
from mytriton.dialects.ttg.tma import kernel_tensor_maps
from mytriton.errors import MyTritonError, OverrideIgnoredWarning
from mytriton.frontend import ArgSpec, compile_kernel
from mytriton.passes.pipeline import run_pipeline
from mytriton.runtime.compile_listener import CompileClock
from mytriton.runtime.gc_pause import collector_paused


class StageError(MyTritonError):
    """A stage name or IR file that the selected backend cannot start from."""


class IRFileNotFoundError(StageError, FileNotFoundError):
    """``mytriton.compile`` was given the path of a file that does not exist."""


def _optimise(module: ModuleOp, options: Any, verified: bool = False) -> ModuleOp:
    # where the launch's num_stages meets the module, once: written on it (unless the IR names
    # its own), it travels with the module to every pass that pipelines (tt-pipeline here,
    # ttg-pipeline in the ttg stage), as `ttg.num-warps` does from layout assignment on
    set_module_num_stages(module, options.num_stages)  # an i32: the module still verifies
    # in place (the `tt` text was printed before), verified once at the end: a failure replays
    # the passes one by one to name the one that broke the IR (as the ttg and gpu stages do)
    run_pipeline(module, each_pass=False, verified=verified)
    return module


def _optimise_made(module: ModuleOp, options: Any) -> ModuleOp:
    return _optimise(module, options, verified=True)  # the frontend verified it


def _not_rerun(module: ModuleOp, options: Any) -> ModuleOp:
    raise AssertionError("the frontend stage is where compilation starts")


FRONTEND_STAGES = (
    Stage("tt", ".tt.mlir", _not_rerun, print_module, parse_module),
    Stage("tt-opt", ".tt-opt.mlir", _optimise, print_module, parse_module, _optimise_made),
)


def stage_table(backend: Backend) -> tuple[Stage, ...]:
    """Every stage a kernel goes through under ``backend``, in order."""
    return (*FRONTEND_STAGES, *backend.stages)


def _flag(*names: str) -> bool:
    return any(os.environ.get(n, "") not in ("", "0") for n in names)


def _folder(names: tuple[str, ...], default: str) -> Path:
    for n in names:
        value = os.environ.get(n, "")
        if value:
            return Path(value)
    return Path.home() / ".mytriton" / default


def dump_dir() -> Path | None:
    """Where stages are dumped, or None when dumping is off."""
    if not _flag("MYTRITON_KERNEL_DUMP", "TRITON_KERNEL_DUMP"):
        return None
    return _folder(("MYTRITON_DUMP_DIR", "TRITON_DUMP_DIR"), "dump")


def override_dir() -> Path | None:
    """Where stage overrides are looked for, or None when overriding is off."""
    if not _flag("MYTRITON_KERNEL_OVERRIDE", "TRITON_KERNEL_OVERRIDE"):
        return None
    return _folder(("MYTRITON_OVERRIDE_DIR", "TRITON_OVERRIDE_DIR"), "override")


def kernel_hash(source: str, key: Any) -> str:
    """Names a kernel's dump folder: its source and its specialization key."""
    return hashlib.sha256(f"{source}\n{key!r}".encode()).hexdigest()[:32]


def compile_stages(
    fn: Callable[..., Any],
    specs: Mapping[str, ArgSpec],
    backend: Backend,
    options: LaunchOptions,
    key: Any = None,
    name: str | None = None,
) -> CompiledKernel:
    """Compile one specialization of ``fn`` through ``backend``'s stage table; ``name``
    renames the kernel (``@jit(repr=...)``; default: the function's name)."""
    from mytriton.frontend.source import KernelSource
    from mytriton.runtime import disk_cache
    from mytriton.runtime.compile_listener import notify

    clock = CompileClock()
    entry = disk_cache.entry_for(fn, backend, options, key if name is None else (key, name))
    files = {} if entry is None else {entry.path.name: str(entry.path)}
    cached = entry.load() if entry is not None else None
    if cached is not None:
        clock.ir_done()
        notify(fn, specs, cached, options.capability, clock, True, files)
        return cached
    with collector_paused():  # gc_pause.py: the compile's objects are not walked again
        module = compile_kernel(fn, specs, debug=options.debug, num_warps=options.num_warps)
        if name is not None:
            rename_kernel(module, name)
        kernel = CompiledKernel(name=name or fn.__name__, backend=backend.name)
        src = KernelSource.of(fn)
        identity = f"{src.file}:{src.qualname}\n{ast.dump(src.tree)}"
        kernel.hash = kernel_hash(identity, (key, backend.name, options))
        clock.ir_done()
        # an autotuner compiling its configs at once (parallel_compile.py, imported by it only)
        parallel = sys.modules.get("mytriton.runtime.parallel_compile")
        if parallel is None or not parallel.serve(fn, kernel, backend, options, module, clock):
            run_stages(kernel, backend, options, "tt", module, clock, made=True)
    if entry is not None:
        clock.timed_store(lambda: entry.store(kernel))
    notify(fn, specs, kernel, options.capability, clock, False, files)
    return kernel


def rename_kernel(module: ModuleOp, name: str) -> None:
    """Give the kernel function of ``module`` the symbol ``name``."""
    from xdsl.dialects import func
    from xdsl.dialects.builtin import StringAttr

    for op in module.ops:
        if isinstance(op, func.FuncOp):
            op.sym_name = StringAttr(name)
            return


def run_stages(
    kernel: CompiledKernel,
    backend: Backend,
    options: LaunchOptions,
    start: str,
    artifact: Any,
    clock: CompileClock | None = None,
    made: bool = False,
) -> None:
    """Run the stages from ``start`` on (``artifact`` is that stage's), record and dump each
    one's text, apply overrides, then let the backend make the kernel launchable; ``clock``
    times each stage run (for ``knobs.compilation.listener``). ``made``: ``artifact`` is the
    frontend's verified module, not one parsed from a text (``Stage.run_made``)."""
    with collector_paused():  # gc_pause.py
        _run_stages(kernel, backend, options, start, artifact, clock, made)


def _run_stages(
    kernel: CompiledKernel,
    backend: Backend,
    options: LaunchOptions,
    start: str,
    artifact: Any,
    clock: CompileClock | None,
    made: bool,
) -> None:
    table = stage_table(backend)
    names = [s.name for s in table]
    if start not in names:
        raise StageError(
            f"the {backend.name} backend has no stage {start!r}; its stages: {', '.join(names)}"
        )
    dumps, overrides = dump_dir(), override_dir()
    artifacts: dict[str, Any] = {}
    for stage in table[names.index(start) :]:
        if stage.name != start:
            run = stage.runner(made)
            try:
                if clock is None:
                    artifact = run(artifact, options)
                else:
                    artifact = clock.timed_stage(stage.name, run, artifact, options)
            except StageUnavailable as e:
                kernel.metadata["unavailable"] = f"no {stage.name} stage: {e}"
                break
            made = True
        text: Text = stage.text(artifact)
        if overrides is not None:
            path = overrides / kernel.hash / f"{kernel.name}{stage.suffix}"
            if path.is_file():
                text = path.read_bytes() if stage.binary else path.read_text()
                artifact, made = stage.parse(text), False
            else:
                _warn_misplaced_override(overrides / path.name, path)
        if stage.name == "tt":
            backend.check_tt(artifact, options)
        kernel.asm[stage.name] = text
        artifacts[stage.name] = artifact
        if dumps is not None:
            _write(dumps / kernel.hash / f"{kernel.name}{stage.suffix}", text)
    if "tt-opt" in artifacts:
        kernel.module = artifacts["tt-opt"]
    if "ttg" in artifacts and (maps := kernel_tensor_maps(artifacts["ttg"])):
        kernel.metadata["tensor_maps"] = maps  # what the runtime encodes at each launch
    if "ttg" in artifacts and (scratch := module_global_scratch(artifacts["ttg"])):
        kernel.metadata["global_scratch"] = scratch  # bytes a program, allocated at each launch
    kernel.metadata.update(name=kernel.name, num_warps=options.num_warps, num_ctas=options.num_ctas)
    backend.load(kernel, artifacts, options)
    if os.environ.get("MYTRITON_DUMP", "") not in ("", "0"):
        for stage_name, text in kernel.asm.items():
            if isinstance(text, str):
                print(f"// ----- {kernel.name}: {stage_name} -----\n{text}", file=sys.stderr)


_warned_misplaced: set[Path] = set()


def _warn_misplaced_override(misplaced: Path, expected: Path) -> None:
    """Say once per file that an override placed straight in the override folder is not
    used: each kernel reads only its own ``<hash>/`` folder (its dump folder's name)."""
    if misplaced in _warned_misplaced or not misplaced.is_file():
        return
    _warned_misplaced.add(misplaced)
    warnings.warn(
        f"the override file {misplaced} is not used: overrides go in the kernel's own folder, "
        f"{expected} for this compile (the folder its dump is written to, "
        "MYTRITON_KERNEL_DUMP=1)",
        OverrideIgnoredWarning,
        stacklevel=2,
    )


def _write(path: Path, text: Text) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text)
