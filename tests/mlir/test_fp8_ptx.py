"""The fp8 kernels compile to PTX through upstream MLIR on machines without a GPU (CI): the
lowering leaves no f8 type for upstream's NVVM conversion to choke on."""

from __future__ import annotations

import warnings

import pytest

from tests.mlir.conftest import requires_provider

pytest.importorskip("ml_dtypes")


@requires_provider
def test_fp8_kernels_compile_to_ptx(mlir_backend: object) -> None:
    from tests.execution.test_fp8 import fp8_warmups

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        compiled = fp8_warmups()
    for kernel in compiled:
        assert f".visible .entry {kernel.name}(" in kernel.asm["ptx"]
