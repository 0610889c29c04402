"""The pipeline as data: one stage table per backend, every stage printed once, dumped,
overridden by an edited file, replayed by mytriton-opt, and compiled from its own text."""

from __future__ import annotations

import re
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

import mytriton
import mytriton as triton
import mytriton.language as tl
from mytriton.backends import get_backend
from mytriton.backends.stages import StageParseError
from mytriton.errors import LaunchOptionError, OverrideIgnoredWarning
from mytriton.passes.gpu_lowering.lower_to_gpu import GPU_PIPELINE, ttg_pipeline
from mytriton.runtime.compiler import IRFileNotFoundError, StageError, stage_table


@triton.jit
def axpy_kernel(x, y, out, n, alpha, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    xv = tl.load(x + offs, mask=mask)
    yv = tl.load(y + offs, mask=mask)
    tl.store(out + offs, alpha * xv + yv, mask=mask)


PRINT_GENERIC = ("--print-op-generic", "--print-debuginfo")
N = 300
X = np.arange(N, dtype=np.float32)
Y = np.full(N, 0.5, np.float32)


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in (
        "MYTRITON_BACKEND",
        "MYTRITON_INTERPRET",
        "TRITON_INTERPRET",
        "MYTRITON_KERNEL_DUMP",
        "TRITON_KERNEL_DUMP",
        "MYTRITON_KERNEL_OVERRIDE",
        "TRITON_KERNEL_OVERRIDE",
        "MYTRITON_DUMP_DIR",
        "TRITON_DUMP_DIR",
        "MYTRITON_OVERRIDE_DIR",
        "TRITON_OVERRIDE_DIR",
    ):
        monkeypatch.delenv(var, raising=False)
    axpy_kernel.clear_cache()


def run_axpy(**options: int) -> tuple[mytriton.backends.compiled.CompiledKernel, np.ndarray]:
    out = np.full(N, np.nan, np.float32)
    kernel = axpy_kernel[(triton.cdiv(N, 128),)](X, Y, out, N, 2.0, BLOCK=128, **options)
    return kernel, out


@pytest.mark.parametrize(
    ("backend", "stages"),
    [
        ("interpreter", ["tt", "tt-opt"]),
        ("gpusim", ["tt", "tt-opt", "ttg", "gpu"]),
        ("cuda", ["tt", "tt-opt", "ttg", "gpu", "cuda", "ptx", "cubin"]),
        ("mlir", ["tt", "tt-opt", "ttg", "gpu", "mlir", "ptx", "cubin"]),
    ],
)
def test_stage_tables(backend: str, stages: list[str]) -> None:
    assert [s.name for s in stage_table(get_backend(backend))] == stages


def test_shared_stages_print_the_same_text_under_every_backend(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    texts = {}
    for backend in ("gpusim", "cuda", "mlir"):
        monkeypatch.setenv("MYTRITON_BACKEND", backend)
        axpy_kernel.clear_cache()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # compile-only, no MLIR provider
            kernel = axpy_kernel.warmup(X, Y, X, N, 2.0, BLOCK=128, grid=(3,))
        texts[backend] = (kernel.asm["tt-opt"], kernel.asm["ttg"], kernel.asm["gpu"])
    assert texts["gpusim"] == texts["cuda"] == texts["mlir"]
    assert '"ttg.num-warps" = 4 : i32' in texts["gpusim"][1]
    assert 'loc("' in texts["gpusim"][2]  # the gpu stage names the Python lines


def test_dump_writes_every_stage(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("MYTRITON_BACKEND", "gpusim")
    monkeypatch.setenv("TRITON_KERNEL_DUMP", "1")  # Triton's switch and folder work too
    monkeypatch.setenv("TRITON_DUMP_DIR", str(tmp_path))
    kernel, out = run_axpy()
    folder = tmp_path / kernel.hash
    names = sorted(p.name for p in folder.iterdir())
    assert names == sorted(
        f"axpy_kernel{s}" for s in (".tt.mlir", ".tt-opt.mlir", ".ttg.mlir", ".gpu.mlir")
    )
    for stage, suffix in (("tt", ".tt.mlir"), ("ttg", ".ttg.mlir"), ("gpu", ".gpu.mlir")):
        assert (folder / f"axpy_kernel{suffix}").read_text() == kernel.asm[stage]
    np.testing.assert_array_equal(out, 2.0 * X + Y)


@pytest.mark.parametrize(
    ("backend", "suffix", "old", "new"),
    [
        ("interpreter", ".tt-opt.mlir", r"tt\.add (?=.*: tensor<128xf32)", "tt.sub "),
        ("gpusim", ".ttg.mlir", r"tt\.add (?=.*: tensor<128xf32)", "tt.sub "),
        ("gpusim", ".gpu.mlir", r'"arith\.addf"', '"arith.subf"'),
    ],
)
def test_dump_edit_override_run(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, backend: str, suffix: str, old: str, new: str
) -> None:
    """The round trip: dump, edit one stage, run again with the override, see the edit."""
    monkeypatch.setenv("MYTRITON_BACKEND", backend)
    monkeypatch.setenv("MYTRITON_KERNEL_DUMP", "1")
    monkeypatch.setenv("MYTRITON_DUMP_DIR", str(tmp_path))
    kernel, out = run_axpy()
    np.testing.assert_array_equal(out, 2.0 * X + Y)
    path = tmp_path / kernel.hash / f"axpy_kernel{suffix}"
    text, count = re.subn(old, new, path.read_text())
    assert count == 1
    edited_dir = tmp_path / "override"
    (edited_dir / kernel.hash).mkdir(parents=True)
    (edited_dir / kernel.hash / path.name).write_text(text)  # only the edited stage

    monkeypatch.delenv("MYTRITON_KERNEL_DUMP")
    monkeypatch.setenv("MYTRITON_KERNEL_OVERRIDE", "1")
    monkeypatch.setenv("MYTRITON_OVERRIDE_DIR", str(edited_dir))
    axpy_kernel.clear_cache()
    edited, out = run_axpy()
    assert edited.hash == kernel.hash
    assert new in edited.asm[suffix.split(".")[1]]
    np.testing.assert_array_equal(out, 2.0 * X - Y)


def test_override_outside_its_hash_folder_warns_once(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A file put straight in the override folder is not silently ignored: one warning names
    the folder it must go in."""
    monkeypatch.setenv("MYTRITON_BACKEND", "interpreter")
    monkeypatch.setenv("MYTRITON_KERNEL_DUMP", "1")
    monkeypatch.setenv("MYTRITON_DUMP_DIR", str(tmp_path / "dump"))
    kernel, _ = run_axpy()
    dumped = tmp_path / "dump" / kernel.hash / "axpy_kernel.tt-opt.mlir"
    override = tmp_path / "override"
    override.mkdir()
    (override / dumped.name).write_text(dumped.read_text().replace("tt.add", "tt.sub"))
    monkeypatch.delenv("MYTRITON_KERNEL_DUMP")
    monkeypatch.setenv("MYTRITON_KERNEL_OVERRIDE", "1")
    monkeypatch.setenv("MYTRITON_OVERRIDE_DIR", str(override))
    axpy_kernel.clear_cache()
    expected = re.escape(str(override / kernel.hash / dumped.name))
    with pytest.warns(OverrideIgnoredWarning, match=f"override file .* is not used.*{expected}"):
        _, out = run_axpy()
    np.testing.assert_array_equal(out, 2.0 * X + Y)  # not overridden
    axpy_kernel.clear_cache()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        run_axpy()  # once per file


def test_override_that_does_not_parse(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("MYTRITON_BACKEND", "interpreter")
    monkeypatch.setenv("MYTRITON_KERNEL_DUMP", "1")
    monkeypatch.setenv("MYTRITON_DUMP_DIR", str(tmp_path))
    kernel, _ = run_axpy()
    (tmp_path / kernel.hash / "axpy_kernel.tt-opt.mlir").write_text("builtin.module { oops }")
    monkeypatch.setenv("MYTRITON_KERNEL_OVERRIDE", "1")
    monkeypatch.setenv("MYTRITON_OVERRIDE_DIR", str(tmp_path))
    axpy_kernel.clear_cache()
    with pytest.raises(StageParseError, match="cannot parse"):
        run_axpy()


@pytest.mark.parametrize(
    ("backend", "suffix"),
    [
        ("interpreter", ".tt.mlir"),
        ("interpreter", ".tt-opt.mlir"),
        ("gpusim", ".tt.mlir"),
        ("gpusim", ".ttg.mlir"),
        ("gpusim", ".gpu.mlir"),
    ],
)
def test_compile_from_a_stage_file_and_launch(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, backend: str, suffix: str
) -> None:
    monkeypatch.setenv("MYTRITON_BACKEND", backend)
    monkeypatch.setenv("MYTRITON_KERNEL_DUMP", "1")
    monkeypatch.setenv("MYTRITON_DUMP_DIR", str(tmp_path))
    kernel, _ = run_axpy(num_warps=2)
    monkeypatch.delenv("MYTRITON_KERNEL_DUMP")
    path = tmp_path / kernel.hash / f"axpy_kernel{suffix}"

    compiled = mytriton.compile(path, num_warps=2)
    assert compiled.name == "axpy_kernel"
    assert next(iter(compiled.asm)) == suffix.split(".")[1]
    if "gpu" in compiled.asm:
        assert compiled.asm["gpu"] == kernel.asm["gpu"]  # same geometry, same lowering
    out = np.full(N, np.nan, np.float32)
    compiled[(triton.cdiv(N, 128),)](X, Y, out, N, 3.0)  # runtime arguments only
    np.testing.assert_array_equal(out, 3.0 * X + Y)


def test_compile_reads_the_warps_from_the_laid_out_module(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("MYTRITON_BACKEND", "gpusim")
    kernel, _ = run_axpy(num_warps=8)
    compiled = mytriton.compile(kernel.asm["ttg"], stage="ttg")
    assert compiled.metadata.num_warps == 8
    assert "known_block_size = array<i32: 256, 1, 1>" in compiled.asm["gpu"]


def test_compile_errors(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("MYTRITON_BACKEND", "interpreter")
    odd = tmp_path / "kernel.txt"
    odd.write_text("builtin.module {}")
    with pytest.raises(StageError, match="cannot tell the stage"):
        mytriton.compile(odd)
    with pytest.raises(StageError, match="no stage 'gpu'"):
        mytriton.compile("builtin.module {}", stage="gpu")
    with pytest.raises(StageError, match="one kernel, found 0"):
        mytriton.compile("builtin.module {}", stage="tt")
    with pytest.raises(StageParseError):
        mytriton.compile("func.func @k(", stage="tt")


@pytest.mark.parametrize("missing", ["no_such.tt.mlir", "dumps/k.ttg.mlir"])
def test_compile_of_a_missing_file_says_so(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, missing: str
) -> None:
    """Not an IR parse error of the file name: the file is missing."""
    monkeypatch.setenv("MYTRITON_BACKEND", "gpusim")
    monkeypatch.chdir(tmp_path)
    for src in (missing, tmp_path / missing):
        with pytest.raises(IRFileNotFoundError, match=f"no such file: '.*{missing}'"):
            mytriton.compile(src)
    assert isinstance(IRFileNotFoundError("x"), FileNotFoundError)


@pytest.mark.parametrize("num_warps", [3, 48, 0])
def test_compile_rejects_a_bad_num_warps_before_laying_out(
    monkeypatch: pytest.MonkeyPatch, num_warps: int
) -> None:
    """Not a `#ttg.blocked` verifier error from deep in the lowering: the option and its rule."""
    monkeypatch.setenv("MYTRITON_BACKEND", "gpusim")
    kernel, _ = run_axpy()
    with pytest.raises(
        LaunchOptionError, match=rf"num_warps must be a power of 2 from 1 to 32, got {num_warps}"
    ):
        mytriton.compile(kernel.asm["tt"], stage="tt", num_warps=num_warps)


def test_mytriton_opt_replays_the_jit_lowering(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """`ttg_pipeline` + `GPU_PIPELINE` run by mytriton-opt on the tt-opt text give the very
    `gpu` text the JIT made (locations included)."""
    monkeypatch.setenv("MYTRITON_BACKEND", "gpusim")
    kernel, _ = run_axpy(num_warps=2)
    path = tmp_path / "axpy.tt-opt.mlir"
    path.write_text(kernel.asm["tt-opt"])
    pipeline = f"{ttg_pipeline(2)},{GPU_PIPELINE}"
    done = subprocess.run(
        [sys.executable, "-m", "mytriton.tools.opt", str(path), "-p", pipeline, *PRINT_GENERIC],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.rstrip() == kernel.asm["gpu"].rstrip()
