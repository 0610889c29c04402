"""The ``while`` kernels compile to CUDA C++ (nvcc, sm_90) on machines without a GPU (CI);
their values are checked by tests/execution/test_while.py."""

from __future__ import annotations

import warnings
from pathlib import Path

from tests.cuda.test_nvcc import assert_compiles


def test_while_kernels_compile_with_nvcc(nvcc: str, tmp_path: Path, cuda_backend: object) -> None:
    from tests.execution.test_while import while_warmups

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # compile-only launches
        compiled = while_warmups()
    for i, kernel in enumerate(compiled):
        source = kernel.asm["cuda"]
        assert "while (true) {" in source
        assert_compiles(nvcc, source, tmp_path / f"{kernel.name}_{i}.cu")
