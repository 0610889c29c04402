"""Vector accesses of the lowered IR become 16- and 8-byte PTX accesses through both emitters:
nvcc on the printed ``float4``/``int2`` (``uint4`` for packed 8- and 16-bit elements) C++, and
upstream MLIR (``mlir-opt-22``, the MLIR backend's pass pipeline) on the IR itself. Each is
skipped, with the reason, without its tool."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp, bf16, f16, i8, i16, i32

from mytriton.backends.cuda.printer import print_cuda
from tests.gpu_ir_samples import vector_copy_module, vector_ops_module, vector_reverse_module

MLIR_OPT = "mlir-opt-22"

# sample -> the global accesses its PTX must hold (per kernel, in any order)
V16 = ["ld.global 16B", "st.global 16B"]
V8 = ["ld.global 8B", "st.global 8B"]
EXPECTED = {
    "copy_f32x4": (vector_copy_module, V16),
    "copy_i32x2": (lambda: vector_copy_module(2, i32), V8),
    "ops": (vector_ops_module, V16 + V8),
    # packed 8- and 16-bit elements: one access per vector, never one per element
    "copy_f16x8": (lambda: vector_copy_module(8, f16), V16),
    "copy_i8x16": (lambda: vector_copy_module(16, i8), V16),
    "reverse_f16x8": (lambda: vector_reverse_module(8, f16), V16),
    "reverse_bf16x8": (lambda: vector_reverse_module(8, bf16), V16),
    "reverse_i16x4": (lambda: vector_reverse_module(4, i16), V8),
    "reverse_i8x8": (lambda: vector_reverse_module(8, i8), V8),
    "reverse_i8x4": (lambda: vector_reverse_module(4, i8), ["ld.global 4B", "st.global 4B"]),
    "reverse_f16x2": (lambda: vector_reverse_module(2, f16), ["ld.global 4B", "st.global 4B"]),
    "reverse_i8x2": (lambda: vector_reverse_module(2, i8), ["ld.global 2B", "st.global 2B"]),
}


def global_accesses(ptx: str) -> list[str]:
    """Every global load/store instruction of ``ptx`` as its kind and the bytes it moves:
    ``ld.global.nc.v4.f32`` and ``ld.global.v8.b16`` are both ``ld.global 16B``, so one 4-byte
    access (``ld.global.u32``) differs from 4 byte accesses (``ld.global.u8``)."""
    out = []
    for m in re.finditer(r"\b(ld|st)\.global([.\w:]*)", ptx):
        qualifiers = m.group(2).split(".")
        lanes = next((int(q[1:]) for q in qualifiers if re.fullmatch(r"v[248]", q)), 1)
        bits = next(int(q[1:]) for q in qualifiers if re.fullmatch(r"[bsuf](8|16|32|64)", q))
        out.append(f"{m.group(1)}.global {lanes * bits // 8}B")
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


# ---- whole kernels: the elementwise add of tests/kernels.py, compiled by each backend

# element type -> the accesses of add_kernel at BLOCK=1024 over 4 warps (8 elements per thread):
# two loads and a store of 8 elements each, in 16-byte accesses (8 bytes for bytes)
ADD_ACCESSES = {
    "float32": ["ld.global 16B"] * 4 + ["st.global 16B"] * 2,
    "float16": ["ld.global 16B"] * 2 + ["st.global 16B"],
    "bfloat16": ["ld.global 16B"] * 2 + ["st.global 16B"],
    "int16": ["ld.global 16B"] * 2 + ["st.global 16B"],
    "int8": ["ld.global 8B"] * 2 + ["st.global 8B"],
}


def add_kernel_warmup(dtype_name: str) -> Any:
    """``add_kernel`` compiled (not launched) for 2**16 elements of ``dtype_name``."""
    from tests.kernels import add_kernel

    if dtype_name == "bfloat16":
        dtype = np.dtype(pytest.importorskip("ml_dtypes").bfloat16)
    else:
        dtype = np.dtype(dtype_name)
    x = np.zeros(1 << 16, dtype)
    add_kernel.clear_cache()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return add_kernel.warmup(x, x, x, x.size, grid=(64,), BLOCK=1024, num_warps=4)


@pytest.mark.parametrize("dtype_name", ADD_ACCESSES)
def test_add_kernel_cuda_moves_16_bytes_per_access(
    nvcc: str, cuda_backend: object, tmp_path: Path, dtype_name: str
) -> None:
    source = tmp_path / "add.cu"
    source.write_text(add_kernel_warmup(dtype_name).asm["cuda"])
    ptx = tmp_path / "add.ptx"
    result = subprocess.run(
        [nvcc, "-arch=sm_90", "-std=c++17", "-ptx", str(source), "-o", str(ptx)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert_vectorized(ptx.read_text(), ADD_ACCESSES[dtype_name])


@pytest.fixture
def mlir_backend(monkeypatch: pytest.MonkeyPatch) -> None:
    from mytriton import backends
    from mytriton.backends.mlir.backend import MlirBackend
    from tests.mlir.conftest import any_provider

    if not any_provider():
        pytest.skip("no MLIR provider here (pip install 'mytriton[mlir]' or mlir-22-tools)")
    monkeypatch.setitem(backends._INSTANCES, "mlir", MlirBackend())
    monkeypatch.setenv("MYTRITON_BACKEND", "mlir")
    for var in ("MYTRITON_INTERPRET", "TRITON_INTERPRET"):
        monkeypatch.delenv(var, raising=False)


@pytest.mark.parametrize("dtype_name", ADD_ACCESSES)
def test_add_kernel_mlir_moves_16_bytes_per_access(mlir_backend: None, dtype_name: str) -> None:
    assert_vectorized(add_kernel_warmup(dtype_name).asm["ptx"], ADD_ACCESSES[dtype_name])
