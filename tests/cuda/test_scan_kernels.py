"""The scan and general-reduction kernels (``tt.scan`` with shuffle up/down, ``tt.reduce`` with
tuple regions) compile to CUDA C++ (nvcc, sm_90) on machines without a GPU (CI); their values
are checked by tests/execution/test_scan.py and test_reduce_general.py."""

from __future__ import annotations

import warnings
from pathlib import Path

from tests.cuda.test_nvcc import assert_compiles


def test_scan_kernels_compile_with_nvcc(nvcc: str, tmp_path: Path, cuda_backend: object) -> None:
    from tests.execution.test_scan import scan_warmups

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # compile-only launches
        compiled = scan_warmups()
    sources = [kernel.asm["cuda"] for kernel in compiled]
    assert any("__shfl_up_sync" in s for s in sources)
    assert any("__shfl_down_sync" in s for s in sources)
    for i, (kernel, source) in enumerate(zip(compiled, sources, strict=True)):
        assert_compiles(nvcc, source, tmp_path / f"{kernel.name}_{i}.cu")


def test_general_reductions_compile_with_nvcc(
    nvcc: str, tmp_path: Path, cuda_backend: object
) -> None:
    from tests.execution.test_reduce_general import reduce_warmups

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        compiled = reduce_warmups()
    for i, kernel in enumerate(compiled):
        assert_compiles(nvcc, kernel.asm["cuda"], tmp_path / f"{kernel.name}_{i}.cu")
