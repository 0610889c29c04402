"""The debugging kernels (printf, device assertions' trap, inline PTX, cache-hinted loads and
stores) compile to CUDA C++ that nvcc accepts (sm_90) on machines without a GPU (CI); their
results are checked by tests/execution/test_debug_ops.py."""

from __future__ import annotations

import warnings
from pathlib import Path

from tests.cuda.test_nvcc import assert_compiles


def test_debug_kernels_compile_with_nvcc(nvcc: str, tmp_path: Path, cuda_backend: object) -> None:
    from tests.execution.test_debug_ops import debug_warmups

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # compile-only launches
        compiled = debug_warmups()
    sources = [kernel.asm["cuda"] for kernel in compiled]
    text = "\n".join(sources)
    for spelling in (
        "printf(",
        "__trap();",
        "asm(",
        "asm volatile(",
        "__ldcg((const float4*)",
        "__stcs(",
        "ld.global.L1::evict_last.v4.b32",
        "st.global.L1::evict_first.v4.b32",
        "ld.global.L1::evict_last.b8",
    ):
        assert spelling in text, spelling
    for i, (kernel, source) in enumerate(zip(compiled, sources, strict=True)):
        assert_compiles(nvcc, source, tmp_path / f"{kernel.name}_{i}.cu")
