"""Kernels past 48 KiB of shared memory through upstream MLIR: the dynamic shared memory is one
``.extern .shared`` array (``backends/mlir/dynamic_shared.py``), so the kernel has no static
shared memory at all. Upstream's own global printed as a one-byte static ``.shared`` variable,
which the launch added to the dynamic bytes (a program fewer per SM for the attention
benchmark)."""

from __future__ import annotations

import re
import warnings

import numpy as np

from mytriton.backends.mlir.emit import emit_mlir
from tests.cuda.test_dynamic_shared import CASES
from tests.gpusim.test_dynamic_shared import module_with
from tests.mlir import samples
from tests.mlir.conftest import requires_provider

DECLARATION = (
    '"llvm.mlir.global"() <{global_type = !llvm.array<0 x i8>, sym_name = "dynamic_smem", '
    'linkage = #llvm.linkage<"external">, addr_space = 3 : i32, alignment = 16 : i64}>'
)


def _shared_declarations(ptx: str) -> list[str]:
    return re.findall(r"^\s*(?:\.extern\s+)?\.shared\b[^\n]*", ptx, re.M)


def test_the_emitted_module_declares_the_extern_array() -> None:
    text = emit_mlir(module_with('      "gpu.barrier"() : () -> ()'))
    assert text.count(DECLARATION) == 1
    gpu_module = text.index('"gpu.module"()')
    assert gpu_module < text.index(DECLARATION) < text.index('"gpu.func"()')


def test_a_module_without_dynamic_shared_memory_declares_nothing() -> None:
    assert "dynamic_smem" not in emit_mlir(samples.ids_and_barrier())


@requires_provider
def test_kernels_past_48_kib_have_no_static_shared_memory(mlir_backend: object) -> None:
    for name in ("f16-dot", "f16-pipelined-matmul", "dot-then-reduce"):
        case = CASES[name]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compiled = case.warmup(case.inputs(np.random.default_rng(0)))
        ptx = compiled.asm["ptx"]
        assert _shared_declarations(ptx) == [".extern .shared .align 16 .b8 dynamic_smem[];"], name
