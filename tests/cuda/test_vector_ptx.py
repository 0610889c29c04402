"""Vector accesses of the lowered IR become 16- and 8-byte PTX accesses through both emitters:
nvcc on the printed ``float4``/``int2`` C++, and upstream MLIR (``mlir-opt-22``, the MLIR
backend's pass pipeline) on the IR itself. Each is skipped, with the reason, without its tool."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from xdsl.dialects.builtin import ModuleOp, i32

from mytriton.backends.cuda.printer import print_cuda
from tests.gpu_ir_samples import vector_copy_module, vector_ops_module

MLIR_OPT = "mlir-opt-22"

# sample -> the global accesses its PTX must hold (per kernel, in any order)
EXPECTED = {
    "copy_f32x4": (vector_copy_module, ["ld.global.v4", "st.global.v4"]),
    "copy_i32x2": (lambda: vector_copy_module(2, i32), ["ld.global.v2", "st.global.v2"]),
    "ops": (vector_ops_module, ["ld.global.v4", "st.global.v4", "ld.global.v2", "st.global.v2"]),
}


def global_accesses(ptx: str) -> list[str]:
    """``ld.global.v4`` ... of every global load/store instruction of ``ptx`` (cache and type
    qualifiers dropped: ``ld.global.nc.v4.f32`` counts as ``ld.global.v4``)."""
    out = []
    for m in re.finditer(r"\b(ld|st)\.global((?:\.\w+)*)", ptx):
        width = next((q for q in m.group(2).split(".") if re.fullmatch(r"v[248]", q)), None)
        out.append(f"{m.group(1)}.global" + (f".{width}" if width else ""))
    return out


def assert_vectorized(ptx: str, expected: list[str]) -> None:
    accesses = global_accesses(ptx)
    assert sorted(accesses) == sorted(expected), f"{accesses}\n--- PTX ---\n{ptx}"


@pytest.mark.parametrize("name", EXPECTED)
def test_printed_cpp_compiles_to_vector_accesses(nvcc: str, tmp_path: Path, name: str) -> None:
    build, expected = EXPECTED[name]
    source = tmp_path / f"{name}.cu"
    source.write_text(print_cuda(build()))
    ptx = tmp_path / f"{name}.ptx"
    result = subprocess.run(
        [nvcc, "-arch=sm_90", "-std=c++17", "-ptx", str(source), "-o", str(ptx)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert_vectorized(ptx.read_text(), expected)


def mlir_opt_ptx(module: ModuleOp) -> str:
    """PTX of ``module`` from ``mlir-opt-22`` with the MLIR backend's emitter and pipeline."""
    from mytriton.backends.mlir.emit import emit_mlir
    from mytriton.backends.mlir.mlir_opt import MlirOptProvider
    from mytriton.backends.mlir.pipeline import pass_pipeline

    provider = MlirOptProvider(MLIR_OPT)
    result = provider.run(emit_mlir(module), pass_pipeline("sm_90", "isa", None), os.environ)
    assert result.ok, result.log
    (ptx,) = [o.data.decode() for o in result.objects if o.kind == "ptx"]
    return ptx


@pytest.mark.skipif(shutil.which(MLIR_OPT) is None, reason=f"{MLIR_OPT} not installed")
@pytest.mark.parametrize("name", EXPECTED)
def test_mlir_opt_lowers_vector_ops_to_vector_accesses(name: str) -> None:
    build, expected = EXPECTED[name]
    assert_vectorized(mlir_opt_ptx(build()), expected)
