"""Registers of the mlir backend's PTX where its shape decided them (issue 36).

* The block size is PTX's ``.reqntid`` (``emit._fix_gpu_func``), not upstream's ``.maxntid``:
  under ``.maxntid 256`` ptxas gave the chunked cumsum below 80 registers (3 programs per SM),
  under ``.reqntid 256`` 56 (4; Triton's PTX, also ``.reqntid``, 60).
* A predicate is computed just before its first user (``sink_predicates``): the RMS norm's
  owner test (``tid == 0``, for its scalar store at the end) computed at the kernel's entry
  cost 2 registers (34: 6 programs per SM; 32 now, as the cuda backend and Triton).

The register bounds are ptxas's (CUDA 13) for sm_90a: the programs per SM each bound keeps."""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from xdsl.builder import ImplicitBuilder
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, SSAValue

import mytriton as triton
import mytriton.language as tl
from mytriton.backends.mlir.emit import emit_mlir
from mytriton.backends.mlir.toolkit import find_cuda_toolkit
from tests.mlir.conftest import requires_provider
from tests.mlir.samples import PTR, const_i, kernel_module, store_at, thread_index

TOOLKIT = find_cuda_toolkit()
requires_ptxas = pytest.mark.skipif(
    TOOLKIT is None or TOOLKIT.ptxas is None, reason="no ptxas (a CUDA toolkit)"
)


@triton.jit
def cumsum_rows(X, Y, stride_x, stride_y, N, BLOCK_N: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    carry = 0.0
    for start in range(0, N, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        mask = cols < N
        x = tl.load(X + row * stride_x + cols, mask=mask, other=0.0).to(tl.float32)
        c = tl.cumsum(x, axis=0) + carry
        tl.store(Y + row * stride_y + cols, c.to(Y.dtype.element_ty), mask=mask)
        carry += tl.sum(x, axis=0)


@triton.jit
def rms_norm_fwd(X, Y, W, Rstd, stride_x, stride_y, N, eps, BLOCK_N: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N
    x = tl.load(X + row * stride_x + cols, mask=mask, other=0.0).to(tl.float32)
    rstd = tl.rsqrt(tl.sum(x * x, axis=0) / N + eps)
    w = tl.load(W + cols, mask=mask, other=0.0).to(tl.float32)
    tl.store(Y + row * stride_y + cols, (x * rstd * w).to(Y.dtype.element_ty), mask=mask)
    tl.store(Rstd + row, rstd)


def _cumsum() -> Any:
    x = np.zeros((2, 8192), np.float32)
    return cumsum_rows.warmup(x, x, 8192, 8192, 8192, BLOCK_N=4096, grid=(2,), num_warps=8)


def _rms_norm() -> Any:
    ml_dtypes = pytest.importorskip("ml_dtypes")
    x = np.zeros((2, 4096), ml_dtypes.bfloat16)
    rstd = np.zeros(2, np.float32)
    return rms_norm_fwd.warmup(
        x, x, x[0], rstd, 4096, 4096, 4096, 1e-6, BLOCK_N=4096, grid=(2,), num_warps=8
    )


def _registers(ptx: str, tmp_path: Path) -> int:
    assert TOOLKIT is not None and TOOLKIT.ptxas is not None
    chip = re.search(r"^\.target\s+(\w+)", ptx, re.M)
    assert chip is not None, ptx[:500]
    path = tmp_path / "kernel.ptx"
    path.write_text(ptx)
    command = [str(TOOLKIT.ptxas), f"-arch={chip.group(1)}", "-v", str(path), "-o", os.devnull]
    result = subprocess.run(command, capture_output=True, text=True, check=True)
    used = re.search(r"Used (\d+) registers", result.stderr)
    assert used is not None, result.stderr
    return int(used.group(1))


@requires_provider
def test_the_block_size_is_required_not_a_maximum(mlir_backend: object) -> None:
    ptx = _cumsum().asm["ptx"]
    assert re.search(r"^\.reqntid 256, 1, 1$", ptx, re.M), ptx[:2000]
    assert ".maxntid" not in ptx


@requires_provider
@requires_ptxas
def test_chunked_cumsum_keeps_four_programs_per_sm(mlir_backend: object, tmp_path: Path) -> None:
    assert _registers(_cumsum().asm["ptx"], tmp_path) <= 64  # 80 under .maxntid


@requires_provider
@requires_ptxas
def test_bf16_rms_norm_keeps_eight_programs_per_sm(mlir_backend: object, tmp_path: Path) -> None:
    assert _registers(_rms_norm().asm["ptx"], tmp_path) <= 32  # 34: owner test at the entry


@requires_provider
def test_the_owner_test_is_computed_at_its_store(mlir_backend: object) -> None:
    """In the PTX, ``tid == 0`` comes after the row's stores, just before the scalar one."""
    ptx = _rms_norm().asm["ptx"]
    owner = re.search(r"setp\.eq\.b32\s+(%p\d+), %r\d+, 0;", ptx)
    assert owner is not None, ptx
    scalar_store = ptx.index(f"@{owner.group(1)} st.global.b32")
    assert ptx.rindex("st.global.v4.b32", 0, scalar_store) < owner.start() < scalar_store


def _late_use() -> ModuleOp:
    """``tid == 0`` at the entry; a store under it after another store."""

    def body(args: Sequence[SSAValue]) -> None:
        (out,) = args
        tid = thread_index()
        owner = arith.CmpiOp(tid, const_i(0), "eq")
        store_at(tid, out, tid)
        in_branch = scf.IfOp(owner, [], [Block()])
        with ImplicitBuilder(in_branch.true_region.block):
            store_at(const_i(1), out, const_i(0))
            scf.YieldOp()
        other = arith.CmpiOp(tid, const_i(5), "slt")  # unused: stays where it is
        del other

    return kernel_module("late", [PTR], body)


LATE_USE = """
CHECK:      "gpu.thread_id"
CHECK:      [[TID:%.*]] = "arith.index_cast"
CHECK-NOT:  "arith.cmpi"
CHECK:      "llvm.store"([[TID]],
CHECK-NEXT: [[OWNER:%.*]] = "arith.cmpi"([[TID]], %{{.*}}) <{predicate = 0 : i64}>
CHECK-NEXT: "scf.if"([[OWNER]])
CHECK:      "arith.cmpi"([[TID]], %{{.*}}) <{predicate = 2 : i64}>
CHECK-NEXT: "gpu.return"
"""


def test_a_predicate_moves_to_its_first_user(filecheck: Callable[[str, str], None]) -> None:
    filecheck(emit_mlir(_late_use(), locations=False), LATE_USE)
