"""``tl.reduce`` with ``@jit`` combine functions (``tt.reduce`` with a region) against NumPy:
tuple reductions (Welford over a 3-tuple), ``tl.argmax``/``tl.argmin`` with ties,
``tl.max/min(return_indices=True)``, ``tl.xor_sum``, ``tl.reduce_or``, ``keep_dims`` and
``axis=None``, on 1 to 8 warps and rank 1 to 3."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl

pytestmark = pytest.mark.execution


@triton.jit
def _welford_combine(mean_1, m2_1, weight_1, mean_2, m2_2, weight_2):
    delta = mean_2 - mean_1
    new_weight = weight_1 + weight_2
    w2_over_w = tl.where(new_weight == 0.0, 0.0, weight_2 / new_weight)
    return (
        mean_1 + delta * w2_over_w,
        m2_1 + m2_2 + delta * delta * weight_1 * w2_over_w,
        new_weight,
    )


@triton.jit
def welford_kernel(x_ptr, mean_ptr, var_ptr, M: tl.constexpr, N: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + offs)
    mean, m2, weight = tl.reduce(
        (x, tl.zeros_like(x), tl.full(x.shape, 1.0, tl.float32)), 1, _welford_combine
    )
    rows = tl.arange(0, M)
    tl.store(mean_ptr + rows, mean)
    tl.store(var_ptr + rows, m2 / weight)


# (8, 512, 8) and (64, 512, 4): each thread holds several rows that several warps split, so
# the warps' partials are combined spread over the threads (fewer slots than threads; two
# slots per thread)
@pytest.mark.parametrize(
    ("m", "n", "num_warps"), [(4, 64, 2), (2, 512, 8), (8, 512, 8), (64, 512, 4)]
)
def test_welford_over_a_3_tuple(run: Any, m: int, n: int, num_warps: int) -> None:
    x = np.random.RandomState(0).standard_normal((m, n)).astype(np.float32)
    mean, var = np.zeros(m, np.float32), np.zeros(m, np.float32)
    run(welford_kernel, (1,), x, mean, var, M=m, N=n, num_warps=num_warps)
    np.testing.assert_allclose(mean, x.mean(axis=1), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(var, x.var(axis=1), rtol=1e-4, atol=1e-5)


@triton.jit
def arg_kernel(
    x_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr, AXIS: tl.constexpr, LEFT: tl.constexpr
):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + offs)
    imax = tl.argmax(x, AXIS, tie_break_left=LEFT, keep_dims=True)
    imin = x.argmin(AXIS, tie_break_left=LEFT, keep_dims=True)
    outs = tl.arange(0, N)[None, :] if AXIS == 0 else tl.arange(0, M)[:, None]
    tl.store(out_ptr + outs, imax)
    tl.store(out_ptr + M * N + outs, imin)


@pytest.mark.parametrize(
    ("m", "n", "axis", "dtype", "num_warps"),
    [
        (8, 32, 1, np.int32, 4),
        (8, 32, 0, np.float32, 1),
        (4, 256, 1, np.float32, 8),
        (16, 8, 0, np.int16, 2),
    ],
)
def test_argmax_argmin_first_of_ties(
    run: Any, m: int, n: int, axis: int, dtype: Any, num_warps: int
) -> None:
    x = np.random.RandomState(m + n).randint(-4, 4, (m, n)).astype(dtype)  # many ties
    out = np.full(2 * m * n, -1, np.int32)
    run(arg_kernel, (1,), x, out, M=m, N=n, AXIS=axis, LEFT=True, num_warps=num_warps)
    k = x.shape[1 - axis]
    np.testing.assert_array_equal(out[:k], np.argmax(x, axis=axis))
    np.testing.assert_array_equal(out[m * n : m * n + k], np.argmin(x, axis=axis))


def test_argmax_any_tie_when_not_left(run: Any) -> None:
    x = np.random.RandomState(5).randint(-2, 2, (8, 32)).astype(np.int32)
    out = np.full(2 * 8 * 32, -1, np.int32)
    run(arg_kernel, (1,), x, out, M=8, N=32, AXIS=1, LEFT=False, num_warps=2)
    rows = np.arange(8)
    np.testing.assert_array_equal(x[rows, out[:8]], x.max(axis=1))
    np.testing.assert_array_equal(x[rows, out[256:264]], x.min(axis=1))


@triton.jit
def max_with_index_kernel(x_ptr, out_v_ptr, out_i_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    v, i = tl.max(x, 0, return_indices=True)
    w, j = tl.min(x, 0, return_indices=True, return_indices_tie_break_left=True)
    tl.store(out_v_ptr, v)
    tl.store(out_v_ptr + 1, w)
    tl.store(out_i_ptr, i)
    tl.store(out_i_ptr + 1, j)


def test_max_min_return_indices(run: Any) -> None:
    x = np.random.RandomState(6).standard_normal(128).astype(np.float32)
    x[[7, 99]] = 9.0
    v, i = np.zeros(2, np.float32), np.zeros(2, np.int32)
    run(max_with_index_kernel, (1,), x, v, i, N=128, num_warps=2)
    np.testing.assert_array_equal(v, [x.max(), x.min()])
    np.testing.assert_array_equal(i, [7, np.argmin(x)])


@pytest.mark.parametrize("dt", [np.uint64, np.int64, np.uint8], ids=lambda d: np.dtype(d).name)
def test_return_indices_of_wide_and_unsigned_integers(run: Any, dt: Any) -> None:
    """uint64 values cross lanes as two 32-bit halves; they came back as signless i64, which
    the combine's unsigned compare then refused (a raw TypeError in the lowering)."""
    info = np.iinfo(dt)
    x = np.random.default_rng(8).integers(info.min // 2, info.max // 2, 128, dtype=dt)
    x[[11, 70]] = info.max
    x[[3, 90]] = info.min
    v, i = np.zeros(2, dt), np.zeros(2, np.int32)
    run(max_with_index_kernel, (1,), x, v, i, N=128, num_warps=2)
    np.testing.assert_array_equal(v, [info.max, info.min])
    np.testing.assert_array_equal(i, [11, 3])


@triton.jit
def bits_kernel(x_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + offs)
    rows = tl.arange(0, M)
    tl.store(out_ptr + rows, tl.xor_sum(x, 1))
    tl.store(out_ptr + M + rows, x.reduce_or(1))
    tl.store(out_ptr + 2 * M, x.xor_sum())  # axis=None: every element


def test_xor_sum_and_reduce_or(run: Any) -> None:
    x = np.random.RandomState(7).randint(0, 1 << 20, (4, 64)).astype(np.int32)
    out = np.zeros(9, np.int32)
    run(bits_kernel, (1,), x, out, M=4, N=64, num_warps=2)
    np.testing.assert_array_equal(out[:4], np.bitwise_xor.reduce(x, axis=1))
    np.testing.assert_array_equal(out[4:8], np.bitwise_or.reduce(x, axis=1))
    assert out[8] == np.bitwise_xor.reduce(x.ravel())


@triton.jit
def _prod(a, b):
    return a * b


@triton.jit
def reduce_3d_kernel(x_ptr, out_ptr, AXIS: tl.constexpr):
    i = tl.arange(0, 2)[:, None, None]
    j = tl.arange(0, 4)[None, :, None]
    k = tl.arange(0, 8)[None, None, :]
    x = tl.load(x_ptr + i * 32 + j * 8 + k)
    r = tl.reduce(x, AXIS, _prod, keep_dims=True)
    # keep_dims: the result broadcasts back against the block
    tl.store(out_ptr + i * 32 + j * 8 + k, x * 0 + r)


@pytest.mark.parametrize("axis", [0, 1, 2])
def test_reduce_rank3_keep_dims(run: Any, axis: int) -> None:
    x = np.random.RandomState(8).randint(-2, 3, (2, 4, 8)).astype(np.int32)
    out = np.zeros_like(x)
    run(reduce_3d_kernel, (1,), x, out, AXIS=axis, num_warps=2)
    ref = np.prod(x, axis=axis, keepdims=True, dtype=np.int32)
    np.testing.assert_array_equal(out, np.broadcast_to(ref, x.shape))


@triton.jit
def reduce_all_kernel(x_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + offs)
    s = tl.sum(x, axis=None, keep_dims=True)
    tl.static_assert(len(s.shape) == 2, "keep_dims keeps the rank")
    tl.store(out_ptr + offs * 0, s)
    tl.store(out_ptr + 1, tl.max(x))
    tl.store(out_ptr + 2, tl.reduce(x, None, _prod))
    tl.store(out_ptr + 3, x.reduce(1, tl.minimum).reduce(0, tl.maximum))  # builtin combine_fn


def test_axis_none(run: Any) -> None:
    x = np.random.RandomState(9).randint(1, 4, (4, 8)).astype(np.int8)
    out = np.zeros(4, np.int32)
    run(reduce_all_kernel, (1,), x, out, M=4, N=8, num_warps=1)
    prod = np.prod(x, dtype=np.int8)  # the int8 product wraps, as on the GPU
    expected = [x.sum(dtype=np.int32), x.max(), prod, x.min(axis=1).max()]
    np.testing.assert_array_equal(out, expected)


def reduce_warmups() -> list[Any]:
    """The general reductions above compiled once each (compile-only: tests/cuda and
    tests/mlir check the C++ and the PTX)."""
    f32 = np.zeros(1024, np.float32)
    i32 = np.zeros(1024, np.int32)
    return [
        welford_kernel.warmup(f32, f32, f32, M=2, N=512, num_warps=8, grid=(1,)),
        arg_kernel.warmup(f32, i32, M=4, N=256, AXIS=1, LEFT=True, num_warps=8, grid=(1,)),
        max_with_index_kernel.warmup(f32, f32, i32, N=128, grid=(1,)),
        bits_kernel.warmup(i32, i32, M=4, N=64, grid=(1,)),
        reduce_3d_kernel.warmup(i32, i32, AXIS=0, grid=(1,)),
        branchy_combine_kernel.warmup(i32, i32, N=64, num_warps=2, grid=(1,)),
    ]


@triton.jit
def _larger(a, b):
    if a > b:  # noqa: SIM108 -- a runtime branch inside the combine function (scf.if)
        r = a
    else:
        r = b
    return r


@triton.jit
def branchy_combine_kernel(x_ptr, out_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr, tl.reduce(x, 0, _larger))
    tl.store(out_ptr + 1 + offs, tl.associative_scan(x, 0, _larger))


def test_combine_function_with_a_runtime_branch(run: Any) -> None:
    x = np.random.RandomState(10).randint(-100, 100, 64).astype(np.int32)
    out = np.zeros(65, np.int32)
    run(branchy_combine_kernel, (1,), x, out, N=64, num_warps=2)
    assert out[0] == x.max()
    np.testing.assert_array_equal(out[1:], np.maximum.accumulate(x))
