"""The kernels of ``extra_kernels.py`` on gpusim against float64 NumPy references, and the
layout situations they exercise."""

from __future__ import annotations

import numpy as np
import pytest

from tests.dot_precision import f32_dot_tol
from tests.gpusim import extra_kernels as extra
from tests.gpusim.util import cdiv, nans, randn, simulate

pytestmark = pytest.mark.execution

WARPS = [1, 4, 8]


def close(got: np.ndarray, ref: np.ndarray, rtol: float = 1e-5, atol: float = 1e-5) -> None:
    np.testing.assert_allclose(got, ref.astype(np.float32), rtol=rtol, atol=atol)


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(99)


def c_div(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """C (truncating) quotient and remainder."""
    a64, b64 = a.astype(np.int64), b.astype(np.int64)
    q = np.trunc(a64 / b64).astype(np.int64)
    return q, a64 - q * b64


@pytest.mark.parametrize("num_warps", WARPS)
@pytest.mark.parametrize(("bm", "bn"), [(1, 16), (8, 1), (32, 4), (64, 128), (2, 256)])
def test_reduce_2d(rng: np.random.Generator, bm: int, bn: int, num_warps: int) -> None:
    m, n = max(1, bm - 1), max(1, bn - 3)
    x = randn(rng, m, n)
    out0, out1 = nans(n), nans(m)
    simulate(extra.reduce_2d_kernel, (1,), x, out0, out1, m, n, num_warps=num_warps, BM=bm, BN=bn)
    close(out0, x.astype(np.float64).sum(axis=0))
    close(out1, x.max(axis=1))


@pytest.mark.parametrize("num_warps", WARPS)
@pytest.mark.parametrize(("bm", "bn"), [(1, 16), (4, 64), (32, 8), (16, 256)])
def test_softmax_2d(rng: np.random.Generator, bm: int, bn: int, num_warps: int) -> None:
    m, n = 7, bn - 1
    x, out = randn(rng, m, n), nans(m, n)
    simulate(
        extra.softmax_2d_kernel, (cdiv(m, bm),), x, out, m, n, num_warps=num_warps, BM=bm, BN=bn
    )
    e = np.exp(x - x.max(axis=1, keepdims=True).astype(np.float64))
    close(out, e / e.sum(axis=1, keepdims=True))


@pytest.mark.parametrize("num_warps", WARPS)
@pytest.mark.parametrize("b", [1, 4, 16, 64, 128])
def test_layout_conversions(rng: np.random.Generator, b: int, num_warps: int) -> None:
    x = randn(rng, b, b)
    out = nans(b)
    simulate(extra.row_plus_column_sums_kernel, (1,), x, out, num_warps=num_warps, B=b)
    close(out, x.astype(np.float64).sum(axis=0) + x.sum(axis=1))
    xi = rng.integers(-3, 4, (b, b)).astype(np.float32)  # exact sums: no sign flips by rounding
    out = nans(b)
    simulate(extra.bool_convert_kernel, (1,), xi, out, num_warps=num_warps, B=b)
    m0, m1 = xi.sum(axis=0) > 0, xi.sum(axis=1) > 0
    close(out, (m0 & m1) + 2.0 * m0)


@pytest.mark.parametrize("num_warps", WARPS)
@pytest.mark.parametrize("block", [16, 128, 1024])
def test_int_ops(rng: np.random.Generator, block: int, num_warps: int) -> None:
    n = 1000
    a = rng.integers(-1000, 1000, n).astype(np.int32)
    b = rng.integers(-50, 50, n).astype(np.int32)
    b[b == 0] = 7
    out = np.zeros(n, np.int32)
    simulate(
        extra.int_ops_kernel, (cdiv(n, block),), a, b, out, n, num_warps=num_warps, BLOCK=block
    )
    q, r = c_div(a, b)
    a64, b64 = a.astype(np.int64), b.astype(np.int64)
    ref = q + r * 3 + (a64 & b64) + (a64 | b64) - (a64 ^ b64)
    ref = (
        ref
        + np.maximum(a64, b64) * np.minimum(a64, b64)
        - np.abs(a64)
        + np.where(a64 > b64, a64, -b64)
    )
    np.testing.assert_array_equal(out, ref.astype(np.int32))


@pytest.mark.parametrize("num_warps", WARPS)
@pytest.mark.parametrize("block", [16, 128, 1024])
def test_int_reductions(rng: np.random.Generator, block: int, num_warps: int) -> None:
    n = block - 3 if block > 3 else block
    x = rng.integers(-(10**6), 10**6, (3, n)).astype(np.int32)
    out = np.zeros(9, np.int32)
    simulate(extra.int_reduce_kernel, (3,), x, out, n, num_warps=num_warps, BLOCK=block)
    ref = np.stack([x.astype(np.int64).sum(axis=1), x.max(axis=1), x.min(axis=1)], axis=1)
    np.testing.assert_array_equal(out, ref.reshape(-1).astype(np.int32))


@pytest.mark.parametrize("num_warps", WARPS)
def test_casts(rng: np.random.Generator, num_warps: int) -> None:
    n = 300
    x = randn(rng, n) * np.float32(100)
    x[:5] = [np.nan, 3e10, -3e10, -0.5, 2.5]
    out_i, out_f = np.zeros(n, np.int32), nans(n)
    simulate(
        extra.casts_kernel, (cdiv(n, 128),), x, out_i, out_f, n, num_warps=num_warps, BLOCK=128
    )
    i = np.where(
        np.isnan(x), 0, np.clip(np.trunc(x.astype(np.float64)), -(2**31), 2**31 - 1)
    ).astype(np.int64)
    np.testing.assert_array_equal(out_i, (i * 2).astype(np.int32))  # i32 multiply wraps
    close(out_f, i + (x > 0))


@pytest.mark.parametrize("num_warps", WARPS)
def test_float_math(rng: np.random.Generator, num_warps: int) -> None:
    n = 1000
    v = randn(rng, n) * np.float32(3)
    out = nans(n)
    simulate(extra.float_math_kernel, (cdiv(n, 256),), v, out, n, num_warps=num_warps, BLOCK=256)
    x = v.astype(np.float64)
    a = np.abs(x) + 0.5
    ref = np.exp2(x) * 0.1 + np.log(a) + np.sqrt(a) + 1 / np.sqrt(a) + np.sin(x) + np.cos(x)
    ref = ref + np.floor(x) - np.ceil(x) + np.fmod(x, 0.75) + np.log2(a) + np.clip(x, -0.5, 0.5)
    ref = ref + np.minimum(x, 0.25) + 1 / (1 + np.exp(-x)) + x / a + x
    close(out, ref, rtol=1e-4, atol=1e-4)


DOT_SHAPES = [
    (16, 16, 16),
    (32, 16, 8),
    (16, 64, 32),
    (64, 32, 16),
    (1, 16, 4),
    (16, 1, 16),
    (2, 2, 2),
]


@pytest.mark.parametrize("num_warps", WARPS)
@pytest.mark.parametrize(("m", "n", "k"), DOT_SHAPES)
def test_dots(rng: np.random.Generator, m: int, n: int, k: int, num_warps: int) -> None:
    a, b, c = randn(rng, m, k), randn(rng, k, n), randn(rng, n, n)
    ab = a.astype(np.float64) @ b
    out = nans(m, n)
    simulate(extra.dot_chain_kernel, (1,), a, b, c, out, num_warps=num_warps, M=m, N=n, K=k)
    close(out, ab @ c + ab, **f32_dot_tol("gpusim", n, scale=k**0.5))
    out = nans(n + m)
    simulate(extra.dot_then_reduce_kernel, (1,), a, b, out, num_warps=num_warps, M=m, N=n, K=k)
    # a column sum adds m dot results
    close(out, np.concatenate([ab.sum(axis=0), ab.max(axis=1)]), **f32_dot_tol("gpusim", k * m))
    at, bt = np.ascontiguousarray(a.T), np.ascontiguousarray(b.T)
    out = nans(m, n)
    simulate(extra.dot_transposed_kernel, (1,), at, bt, out, num_warps=num_warps, M=m, N=n, K=k)
    close(out, ab, **f32_dot_tol("gpusim", k))


@pytest.mark.parametrize("num_warps", WARPS)
@pytest.mark.parametrize(("bm", "bn"), [(1, 8), (4, 64), (32, 1), (128, 64)])
def test_transpose(rng: np.random.Generator, bm: int, bn: int, num_warps: int) -> None:
    m, n = 45, 70
    x, out = randn(rng, m, n), nans(n, m)
    simulate(
        extra.transpose_kernel,
        (cdiv(m, bm), cdiv(n, bn)),
        x,
        out,
        m,
        n,
        num_warps=num_warps,
        BM=bm,
        BN=bn,
    )
    np.testing.assert_array_equal(out, x.T)


@pytest.mark.parametrize("num_warps", WARPS)
@pytest.mark.parametrize("b", [1, 16, 128])
def test_gather_rows(rng: np.random.Generator, b: int, num_warps: int) -> None:
    x, idx = randn(rng, 50, 37), rng.integers(0, 50, b).astype(np.int32)
    out = nans(b, 37)
    simulate(extra.gather_rows_kernel, (1,), x, idx, out, 37, num_warps=num_warps, B=b, BN=64)
    np.testing.assert_array_equal(out, x[idx])


@pytest.mark.parametrize("num_warps", WARPS)
@pytest.mark.parametrize(("bm", "bn"), [(1, 16), (8, 4), (32, 32), (4, 128)])
def test_col_sum_loop(rng: np.random.Generator, bm: int, bn: int, num_warps: int) -> None:
    m, n = 13, 9
    x, out = randn(rng, m, n), nans(n)
    simulate(
        extra.col_sum_loop_kernel, (cdiv(n, bn),), x, out, m, n, num_warps=num_warps, BM=bm, BN=bn
    )
    close(out, x.astype(np.float64).sum(axis=0))


def test_num_programs_of_a_3d_grid() -> None:
    out = np.full(60, -1, np.int32)
    simulate(extra.num_programs_kernel, (3, 4, 5), out)
    np.testing.assert_array_equal(out, np.arange(60) + 5000)


# ---- loop-carried pointers stored through with a value of another layout ----


@pytest.mark.parametrize("num_warps", WARPS)
@pytest.mark.parametrize("b", [4, 16, 64])
def test_running_column_sums(rng: np.random.Generator, b: int, num_warps: int) -> None:
    steps = 3
    x, out = randn(rng, steps, b, b), nans(steps * b)
    simulate(extra.running_column_sums_kernel, (1,), x, out, steps, num_warps=num_warps, B=b)
    close(out, np.cumsum(x.astype(np.float64).sum(axis=1), axis=0).reshape(-1), atol=1e-4)


@pytest.mark.parametrize(("b", "num_warps"), [(16, 1), (16, 4), (32, 4), (32, 8)])
def test_running_matmul(rng: np.random.Generator, b: int, num_warps: int) -> None:
    steps = 3
    a, bm, out = randn(rng, b, b), randn(rng, b, b), nans(steps, b, b)
    simulate(extra.running_matmul_kernel, (1,), a, bm, out, steps, num_warps=num_warps, B=b)
    ab = a.astype(np.float64) @ bm
    close(out, np.stack([ab * (s + 1) for s in range(steps)]), **f32_dot_tol("gpusim", b * steps))
