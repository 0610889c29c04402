"""Issue 10's loops (runtime and negative steps, int64 counters, tl.range options, runtime
conditional expressions) compile to CUDA C++ (nvcc, sm_90) on machines without a GPU; their
values are checked by tests/execution/test_range_steps.py."""

from __future__ import annotations

import warnings
from pathlib import Path

from tests.cuda.test_nvcc import assert_compiles


def test_range_step_kernels_compile_with_nvcc(
    nvcc: str, tmp_path: Path, cuda_backend: object
) -> None:
    from tests.execution.test_range_steps import range_steps_warmups

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # compile-only launches
        compiled = range_steps_warmups()
    for i, kernel in enumerate(compiled):
        assert_compiles(nvcc, kernel.asm["cuda"], tmp_path / f"{kernel.name}_{i}.cu")
