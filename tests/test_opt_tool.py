"""``mytriton-opt``: dialects and passes registered, xdsl-opt flags kept, printed IR re-parses."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser

from mytriton.backends.stages import LocatedPrinter
from mytriton.dialects import all_dialects
from mytriton.passes.pipeline import PIPELINE_ENV
from mytriton.passes.registry import available_passes
from mytriton.tools.opt import MyTritonOptMain, main

LIT_TESTS = Path(__file__).resolve().parent.parent / "lit_tests"

KERNEL = """
func.func @k(%p: !tt.ptr<f32>, %n: i32) -> tensor<16xi32> {
  %c0 = arith.constant 0 : i32
  %a = tt.splat %n : i32 -> tensor<16xi32>
  %b = tt.splat %n : i32 -> tensor<16xi32>
  %s = tt.add %a, %b : tensor<16xi32>
  %q = tt.addptr %p, %c0 : !tt.ptr<f32>, i32
  %v = tt.load %q : !tt.ptr<f32>
  tt.store %q, %v : !tt.ptr<f32>
  func.return %s : tensor<16xi32>
}
"""


@pytest.fixture
def kernel_file(tmp_path: Path) -> Path:
    path = tmp_path / "k.mlir"
    path.write_text(KERNEL, encoding="utf-8")
    return path


def _run_main(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = 0
    try:
        main(list(args))
    except SystemExit as e:
        code = int(e.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


# ---------------------------------------------------------------------------------------
# What the tool knows
# ---------------------------------------------------------------------------------------


def test_all_mytriton_dialects_are_registered() -> None:
    ctx = MyTritonOptMain(args=[]).ctx
    for dialect in all_dialects():
        assert ctx.get_optional_dialect(dialect.name) is dialect, dialect.name


def test_tt_is_loaded_lazily() -> None:
    ctx = MyTritonOptMain(args=[]).ctx
    assert "tt" in ctx.registered_dialect_names
    assert "tt" not in {d.name for d in ctx.loaded_dialects}


def test_registry_passes_and_upstream_passes_are_registered() -> None:
    tool = MyTritonOptMain(args=[])
    ours = available_passes()
    for name in ours:
        assert tool.available_passes[name]() is ours[name](), name
    assert "convert-scf-to-cf" in tool.available_passes  # upstream xDSL passes stay


def test_help_lists_our_passes(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run_main(capsys, "--help")
    assert code == 0
    flat = re.sub(r"\s+", "", out)
    for name in ("tt-simplify", "licm", "canonicalize"):
        assert name in flat
    assert "--jit-pipeline" in out


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run_main(capsys, "--version")
    assert code == 0
    assert out.strip() == "mytriton-opt built on xdsl version 0.74.0"


# ---------------------------------------------------------------------------------------
# Running
# ---------------------------------------------------------------------------------------


def test_runs_passes(capsys: pytest.CaptureFixture[str], kernel_file: Path) -> None:
    code, out, _ = _run_main(capsys, str(kernel_file), "-p", "tt-simplify")
    assert code == 0
    assert "tt.add %n, %n : i32" in out
    assert "tt.addptr" not in out
    assert "tt.load %p : !tt.ptr<f32>" in out


def test_jit_pipeline_default(
    capsys: pytest.CaptureFixture[str], kernel_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(PIPELINE_ENV, raising=False)
    code, out, _ = _run_main(capsys, str(kernel_file), "--jit-pipeline")
    assert code == 0
    assert "tt.add %n, %n : i32" in out


def test_jit_pipeline_follows_env(
    capsys: pytest.CaptureFixture[str], kernel_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(PIPELINE_ENV, "cse")
    code, out, _ = _run_main(capsys, str(kernel_file), "--jit-pipeline")
    assert code == 0
    assert out.count("tt.splat %n") == 1  # merged by cse ...
    assert "tt.addptr" in out  # ... but not canonicalized


def test_unknown_pass_exits_2(capsys: pytest.CaptureFixture[str], kernel_file: Path) -> None:
    code, out, err = _run_main(capsys, str(kernel_file), "-p", "cse,nope")
    assert code == 2
    assert out == ""
    assert err.startswith("mytriton-opt: error: unknown pass 'nope'; known passes: ")
    assert "tt-simplify" in err


def test_unknown_pass_suggests_the_close_name(
    capsys: pytest.CaptureFixture[str], kernel_file: Path
) -> None:
    code, _, err = _run_main(capsys, str(kernel_file), "-p", "cse,licn")
    assert code == 2
    assert err.startswith("mytriton-opt: error: unknown pass 'licn' (did you mean 'licm'?);")


def test_verify_diagnostics(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "bad.mlir"
    bad.write_text(
        'func.func @f() {\n  %r = "tt.make_range"() <{start = 0 : i32, end = 3 : i32}>'
        " : () -> tensor<3xi32>\n  func.return\n}\n",
        encoding="utf-8",
    )
    code, out, _ = _run_main(capsys, str(bad), "--verify-diagnostics")
    assert code == 0
    assert "Operation does not verify: tt.make_range: range size end - start = 3" in out
    code, out, err = _run_main(capsys, str(bad))
    assert (code, out) == (1, "")
    assert err.startswith("mytriton-opt: error: tt.make_range: range size end - start = 3")


def test_console_script_reads_stdin() -> None:
    out = subprocess.run(
        [*_opt_command(), "-p", "canonicalize"],
        input=KERNEL,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert "func.func @k(%p: !tt.ptr<f32>, %n: i32) -> tensor<16xi32>" in out.stdout


def _opt_command() -> list[str]:
    exe = Path(sys.executable).with_name("mytriton-opt")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "mytriton.tools.opt"]


def test_dash_reads_stdin() -> None:
    """``-`` is stdin, as for mlir-opt (not a file named ``-``)."""
    out = subprocess.run(
        [*_opt_command(), "-", "-p", "canonicalize"],
        input=KERNEL,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert "func.func @k(%p: !tt.ptr<f32>, %n: i32) -> tensor<16xi32>" in out.stdout


def test_any_file_name_parses_as_mlir(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "kernel.ttir"
    path.write_text(KERNEL, encoding="utf-8")
    code, out, err = _run_main(capsys, str(path), "-p", "tt-simplify")
    assert code == 0, err
    assert "tt.add %n, %n : i32" in out


# ---------------------------------------------------------------------------------------
# Bad input is a diagnostic and a non-zero exit, never a traceback
# ---------------------------------------------------------------------------------------

ZERO_SIZED = """
func.func @k(%x: !tt.ptr<i32>) {
  %p = tt.splat %x : !tt.ptr<i32> -> tensor<0x!tt.ptr<i32>>
  %v = tt.load %p : tensor<0x!tt.ptr<i32>>
  tt.store %p, %v : tensor<0x!tt.ptr<i32>>
  func.return
}
"""


def _nested_modules(depth: int) -> str:
    return "builtin.module {" * depth + "}" * depth


BAD_INPUTS: dict[str, tuple[str | bytes | None, list[str], str]] = {
    # name: (input file text, or None for no file; extra arguments; expected message start)
    "parse": ("func.func @k( {\n", [], "{file}:1:15\nfunc.func @k( {{"),
    "verify": (
        KERNEL.replace("tt.add %a, %b", "tt.exp %a"),
        [],
        "tt.exp: operand must be a float, got tensor<16xi32>",
    ),
    "zero-sized": (
        ZERO_SIZED,
        ["-p", "tt-assign-layouts"],
        "tt.splat: dimension 0 of shape [0] must be positive",
    ),
    "missing": (None, [], "cannot open input file '{file}': No such file or directory"),
    "binary": (b"\x7fELF\x02\x01\n\x8d\xff", [], "{file}:2: byte 0x8d is not UTF-8"),
    "deep": (_nested_modules(2000), [], "the input nests too deeply"),
}


@pytest.mark.parametrize("case", BAD_INPUTS)
def test_bad_input_is_a_diagnostic(
    case: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    text, extra, message = BAD_INPUTS[case]
    path = tmp_path / "in.mlir"
    if isinstance(text, bytes):
        path.write_bytes(text)
    elif text is not None:
        path.write_text(text, encoding="utf-8")
    code, out, err = _run_main(capsys, str(path), *extra)
    assert (code, out) == (1, "")
    assert err.startswith("mytriton-opt: error: " + message.format(file=path)), err
    assert "Traceback" not in err


def test_directory_input_is_a_diagnostic(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, _, err = _run_main(capsys, str(tmp_path))
    assert code == 1
    assert err == f"mytriton-opt: error: cannot open input file '{tmp_path}': Is a directory\n"


def test_unwritable_output_is_a_diagnostic(
    capsys: pytest.CaptureFixture[str], kernel_file: Path, tmp_path: Path
) -> None:
    target = tmp_path / "no" / "such" / "dir.mlir"
    code, out, err = _run_main(capsys, str(kernel_file), "-o", str(target))
    assert (code, out) == (1, "")
    assert err == (
        f"mytriton-opt: error: cannot open output file '{target}': No such file or directory\n"
    )


def test_console_script_diagnostic_has_no_traceback() -> None:
    """What a user sees: the verifier's annotated report, no Python stack, exit status 1."""
    out = subprocess.run(
        [*_opt_command(), "-", "-p", "tt-assign-layouts"],
        input=ZERO_SIZED,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 1
    assert out.stdout == ""
    assert out.stderr.startswith("mytriton-opt: error: tt.splat: dimension 0 of shape [0]")
    assert "Operation does not verify" in out.stderr
    assert "Traceback" not in out.stderr


# ---------------------------------------------------------------------------------------
# Every valid .mlir under lit_tests prints, re-parses, and prints again to the same text
# ---------------------------------------------------------------------------------------

ERROR_FLAGS = ("--verify-diagnostics", "--parsing-diagnostics", "not ")


def _run_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("// RUN:")]


def _valid_inputs() -> list[Path]:
    files = sorted(LIT_TESTS.rglob("*.mlir"))
    return [
        f
        for f in files
        if "Output" not in f.parts
        and not any(flag in run for run in _run_lines(f.read_text()) for flag in ERROR_FLAGS)
    ]


def _chunks(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    if any("--split-input-file" in run for run in _run_lines(text)):
        return text.split("// -----")
    return [text]


def _print(module: ModuleOp, *, generic: bool = False) -> str:
    """As the stage dumps print (``LocatedPrinter``: locations where they re-parse)."""
    out = StringIO()
    LocatedPrinter(stream=out, print_generic_format=generic, print_debuginfo=True).print_op(module)
    return out.getvalue()


def _parse(ctx: Context, text: str) -> ModuleOp:
    module = Parser(ctx, text).parse_module()
    module.verify()
    return module


def test_round_trip_inputs_found() -> None:
    names = {p.name for p in _valid_inputs()}
    assert {"load.mlir", "kernel.mlir", "licm.mlir", "default-pipeline.mlir"} <= names
    assert "load-invalid.mlir" not in names
    assert len(names) >= 30


@pytest.mark.parametrize("path", _valid_inputs(), ids=lambda p: str(p.relative_to(LIT_TESTS)))
def test_round_trip(path: Path) -> None:
    ctx = MyTritonOptMain(args=[]).ctx
    for chunk in _chunks(path):
        original = _parse(ctx, chunk)
        custom = _print(original)
        reparsed = _parse(ctx, custom)
        assert _print(reparsed) == custom
        assert reparsed.is_structurally_equivalent(original)
        from_generic = _parse(ctx, _print(original, generic=True))
        assert _print(from_generic) == custom


# ---------------------------------------------------------------------------------------
# Targets: a lowered file printed as the GPU backends print it
# ---------------------------------------------------------------------------------------

LAID_OUT_PIPELINE = "tt-assign-layouts{num_warps=2},tt-lower-to-gpu,cse,dce"
COPY_KERNEL = """\
func.func @copy(%x: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
  %offs = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %px = tt.addptr %xs, %offs : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %v = tt.load %px : tensor<64x!tt.ptr<f32>>
  %os = tt.splat %out : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %po = tt.addptr %os, %offs : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  tt.store %po, %v : tensor<64x!tt.ptr<f32>>
  func.return
}
"""


def test_cuda_target_prints_the_lowered_kernel(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "copy.tt.mlir"
    path.write_text(COPY_KERNEL)
    code, out, err = _run_main(capsys, str(path), "-p", LAID_OUT_PIPELINE, "-t", "cuda")
    assert code == 0, err
    assert 'extern "C" __global__ void __launch_bounds__(64) copy(float* x, float* out)' in out


def test_nvvm_mlir_target(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "copy.tt.mlir"
    path.write_text(COPY_KERNEL)
    code, out, err = _run_main(capsys, str(path), "-p", LAID_OUT_PIPELINE, "-t", "nvvm-mlir")
    assert code == 0, err
    assert '"gpu.func"' in out and "gpu.container_module" in out


@pytest.mark.skipif(
    not any(shutil.which(n) for n in ("mlir-opt", "mlir-opt-22")), reason="no mlir-opt"
)
def test_ptx_target(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "copy.tt.mlir"
    path.write_text(COPY_KERNEL)
    code, out, err = _run_main(capsys, str(path), "-p", LAID_OUT_PIPELINE, "-t", "ptx")
    assert code == 0, err
    assert ".visible .entry copy(" in out and ".reqntid 64, 1, 1" in out


def test_cuda_target_of_unlowered_ir_is_a_diagnostic(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "copy.tt.mlir"
    path.write_text(COPY_KERNEL)
    code, _, err = _run_main(capsys, str(path), "-t", "cuda")
    assert code != 0
    assert "must hold exactly one gpu.func" in err and "Traceback" not in err
