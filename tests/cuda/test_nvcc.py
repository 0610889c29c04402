"""Every generated CUDA C++ source compiles with nvcc for sm_90a (skipped, visibly, without nvcc).

A syntax or type error in the printer fails here, on machines without a GPU (CI). Warnings
fail too, except "declared but never referenced" (the lowering may leave unused values).
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from xdsl.dialects import arith

from mytriton.backends.cuda import emitter
from mytriton.backends.cuda.printer import print_cuda
from tests.cuda.seed_cases import SEED_CASES
from tests.gpu_ir_samples import all_samples

ALLOWED_WARNINGS = ("#177-D", "#550-D")  # declared / set but never referenced


def nvcc_compile(nvcc: str, source: str, path: Path) -> subprocess.CompletedProcess[str]:
    path.write_text(source)
    return subprocess.run(
        [
            nvcc,
            "-arch=sm_90a",
            "-std=c++17",
            "-cubin",
            str(path),
            "-o",
            str(path.with_suffix(".cubin")),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )


def nvcc_ptx(nvcc: str, source: str, path: Path) -> str:
    """The PTX ``nvcc -ptx`` (sm_90) makes of ``source``, written to ``path``."""
    path.write_text(source)
    ptx = path.with_suffix(".ptx")
    result = subprocess.run(
        [nvcc, "-arch=sm_90", "-std=c++17", "-ptx", str(path), "-o", str(ptx)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    return ptx.read_text()


def assert_compiles(nvcc: str, source: str, path: Path) -> None:
    result = nvcc_compile(nvcc, source, path)
    assert result.returncode == 0, f"nvcc failed:\n{result.stderr}\n--- source ---\n{source}"
    warnings = [
        line
        for line in result.stderr.splitlines()
        if re.search(r"warning #\d+", line) and not any(w in line for w in ALLOWED_WARNINGS)
    ]
    assert not warnings, "\n".join(warnings) + f"\n--- source ---\n{source}"


@pytest.mark.parametrize("name", list(all_samples()))
def test_sample_compiles(nvcc: str, tmp_path: Path, name: str) -> None:
    assert_compiles(nvcc, print_cuda(all_samples()[name]), tmp_path / f"{name}.cu")


@pytest.mark.parametrize("name", list(SEED_CASES))
def test_seed_kernel_compiles(nvcc: str, tmp_path: Path, cuda_backend: object, name: str) -> None:
    case = SEED_CASES[name]
    kernel = case.kernel.warmup(
        *case.args(), grid=case.grid, num_warps=case.num_warps, **case.constexprs
    )
    assert kernel.asm["cuda"].startswith("// kernel")
    assert_compiles(nvcc, kernel.asm["cuda"], tmp_path / f"{name}.cu")


def test_compile_errors_name_the_python_line(
    nvcc: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A statement nvcc rejects is reported at the kernel line of its op, thanks to #line."""
    original = emitter.OP_PRINTERS[arith.AddfOp]

    def broken_addf(self: emitter.Emitter, op: arith.AddfOp) -> None:
        loc = emitter.py_line(op)
        if loc is not None and loc[1] == 16:
            self._stmt(op, f"float {self.names.define(op.result)} = undefined_name;")
        else:
            original(self, op)

    monkeypatch.setitem(emitter.OP_PRINTERS, arith.AddfOp, broken_addf)
    source = print_cuda(all_samples()["add_2d_grid"])
    result = nvcc_compile(nvcc, source, tmp_path / "broken.cu")
    assert result.returncode != 0
    assert re.search(
        r"/samples/kernels\.py\(16\): error: identifier \"undefined_name\"", result.stderr
    ), result.stderr
