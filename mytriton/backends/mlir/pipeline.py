"""Emitted MLIR text -> PTX and cubin through upstream MLIR, and the ``toolchain()`` report.

One fixed pipeline (``mlir-notes.md``): ``nvvm-attach-target``, then inside the ``gpu.module``
``convert-scf-to-cf`` (required: ``scf`` has no LLVM translation), ``convert-gpu-to-nvvm`` and
``convert-nvvm-to-llvm`` (the NVVM ops upstream builds as inline PTX, which have no LLVM
translation of their own: ``nvvm.wgmma.mma_async``, which needs chip ``sm_90a``), then
``gpu-module-to-binary{format=isa}`` (PTX); ptxas, where it exists, makes the cubin of that PTX
(so an edited PTX file goes the same way). The toolkit is always passed: without libdevice
every ``math.*`` op would stay an unresolved ``.extern .func __nv_*`` in the PTX, which we
reject.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from mytriton.backends.mlir.diagnostics import has_error, log_tail, report
from mytriton.backends.mlir.providers import (
    OPT_ENV_VAR,
    PYTHON_ENV_VAR,
    Provider,
    RunResult,
    select_provider,
)
from mytriton.backends.mlir.toolkit import (
    CHIP_ENV_VAR,
    CudaToolkit,
    find_cuda_toolkit,
    select_chip,
    tool_env,
)
from mytriton.backends.nvidia.ptxas import run_ptxas
from mytriton.errors import BackendError, BackendUnavailableError

_EXTERN_RE = re.compile(r"\.extern\s+\.func\s+(?:\([^)]*\)\s*)?(__nv_\w+)")
_MATH_OP_RE = re.compile(r'"(math\.\w+)"\(.*loc\("((?:[^"\\]|\\.)*)":(\d+):(\d+)\)')
INSTALL_HINT = (
    'install one: pip install "mytriton[mlir]" (MLIR Python bindings) or apt-get install '
    f"mlir-22-tools (mlir-opt); or point ${PYTHON_ENV_VAR} / ${OPT_ENV_VAR} at yours"
)
TOOLKIT_HINT = (
    "set CUDA_HOME to a CUDA toolkit, or pip install nvidia-cuda-nvcc nvidia-nvvm "
    "(ptxas and libdevice)"
)


FP8_MMA_TEXT = "mma.sync.aligned.m16n8k32.row.col.f32.e"  # an fp8 A: e4m3 or e5m2
# text of the emitted MLIR -> the PTX ISA it needs (``nvvm-attach-target`` otherwise picks the
# chip's minimum, 7.8 for sm_90): fp8 ``mma.sync`` (``ptx.mma.sync``'s inline asm) 8.4; a
# tensor map built in the kernel 8.6 (``tensormap.replace`` inline asm and the tensormap proxy
# fences exist from 8.3, but ptxas read ``global_stride`` in 16-byte units up to 8.5, as
# Triton's TMAToLLVM notes: a newer ISA keeps its bytes)
PTX_VERSION_NEEDS = {
    FP8_MMA_TEXT: 84,
    "tensormap.replace.tile.": 86,
    '"nvvm.fence.proxy.release"': 86,
    '"nvvm.fence.proxy.acquire"': 86,
}


def ptx_features(text: str) -> str | None:
    """The ``features`` the emitted MLIR ``text`` needs of ``nvvm-attach-target``."""
    versions = [v for needle, v in PTX_VERSION_NEEDS.items() if needle in text]
    return f"+ptx{max(versions)}" if versions else None


def pass_pipeline(
    chip: str, fmt: str, toolkit: CudaToolkit | None, features: str | None = None
) -> str:
    """The upstream pass pipeline producing a ``gpu.binary`` of format ``isa`` or ``bin``."""
    binary = f"format={fmt}" + (f" toolkit={toolkit.root}" if toolkit is not None else "")
    target = f"chip={chip} O=3" + (f" features={features}" if features else "")
    return (
        "builtin.module("
        f"nvvm-attach-target{{{target}}},"
        "gpu.module(convert-scf-to-cf,convert-gpu-to-nvvm{index-bitwidth=64},"
        "convert-nvvm-to-llvm,canonicalize,cse),"
        "reconcile-unrealized-casts,"
        f"gpu-module-to-binary{{{binary}}})"
    )


@dataclass(frozen=True)
class MlirBuild:
    """What upstream MLIR made of one kernel."""

    ptx: str
    cubin: bytes | None  # None where no ptxas was found
    chip: str
    provider: str
    toolkit: CudaToolkit | None
    log: str  # warnings and remarks, if MLIR printed any


def no_provider_message(considered: list[Provider]) -> str:
    lines = ["no upstream MLIR provider is usable for the mlir backend:"]
    lines += [f"  {p.name}: {p.unavailable_reason()}" for p in considered]
    return "\n".join([*lines, INSTALL_HINT])


def compile_mlir(
    text: str, *, kernel: str = "kernel", chip: str | None = None, cubin: bool | None = None
) -> MlirBuild:
    """PTX (and a cubin where ptxas exists, or as ``cubin`` asks) of the emitted MLIR ``text``."""
    provider, considered = select_provider()
    if provider is None:
        raise BackendUnavailableError(no_provider_message(considered))
    toolkit = find_cuda_toolkit()
    chip = select_chip(chip)[0]
    ptx, log = _ptx(provider, text, kernel, chip, toolkit)
    binary = None
    if cubin is None:
        cubin = toolkit is not None and toolkit.ptxas is not None
    if cubin:
        binary = ptx_to_cubin(ptx, chip, kernel)
        if binary is None:
            raise BackendUnavailableError(
                f"a cubin needs ptxas, which was not found; {TOOLKIT_HINT}"
            )
    return MlirBuild(ptx, binary, chip, provider.name, toolkit, log)


def mlir_to_ptx(text: str, *, kernel: str = "kernel", chip: str | None = None) -> str:
    """The PTX of the emitted MLIR ``text`` (the ``ptx`` stage of the mlir backend)."""
    provider, considered = select_provider()
    if provider is None:
        raise BackendUnavailableError(no_provider_message(considered))
    return _ptx(provider, text, kernel, select_chip(chip)[0], find_cuda_toolkit())[0]


def _ptx(
    provider: Provider, text: str, kernel: str, chip: str, toolkit: CudaToolkit | None
) -> tuple[str, str]:
    what = f"kernel `{kernel}` for {chip}"
    passes = pass_pipeline(chip, "isa", toolkit, ptx_features(text))
    isa = _run(provider, text, passes, tool_env(toolkit), what)
    ptx = _single_object(isa, "ptx", provider, what).decode()
    _check_libdevice(ptx, text, toolkit, kernel)
    return ptx, isa.log


def ptx_to_cubin(ptx: str, chip: str | None = None, kernel: str = "kernel") -> bytes | None:
    """The cubin ptxas makes of ``ptx`` (the ``cubin`` stage), or None where ptxas is missing."""
    toolkit = find_cuda_toolkit()
    if toolkit is None or toolkit.ptxas is None:
        return None
    return run_ptxas(toolkit.ptxas, ptx, select_chip(chip)[0], kernel)


def _run(provider: Provider, text: str, pipeline: str, env: dict[str, str], what: str) -> RunResult:
    result = provider.run(text, pipeline, env)
    if result.ok and not has_error(result.log):
        return result
    at_lines = report(result.log, text)
    message = f"upstream MLIR ({provider.name}) failed to compile {what}"
    if at_lines:
        message += f":\n{at_lines}"
    message += f"\n--- {provider.name} log ---\n{log_tail(result.log) or '(empty)'}"
    raise BackendError(message)


def _single_object(result: RunResult, kind: str, provider: Provider, what: str) -> bytes:
    objects = [o for o in result.objects if o.kind == kind]
    if len(objects) != 1:
        found = ", ".join(o.kind for o in result.objects) or "none"
        raise BackendError(
            f"upstream MLIR ({provider.name}) produced no single {kind} for {what} "
            f"(objects: {found})\n--- log ---\n{log_tail(result.log) or '(empty)'}"
        )
    return objects[0].data


def _check_libdevice(ptx: str, text: str, toolkit: CudaToolkit | None, kernel: str) -> None:
    """Unresolved ``__nv_*`` calls mean libdevice was not linked: the kernel cannot load."""
    missing = sorted(set(_EXTERN_RE.findall(ptx)))
    if not missing:
        return
    where = [f"  {m[1]} at {m[2]}:{m[3]}:{m[4]}" for m in _MATH_OP_RE.finditer(text)][:5]
    found = (
        f"the CUDA toolkit at {toolkit.root} has no nvvm/libdevice/libdevice.10.bc"
        if toolkit is not None
        else "no CUDA toolkit was found"
    )
    raise BackendUnavailableError(
        f"kernel `{kernel}` uses math functions that need libdevice ({', '.join(missing)}), "
        f"but {found}; {TOOLKIT_HINT}" + ("\n" + "\n".join(where) if where else "")
    )


@dataclass(frozen=True)
class ToolchainReport:
    """Which MLIR providers exist, which one is used, the CUDA toolkit and the chip."""

    providers: list[tuple[str, str, str | None]]  # name, description, why unusable
    selected: str | None
    toolkit: CudaToolkit | None
    chip: str
    chip_source: str

    @property
    def outputs(self) -> list[str]:
        if self.selected is None:
            return ["mlir"]
        has_ptxas = self.toolkit is not None and self.toolkit.ptxas is not None
        return ["mlir", "ptx", *(["cubin"] if has_ptxas else [])]

    def __str__(self) -> str:
        lines = ["mytriton MLIR toolchain", "  providers, tried in order:"]
        for name, description, reason in self.providers:
            state = (
                "selected" if name == self.selected else ("usable" if reason is None else reason)
            )
            lines.append(f"    {name}: {description} [{state}]")
        toolkit = str(self.toolkit) if self.toolkit else f"not found ({TOOLKIT_HINT})"
        lines.append(f"  CUDA toolkit: {toolkit}")
        chip_hint = "" if self.chip_source != "default" else f"; set ${CHIP_ENV_VAR} to change"
        lines.append(f"  chip: {self.chip} ({self.chip_source}{chip_hint})")
        lines.append(f"  stages produced: {', '.join(self.outputs)}")
        if self.selected is None:
            lines.append(f"  {INSTALL_HINT}")
        return "\n".join(lines)

    __repr__ = __str__


def toolchain() -> ToolchainReport:
    """Diagnose the MLIR backend's tools: ``print(mytriton.backends.mlir.toolchain())``."""
    selected, considered = select_provider()
    chip, chip_source = select_chip()
    return ToolchainReport(
        providers=[(p.name, p.describe(), p.unavailable_reason()) for p in considered],
        selected=selected.name if selected is not None else None,
        toolkit=find_cuda_toolkit(),
        chip=chip,
        chip_source=chip_source,
    )
