"""Issue 9's real-world kernels (f16 add, bf16 RMS norm with libdevice, fp16 softmax, layer norm,
f16/bf16 dot) compile to CUDA C++ (nvcc, sm_90) on machines without a GPU (CI); their values are
checked on the GPU by tests/execution/test_issue9_kernels.py."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from tests.cuda.test_nvcc import assert_compiles

pytest.importorskip("ml_dtypes")


def test_issue9_kernels_compile_with_nvcc(nvcc: str, tmp_path: Path, cuda_backend: object) -> None:
    from tests.execution.test_issue9_kernels import issue9_warmups

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # compile-only launches
        compiled = issue9_warmups()
    assert compiled
    for i, kernel in enumerate(compiled):
        assert_compiles(nvcc, kernel.asm["cuda"], tmp_path / f"{kernel.name}_{i}.cu")
