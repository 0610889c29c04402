"""The fp8 kernels compile to CUDA C++ (nvcc, sm_90) on machines without a GPU (CI): fp8 values
are bytes and their conversions, on sm_90, the hardware's pair instructions as inline PTX
(``cvt.rn.satfinite.e4m3x2.f32``, ``cvt.rn.f16x2.e4m3x2``...; integer code before sm_89), so
the C++ needs no fp8 type or header. Their values are checked on the GPU by
tests/execution/test_fp8.py."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from tests.cuda.test_nvcc import assert_compiles

pytest.importorskip("ml_dtypes")


def test_fp8_kernels_compile_with_nvcc(nvcc: str, tmp_path: Path, cuda_backend: object) -> None:
    from tests.execution.test_fp8 import fp8_warmups

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # compile-only launches
        compiled = fp8_warmups()
    for i, kernel in enumerate(compiled):
        source = kernel.asm["cuda"]
        assert "__nv_fp8" not in source and "cuda_fp8" not in source
        assert_compiles(nvcc, source, tmp_path / f"{kernel.name}_{i}.cu")
