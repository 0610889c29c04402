"""The bfloat16 kernels compile to PTX through upstream MLIR on machines without a GPU (CI)."""

from __future__ import annotations

import warnings

import pytest

from tests.mlir.conftest import requires_provider

pytest.importorskip("ml_dtypes")


@requires_provider
def test_bfloat16_kernels_compile_to_ptx(mlir_backend: object) -> None:
    from tests.execution.test_bfloat16 import bfloat16_warmups

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        compiled = bfloat16_warmups()
    for kernel in compiled:
        assert f".visible .entry {kernel.name}(" in kernel.asm["ptx"]
