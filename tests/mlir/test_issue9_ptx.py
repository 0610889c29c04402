"""Issue 9's real-world kernels compile to PTX through upstream MLIR on machines without a GPU."""

from __future__ import annotations

import warnings

import pytest

from tests.mlir.conftest import requires_provider

pytest.importorskip("ml_dtypes")


@requires_provider
def test_issue9_kernels_compile_to_ptx(mlir_backend: object) -> None:
    from tests.execution.test_issue9_kernels import issue9_warmups

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        compiled = issue9_warmups()
    assert compiled
    for kernel in compiled:
        assert f".visible .entry {kernel.name}(" in kernel.asm["ptx"]
