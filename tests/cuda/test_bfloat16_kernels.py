"""The bfloat16 kernels compile to CUDA C++ (nvcc, sm_90) on machines without a GPU (CI); their
values are checked on the GPU by tests/execution/test_bfloat16.py."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from tests.cuda.test_nvcc import assert_compiles

pytest.importorskip("ml_dtypes")


def test_bfloat16_kernels_compile_with_nvcc(
    nvcc: str, tmp_path: Path, cuda_backend: object
) -> None:
    from tests.execution.test_bfloat16 import bfloat16_warmups

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # compile-only launches
        compiled = bfloat16_warmups()
    sources = [kernel.asm["cuda"] for kernel in compiled]
    assert all("typedef unsigned short mt_bf16;" in source for source in sources)
    for i, (kernel, source) in enumerate(zip(compiled, sources, strict=True)):
        assert_compiles(nvcc, source, tmp_path / f"{kernel.name}_{i}.cu")
