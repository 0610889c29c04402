"""Rows at a runtime stride, masked by row only: vector accesses hinge on the stride's proof.

Nothing but the axis analysis' divisibility of ``row * stride`` stands between these accesses
and 16-byte vectors: the columns are unmasked and contiguous, the row mask is constant along a
row. An odd stride puts most rows off a 16-byte boundary, so a wrong "divisible by 16" claim
(on the argument, or on the product) vectorizes misaligned accesses; gpusim faults on them as a
GPU would. Strides that are multiples of 16 check that the same kernels do get vectors.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from tests.gpusim.util import nans, randn

pytestmark = pytest.mark.execution


@triton.jit
def strided_rows_kernel(x, out, M, stride, BM: tl.constexpr, BN: tl.constexpr):
    """``out[r, :BN] = 2 * x[r, :BN]`` for rows ``r < M`` of length ``stride``: a 2-D tile."""
    rows = tl.program_id(0) * BM + tl.arange(0, BM)[:, None]
    cols = tl.arange(0, BN)[None, :]
    mask = rows < M
    offsets = rows * stride + cols
    tl.store(out + offsets, tl.load(x + offsets, mask=mask) * 2.0, mask=mask)


@triton.jit
def row_per_program_kernel(x, out, stride, BN: tl.constexpr):
    """The same, one row per program: the row start is a scalar product ``pid * stride``."""
    start = tl.program_id(0) * stride
    cols = tl.arange(0, BN)
    tl.store(out + start + cols, tl.load(x + start + cols) * 2.0)


def _inputs(m: int, stride: int) -> tuple[np.ndarray, np.ndarray]:
    return randn(np.random.default_rng(m * stride), m, stride), nans(m, stride)


def _expected(x: np.ndarray, bn: int) -> np.ndarray:
    want = nans(*x.shape).astype(np.float64)
    want[:, :bn] = 2.0 * x[:, :bn].astype(np.float64)
    return want


@pytest.mark.parametrize(
    ("m", "stride", "bm", "bn", "num_warps"),
    [
        (37, 17, 8, 16, 1),
        (37, 17, 32, 16, 4),
        (5, 17, 8, 16, 1),
        (37, 33, 16, 32, 4),
        (37, 20, 8, 16, 1),  # 16-byte aligned rows, but 20 is not provably a multiple of 16
        (37, 16, 8, 16, 1),
        (37, 32, 32, 16, 4),
    ],
)
def test_strided_rows(run: Any, m: int, stride: int, bm: int, bn: int, num_warps: int) -> None:
    x, out = _inputs(m, stride)
    run(
        strided_rows_kernel,
        (triton.cdiv(m, bm),),
        x,
        out,
        m,
        stride,
        num_warps=num_warps,
        BM=bm,
        BN=bn,
    )
    np.testing.assert_array_equal(out, _expected(x, bn))


@pytest.mark.parametrize("stride", [129, 130, 136, 128, 144])
def test_row_per_program(run: Any, stride: int) -> None:
    m, bn = 5, 128
    x, out = _inputs(m, stride)
    run(row_per_program_kernel, (m,), x, out, stride, num_warps=1, BN=bn)
    np.testing.assert_array_equal(out, _expected(x, bn))


def _gpu_ir(kernel: Any, *args: Any, num_warps: int, **meta: Any) -> str:
    return str(kernel.warmup(*args, grid=(1,), num_warps=num_warps, **meta).asm["gpu"])


def test_only_provably_aligned_strides_get_vectors(monkeypatch: pytest.MonkeyPatch) -> None:
    """The kernels above do vectorize where the stride allows it, so they test the proof."""
    monkeypatch.setenv("MYTRITON_BACKEND", "gpusim")
    x = np.zeros(8192, np.float32)
    vector = "vector<4xf32>"
    for stride, expect in ((16, True), (32, True), (17, False), (20, False)):
        ir = _gpu_ir(strided_rows_kernel, x, x, 37, stride, num_warps=1, BM=8, BN=16)
        assert (vector in ir) is expect and ("vector<" in ir) is expect, stride
    for stride, expect in ((128, True), (144, True), (129, False), (136, False)):
        ir = _gpu_ir(row_per_program_kernel, x, x, stride, num_warps=1, BN=128)
        assert (vector in ir) is expect and ("vector<" in ir) is expect, stride
