"""The scan and general-reduction kernels compile to PTX through upstream MLIR on machines
without a GPU (CI): ``gpu.shuffle up``/``down`` and the inlined combine regions lower with
``convert-gpu-to-nvvm``."""

from __future__ import annotations

import warnings

from tests.mlir.conftest import requires_provider


@requires_provider
def test_scan_and_reduce_kernels_compile_to_ptx(mlir_backend: object) -> None:
    from tests.execution.test_reduce_general import reduce_warmups
    from tests.execution.test_scan import scan_warmups

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        compiled = scan_warmups() + reduce_warmups()
    assert any("shuffle_mode up" in k.asm["gpu"] for k in compiled)
    assert any("shuffle_mode down" in k.asm["gpu"] for k in compiled)
    for kernel in compiled:
        assert f".visible .entry {kernel.name}(" in kernel.asm["ptx"]
