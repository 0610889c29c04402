"""Every kernel of ``tests/kernels.py`` on every backend (``conftest.BACKENDS``), for 1, 4 and 8
warps and many shapes, against a float64 NumPy reference. Outputs start as NaN so an element the
kernel fails to write fails."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests import kernels
from tests.dot_precision import f32_dot_tol
from tests.gpusim.util import cdiv, nans, randn

pytestmark = pytest.mark.execution

WARPS = [1, 4, 8]


def close(got: np.ndarray, ref: np.ndarray, rtol: float = 1e-5, atol: float = 1e-6) -> None:
    np.testing.assert_allclose(got, ref.astype(np.float32), rtol=rtol, atol=atol)


def pow2(n: int, least: int = 16) -> int:
    return max(least, 1 << (max(n, 1) - 1).bit_length())


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(1234)


# ---- 1-D elementwise ----

SIZES_1D = [(1, 128), (1000, 128), (1000, 256), (4097, 1024), (5000, 4096), (33, 64)]


@pytest.mark.parametrize("num_warps", WARPS)
@pytest.mark.parametrize(("n", "block"), SIZES_1D)
def test_add(run: Any, rng: np.random.Generator, n: int, block: int, num_warps: int) -> None:
    x, y, out = randn(rng, n), randn(rng, n), nans(n)
    run(kernels.add_kernel, (cdiv(n, block),), x, y, out, n, num_warps=num_warps, BLOCK=block)
    close(out, x.astype(np.float64) + y)


@pytest.mark.parametrize("num_warps", WARPS)
@pytest.mark.parametrize(("n", "block"), SIZES_1D)
def test_copy(run: Any, rng: np.random.Generator, n: int, block: int, num_warps: int) -> None:
    x, out = randn(rng, n), nans(n)
    run(kernels.copy_kernel, (cdiv(n, block),), x, out, n, num_warps=num_warps, BLOCK=block)
    np.testing.assert_array_equal(out, x)


def special(rng: np.random.Generator, n: int) -> np.ndarray:
    """Random values with NaN, infinities and signed zeros mixed in."""
    x = randn(rng, n)
    x[: min(n, 6)] = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, 3.0], np.float32)[: min(n, 6)]
    return x


@pytest.mark.parametrize("num_warps", WARPS)
@pytest.mark.parametrize(("n", "block"), [(1000, 128), (77, 64), (3000, 4096)])
def test_relu(run: Any, rng: np.random.Generator, n: int, block: int, num_warps: int) -> None:
    x, out = special(rng, n), nans(n)
    run(kernels.relu_kernel, (cdiv(n, block),), x, out, n, num_warps=num_warps, BLOCK=block)
    close(out, np.fmax(x.astype(np.float64), 0.0))  # tl.maximum ignores NaN: relu(NaN) = 0


@pytest.mark.parametrize("num_warps", WARPS)
@pytest.mark.parametrize(("n", "block"), [(1000, 128), (77, 64), (3000, 4096)])
def test_leaky_relu(run: Any, rng: np.random.Generator, n: int, block: int, num_warps: int) -> None:
    x, out = special(rng, n), nans(n)
    alpha = 0.125
    run(
        kernels.leaky_relu_kernel,
        (cdiv(n, block),),
        x,
        out,
        n,
        alpha,
        num_warps=num_warps,
        BLOCK=block,
    )
    x64 = x.astype(np.float64)
    close(out, np.where(x64 > 0, x64, x64 * alpha))


@pytest.mark.parametrize("num_warps", WARPS)
@pytest.mark.parametrize(("n", "block"), [(1000, 128), (77, 64), (3000, 4096)])
def test_sigmoid(run: Any, rng: np.random.Generator, n: int, block: int, num_warps: int) -> None:
    x, out = special(rng, n) * np.float32(10), nans(n)
    run(kernels.sigmoid_kernel, (cdiv(n, block),), x, out, n, num_warps=num_warps, BLOCK=block)
    with np.errstate(over="ignore"):
        close(out, 1.0 / (1.0 + np.exp(-x.astype(np.float64))))


@pytest.mark.parametrize("num_warps", WARPS)
@pytest.mark.parametrize("fill", [1.5, -3.25])
@pytest.mark.parametrize("block", [16, 128, 4096])
def test_factories(run: Any, block: int, fill: float, num_warps: int) -> None:
    out = nans(block)
    run(kernels.factories_kernel, (1,), out, fill, num_warps=num_warps, BLOCK=block)
    close(out, np.full(block, 2.5 * fill))


# ---- 2-D tiles ----


@pytest.mark.parametrize("num_warps", WARPS)
@pytest.mark.parametrize(
    ("m", "n", "bm", "bn"), [(37, 53, 16, 32), (64, 64, 64, 64), (5, 300, 4, 128), (129, 3, 32, 4)]
)
def test_matrix_add_2d(
    run: Any, rng: np.random.Generator, m: int, n: int, bm: int, bn: int, num_warps: int
) -> None:
    x, y, out = randn(rng, m, n), randn(rng, m, n), nans(m, n)
    run(
        kernels.matrix_add_2d_kernel,
        (cdiv(m, bm), cdiv(n, bn)),
        x,
        y,
        out,
        m,
        n,
        num_warps=num_warps,
        BM=bm,
        BN=bn,
    )
    close(out, x.astype(np.float64) + y)


# ---- reductions over a row ----

ROWS = [(3, 1), (5, 10), (7, 100), (4, 1000), (2, 4096), (9, 31)]


@pytest.mark.parametrize("num_warps", WARPS)
@pytest.mark.parametrize(("m", "n"), ROWS)
@pytest.mark.parametrize(
    ("kernel", "ref"),
    [
        (kernels.row_sum_kernel, np.sum),
        (kernels.row_max_kernel, np.max),
        (kernels.row_min_kernel, np.min),
    ],
    ids=["sum", "max", "min"],
)
def test_row_reductions(
    run: Any, rng: np.random.Generator, kernel: object, ref: object, m: int, n: int, num_warps: int
) -> None:
    x, out = randn(rng, m, n), nans(m)
    run(kernel, (m,), x, out, n, num_warps=num_warps, BLOCK=pow2(n))
    close(out, ref(x.astype(np.float64), axis=1), rtol=1e-5, atol=1e-5)  # type: ignore[operator]


def softmax_ref(x: np.ndarray) -> np.ndarray:
    x64 = x.astype(np.float64)
    e = np.exp(x64 - x64.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


@pytest.mark.parametrize("num_warps", WARPS)
@pytest.mark.parametrize(("m", "n"), ROWS)
def test_softmax(run: Any, rng: np.random.Generator, m: int, n: int, num_warps: int) -> None:
    x, out = randn(rng, m, n), nans(m, n)
    run(kernels.softmax_kernel, (m,), x, out, n, num_warps=num_warps, BLOCK=pow2(n))
    close(out, softmax_ref(x))


@pytest.mark.parametrize("num_warps", WARPS)
@pytest.mark.parametrize(
    ("m", "n", "in_stride", "out_stride"),
    [(5, 10, 12, 16), (3, 781, 800, 781), (2, 1024, 1024, 1030)],
)
def test_fused_softmax(
    run: Any,
    rng: np.random.Generator,
    m: int,
    n: int,
    in_stride: int,
    out_stride: int,
    num_warps: int,
) -> None:
    x = randn(rng, m, in_stride)
    out = nans(m, out_stride)
    run(
        kernels.fused_softmax_kernel,
        (m,),
        out,
        x,
        in_stride,
        out_stride,
        m,
        n,
        num_warps=num_warps,
        BLOCK_SIZE=pow2(n),
    )
    close(out[:, :n], softmax_ref(x[:, :n]))
    assert np.isnan(out[:, n:]).all()  # nothing written past the row


@pytest.mark.parametrize("num_warps", WARPS)
@pytest.mark.parametrize(("m", "n"), ROWS)
def test_layer_norm_no_sqrt(
    run: Any, rng: np.random.Generator, m: int, n: int, num_warps: int
) -> None:
    x, out = randn(rng, m, n) + np.float32(3), nans(m, n)
    eps = 1e-5
    run(kernels.layer_norm_no_sqrt_kernel, (m,), x, out, n, eps, num_warps=num_warps, BLOCK=pow2(n))
    x64 = x.astype(np.float64)
    d = x64 - x64.mean(axis=1, keepdims=True)
    close(out, d / ((d * d).mean(axis=1, keepdims=True) + eps), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("num_warps", WARPS)
@pytest.mark.parametrize(
    ("m", "n", "block", "chunks"),
    [(3, 64, 16, 4), (4, 50, 16, 4), (2, 1000, 256, 4), (5, 1, 32, 2)],
)
def test_long_row_sum(
    run: Any, rng: np.random.Generator, m: int, n: int, block: int, chunks: int, num_warps: int
) -> None:
    x, out = randn(rng, m, n), nans(m)
    run(
        kernels.long_row_sum_kernel,
        (m,),
        x,
        out,
        n,
        num_warps=num_warps,
        BLOCK=block,
        CHUNKS=chunks,
    )
    close(out, x.astype(np.float64).sum(axis=1), atol=1e-5)


# ---- runtime loops ----


@pytest.mark.parametrize("num_warps", WARPS)
@pytest.mark.parametrize("k", [0, 1, 7, 100])
def test_runtime_sum(run: Any, rng: np.random.Generator, k: int, num_warps: int) -> None:
    x, out = randn(rng, max(k, 1)), nans(1)
    run(kernels.runtime_sum_kernel, (1,), x, out, k, num_warps=num_warps)
    close(out, np.array([x[:k].astype(np.float64).sum()]), atol=1e-5)


@pytest.mark.parametrize("num_warps", WARPS)
@pytest.mark.parametrize(("n", "block"), [(100, 16), (64, 64), (5, 32), (1000, 128), (0, 16)])
def test_runtime_block_sum(
    run: Any, rng: np.random.Generator, n: int, block: int, num_warps: int
) -> None:
    x, out = randn(rng, max(n, 1)), nans(block)
    run(kernels.runtime_block_sum_kernel, (1,), x, out, n, num_warps=num_warps, BLOCK=block)
    padded = np.zeros(cdiv(n, block) * block)
    padded[:n] = x[:n]
    close(out, padded.reshape(-1, block).sum(axis=0), atol=1e-5)


@pytest.mark.parametrize("num_warps", WARPS)
@pytest.mark.parametrize(("m", "n"), [(3, 4), (1, 1), (0, 5), (6, 0), (10, 13)])
def test_nested_loop(run: Any, rng: np.random.Generator, m: int, n: int, num_warps: int) -> None:
    x, out = randn(rng, max(m * n, 1)), nans(1)
    run(kernels.nested_loop_kernel, (1,), x, out, m, n, num_warps=num_warps)
    rows = x[: m * n].astype(np.float64).reshape(m, n).sum(axis=1)
    close(out, np.array([(rows * rows).sum()]), rtol=1e-5, atol=1e-5)


# ---- matmuls ----


def matmul_inputs(rng: np.random.Generator, m: int, n: int, k: int) -> tuple[np.ndarray, ...]:
    a, b = randn(rng, m, k), randn(rng, k, n)
    return a, b, nans(m, n), a.astype(np.float64) @ b


@pytest.mark.parametrize("num_warps", WARPS)
@pytest.mark.parametrize(("m", "n", "k", "bn"), [(5, 7, 3, 8), (16, 100, 8, 128), (3, 1, 1, 16)])
def test_naive_matmul(
    run: Any, rng: np.random.Generator, m: int, n: int, k: int, bn: int, num_warps: int
) -> None:
    a, b, c, ref = matmul_inputs(rng, m, n, k)
    run(kernels.naive_matmul_kernel, (m,), a, b, c, m, n, num_warps=num_warps, K=k, BN=bn)
    close(c, ref, rtol=1e-5, atol=1e-5)


MATMUL_SHAPES = [
    # (M, N, K, BM, BN, BK)
    (64, 64, 64, 32, 32, 16),
    (33, 47, 29, 16, 32, 8),
    (17, 5, 70, 16, 16, 32),
    (100, 36, 16, 64, 16, 16),
    (8, 130, 9, 16, 64, 16),
]


@pytest.mark.parametrize("num_warps", WARPS)
@pytest.mark.parametrize(("m", "n", "k", "bm", "bn", "bk"), MATMUL_SHAPES)
def test_tiled_matmul(
    run: Any,
    rng: np.random.Generator,
    m: int,
    n: int,
    k: int,
    bm: int,
    bn: int,
    bk: int,
    num_warps: int,
) -> None:
    a, b, c, ref = matmul_inputs(rng, m, n, k)
    run(
        kernels.tiled_matmul_kernel,
        (cdiv(m, bm), cdiv(n, bn)),
        a,
        b,
        c,
        m,
        n,
        num_warps=num_warps,
        K=k,
        BM=bm,
        BN=bn,
        BK=bk,
    )
    close(c, ref, **f32_dot_tol(run.backend, k))


@pytest.mark.parametrize("num_warps", WARPS)
@pytest.mark.parametrize(("m", "n", "k", "bm", "bn", "bk"), MATMUL_SHAPES)
def test_tiled_matmul_runtime_k(
    run: Any,
    rng: np.random.Generator,
    m: int,
    n: int,
    k: int,
    bm: int,
    bn: int,
    bk: int,
    num_warps: int,
) -> None:
    a, b, c, ref = matmul_inputs(rng, m, n, k)
    run(
        kernels.tiled_matmul_runtime_k_kernel,
        (cdiv(m, bm), cdiv(n, bn)),
        a,
        b,
        c,
        m,
        n,
        k,
        num_warps=num_warps,
        BM=bm,
        BN=bn,
        BK=bk,
    )
    close(c, ref, **f32_dot_tol(run.backend, k))


@pytest.mark.parametrize("num_warps", WARPS)
@pytest.mark.parametrize(
    ("m", "n", "k", "bm", "bn", "bk", "group"),
    [
        (64, 64, 64, 64, 64, 16, 8),
        (33, 47, 29, 16, 32, 8, 2),
        (130, 70, 40, 32, 32, 32, 4),
        (20, 200, 17, 16, 64, 16, 8),
    ],
)
def test_tutorial_matmul(
    run: Any,
    rng: np.random.Generator,
    m: int,
    n: int,
    k: int,
    bm: int,
    bn: int,
    bk: int,
    group: int,
    num_warps: int,
) -> None:
    a, b, c, ref = matmul_inputs(rng, m, n, k)
    run(
        kernels.tutorial_matmul_kernel,
        (cdiv(m, bm) * cdiv(n, bn),),
        a,
        b,
        c,
        m,
        n,
        k,
        k,
        1,
        n,
        1,
        n,
        1,
        num_warps=num_warps,
        BLOCK_SIZE_M=bm,
        BLOCK_SIZE_N=bn,
        BLOCK_SIZE_K=bk,
        GROUP_SIZE_M=group,
    )
    close(c, ref, **f32_dot_tol(run.backend, k))


@pytest.mark.parametrize("num_warps", [4])
def test_tutorial_matmul_transposed_strides(
    run: Any, rng: np.random.Generator, num_warps: int
) -> None:
    """B given as a transposed view through its strides (column-major storage)."""
    m, n, k = 40, 24, 33
    a, bt = randn(rng, m, k), randn(rng, n, k)
    c = nans(m, n)
    run(
        kernels.tutorial_matmul_kernel,
        (cdiv(m, 16) * cdiv(n, 16),),
        a,
        bt,
        c,
        m,
        n,
        k,
        k,
        1,
        1,
        k,
        n,
        1,
        num_warps=num_warps,
        BLOCK_SIZE_M=16,
        BLOCK_SIZE_N=16,
        BLOCK_SIZE_K=16,
        GROUP_SIZE_M=2,
    )
    close(c, a.astype(np.float64) @ bt.T, rtol=1e-4, atol=1e-4)
