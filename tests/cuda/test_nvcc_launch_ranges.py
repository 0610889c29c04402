"""The printed C++ tells NVVM the launch range of each thread and block id (``print_gpu``), so
NVVM compiles index arithmetic as LLVM does on the mlir path: ``program_id(1) * BLOCK_K +
arange`` is non-negative, its ``// GROUP`` a shift, and a thread's eight ``cols // GROUP`` one
address. Without the ranges, ``dequant_fp8_per_token_group`` (``benchmarks/patterns_src``) had
one signed division and one scale load per element: 168 SASS instructions against 96."""

from __future__ import annotations

import re
import warnings
from pathlib import Path
from typing import Any

import mytriton
import mytriton.language as tl
from mytriton.compiler import ASTSource
from mytriton.compiler import compile as triton_compile
from mytriton.runtime.driver import GPUTarget
from tests.cuda.test_nvcc import nvcc_ptx


@mytriton.jit
def dequant_kernel(Q, S, Y, K, GROUP: tl.constexpr, BLOCK_K: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.program_id(1) * BLOCK_K + tl.arange(0, BLOCK_K)
    mask = cols < K
    q = tl.load(Q + row * K + cols, mask=mask, other=0.0).to(tl.float32)
    s = tl.load(S + row * (K // GROUP) + cols // GROUP, mask=mask, other=0.0)
    tl.store(Y + row * K + cols, (q * s).to(Y.dtype.element_ty), mask=mask)


def _dequant_cuda() -> str:
    signature = {"Q": "*fp8e4nv", "S": "*fp32", "Y": "*bf16", "K": "i32"}
    signature |= {"GROUP": "constexpr", "BLOCK_K": "constexpr"}
    # every pointer and K divisible by 16, as a launch on torch tensors specializes them: the
    # eight bytes of a thread are then one load, its eight columns one group
    aligned = {(i,): [["tt.divisibility", 16]] for i in range(4)}
    constexprs = {(4,): 128, (5,): 1024}
    source = ASTSource(dequant_kernel, signature, constexprs, aligned)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        compiled: Any = triton_compile(source, target=GPUTarget("cuda", 90, 32))
    return str(compiled.asm["cuda"])


def test_group_index_of_a_program_column_is_a_shift(
    nvcc: str, tmp_path: Path, cuda_backend: object
) -> None:
    source = _dequant_cuda()
    assert "__builtin_assume(" in source
    ptx = nvcc_ptx(nvcc, source, tmp_path / "dequant.cu")
    # K // GROUP stays a signed division (K may be negative): its one sign fix-up, and no
    # other (the eight cols // GROUP had one each)
    assert len(re.findall(r"shr\.s32\s+%r\d+, %r\d+, 31;", ptx)) == 1, ptx
    # a thread's eight columns lie in one group: its scale is loaded once
    assert ptx.count("ld.global.f32") == 1, ptx
