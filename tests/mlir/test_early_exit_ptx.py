"""The ``break``/``continue``/``return`` kernels compile to PTX through upstream MLIR on machines
without a GPU (CI): their flags are ``i1`` values that ``scf.if``/``scf.while`` carry."""

from __future__ import annotations

import warnings

from tests.mlir.conftest import requires_provider


@requires_provider
def test_early_exit_kernels_compile_to_ptx(mlir_backend: object) -> None:
    from tests.execution.test_break_continue_return import early_exit_warmups

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        compiled = early_exit_warmups()
    for kernel in compiled:
        assert f".visible .entry {kernel.name}(" in kernel.asm["ptx"]
