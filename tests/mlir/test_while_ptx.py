"""The ``while`` kernels compile to PTX through upstream MLIR on machines without a GPU (CI):
the lowered module's ``scf.while`` goes through ``convert-scf-to-cf``."""

from __future__ import annotations

import warnings

from tests.mlir.conftest import requires_provider


@requires_provider
def test_while_kernels_compile_to_ptx(mlir_backend: object) -> None:
    from tests.execution.test_while import while_warmups

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        compiled = while_warmups()
    for kernel in compiled:
        assert "scf.while" in kernel.asm["gpu"]
        assert f".visible .entry {kernel.name}(" in kernel.asm["ptx"]
