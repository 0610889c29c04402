"""The block pointer and tensor descriptor kernels compile to PTX through upstream MLIR on
machines without a GPU (CI): they are ordinary masked loads and stores by then, carried
through ``scf.for``/``scf.while``/``scf.if``."""

from __future__ import annotations

import warnings

from tests.mlir.conftest import requires_provider


@requires_provider
def test_block_pointer_kernels_compile_to_ptx(mlir_backend: object) -> None:
    from tests.execution.test_block_pointers import block_pointer_warmups

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        compiled = block_pointer_warmups()
    for kernel in compiled:
        assert f".visible .entry {kernel.name}(" in kernel.asm["ptx"]
