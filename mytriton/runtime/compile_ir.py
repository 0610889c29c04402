"""``mytriton.compile``: a kernel from the text of any stage (an edited dump, a hand-written
``.mlir`` file), compiled through the rest of the selected backend's stages and launchable as
``kernel[grid](*args)`` with its runtime arguments, as ``triton.compile`` does."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from xdsl.dialects import func, gpu
from xdsl.dialects.builtin import ModuleOp

from mytriton.backends import LaunchOptions, get_backend, selected_backend_name
from mytriton.backends.compiled import CompiledKernel
from mytriton.backends.stages import Stage, Text
from mytriton.dialects.ttg.layouts import NUM_WARPS_ATTR, module_num_warps
from mytriton.errors import MyTritonError, debug_enabled
from mytriton.runtime.compiler import (
    IRFileNotFoundError,
    StageError,
    kernel_hash,
    run_stages,
    stage_table,
)
from mytriton.runtime.launch import check_num_warps, make_launcher


def compile(  # noqa: A001 (Triton's name)
    src: str | Path,
    *,
    stage: str | None = None,
    backend: str | None = None,
    num_warps: int | None = None,
) -> CompiledKernel:
    """Compile the IR in ``src`` (a file path, or the text itself) from ``stage`` on.

    ``stage`` defaults to the one the file name's suffix names (``k.ttg.mlir`` is ``ttg``,
    ``.cu``, ``.ptx``, ``.cubin``...); ``backend`` to the selected one (``MYTRITON_BACKEND``).
    The launch geometry comes from the module (``ttg.num-warps``) from ``ttg`` on, else from
    ``num_warps`` (default 4); the stages of pipelined loops from the module's
    ``tt.num_stages``, else the default (``loop_attrs.DEFAULT_NUM_STAGES``).
    """
    try:
        if num_warps is not None:
            num_warps = check_num_warps(num_warps)
        chosen = get_backend(backend or selected_backend_name())
        table = stage_table(chosen)
        path = Path(src) if isinstance(src, Path) or _looks_like_path(src) else None
        if path is None and _names_a_file(str(src), table):
            path = Path(src)
        if path is not None and not path.is_file():
            raise IRFileNotFoundError(
                f"no such file: {str(path)!r} (mytriton.compile takes a stage file's path or "
                "the IR text itself)"
            )
        if path is not None:
            start = _stage_named(table, stage) if stage else _stage_of_file(table, path)
            text: Text = path.read_bytes() if start.binary else path.read_text()
        else:
            start = _stage_named(table, stage or "tt")
            text = str(src)
        artifact = start.parse(text)
        name, warps = _describe(artifact, start, num_warps)
        kernel = CompiledKernel(name=name, backend=chosen.name)
        options = LaunchOptions(num_warps=warps)
        kernel.hash = kernel_hash(text if isinstance(text, str) else text.hex(), start.name)
        run_stages(kernel, chosen, options, start.name, artifact)
        kernel.launcher = make_launcher(kernel, chosen, options)
        return kernel
    except MyTritonError as e:
        if debug_enabled():
            raise
        raise e.with_traceback(None)  # noqa: B904 (keeps the cause of an internal error)


def _looks_like_path(src: str) -> bool:
    return "\n" not in src and len(src) < 4096 and Path(src).is_file()


def _names_a_file(src: str, table: tuple[Stage, ...]) -> bool:
    """Whether ``src``, not an existing file, is still meant as one: a single line ending with
    a stage's suffix (``k.tt.mlir``), which no IR text does."""
    return "\n" not in src and src.strip().endswith(tuple(s.suffix for s in table))


def _stage_named(table: tuple[Stage, ...], name: str) -> Stage:
    for s in table:
        if s.name == name:
            return s
    raise StageError(f"no stage {name!r} here; the stages are {', '.join(s.name for s in table)}")


def _stage_of_file(table: tuple[Stage, ...], path: Path) -> Stage:
    """The stage whose suffix ends the file name (the longest: ``.tt-opt.mlir`` over ``.mlir``)."""
    matches = [s for s in table if path.name.endswith(s.suffix)]
    if not matches:
        suffixes = ", ".join(f"{s.suffix} ({s.name})" for s in table)
        raise StageError(
            f"cannot tell the stage of {path.name}: name it with one of {suffixes}, or pass stage="
        )
    return max(matches, key=lambda s: len(s.suffix))


def _describe(artifact: Any, start: Stage, num_warps: int | None) -> tuple[str, int]:
    """The kernel's name and warps, read from the IR where it says them."""
    if not isinstance(artifact, ModuleOp):
        raise StageError(
            f"compiling from the {start.name} stage needs the stages before it; start from an "
            "IR stage (.tt.mlir, .tt-opt.mlir, .ttg.mlir, .gpu.mlir)"
        )
    kernels = [op for op in artifact.walk() if isinstance(op, (func.FuncOp, gpu.FuncOp))]
    if len(kernels) != 1:
        raise StageError(f"the {start.name} module must hold one kernel, found {len(kernels)}")
    name = kernels[0].sym_name.data
    if NUM_WARPS_ATTR in artifact.attributes:
        from xdsl.utils.exceptions import VerifyException

        try:
            return name, module_num_warps(artifact)
        except VerifyException as e:
            raise StageError(str(e)) from None
    if isinstance(kernels[0], gpu.FuncOp):
        from mytriton.passes.gpu_lowering.abi import block_size

        block = block_size(kernels[0])
        return name, (block[0] // 32 if block else num_warps or 4)
    return name, num_warps or 4
