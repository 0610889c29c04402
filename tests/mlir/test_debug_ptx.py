"""The debugging kernels compile to PTX through upstream MLIR on machines without a GPU (CI):
``gpu.printf`` becomes a ``vprintf`` call, a device assertion's ``llvm.intr.trap`` PTX
``trap``, inline PTX is pasted in, and ``tl.load(volatile=True)`` is an ``ld.volatile``."""

from __future__ import annotations

import warnings

from tests.mlir.conftest import requires_provider


@requires_provider
def test_debug_kernels_compile_to_ptx(mlir_backend: object) -> None:
    from tests.execution.test_debug_ops import debug_warmups

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        compiled = debug_warmups()
    for kernel in compiled:
        assert f".visible .entry {kernel.name}(" in kernel.asm["ptx"]
    ptx = {kernel.name: kernel.asm["ptx"] for kernel in compiled}
    assert "vprintf" in ptx["print_kernel"]
    assert "trap;" in ptx["assert_kernel"]
    assert "ld.volatile.global" in ptx["cache_kernel"]
    assert "shf.l.wrap.b32" in ptx["shift_asm_kernel"]
    assert "and.b32" in ptx["packed_asm_kernel"]
    assert "add.f32" in ptx["two_outputs_asm_kernel"]
    assert "cvt.u32.u16" in ptx["half_bits_asm_kernel"]
