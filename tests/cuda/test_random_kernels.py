"""The random-number kernels (Philox on uint32/uint64, Box-Muller) compile to CUDA C++ (nvcc,
sm_90) on machines without a GPU (CI); their values are checked on the GPU by
tests/execution/test_random.py."""

from __future__ import annotations

import warnings
from pathlib import Path

from tests.cuda.test_nvcc import assert_compiles


def test_random_kernels_compile_with_nvcc(nvcc: str, tmp_path: Path, cuda_backend: object) -> None:
    from tests.execution.test_random import random_warmups

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # compile-only launches
        compiled = random_warmups()
    for i, kernel in enumerate(compiled):
        source = kernel.asm["cuda"]
        assert "unsigned" in source  # Philox's words and products
        assert_compiles(nvcc, source, tmp_path / f"{kernel.name}_{i}.cu")
