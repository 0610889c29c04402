"""The hinted copies of tests/execution/test_access_hints.py compile to CUDA C++ that nvcc
accepts (sm_90): CUDA's cache intrinsics for every element type, a cache modifier winning over
an eviction policy given with it (PTX has no ``ld.global.cg.L1::evict_last``: ptxas rejects it)."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np

from tests.cuda.test_nvcc import assert_compiles


def test_hinted_copies_compile_with_nvcc(nvcc: str, tmp_path: Path, cuda_backend: object) -> None:
    from tests.execution.test_access_hints import hinted_copy_kernel

    cases = [
        (np.float16, 256, ".ca", ".wt"),
        (np.int8, 32, ".cg", ".cs"),
        (np.float64, 32, ".cv", ".wb"),
    ]
    for i, (dtype, block, cache, store_cache) in enumerate(cases):
        buf = np.zeros(3 * block, dtype)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # compile-only launches
            kernel = hinted_copy_kernel.warmup(
                buf,
                buf,
                block,
                BLOCK=block,
                CACHE=cache,
                STORE_CACHE=store_cache,
                num_warps=1,
                grid=(1,),
            )
        source = kernel.asm["cuda"]
        assert f"__ld{cache[1:]}((" in source and f"__st{store_cache[1:]}((" in source
        assert "L1::evict_first" in source and "L1::evict_last" in source
        assert not any(f"{c}.L1::" in source for c in (".ca", ".cg", ".cv", ".cs", ".wb", ".wt"))
        assert_compiles(nvcc, source, tmp_path / f"hinted_{i}.cu")
