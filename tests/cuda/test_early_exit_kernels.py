"""The ``break``/``continue``/``return`` kernels compile to CUDA C++ (nvcc, sm_90) on machines
without a GPU (CI); their values are checked by tests/execution/test_break_continue_return.py."""

from __future__ import annotations

import warnings
from pathlib import Path

from tests.cuda.test_nvcc import assert_compiles


def test_early_exit_kernels_compile_with_nvcc(
    nvcc: str, tmp_path: Path, cuda_backend: object
) -> None:
    from tests.execution.test_break_continue_return import early_exit_warmups

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # compile-only launches
        compiled = early_exit_warmups()
    for i, kernel in enumerate(compiled):
        assert_compiles(nvcc, kernel.asm["cuda"], tmp_path / f"{kernel.name}_{i}.cu")
