"""Issue 10's "done when" kernels, written as a Triton user writes them, on every backend: a
``while`` loop, a loop with ``break``/``continue`` after an early ``return``, a ``cumsum``, an
``argmax``, a Welford ``tl.reduce`` over a 3-tuple, a global sum through ``atomic_add``, a
dropout with ``tl.rand`` (Triton's tutorial 04) and a rotary embedding built from
``reshape``/``split``/``join``. References are NumPy, computed from the inputs."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl

pytestmark = pytest.mark.execution


def _gpu(run: Any) -> bool:
    return run.backend in ("cuda", "mlir")


# ---- while: Collatz steps per element


@triton.jit
def collatz_kernel(x_ptr, steps_ptr, n):
    pid = tl.program_id(0)
    if pid >= n:
        return
    v = tl.load(x_ptr + pid)
    steps = 0
    while v != 1:
        v = tl.where(v % 2 == 0, v // 2, 3 * v + 1)
        steps += 1
    tl.store(steps_ptr + pid, steps)


def _collatz(v: int) -> int:
    steps = 0
    while v != 1:
        v = v // 2 if v % 2 == 0 else 3 * v + 1
        steps += 1
    return steps


def test_while_loop(run: Any) -> None:
    x = np.array([1, 2, 3, 7, 27, 97, 12], np.int32)
    steps = np.full(x.size, -1, np.int32)
    run(collatz_kernel, (x.size + 2,), x, steps, x.size)
    np.testing.assert_array_equal(steps, [_collatz(int(v)) for v in x])


# ---- early return, continue and break: sum a row's positive values up to the first zero


@triton.jit
def positive_prefix_kernel(x_ptr, out_ptr, rows, cols):
    row = tl.program_id(0)
    if row >= rows:
        return
    total = 0.0
    for j in range(cols):
        v = tl.load(x_ptr + row * cols + j)
        if v < 0:
            continue
        if v == 0:
            break
        total += v
    tl.store(out_ptr + row, total)


def test_break_continue_and_early_return(run: Any) -> None:
    rng = np.random.default_rng(10)
    rows, cols = 5, 12
    x = rng.integers(-3, 6, (rows, cols)).astype(np.float32)
    x[1, :] = np.abs(x[1, :]) + 1  # a row without a zero
    out = np.full(rows + 3, -1.0, np.float32)
    run(positive_prefix_kernel, (rows + 3,), x, out, rows, cols)
    expected = []
    for r in x:
        total = 0.0
        for v in r:
            if v < 0:
                continue
            if v == 0:
                break
            total += v
        expected.append(total)
    np.testing.assert_array_equal(out[:rows], expected)
    np.testing.assert_array_equal(out[rows:], -1.0)


# ---- cumsum and argmax along rows


@triton.jit
def cumsum_argmax_kernel(x_ptr, cum_ptr, arg_ptr, N: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + row * N + offs)
    tl.store(cum_ptr + row * N + offs, tl.cumsum(x, axis=0))
    tl.store(arg_ptr + row, tl.argmax(x, axis=0))


def test_cumsum_and_argmax(run: Any) -> None:
    rows, n = 3, 128
    x = np.random.default_rng(11).integers(-50, 50, (rows, n)).astype(np.int32)
    cum = np.zeros_like(x)
    arg = np.full(rows, -1, np.int32)
    run(cumsum_argmax_kernel, (rows,), x, cum, arg, N=n)
    np.testing.assert_array_equal(cum, np.cumsum(x, axis=1))
    np.testing.assert_array_equal(arg, np.argmax(x, axis=1))  # the first of ties, as Triton


# ---- Welford over a 3-tuple


@triton.jit
def welford_combine(mean_a, m2_a, n_a, mean_b, m2_b, n_b):
    n = n_a + n_b
    w = tl.where(n == 0, 0.0, n_b / tl.where(n == 0, 1.0, n))
    delta = mean_b - mean_a
    return mean_a + delta * w, m2_a + m2_b + delta * delta * n_a * w, n


@triton.jit
def welford_kernel(x_ptr, mean_ptr, var_ptr, n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + row * n + offs, mask=mask, other=0.0)
    weight = mask.to(tl.float32)
    mean, m2, count = tl.reduce((x, tl.zeros_like(x), weight), 0, welford_combine)
    tl.store(mean_ptr + row, mean)
    tl.store(var_ptr + row, m2 / count)


def test_welford_reduce_over_a_3_tuple(run: Any) -> None:
    rows, n = 4, 200
    x = (np.random.default_rng(12).standard_normal((rows, n)) * 3 + 5).astype(np.float32)
    mean = np.zeros(rows, np.float32)
    var = np.zeros(rows, np.float32)
    run(welford_kernel, (rows,), x, mean, var, n, BLOCK=256)
    np.testing.assert_allclose(mean, x.astype(np.float64).mean(axis=1), rtol=1e-5)
    np.testing.assert_allclose(var, x.astype(np.float64).var(axis=1), rtol=1e-4)


# ---- a global sum through atomic_add


@triton.jit
def global_sum_kernel(x_ptr, total_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0)
    tl.atomic_add(total_ptr, tl.sum(x, axis=0))


def test_atomic_global_sum(run: Any) -> None:
    n = 1_000_000 if _gpu(run) else 5000
    x = np.random.default_rng(13).integers(-(2**20), 2**20, n).astype(np.int64)
    total = np.zeros(1, np.int64)
    block = 1024 if _gpu(run) else 512
    run(global_sum_kernel, (triton.cdiv(n, block),), x, total, n, BLOCK=block)
    assert int(total[0]) == int(x.sum())


# ---- dropout with tl.rand (tutorial 04's seeded dropout)


@triton.jit
def rand_kernel(out_ptr, seed, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.rand(seed, offs), mask=offs < n)


@triton.jit
def seeded_dropout_kernel(x_ptr, out_ptr, n, p, seed, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    random = tl.rand(seed, offs)
    keep = random > p
    tl.store(out_ptr + offs, tl.where(keep, x / (1 - p), 0.0), mask=mask)


def test_seeded_dropout(run: Any) -> None:
    n, p, seed, block = 3000, 0.3, 1234, 512
    x = np.random.default_rng(14).standard_normal(n).astype(np.float32) + 2.0
    out = np.zeros(n, np.float32)
    rand = np.zeros(n, np.float32)
    grid = (triton.cdiv(n, block),)
    run(seeded_dropout_kernel, grid, x, out, n, p, seed, BLOCK=block)
    run(rand_kernel, grid, rand, seed, n, BLOCK=block)
    keep = rand > np.float32(p)
    np.testing.assert_allclose(out[keep], x[keep] / np.float32(1 - p), rtol=1e-6)
    assert (out[~keep] == 0).all()
    assert abs(keep.mean() - (1 - p)) < 0.05  # the uniform numbers keep about 1 - p


# ---- rotary embedding through reshape / split / join


@triton.jit
def rotary_kernel(x_ptr, cos_ptr, sin_ptr, out_ptr, ROWS: tl.constexpr, D: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)[:, None]
    x = tl.load(x_ptr + rows * D + tl.arange(0, D)[None, :])
    half = tl.arange(0, D // 2)[None, :]
    cos = tl.load(cos_ptr + rows * (D // 2) + half)
    sin = tl.load(sin_ptr + rows * (D // 2) + half)
    even, odd = tl.split(tl.reshape(x, (ROWS, D // 2, 2)))
    rotated = tl.join(even * cos - odd * sin, even * sin + odd * cos)
    tl.store(out_ptr + rows * D + tl.arange(0, D)[None, :], tl.reshape(rotated, (ROWS, D)))


def test_rotary_embedding(run: Any) -> None:
    rows, d, block_rows = 16, 32, 8
    rng = np.random.default_rng(15)
    x = rng.standard_normal((rows, d)).astype(np.float32)
    angle = rng.uniform(0, 2 * np.pi, (rows, d // 2))
    cos, sin = np.cos(angle).astype(np.float32), np.sin(angle).astype(np.float32)
    out = np.zeros_like(x)
    run(rotary_kernel, (rows // block_rows,), x, cos, sin, out, ROWS=block_rows, D=d)
    even, odd = x[:, 0::2].astype(np.float64), x[:, 1::2].astype(np.float64)
    expected = np.empty((rows, d))
    expected[:, 0::2] = even * cos - odd * sin
    expected[:, 1::2] = even * sin + odd * cos
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-5)
