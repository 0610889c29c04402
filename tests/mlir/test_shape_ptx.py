"""The shape-manipulation kernels compile to PTX through upstream MLIR on machines without a GPU
(CI): the shared-memory redistribution is plain ``memref`` loads and stores and ``gpu.barrier``."""

from __future__ import annotations

import warnings

from tests.mlir.conftest import requires_provider


@requires_provider
def test_shape_kernels_compile_to_ptx(mlir_backend: object) -> None:
    from tests.execution.test_shapes import shape_warmups

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        compiled = shape_warmups()
    for kernel in compiled:
        if kernel.name in ("gather_kernel", "flip_sort_kernel", "histogram_kernel"):
            assert "gpu.barrier" in kernel.asm["gpu"]  # elements move through shared memory
        assert f".visible .entry {kernel.name}(" in kernel.asm["ptx"]
