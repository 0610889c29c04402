"""A block reduced to one element across several warps: with a commutative combine each
lane reads one warp's partial and a butterfly over the lanes combines them
(``reduce.across_warps_shuffled``); with an ordered one every thread combines the partials in
warp order (``across_warps_in_turn``). Every thread must end with the same, correctly ordered
result: the ordered combines below (the first non-zero element, the first index of the
maximum) give a wrong answer if the warps' order is mixed up, and the results are written from
every thread, so threads that disagree show.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl

pytestmark = pytest.mark.execution


@triton.jit
def _first_nonzero(a, b):
    return tl.where(a != 0, a, b)


@triton.jit
def row_reductions_kernel(x_ptr, out_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    first = tl.reduce(x, 0, _first_nonzero)
    total = tl.sum(x, axis=0)
    where = tl.argmax(x, axis=0, tie_break_left=True)
    spread = tl.max(x, axis=0) - tl.min(x, axis=0)
    zero = tl.zeros([N], tl.int32)  # every thread writes its copy of each result
    tl.store(out_ptr + offs, zero + first)
    tl.store(out_ptr + N + offs, zero + total)
    tl.store(out_ptr + 2 * N + offs, zero + where)
    tl.store(out_ptr + 3 * N + offs, zero + spread)


@pytest.mark.parametrize("num_warps", [2, 4, 8, 16])
@pytest.mark.parametrize("first", [0.0, 0.07, 0.3, 0.6, 1.0])
def test_ordered_combines_over_warps(run: Any, num_warps: int, first: float) -> None:
    # 4 elements per thread and no repetition of the layout along the row: the warps' partials
    # are consecutive runs of it (with repetitions a thread's partial is not one run, and a
    # non-commutative combine is not in element order within the warp either: not this test's)
    n = 128 * num_warps
    at = min(int(first * n), n - 1)
    x = np.zeros(n, np.int32)
    x[at:] = np.arange(1, n - at + 1, dtype=np.int32) % 5  # first non-zero at `at`
    x[at] = 9
    x[(at + n) // 2] = 9  # a tie for the maximum, later than `at` (but for the last)
    out = np.full(4 * n, -7, np.int32)
    run(row_reductions_kernel, (1,), x, out, N=n, num_warps=num_warps)
    np.testing.assert_array_equal(out[:n], np.full(n, 9))
    np.testing.assert_array_equal(out[n : 2 * n], np.full(n, x.sum()))
    np.testing.assert_array_equal(out[2 * n : 3 * n], np.full(n, at))
    np.testing.assert_array_equal(out[3 * n :], np.full(n, x.max() - x.min()))


@triton.jit
def float_sum_kernel(x_ptr, out_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    total = tl.sum(tl.load(x_ptr + offs), axis=0)
    tl.store(out_ptr + offs, tl.zeros([N], tl.float32) + total)


@pytest.mark.parametrize("num_warps", [4, 8])
def test_every_thread_holds_the_same_float_sum(run: Any, num_warps: int) -> None:
    rng = np.random.default_rng(num_warps)
    x = (rng.standard_normal(2048) * 10.0 ** rng.integers(-6, 6, 2048)).astype(np.float32)
    out = np.zeros(2048, np.float32)
    run(float_sum_kernel, (1,), x, out, N=2048, num_warps=num_warps)
    assert (out == out[0]).all(), "threads disagree on the sum"
    np.testing.assert_allclose(out[0], x.astype(np.float64).sum(), rtol=1e-4, atol=1e-3)


def test_one_shared_load_per_thread_then_shuffles(monkeypatch: pytest.MonkeyPatch) -> None:
    """The lowering's shape: one partial read per lane and per operand, log2(warps) shuffles."""
    monkeypatch.setenv("MYTRITON_BACKEND", "gpusim")
    x = np.zeros(2048, np.float32)
    ir = float_sum_kernel.warmup(x, x, N=2048, num_warps=8, grid=(1,)).asm["gpu"]
    assert ir.count('"memref.load"') == 1
    assert ir.count('"gpu.shuffle"') == 5 + 3  # within the warp, then across the 8 warps


@triton.jit
def first_nonzero_kernel(x_ptr, out_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    first = tl.reduce(tl.load(x_ptr + offs), 0, _first_nonzero)
    tl.store(out_ptr + offs, tl.zeros([N], tl.int32) + first)


def test_ordered_warp_partial_is_its_first_lanes(monkeypatch: pytest.MonkeyPatch) -> None:
    """An ordered combine whose warp partials go through shared memory: the lanes' butterfly
    swaps no operands (no two selects per step; the combine's own select only), and only the
    first lane of a warp, which holds the partial in element order, writes it."""
    monkeypatch.setenv("MYTRITON_BACKEND", "gpusim")
    x = np.zeros(1024, np.int32)
    ir = first_nonzero_kernel.warmup(x, x, N=1024, num_warps=8, grid=(1,)).asm["gpu"]
    # 4 elements a thread, 32 lanes, 8 warps: 3 + 5 + 7 combines, one select each
    assert ir.count('"arith.select"') == 3 + 5 + 7
    guarded = ir.split('"scf.if"')[1].split("}) : (i1) -> ()")[0]
    assert guarded.count('"memref.store"') == 1, guarded
    assert ir.count('"memref.store"') == 1


@pytest.mark.parametrize("num_warps", [2, 8])
def test_ordered_combine_inside_a_warp(run: Any, num_warps: int) -> None:
    # the first non-zero element inside each warp's run, at every lane position: a partial
    # taken from a lane other than the warp's first would be out of element order
    n = 128 * num_warps
    for at in (1, 37, 126, n - 3):
        x = np.zeros(n, np.int32)
        x[at:] = 3
        x[at] = 5
        out = np.full(n, -1, np.int32)
        run(first_nonzero_kernel, (1,), x, out, N=n, num_warps=num_warps)
        np.testing.assert_array_equal(out, np.full(n, 5))
