"""Providers: each one found here, none at all, errors MLIR reports with exit code 0, crashes of
the bindings worker, and diagnostics re-reported at the kernel's Python line."""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest
from xdsl.dialects import arith
from xdsl.dialects.builtin import FileLineColLoc, IntAttr, ModuleOp, StringAttr, i32
from xdsl.ir import SSAValue

from mytriton.backends.mlir import compile_mlir, emit_mlir, pipeline, toolchain
from mytriton.backends.mlir.providers import (
    OPT_ENV_VAR,
    PROVIDER_ENV_VAR,
    PYTHON_ENV_VAR,
    BindingsProvider,
    MlirOptProvider,
    configured_providers,
)
from mytriton.backends.mlir.toolkit import find_cuda_toolkit, tool_env
from mytriton.errors import BackendError, BackendUnavailableError
from tests.mlir import samples
from tests.mlir.conftest import requires_provider, usable_providers


def _nowhere(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(PYTHON_ENV_VAR, "mytriton_no_such_mlir_package")
    monkeypatch.setenv(OPT_ENV_VAR, "/nonexistent/bin/mlir-opt")
    monkeypatch.delenv(PROVIDER_ENV_VAR, raising=False)


def _fake_mlir_opt(tmp_path: Path, script: str) -> str:
    path = tmp_path / "mlir-opt"
    path.write_text(f"#!{sys.executable}\n{script}")
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return str(path)


# ---------------------------------------------------------------- discovery and the report


def test_toolchain_reports_providers_toolkit_and_chip() -> None:
    report = toolchain()
    text = str(report)
    assert [name for name, _, _ in report.providers][:2] == ["python", "mlir-opt"]
    for name, reason in usable_providers().items():
        assert f"{name}: " in text
        if reason is not None:
            assert reason in text
    assert "CUDA toolkit:" in text and f"chip: {report.chip}" in text
    usable = [n for n, r in usable_providers().items() if r is None]
    assert report.selected == (usable[0] if usable else None)


def test_provider_order_and_restriction(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(PROVIDER_ENV_VAR, raising=False)
    assert [p.name for p in configured_providers()] == ["python", "mlir-opt"]
    monkeypatch.setenv(PROVIDER_ENV_VAR, "mlir-opt")
    assert [p.name for p in configured_providers()] == ["mlir-opt"]
    monkeypatch.setenv(PROVIDER_ENV_VAR, "llvm")
    with pytest.raises(BackendError, match="must be python, mlir-opt or auto"):
        configured_providers()


def test_no_provider_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    _nowhere(monkeypatch)
    with pytest.raises(BackendUnavailableError) as info:
        compile_mlir(emit_mlir(samples.add_kernel()))
    message = str(info.value)
    assert "no upstream MLIR provider" in message
    assert (
        "package 'mytriton_no_such_mlir_package' ($MYTRITON_MLIR_PYTHON) is not installed"
        in message
    )
    assert "$MYTRITON_MLIR_OPT=/nonexistent/bin/mlir-opt is not an executable" in message
    assert 'pip install "mytriton[mlir]"' in message and "mlir-22-tools" in message
    report = toolchain()
    assert report.selected is None and report.outputs == ["mlir"]


def test_a_package_that_is_not_mlir_bindings(monkeypatch: pytest.MonkeyPatch) -> None:
    provider = BindingsProvider("json")  # importable, but has no json.ir
    reason = provider.unavailable_reason()
    assert reason is not None and "does not load as MLIR bindings" in reason
    assert "ModuleNotFoundError" in reason


def test_mlir_opt_by_name_on_path(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    exe = _fake_mlir_opt(tmp_path, "print('fake version 1')")
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    assert MlirOptProvider().path == exe
    assert MlirOptProvider("mlir-opt").path == exe
    assert MlirOptProvider("/nonexistent/mlir-opt").unavailable_reason() is not None


# ---------------------------------------------------------------- each provider found here


@pytest.mark.parametrize("name", ["add_kernel", "math_ops"])
def test_provider_compiles(name: str, provider: str) -> None:
    build = compile_mlir(emit_mlir(samples.SAMPLES[name]()), kernel=name)
    assert build.provider == provider
    assert f".entry {name}(" in build.ptx


@pytest.mark.skipif(usable_providers().get("python") is not None, reason="no MLIR bindings here")
def test_bindings_worker_outlives_one_compile(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(PROVIDER_ENV_VAR, "python")
    (p,) = configured_providers()
    assert isinstance(p, BindingsProvider)
    compile_mlir(emit_mlir(samples.add_kernel()), cubin=False)
    first = p._worker
    compile_mlir(emit_mlir(samples.memory()), cubin=False)
    assert first is not None and p._worker is first and first.alive()


# ---------------------------------------------------------------- errors


def test_error_with_exit_code_zero_is_caught(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """MLIR prints ``error:`` yet exits 0 (missing toolkit path, bad format): still a failure."""
    exe = _fake_mlir_opt(
        tmp_path,
        "import sys\nsys.stdin.read()\n"
        "sys.stderr.write('error: CUDA path: /nonexistent does not exist or is not a directory.')\n"
        "print('gpu.binary @k [#gpu.object<#nvvm.target, assembly = \"// .entry k(\">]')\n",
    )
    monkeypatch.setenv(OPT_ENV_VAR, exe)
    monkeypatch.setenv(PROVIDER_ENV_VAR, "mlir-opt")
    with pytest.raises(BackendError, match="CUDA path: /nonexistent does not exist"):
        compile_mlir(emit_mlir(samples.add_kernel()), cubin=False)


@pytest.mark.skipif(usable_providers().get("mlir-opt") is not None, reason="no mlir-opt here")
def test_real_mlir_opt_error_with_exit_code_zero(monkeypatch: pytest.MonkeyPatch) -> None:
    """A misspelled format: mlir-opt 22 prints ``error: Invalid format specified.``, exits 0."""
    monkeypatch.setenv(PROVIDER_ENV_VAR, "mlir-opt")
    (opt,) = configured_providers()
    text = emit_mlir(samples.add_kernel())
    bad = pipeline.pass_pipeline("sm_90", "offlaod", None)
    result = opt.run(text, bad, tool_env(find_cuda_toolkit()))
    assert result.ok, "mlir-opt 22 exits 0 here"
    assert "error: Invalid format specified." in result.log
    monkeypatch.setattr(pipeline, "pass_pipeline", lambda chip, fmt, tk, features=None: bad)
    with pytest.raises(BackendError, match="Invalid format specified"):
        compile_mlir(text, cubin=False)


MARK = "# THE LINE MLIR REJECTS"


def _bad_module() -> tuple[ModuleOp, int]:
    """A kernel whose ``arith.addf`` on i32 MLIR rejects, located at the marked line below."""
    line = 1 + next(n for n, text in enumerate(Path(__file__).read_text().splitlines())
                    if text.strip().endswith(MARK) and "bad =" in text)  # fmt: skip

    def body(args: Sequence[SSAValue]) -> None:
        bad = arith.AddfOp(args[1], args[1])  # THE LINE MLIR REJECTS
        bad.location = FileLineColLoc(StringAttr(__file__), IntAttr(line), IntAttr(15))
        samples.store_at(bad.result, args[0], args[1])

    return samples.kernel_module("bad", [samples.PTR, i32], body), line


@requires_provider
def test_diagnostic_names_the_python_line(provider: str) -> None:
    module, line = _bad_module()
    with pytest.raises(BackendError) as info:
        compile_mlir(emit_mlir(module), kernel="bad")
    message = str(info.value)
    first = message.splitlines()[1]
    assert first.startswith(f"{__file__}:{line}:15: error: MLIR: 'arith.addf' op operand #0")
    assert "bad = arith.AddfOp(args[1], args[1])  # THE LINE MLIR REJECTS" in message
    assert "\n" + " " * 4 + " " * 14 + "^" in message  # the caret under column 15
    assert f"--- {provider} log ---" in message


@requires_provider
def test_diagnostic_in_the_mlir_text_quotes_it(provider: str) -> None:
    text = '"builtin.module"() ({\n  %0 = "arith.bogus"() : () -> i32\n}) : () -> ()\n'
    with pytest.raises(BackendError, match=r"line 2 of the emitted MLIR: .*arith\.bogus") as info:
        compile_mlir(text)
    assert '    %0 = "arith.bogus"() : () -> i32' in str(info.value)


FAKE_WORKER = """
import json, os, sys
print(json.dumps({"ready": True, "version": "fake"}), flush=True)
for line in sys.stdin:
    sys.stderr.write("LLVM ERROR: something fatal\\n"); sys.stderr.flush()
    os.abort()
"""


def test_a_crashing_worker_does_not_kill_us(monkeypatch: pytest.MonkeyPatch) -> None:
    """An LLVM abort ends the worker; the error carries its log and the next run restarts it."""
    monkeypatch.setattr(BindingsProvider, "worker_command", [sys.executable, "-c", FAKE_WORKER])
    provider = BindingsProvider("json")
    assert provider.unavailable_reason() is None
    env = tool_env(None)
    for _ in range(2):  # the second run starts a new worker
        result = provider.run("module", "builtin.module()", env)
        assert not result.ok
        assert "LLVM ERROR: something fatal" in result.log
        assert "killed by SIGABRT" in result.log
    provider.close()


@pytest.mark.skipif(usable_providers().get("python") is not None, reason="no MLIR bindings here")
def test_real_bindings_abort_is_contained(monkeypatch: pytest.MonkeyPatch) -> None:
    """A pipeline that trips an LLVM assertion or error in the bindings: a BackendError, and the
    provider still works afterwards."""
    monkeypatch.setenv(PROVIDER_ENV_VAR, "python")
    text = emit_mlir(samples.add_kernel())
    real = pipeline.pass_pipeline
    monkeypatch.setattr(
        pipeline,
        "pass_pipeline",
        lambda chip, fmt, tk, features=None: real(chip, "offlaod", tk, features),
    )
    with pytest.raises(BackendError):
        compile_mlir(text, cubin=False)
    monkeypatch.setattr(pipeline, "pass_pipeline", real)
    assert ".entry add_kernel(" in compile_mlir(text, cubin=False).ptx


EXTERN_PTX = (
    "import sys\nsys.stdin.read()\n"
    "ptx = '.version 7.8\\\\0A.extern .func  (.param .b32 func_retval0) __nv_expf\\\\0A"
    ".visible .entry math_ops('\n"
    "print('gpu.binary @kernels [#gpu.object<#nvvm.target, assembly = \"' + ptx + '\">]')\n"
)


def test_unlinked_libdevice_is_a_clear_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """PTX that still declares ``__nv_*`` functions cannot load: say which and what to install."""
    monkeypatch.setenv(OPT_ENV_VAR, _fake_mlir_opt(tmp_path, EXTERN_PTX))
    monkeypatch.setenv(PROVIDER_ENV_VAR, "mlir-opt")
    monkeypatch.setattr(pipeline, "find_cuda_toolkit", lambda: None)
    with pytest.raises(BackendUnavailableError) as info:
        compile_mlir(emit_mlir(samples.math_ops()), kernel="math_ops")
    message = str(info.value)
    assert "kernel `math_ops` uses math functions that need libdevice (__nv_expf)" in message
    assert "no CUDA toolkit was found" in message and "CUDA_HOME" in message
    assert "math.exp at samples.py:" in message


def test_math_without_a_toolkit(monkeypatch: pytest.MonkeyPatch, provider: str) -> None:
    """Without a toolkit MLIR leaves ``__nv_*`` calls unresolved (unless its build has a default
    toolkit path of its own); kernels without math still compile to PTX, with no cubin."""
    for var in ("CUDA_HOME", "CUDA_PATH", "CUDA_ROOT"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setattr(pipeline, "find_cuda_toolkit", lambda: None)
    build = compile_mlir(emit_mlir(samples.add_kernel()))
    assert build.cubin is None and ".entry add_kernel(" in build.ptx
    try:
        compile_mlir(emit_mlir(samples.math_ops()), kernel="math_ops")
    except BackendUnavailableError as e:
        assert "need libdevice (__nv_" in str(e)
    else:
        pytest.skip(f"this {provider} build finds libdevice without being told where")
