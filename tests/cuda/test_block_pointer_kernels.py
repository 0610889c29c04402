"""The block pointer and tensor descriptor kernels compile to CUDA C++ (nvcc, sm_90) on
machines without a GPU (CI); their values are checked by tests/execution/test_block_pointers.py."""

from __future__ import annotations

import warnings
from pathlib import Path

from tests.cuda.test_nvcc import assert_compiles


def test_block_pointer_kernels_compile_with_nvcc(
    nvcc: str, tmp_path: Path, cuda_backend: object
) -> None:
    from tests.execution.test_block_pointers import block_pointer_warmups

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # compile-only launches
        compiled = block_pointer_warmups()
    for i, kernel in enumerate(compiled):
        assert_compiles(nvcc, kernel.asm["cuda"], tmp_path / f"{kernel.name}_{i}.cu")


def test_aligned_block_pointer_accesses_are_vectors(cuda_backend: object) -> None:
    """Offsets computed in i64 (casts of i32 ranges, offsets and shapes), a stride of 1 not
    multiplied by, and a boundary check against a multiple of 16: 16-byte loads and stores,
    as through ordinary pointers (the axis analysis sees through the widening casts)."""
    import numpy as np

    from tests.execution.test_block_pointers import add_one_kernel, descriptor_copy_kernel

    f32 = np.zeros((64, 64), np.float32)
    i32 = np.zeros((64, 64), np.int32)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sources = [
            add_one_kernel.warmup(i32, i32, 64, 64, BM=32, BN=32, CHECK=(0, 1), grid=(2, 2)),
            descriptor_copy_kernel.warmup(f32, f32, 64, 64, BM=32, BN=32, grid=(2, 2)),
        ]
    for kernel in sources:
        source = kernel.asm["cuda"]
        assert "*(const int4*)" in source or "*(const float4*)" in source, source
