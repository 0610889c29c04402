"""The shape-manipulation kernels (trans, reshape, join/split, cat, gather, sort, batched dot...)
compile to CUDA C++ (nvcc, sm_90) on machines without a GPU (CI); their values are checked by
tests/execution/test_shapes.py."""

from __future__ import annotations

import warnings
from pathlib import Path

from tests.cuda.test_nvcc import assert_compiles


def test_shape_kernels_compile_with_nvcc(nvcc: str, tmp_path: Path, cuda_backend: object) -> None:
    from tests.execution.test_shapes import shape_warmups

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # compile-only launches
        compiled = shape_warmups()
    for i, kernel in enumerate(compiled):
        source = kernel.asm["cuda"]
        if kernel.name in ("gather_kernel", "flip_sort_kernel", "histogram_kernel"):
            assert "__syncthreads()" in source  # elements move through shared memory
        assert_compiles(nvcc, source, tmp_path / f"{kernel.name}_{i}.cu")


def test_pairs_stay_in_registers(cuda_backend: object) -> None:
    """With 4 loaded elements per thread, the rotary kernel's reshape into pairs, split, join
    and reshape back only rename registers: no shared memory, no barrier."""
    import numpy as np

    from tests.execution.test_shapes import rotary_kernel

    f32 = np.zeros(1024, np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        kernel = rotary_kernel.warmup(f32, f32, f32, f32, BLOCK=16, D=32, grid=(2,))
    ttg = kernel.asm["ttg"]
    assert ttg.count("tt.split") == 1 and ttg.count("tt.join") == 1
    assert "__syncthreads()" not in kernel.asm["cuda"]
