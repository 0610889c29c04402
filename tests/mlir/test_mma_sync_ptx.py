"""``nvvm.mma.sync`` through the MLIR backend: emitted with upstream MLIR 22's names, lowered by
the project's pipeline to the PTX ``mma.sync.aligned`` instruction (skipped without a provider)
and accepted by ptxas where one is found."""

from __future__ import annotations

import pytest

from mytriton.backends.mlir.emit import emit_mlir
from mytriton.backends.mlir.pipeline import mlir_to_ptx, ptx_to_cubin
from mytriton.dialects.upstream_nvvm import MMA_FORMS
from tests.cuda.test_print_nvvm import INSTRUCTIONS
from tests.mlir.conftest import requires_provider
from tests.mma_samples import mma_module

KINDS = list(MMA_FORMS)


@pytest.mark.parametrize("kind", KINDS)
def test_emitted_mma_uses_upstream_names(kind: str) -> None:
    text = emit_mlir(mma_module(kind))
    (line,) = [line for line in text.splitlines() if '"nvvm.mma.sync"' in line]
    m, n, k = MMA_FORMS[kind].shape
    for part in (
        "layoutA = #nvvm.mma_layout<row>",
        "layoutB = #nvvm.mma_layout<col>",
        f"multiplicandAPtxType = #nvvm.mma_type<{kind}>",
        f"multiplicandBPtxType = #nvvm.mma_type<{kind}>",
        f"shape = #nvvm.shape<m = {m}, n = {n}, k = {k}>",
        "operandSegmentSizes = array<i32: 4, 2, 4>",
        "-> !llvm.struct<(f32, f32, f32, f32)>",
    ):
        assert part in line, (part, line)


@requires_provider
@pytest.mark.parametrize("kind", KINDS)
def test_mma_compiles_to_ptx(kind: str) -> None:
    ptx = mlir_to_ptx(emit_mlir(mma_module(kind, warps=2)), kernel="mma", chip="sm_90")
    assert INSTRUCTIONS[kind] in ptx
    ptx_to_cubin(ptx, "sm_90", "mma")  # None without ptxas; raises if ptxas rejects it
