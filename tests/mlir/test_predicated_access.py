"""A masked global load or store reaches the PTX as one predicated access, not a branch
(``backends/mlir/access_hints.predicate_masked_accesses``): ``other`` is moved into the
destination registers first, then ``@%p ld.global...`` overwrites them where the mask holds.
What it computes runs on the GPU in ``tests/execution`` (``test_uniform_registers``,
``test_vectorization``: masks ending inside, between and past the vectors)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.backends.mlir.toolkit import find_cuda_toolkit
from tests.cuda.test_printer_vector import filecheck
from tests.mlir.conftest import requires_provider

HAS_PTXAS = (tk := find_cuda_toolkit()) is not None and tk.ptxas is not None


@triton.jit
def masked_copy_kernel(dst, src, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    m = offs < n
    tl.store(dst + offs, tl.load(src + offs, mask=m, other=3), mask=m)


@triton.jit
def volatile_kernel(dst, src, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    m = offs < n
    tl.store(dst + offs, tl.load(src + offs, mask=m, other=0, volatile=True), mask=m)


def _compile(kernel: Any, dtype: Any, block: int) -> Any:
    buf = np.zeros(2 * block, dtype)
    compiled = kernel.warmup(buf, buf, block, BLOCK=block, grid=(1,))
    if HAS_PTXAS:
        assert compiled.asm["cubin"][:4] == b"\x7fELF"
    return compiled


@requires_provider
@pytest.mark.parametrize(
    ("dtype", "block", "words"),
    [
        (np.float32, 512, "v4.b32"),
        (np.float32, 128, "b32"),
        (np.float16, 1024, "v4.b32"),
        (np.float16, 128, "b16"),
        (np.int8, 2048, "v4.b32"),
        (np.int8, 128, "b8"),
        (np.float64, 128, "v2.b32"),
    ],
)
def test_masked_accesses_are_predicated_not_branched(
    mlir_backend: object, dtype: Any, block: int, words: str
) -> None:
    ptx = _compile(masked_copy_kernel, dtype, block).asm["ptx"]
    assert re.search(rf"^\s*@%p\d+ ld\.global\.{re.escape(words)}\s", ptx, re.M), ptx
    assert re.search(rf"^\s*@%p\d+ st\.global\.{re.escape(words)}\s", ptx, re.M), ptx
    assert not re.search(r"\bbra\b", ptx), ptx


@requires_provider
def test_a_volatile_masked_load_keeps_its_branch(mlir_backend: object) -> None:
    ptx = _compile(volatile_kernel, np.float32, 128).asm["ptx"]
    assert re.search(r"^\s*ld\.volatile\.global\.b32", ptx, re.M), ptx
    assert re.search(r"\bbra\b", ptx), ptx  # around the load (the store is predicated)


EMITTED = """
CHECK:      "llvm.inline_asm"(
CHECK-SAME:   asm_string = "mov.b32 $0, $6;\\0A\\09mov.b32 $1, $7;\\0A\\09mov.b32 $2, $8;\\0A\\09mov.b32 $3, $9;\\0A\\09@$5 ld.global.v4.b32 {$0, $1, $2, $3}, [$4];"
CHECK-SAME:   constraints = "=r,=r,=r,=r,l,b,r,r,r,r,~{memory}"
CHECK-SAME:   has_side_effects
CHECK-NOT:  "scf.if"
CHECK:      "llvm.inline_asm"
CHECK-SAME:   asm_string = "@$0 st.global.v4.b32 [$1], {$2, $3, $4, $5};"
CHECK-SAME:   constraints = "b,l,r,r,r,r,~{memory}"
CHECK-NOT:  "scf.if"
"""


def test_emitted_masked_accesses(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """What MLIR is given (no mlir-opt needed): no ``scf.if`` left around the accesses."""
    from mytriton.backends.mlir.emit import emit_mlir
    from mytriton.backends.stages import parse_module

    monkeypatch.setenv("MYTRITON_BACKEND", "gpusim")
    buf = np.zeros(1024, np.float32)
    compiled = masked_copy_kernel.warmup(buf, buf, 512, BLOCK=512, grid=(1,), num_warps=4)
    gpu_ir = compiled.asm["gpu"]
    assert gpu_ir.count('"scf.if"') == 2  # the lowering's: a load's and a store's
    text = emit_mlir(parse_module(gpu_ir), locations=False)
    filecheck(text, EMITTED, tmp_path)
