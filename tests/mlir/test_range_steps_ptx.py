"""Issue 10's loops compile to PTX through upstream MLIR on machines without a GPU (CI): the
counted loops, int64 counters and the ``scf.if`` of conditional expressions included."""

from __future__ import annotations

import warnings

from tests.mlir.conftest import requires_provider


@requires_provider
def test_range_step_kernels_compile_to_ptx(mlir_backend: object) -> None:
    from tests.execution.test_range_steps import range_steps_warmups

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        compiled = range_steps_warmups()
    for kernel in compiled:
        assert f".visible .entry {kernel.name}(" in kernel.asm["ptx"]
