"""``break``, ``continue`` and ``return`` on runtime paths on every backend (early_exit.py): loops
left early (their ``scf.while`` carries a flag), iterations cut short, kernels and ``@jit``
helpers returning early, programs of one launch taking different exits."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl

pytestmark = pytest.mark.execution


@triton.jit
def early_exit_kernel(x, out, n, BLOCK: tl.constexpr):
    """Programs past the end return at once; the others store under a mask."""
    pid = tl.program_id(0)
    if pid * BLOCK >= n:
        return
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out + offs, tl.load(x + offs, mask=mask) * 2.0, mask=mask)


@triton.jit
def while_break_kernel(x, out, n, limit, ROW: tl.constexpr):
    """Per program: the sum of its row up to (not including) the first value above
    ``limit``, and where that value is (``n`` if none)."""
    row = x + tl.program_id(0) * ROW
    i = 0
    total = 0.0
    while i < n:
        v = tl.load(row + i)
        if v > limit:
            break
        total += v
        i += 1
    tl.store(out + tl.program_id(0) * 2, total)
    tl.store(out + tl.program_id(0) * 2 + 1, i.to(tl.float32))


@triton.jit
def for_continue_kernel(x, out, n, BLOCK: tl.constexpr):
    """The sum of the non-negative rows' blocks (a carried block), and how many were
    skipped."""
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK,), tl.float32)
    skipped = 0
    for r in tl.range(n):
        v = tl.load(x + r * BLOCK + offs)
        if tl.min(v) < 0:
            skipped += 1
            continue
        acc += v
    tl.store(out + offs, acc)
    tl.store(out + BLOCK, skipped.to(tl.float32))


@triton.jit
def while_continue_kernel(x, out, n):
    """The sum of the even-indexed values, stepping with ``continue`` on odd ones."""
    i = 0
    total = 0.0
    while i < n:
        i += 1
        if (i - 1) % 2 == 1:
            continue
        total += tl.load(x + i - 1)
    tl.store(out, total)


@triton.jit
def values_set_before_exits_kernel(x, out, n):
    """Carried variables keep what the path that leaves assigned: a constant on the
    ``continue`` path, another on the ``break`` path."""
    acc = 1.0
    found = -1
    for i in range(n):
        v = tl.load(x + i)
        if v < 0:
            acc = 5.0  # a Python float on this path, a runtime value on the other
            continue
        if v > 100:
            found = 7
            break
        acc = acc * 2.0
    tl.store(out, acc)
    tl.store(out + 1, found.to(tl.float32))


@triton.jit
def nested_break_kernel(x, out, rows, cols):
    """For each row: the length of its prefix of positive values (the inner loop breaks; the
    outer goes on); the outer loop stops at a row whose first value is 0."""
    last = -1
    for r in range(rows):
        last = r
        first = tl.load(x + r * cols)
        if first == 0:
            break
        length = 0
        for c in range(cols):
            if tl.load(x + r * cols + c) <= 0:
                break
            length += 1
        tl.store(out + r, length)
    tl.store(out + rows, last)


@triton.jit
def loop_return_kernel(x, out, n):
    """``out[i] = x[i] + 1`` until the first negative ``x[i]``: the kernel returns there."""
    for i in range(n):
        v = tl.load(x + i)
        if v < 0:
            return
        tl.store(out + i, v + 1)


@triton.jit
def while_true_kernel(x, out, n):
    """``while True`` left by a ``break``: the index of the first value above 10 (or n)."""
    i = 0
    while True:
        if i >= n:
            break
        if tl.load(x + i) > 10:
            break
        i += 1
    tl.store(out, i)


@triton.jit
def loading_condition_kernel(x, out, n):
    """A ``while`` whose condition loads: once the loop breaks at ``i == n`` it must not load
    ``x[n]`` (out of bounds) to test the condition again."""
    i = 0
    while tl.load(x + i) >= 0:
        i += 1
        if i >= n:
            break
    tl.store(out, i)


@triton.jit
def choose(c, a, b):
    if c:
        return a
    return b


@triton.jit
def clamp_block(v, lo, hi):
    """Two early returns on runtime scalars, then a third value."""
    if hi < lo:
        return tl.zeros_like(v)
    if tl.max(v) <= hi:
        return tl.maximum(v, lo)
    return tl.minimum(tl.maximum(v, lo), hi)


@triton.jit
def find_first(x, n, key):
    for i in range(n):
        if tl.load(x + i) == key:
            return i
    return -1


@triton.jit
def min_max(x, n):
    """A tuple returned from inside a loop, or after it."""
    lo = tl.load(x)
    hi = lo
    for i in range(1, n):
        v = tl.load(x + i)
        if v != v:
            return v, v  # NaN: both
        lo = tl.minimum(lo, v)
        hi = tl.maximum(hi, v)
    return lo, hi


@triton.jit
def helpers_kernel(x, out, n, key, lo, hi, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out, choose(n > 3, 1.5, 2.5))
    tl.store(out + 1, find_first(x, n, key).to(tl.float32))
    a, b = min_max(x, n)
    tl.store(out + 2, a)
    tl.store(out + 3, b)
    tl.store(out + 4 + offs, clamp_block(tl.load(x + offs), lo, hi))


@triton.jit(noinline=True)
def scaled_noinline(v, k):
    if k == 0:
        return v
    return v * k


def _plus_one(v):
    return v + 1


plus_one_noinline = triton.jit(_plus_one, noinline=True)


@triton.jit
def noinline_kernel(x, out, k, BLOCK: tl.constexpr):
    # scalars: Triton compiles noinline functions as calls, which take no blocks
    for i in tl.static_range(BLOCK):
        tl.store(out + i, plus_one_noinline(scaled_noinline(tl.load(x + i), k)))


@triton.jit
def static_range_kernel(x, out, limit, BLOCK: tl.constexpr):
    """Unrolled loops: compile-time ``continue``/``break``, and a runtime ``break`` (the
    iterations after it are guarded)."""
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK,), tl.float32)
    for k in tl.static_range(6):
        if k == 1:
            continue
        if k == 4:
            break
        acc += tl.load(x + k * BLOCK + offs)
    tl.store(out + offs, acc)
    total = 0.0
    for k in tl.static_range(6):
        v = tl.load(x + k * BLOCK)
        if v > limit:
            break
        total += v
    tl.store(out + BLOCK, total)
    tl.store(out + BLOCK + 1, k + 0.0)  # as in Python: the iteration that broke


@triton.jit
def exiting_branch_kernel(x, out, n):
    """A variable assigned only on the path that does not return stays defined after the
    ``if``, as in Python."""
    pid = tl.program_id(0)
    v = tl.load(x + pid)
    if v >= 0:
        y = v * 2
    else:
        if pid < n:
            return
        y = v
    tl.store(out + pid, y)


def test_early_exit_at_top_level(run: Any) -> None:
    n, block = 37, 8
    x = np.random.default_rng(0).standard_normal(64).astype(np.float32)
    out = np.full(64, np.nan, np.float32)
    run(early_exit_kernel, (8,), x, out, n, BLOCK=block)  # 3 programs past the end
    np.testing.assert_array_equal(out[:n], x[:n] * 2)
    assert np.isnan(out[n:]).all()


def test_while_with_break(run: Any) -> None:
    rows, row = 3, 8
    x = np.random.default_rng(1).uniform(0, 4, (rows, row)).astype(np.float32)
    x[0, 3] = 9.0  # row 0 breaks at 3, row 1 at 0, row 2 runs to the end
    x[1, 0] = 9.0
    out = np.full(rows * 2, np.nan, np.float32)
    run(while_break_kernel, (rows,), x, out, row, 5.0, ROW=row)
    ref = []
    for r in range(rows):
        stop = next((i for i in range(row) if x[r, i] > 5.0), row)
        ref += [x[r, :stop].sum(), stop]
    np.testing.assert_allclose(out, np.array(ref, np.float32), rtol=1e-6)


def test_for_with_continue(run: Any) -> None:
    rows, block = 5, 8
    x = np.random.default_rng(2).uniform(0, 1, (rows, block)).astype(np.float32)
    x[1, 2] = x[3, 7] = -1.0
    out = np.full(block + 1, np.nan, np.float32)
    run(for_continue_kernel, (1,), x, out, rows, BLOCK=block)
    keep = x.min(axis=1) >= 0
    np.testing.assert_allclose(out[:block], x[keep].sum(axis=0), rtol=1e-6)
    assert out[block] == (~keep).sum()


def test_while_with_continue(run: Any) -> None:
    x = np.arange(9, dtype=np.float32)
    out = np.full(1, np.nan, np.float32)
    run(while_continue_kernel, (1,), x, out, 9)
    assert out[0] == x[::2].sum()


@pytest.mark.parametrize(
    "values", [[1, 2, 3, 4], [1, -1, 2, 3], [1, -1, 200, 3], [-1, 300, 1, 1], [2, 2, -5, -5]]
)
def test_values_assigned_before_leaving(run: Any, values: list[float]) -> None:
    x = np.array(values, np.float32)
    out = np.full(2, np.nan, np.float32)
    run(values_set_before_exits_kernel, (1,), x, out, len(x))
    acc, found = 1.0, -1
    for v in x:
        if v < 0:
            acc = 5.0
            continue
        if v > 100:
            found = 7
            break
        acc *= 2.0
    np.testing.assert_array_equal(out, [acc, found])


@pytest.mark.parametrize("zero_row", [None, 2])
def test_break_in_the_inner_of_nested_loops(run: Any, zero_row: int | None) -> None:
    rows, cols = 4, 5
    x = np.array([[1, 2, -1, 3, 4], [5, 6, 7, 8, 9], [-2, 1, 1, 1, 1], [3, 3, 0, 3, 3]], np.int32)
    if zero_row is not None:
        x[zero_row, 0] = 0
    out = np.full(rows + 1, -1, np.int32)
    run(nested_break_kernel, (1,), x, out, rows, cols)
    ref = np.full(rows + 1, -1, np.int32)
    last = -1
    for r in range(rows):
        last = r
        if x[r, 0] == 0:
            break
        ref[r] = next((c for c in range(cols) if x[r, c] <= 0), cols)
    ref[rows] = last
    np.testing.assert_array_equal(out, ref)


@pytest.mark.parametrize("negative_at", [None, 0, 4])
def test_return_inside_a_loop(run: Any, negative_at: int | None) -> None:
    n = 7
    x = np.arange(1, n + 1, dtype=np.float32)
    if negative_at is not None:
        x[negative_at] = -1.0
    out = np.full(n, np.nan, np.float32)
    run(loop_return_kernel, (1,), x, out, n)
    stop = n if negative_at is None else negative_at
    np.testing.assert_array_equal(out[:stop], x[:stop] + 1)
    assert np.isnan(out[stop:]).all()


@pytest.mark.parametrize("n", [0, 6])
def test_while_true_with_break(run: Any, n: int) -> None:
    x = np.array([1, 2, 3, 11, 4, 5], np.float32)
    out = np.full(1, -1, np.int32)
    run(while_true_kernel, (1,), x, out, n)
    assert out[0] == (3 if n else 0)


@pytest.mark.parametrize("negative_at", [2, None])
def test_condition_not_evaluated_after_break(run: Any, negative_at: int | None) -> None:
    n = 5
    x = np.arange(n, dtype=np.float32)
    if negative_at is not None:
        x[negative_at] = -1.0
    out = np.full(1, -1, np.int32)
    run(loading_condition_kernel, (1,), x, out, n)
    assert out[0] == (n if negative_at is None else negative_at)


@pytest.mark.parametrize(("key", "lo", "hi"), [(3.0, 1.0, 2.0), (42.0, 0.0, 9.0), (5.0, 2.0, 1.0)])
def test_helpers_with_several_returns(run: Any, key: float, lo: float, hi: float) -> None:
    block, n = 8, 6
    x = np.array([4, 3, 7, 1, 5, 3, 0, 2], np.float32)
    out = np.full(4 + block, np.nan, np.float32)
    run(helpers_kernel, (1,), x, out, n, key, lo, hi, BLOCK=block)
    hits = np.flatnonzero(x[:n] == key)
    clamped = np.zeros(block, np.float32) if hi < lo else np.clip(x, lo, hi)
    ref = [1.5, hits[0] if len(hits) else -1, x[:n].min(), x[:n].max(), *clamped]
    np.testing.assert_array_equal(out, np.array(ref, np.float32))


def test_tuple_returned_from_a_loop(run: Any) -> None:
    x = np.array([4, 3, np.nan, 1, 5, 3, 0, 2], np.float32)
    out = np.full(12, -7.0, np.float32)
    run(helpers_kernel, (1,), x, out, 6, 1.0, 0.0, 9.0, BLOCK=8)
    assert np.isnan(out[2]) and np.isnan(out[3])
    assert out[1] == 3


@pytest.mark.parametrize("k", [0, 3])
def test_noinline_helpers(run: Any, k: int) -> None:
    x = np.arange(8, dtype=np.float32)
    out = np.full(8, np.nan, np.float32)
    run(noinline_kernel, (1,), x, out, k, BLOCK=8)
    np.testing.assert_array_equal(out, (x if k == 0 else x * k) + 1)


@pytest.mark.parametrize("limit", [100.0, 2.5])
def test_break_and_continue_in_static_range(run: Any, limit: float) -> None:
    block = 4
    x = np.repeat(np.arange(6, dtype=np.float32), block).reshape(6, block)
    out = np.full(block + 2, np.nan, np.float32)
    run(static_range_kernel, (1,), x, out, limit, BLOCK=block)
    np.testing.assert_array_equal(out[:block], x[[0, 2, 3]].sum(axis=0))
    firsts = x[:, 0]
    stop = next((k for k in range(6) if firsts[k] > limit), 6)
    assert out[block] == firsts[:stop].sum()
    assert out[block + 1] == min(stop, 5)


def test_variable_of_the_path_that_does_not_return(run: Any) -> None:
    x = np.array([1.0, -2.0, 3.0, -4.0], np.float32)
    out = np.full(4, np.nan, np.float32)
    run(exiting_branch_kernel, (4,), x, out, 2)  # program 1 returns, program 3 does not
    np.testing.assert_array_equal(out, [2.0, np.nan, 6.0, -4.0])


def early_exit_warmups() -> list[Any]:
    """The kernels above compiled once each (compile-only: tests/cuda and tests/mlir check the
    C++ and the PTX)."""
    f32 = np.zeros(64, np.float32)
    i32 = np.zeros(64, np.int32)
    return [
        early_exit_kernel.warmup(f32, f32, 37, BLOCK=8, grid=(8,)),
        while_break_kernel.warmup(f32, f32, 8, 5.0, ROW=8, grid=(3,)),
        for_continue_kernel.warmup(f32, f32, 5, BLOCK=8, grid=(1,)),
        while_continue_kernel.warmup(f32, f32, 9, grid=(1,)),
        values_set_before_exits_kernel.warmup(f32, f32, 4, grid=(1,)),
        nested_break_kernel.warmup(i32, i32, 4, 5, grid=(1,)),
        loop_return_kernel.warmup(f32, f32, 7, grid=(1,)),
        while_true_kernel.warmup(f32, i32, 6, grid=(1,)),
        loading_condition_kernel.warmup(f32, i32, 5, grid=(1,)),
        helpers_kernel.warmup(f32, f32, 6, 3.0, 1.0, 2.0, BLOCK=8, grid=(1,)),
        noinline_kernel.warmup(f32, f32, 3, BLOCK=8, grid=(1,)),
        static_range_kernel.warmup(f32, f32, 2.5, BLOCK=4, grid=(1,)),
        exiting_branch_kernel.warmup(f32, f32, 2, grid=(4,)),
    ]
