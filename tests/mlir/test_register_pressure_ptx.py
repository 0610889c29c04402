"""Registers of the mlir backend's PTX where its shape decided them (issue 36).

* The block size is PTX's ``.reqntid`` (``emit._fix_gpu_func``), not upstream's ``.maxntid``:
  under ``.maxntid 256`` ptxas gave the chunked cumsum below 80 registers (3 programs per SM),
  under ``.reqntid 256`` 56 (4; Triton's PTX, also ``.reqntid``, 60).

The register bounds are ptxas's (CUDA 13) for sm_90a: the programs per SM each bound keeps."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.backends.mlir.toolkit import find_cuda_toolkit
from tests.mlir.conftest import requires_provider

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


def _cumsum() -> Any:
    x = np.zeros((2, 8192), np.float32)
    return cumsum_rows.warmup(x, x, 8192, 8192, 8192, BLOCK_N=4096, grid=(2,), num_warps=8)


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
