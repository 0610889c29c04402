"""A kernel per dtype compiles to CUDA C++ (nvcc, sm_90) on machines without a GPU (CI):
arithmetic, division, casts and reductions of every width (tests/mlir/test_dtype_ptx.py: the
same kernels to PTX through upstream MLIR)."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.cuda.test_nvcc import assert_compiles
from tests.execution import test_dtypes as kernels

DTYPES = [np.int8, np.int16, np.int32, np.int64, np.float16, np.float32, np.float64]


def _warmups(dt: Any) -> list[Any]:
    x = np.zeros(256, dt)
    out = np.zeros(6 * 256, dt)
    div_out = np.zeros(256, dt if np.issubdtype(dt, np.floating) else np.float32)
    compiled = [
        kernels.arith_kernel.warmup(x, x, out, 256, grid=(4,), BLOCK=64),
        kernels.float_division_kernel.warmup(x, x, div_out, 256, grid=(4,), BLOCK=64),
        kernels.cast_kernel.warmup(x, np.zeros(256, np.float32), 256, grid=(4,), BLOCK=64),
        kernels.cast_kernel.warmup(np.zeros(256, np.float64), x, 256, grid=(4,), BLOCK=64),
        kernels.row_sum_kernel.warmup(x, np.zeros(8, np.int64), grid=(4,), BLOCK=64),
    ]
    if np.issubdtype(dt, np.integer):
        compiled.append(kernels.int_division_kernel.warmup(x, x, out, 256, grid=(4,), BLOCK=64))
    return compiled


@pytest.mark.parametrize("dt", DTYPES, ids=lambda d: np.dtype(d).name)
def test_dtype_kernels_compile_with_nvcc(
    nvcc: str, tmp_path: Path, cuda_backend: object, dt: Any
) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # compile-only launches
        compiled = _warmups(dt)
    for i, kernel in enumerate(compiled):
        assert_compiles(nvcc, kernel.asm["cuda"], tmp_path / f"{kernel.name}_{i}.cu")


def test_bitcast_kernel_compiles_with_nvcc(nvcc: str, tmp_path: Path, cuda_backend: object) -> None:
    from tests.execution.test_bitcast import bitcast_kernel

    x, h = np.zeros(8, np.float32), np.zeros(8, np.int16)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        kernel = bitcast_kernel.warmup(x, np.zeros(8, np.int32), h, h, grid=(1,), BLOCK=8)
    assert "__float_as_int(" in kernel.asm["cuda"]
    assert_compiles(nvcc, kernel.asm["cuda"], tmp_path / "bitcast.cu")


def _bitcast16_warmups() -> list[tuple[str, str, Any]]:
    """The 16-bit bitcast kernel for every pair, on a small block and on a vectorized one."""
    from tests.execution.test_bitcast import BITS16, PAIRS16, bitcast16_kernel

    compiled = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # compile-only launches
        for src, dst in PAIRS16:
            (src_np, _), (dst_np, dst_tl) = BITS16[src], BITS16[dst]
            for block in (16, 1024):
                x, out = np.zeros(block, src_np), np.zeros(block + 1, dst_np)
                kernel = bitcast16_kernel.warmup(x, out, grid=(1,), BLOCK=block, DTYPE=dst_tl)
                compiled.append((src, dst, kernel))
    return compiled


#: the C++ type a 16-bit bitcast casts to (u16 is i16 once signless)
_CAST16 = {"f16": "(mt_half)(", "bf16": "(mt_bf16)(", "i16": "(short)(", "u16": "(short)("}


def test_16_bit_bitcasts_print_as_integer_casts(cuda_backend: object) -> None:
    """f16, bf16 and i16 are all C++ integers holding the bits (no NVRTC or nvcc needed)."""
    for src, dst, kernel in _bitcast16_warmups():
        source = kernel.asm["cuda"]
        if _CAST16[src] != _CAST16[dst]:
            assert _CAST16[dst] in source, (src, dst)


def test_16_bit_bitcasts_compile_with_nvcc(nvcc: str, tmp_path: Path, cuda_backend: object) -> None:
    for i, (src, dst, kernel) in enumerate(_bitcast16_warmups()):
        assert_compiles(nvcc, kernel.asm["cuda"], tmp_path / f"bitcast16_{src}_{dst}_{i}.cu")


def test_integer_abs_compiles_with_nvcc(nvcc: str, tmp_path: Path, cuda_backend: object) -> None:
    from tests.execution.test_int_abs import INT_DTYPES, abs_kernel

    for dt in INT_DTYPES:
        x = np.zeros(64, dt)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # compile-only launches
            kernel = abs_kernel.warmup(x, np.zeros(129, dt), grid=(1,), BLOCK=64)
        assert_compiles(nvcc, kernel.asm["cuda"], tmp_path / f"abs_{np.dtype(dt).name}.cu")
