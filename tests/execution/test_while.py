"""``while`` loops on every backend: a runtime condition is one ``scf.while`` carrying the
variables the body assigns (scalars, blocks, pointer blocks); programs of one launch may run
different trip counts (zero included); a compile-time condition is unrolled."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl

pytestmark = pytest.mark.execution


@triton.jit
def count_kernel(out, trips, n):
    i = 0
    total = 0.0
    while i < n:
        total += 0.5
        i += 1
    tl.store(out, total)
    tl.store(trips, i)


@triton.jit
def per_program_trips_kernel(counts, out, BLOCK: tl.constexpr):
    """Program ``pid`` runs ``counts[pid]`` iterations over a carried block."""
    pid = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK,), tl.float32)
    k = 0
    limit = tl.load(counts + pid)
    while k < limit:
        acc += (offs + k).to(tl.float32)
        k += 1
    tl.store(out + pid * BLOCK + offs, acc)


@triton.jit
def newton_sqrt_kernel(x, out, iters, n, BLOCK: tl.constexpr):
    """Newton's iteration for sqrt until every element of the block has converged; the
    condition reduces the carried block to a scalar."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    a = tl.load(x + offs, mask=offs < n, other=1.0)
    y = a
    steps = 0
    while tl.max(tl.abs(y * y - a) / a) > 1e-6 and steps < 100:
        y = 0.5 * (y + a / y)
        steps += 1
    tl.store(out + offs, y, mask=offs < n)
    tl.store(iters + tl.program_id(0), steps)


@triton.jit
def search_sorted_kernel(sorted_ptr, n, keys, out):
    """Binary search of ``keys[pid]`` in ``sorted_ptr[:n]`` (leftmost insertion point), with
    a load and a runtime ``if`` in the body."""
    pid = tl.program_id(0)
    key = tl.load(keys + pid)
    lo = 0
    hi = n
    while lo < hi:
        mid = (lo + hi) // 2
        if tl.load(sorted_ptr + mid) < key:
            lo = mid + 1
        else:
            hi = mid
    tl.store(out + pid, lo)


@triton.jit
def pointer_walk_kernel(x, out, n, BLOCK: tl.constexpr):
    """A carried pointer block, advanced until the array is consumed."""
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK,), tl.float32)
    ptrs = x + offs
    start = 0
    while start < n:
        acc += tl.load(ptrs, mask=start + offs < n, other=0.0)
        ptrs += BLOCK
        start += BLOCK
    tl.store(out + offs, acc)


@triton.jit
def while_in_for_kernel(out, rows, BLOCK: tl.constexpr):
    """Row r of the output: how many halvings bring ``(r + 1) * 1000`` to at most 1 (a
    per-row trip count), as a block."""
    offs = tl.arange(0, BLOCK)
    for r in range(rows):
        v = (r + 1) * 1000
        halvings = tl.zeros((BLOCK,), tl.int32)
        while v > 1:
            v = v // 2
            halvings += 1
        tl.store(out + r * BLOCK + offs, halvings + offs)


@triton.jit
def for_in_while_kernel(x, out, n, BLOCK: tl.constexpr):
    """Sums of rows of ``x`` (``BLOCK`` wide) until a row sum exceeds 0: the number of rows
    read and their total."""
    row = 0
    total = 0.0
    last = -1.0
    while last <= 0.0 and row < n:
        last = 0.0
        for j in range(BLOCK):
            last += tl.load(x + row * BLOCK + j)
        total += last
        row += 1
    tl.store(out, total)
    tl.store(out + 1, row.to(tl.float32))


@triton.jit
def constexpr_while_kernel(x, out, BLOCK: tl.constexpr, N: tl.constexpr):
    """A compile-time condition: unrolled ``N`` times."""
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK,), tl.float32)
    i = 0
    while i < N:
        acc += tl.load(x + i * BLOCK + offs)
        i += 1
    tl.store(out + offs, acc)


@triton.jit
def becomes_runtime_kernel(out, step):
    """``x`` starts as a compile-time 0 (the first check unrolls one iteration) and is a runtime
    value afterwards (the rest of the loop is an ``scf.while``), as Python would run it."""
    x = 0
    trips = 0
    while x < 10:
        x = x + step
        trips += 1
    tl.store(out, x)
    tl.store(out + 1, trips)


@pytest.mark.parametrize("n", [0, 1, 2, 7])  # n == 1 is specialized: unrolled at compile time
def test_counting_loop(run: Any, n: int) -> None:
    out = np.full(1, np.nan, np.float32)
    trips = np.full(1, -1, np.int32)
    run(count_kernel, (1,), out, trips, n)
    assert (out[0], trips[0]) == (0.5 * n, n)


def test_trip_count_per_program(run: Any) -> None:
    block = 32
    counts = np.array([0, 3, 1, 0, 5, 2], np.int32)
    out = np.full(len(counts) * block, np.nan, np.float32)
    run(per_program_trips_kernel, (len(counts),), counts, out, BLOCK=block)
    offs = np.arange(block)
    ref = np.concatenate([sum((offs + k for k in range(c)), np.zeros(block)) for c in counts])
    np.testing.assert_array_equal(out, ref.astype(np.float32))


def test_newton_iteration(run: Any) -> None:
    n, block = 200, 64
    x = np.random.default_rng(0).uniform(0.01, 1e4, n).astype(np.float32)
    x[:block] = np.linspace(1, 4, block)  # the first program converges in fewer steps
    out = np.full(n, np.nan, np.float32)
    iters = np.full(triton.cdiv(n, block), -1, np.int32)
    run(newton_sqrt_kernel, (len(iters),), x, out, iters, n, BLOCK=block)
    np.testing.assert_allclose(out, np.sqrt(x), rtol=1e-6)
    assert (iters > 0).all() and (iters < 100).all()
    assert iters[0] < iters[1]


def test_binary_search(run: Any) -> None:
    rng = np.random.default_rng(1)
    data = np.sort(rng.integers(-50, 50, 37)).astype(np.int32)
    keys = np.concatenate([rng.integers(-60, 60, 20), [data[0], data[-1], -100, 100]])
    keys = keys.astype(np.int32)
    out = np.full(len(keys), -1, np.int32)
    run(search_sorted_kernel, (len(keys),), data, len(data), keys, out)
    np.testing.assert_array_equal(out, np.searchsorted(data, keys, side="left"))


@pytest.mark.parametrize("n", [0, 100, 256])
def test_carried_pointer_block(run: Any, n: int) -> None:
    block = 64
    x = np.random.default_rng(n).standard_normal(max(n, 1)).astype(np.float32)
    out = np.full(block, np.nan, np.float32)
    run(pointer_walk_kernel, (1,), x, out, n, BLOCK=block)
    padded = np.zeros(triton.cdiv(n, block) * block, np.float32)
    padded[:n] = x[:n]
    np.testing.assert_allclose(out, padded.reshape(-1, block).sum(axis=0), rtol=1e-5)


def test_while_inside_for(run: Any) -> None:
    rows, block = 5, 16
    out = np.full(rows * block, -1, np.int32)
    run(while_in_for_kernel, (1,), out, rows, BLOCK=block)
    halvings = [int(np.floor(np.log2((r + 1) * 1000))) for r in range(rows)]
    ref = np.array([[h + j for j in range(block)] for h in halvings], np.int32)
    np.testing.assert_array_equal(out.reshape(rows, block), ref)


@pytest.mark.parametrize(("positive_row", "rows_read"), [(3, 4), (None, 6)])
def test_for_inside_while(run: Any, positive_row: int | None, rows_read: int) -> None:
    block, n = 8, 6
    x = -np.ones((n, block), np.float32)
    if positive_row is not None:
        x[positive_row] = 1.0
    out = np.full(2, np.nan, np.float32)
    run(for_in_while_kernel, (1,), x, out, n, BLOCK=block)
    np.testing.assert_allclose(out, [x[:rows_read].sum(), rows_read])


def test_compile_time_condition(run: Any) -> None:
    block, n = 32, 3
    x = np.random.default_rng(2).standard_normal(n * block).astype(np.float32)
    out = np.full(block, np.nan, np.float32)
    run(constexpr_while_kernel, (1,), x, out, BLOCK=block, N=n)
    np.testing.assert_allclose(out, x.reshape(n, block).sum(axis=0), rtol=1e-5)


@pytest.mark.parametrize(("step", "final", "trips"), [(1, 10, 10), (4, 12, 3), (20, 20, 1)])
def test_condition_turning_runtime(run: Any, step: int, final: int, trips: int) -> None:
    out = np.full(2, -1, np.int32)
    run(becomes_runtime_kernel, (1,), out, step)
    np.testing.assert_array_equal(out, [final, trips])


def while_warmups() -> list[Any]:
    """The kernels above compiled once each (compile-only: tests/cuda and tests/mlir check the
    C++ and the PTX)."""
    f32 = np.zeros(256, np.float32)
    i32 = np.zeros(64, np.int32)
    return [
        count_kernel.warmup(f32, i32, 3, grid=(1,)),
        per_program_trips_kernel.warmup(i32, f32, BLOCK=32, grid=(4,)),
        newton_sqrt_kernel.warmup(f32, f32, i32, 200, BLOCK=64, grid=(4,)),
        search_sorted_kernel.warmup(i32, 37, i32, i32, grid=(4,)),
        pointer_walk_kernel.warmup(f32, f32, 100, BLOCK=64, grid=(1,)),
        while_in_for_kernel.warmup(i32, 5, BLOCK=16, grid=(1,)),
        for_in_while_kernel.warmup(f32, f32, 6, BLOCK=8, grid=(1,)),
        becomes_runtime_kernel.warmup(i32, 3, grid=(1,)),
    ]
