"""``nvvm.mma.sync`` and ``nvvm.ldmatrix`` through the MLIR backend: emitted with upstream MLIR 22's names, lowered by
the project's pipeline to the PTX ``mma.sync.aligned`` and ``ldmatrix`` instructions (skipped without a provider)
and accepted by ptxas where one is found."""

from __future__ import annotations

import pytest

from mytriton.backends.mlir.emit import emit_mlir
from mytriton.backends.mlir.pipeline import mlir_to_ptx, ptx_to_cubin
from mytriton.dialects.nvgpu.nvvm import MMA_FORMS
from tests.cuda.test_print_nvvm import INSTRUCTIONS, LDMATRIX_CASES, LDMATRIX_IDS
from tests.ldmatrix_samples import ldmatrix_module
from tests.mlir.conftest import requires_provider
from tests.mma_samples import FP8_KINDS, mma_module

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
        f"-> !llvm.struct<({', '.join(['i32' if kind == 's8' else 'f32'] * 4)})>",
    ):
        assert part in line, (part, line)
    overflow = "intOverflowBehavior = #nvvm.mma_int_overflow<wrapped>"
    assert (overflow in line) == (kind == "s8"), line


@requires_provider
@pytest.mark.parametrize("kind", [*KINDS, *FP8_KINDS])
def test_mma_compiles_to_ptx(kind: str) -> None:
    ptx = mlir_to_ptx(emit_mlir(mma_module(kind, warps=2)), kernel="mma", chip="sm_90")
    assert INSTRUCTIONS[kind] in ptx
    if kind in FP8_KINDS:  # the first PTX ISA with fp8 mma.sync
        assert ".version 8.4" in ptx
    ptx_to_cubin(ptx, "sm_90", "mma")  # None without ptxas; raises if ptxas rejects it


@pytest.mark.parametrize("kind", FP8_KINDS)
def test_fp8_mma_is_inline_ptx(kind: str) -> None:
    """Upstream's ``nvvm.mma.sync`` has no fp8 form: ``ptx.mma.sync`` is emitted as
    ``llvm.inline_asm`` of the CUDA printer's PTX, four ``=f`` outputs, A and B's six words
    ``r``, C's four ``f``."""
    text = emit_mlir(mma_module(kind))
    assert "ptx.mma.sync" not in text and "nvvm.mma.sync" not in text
    (line,) = [line for line in text.splitlines() if "llvm.inline_asm" in line]
    assert INSTRUCTIONS[kind] in line
    assert '"=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f"' in line
    assert "-> !llvm.struct<(f32, f32, f32, f32)>" in line


@pytest.mark.parametrize(("num", "transposed"), LDMATRIX_CASES, ids=LDMATRIX_IDS)
def test_emitted_ldmatrix_uses_upstream_names(num: int, transposed: bool) -> None:
    text = emit_mlir(ldmatrix_module(num, transposed))
    (line,) = [line for line in text.splitlines() if '"nvvm.ldmatrix"' in line]
    layout = "col" if transposed else "row"
    for part in (
        "eltType = #nvvm.ld_st_matrix_elt_type<b16>",
        f"layout = #nvvm.mma_layout<{layout}>",
        f"num = {num} : i32",
        "shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>",
        "(!llvm.ptr<3>) ->",
    ):
        assert part in line, (part, line)


@requires_provider
@pytest.mark.parametrize(("num", "transposed"), LDMATRIX_CASES, ids=LDMATRIX_IDS)
def test_ldmatrix_compiles_to_ptx(num: int, transposed: bool) -> None:
    """Upstream lowers the op, the shared address chain and the aligned vector store: one
    ``ldmatrix`` and one 16-byte ``st.shared``."""
    ptx = mlir_to_ptx(emit_mlir(ldmatrix_module(num, transposed)), kernel="ldmatrix", chip="sm_90")
    trans = ".trans" if transposed else ""
    assert f"ldmatrix.sync.aligned.m8n8.x{num}{trans}.shared.b16" in ptx
    assert "st.shared.v4.b32" in ptx
    ptx_to_cubin(ptx, "sm_90", "ldmatrix")
