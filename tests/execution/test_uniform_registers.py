"""Registers the axis analysis proves equal are computed once (``elementwise.equal_registers``).

``offs < n`` with ``offs`` contiguous and ``n`` specialized as a multiple of 16 is constant
over each aligned run of 16 elements, so a thread's aligned group of ``sizePerThread``
consecutive registers shares one compare (Triton's deduplication by constancy); everything
computed from such masks alone shares it too. The execution tests move the mask boundary
around the vectors (``n`` a multiple of 16 but not of the block, not a multiple of 16, below
one vector, offset starts) so a wrong proof gives wrong elements; the IR tests count the
compares.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from tests.cuda.test_printer_vector import filecheck

pytestmark = pytest.mark.execution


@triton.jit
def where_kernel(x, out, n, start, BLOCK: tl.constexpr):
    offs = start + tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    v = tl.load(x + offs, mask=mask, other=1.0)
    flag = mask.to(tl.float32) * 10.0  # an op on the mask alone: constant where the mask is
    tl.store(out + offs, tl.where(mask, v * 2.0, -1.0) + flag)


@triton.jit
def tile_where_kernel(x, out, M, N, BM: tl.constexpr, BN: tl.constexpr):
    rows = tl.program_id(0) * BM + tl.arange(0, BM)[:, None]
    cols = tl.arange(0, BN)[None, :]
    mask = (rows < M) & (cols < N)
    v = tl.load(x + rows * BN + cols)
    tl.store(out + rows * BN + cols, tl.where(mask, v, -1.0) + tl.where(cols < N, 0.0, 5.0))


def _where_reference(x: np.ndarray, n: int, start: int) -> np.ndarray:
    idx = np.arange(x.size)
    mask = idx < n
    ref = np.where(mask, 2.0 * x, -1.0) + 10.0 * mask
    ref[:start] = np.nan
    return ref.astype(np.float32)


@pytest.mark.parametrize("start", [0, 16, 4])
@pytest.mark.parametrize("n", [512, 496, 480, 256, 16, 32, 500, 17, 3, 0])
def test_mask_boundary_inside_and_between_vectors(run: Any, n: int, start: int) -> None:
    size = 1024 + start
    rng = np.random.default_rng(n * 7 + start)
    x = rng.standard_normal(size).astype(np.float32)
    out = np.full(size, np.nan, np.float32)
    run(where_kernel, (2,), x, out, n, start, BLOCK=512)
    np.testing.assert_array_equal(out, _where_reference(x, n, start)[:size])


@pytest.mark.parametrize(("m", "n"), [(64, 64), (48, 32), (64, 48), (33, 16), (64, 20), (7, 5)])
def test_tile_masks(run: Any, m: int, n: int) -> None:
    rng = np.random.default_rng(m * n)
    x = rng.standard_normal(64 * 64).astype(np.float32)
    out = np.full(64 * 64, np.nan, np.float32)
    run(tile_where_kernel, (4,), x, out, m, n, BM=16, BN=64)
    rows, cols = np.indices((64, 64))
    mask = (rows < m) & (cols < n)
    ref = np.where(mask, x.reshape(64, 64), -1.0) + np.where(cols < n, 0.0, 5.0)
    np.testing.assert_array_equal(out.reshape(64, 64), ref.astype(np.float32))


def _gpu_ir(kernel: Any, monkeypatch: pytest.MonkeyPatch, *args: Any, **meta: Any) -> str:
    monkeypatch.setenv("MYTRITON_BACKEND", "gpusim")
    return kernel.warmup(*args, grid=(1,), num_warps=4, **meta).asm["gpu"]


# 512 elements over 128 threads: 4 consecutive registers per thread, one compare for them
ONE_COMPARE = """
CHECK:     "arith.cmpi"(%{{.*}}, %n) <{predicate = 2 : i64}>
CHECK-NOT: "arith.cmpi"
CHECK:     "scf.if"
CHECK-NOT: "arith.cmpi"
CHECK:     "gpu.return"
"""

FOUR_COMPARES = """
CHECK-COUNT-4: "arith.cmpi"(%{{.*}}, %n) <{predicate = 2 : i64}>
CHECK-NOT:     "arith.cmpi"
CHECK:         "gpu.return"
"""


def test_one_compare_per_vector_when_n_is_a_multiple_of_16(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    x = np.zeros(2048, np.float32)
    ir = _gpu_ir(where_kernel, monkeypatch, x, x, 496, 0, BLOCK=512)
    filecheck(ir, ONE_COMPARE, tmp_path)


@pytest.mark.parametrize(("n", "start"), [(500, 0), (496, 3)])
def test_a_compare_per_element_when_the_runs_are_not_known(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, n: int, start: int
) -> None:
    """``n`` not a multiple of 16, or ``offs`` starting anywhere: no run is known constant."""
    x = np.zeros(2048, np.float32)
    ir = _gpu_ir(where_kernel, monkeypatch, x, x, n, start, BLOCK=512)
    filecheck(ir, FOUR_COMPARES, tmp_path)
