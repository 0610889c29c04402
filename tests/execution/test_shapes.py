"""Shape manipulation (Triton 3.6): ``trans``/``permute``, ``reshape``/``view``/``ravel``,
``join``/``split``/``interleave``, ``cat``, ``gather``, ``flip``, ``sort``, ``histogram``,
``swizzle2d``, 0-d ``full`` and 3-D blocks, against NumPy references."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl

pytestmark = pytest.mark.execution


def _rng(seed: int = 0) -> np.random.Generator:
    return np.random.default_rng(seed)


# ---- trans / permute ----


@triton.jit
def trans_kernel(x, out, M: tl.constexpr, N: tl.constexpr):
    v = tl.load(x + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :])
    t = tl.trans(v)
    tl.store(out + tl.arange(0, N)[:, None] * M + tl.arange(0, M)[None, :], t)
    tl.store(out + M * N + tl.arange(0, N)[:, None] * M + tl.arange(0, M)[None, :], v.T + 1)


@pytest.mark.parametrize("dtype", [np.float32, np.int16, np.float16])
def test_trans_2d(run: Any, dtype: Any) -> None:
    x = _rng().integers(-100, 100, (4, 16)).astype(dtype)
    out = np.zeros((2, 16, 4), dtype)
    run(trans_kernel, (1,), x, out, M=4, N=16)
    np.testing.assert_array_equal(out[0], x.T)
    np.testing.assert_array_equal(out[1], x.T + 1)


@triton.jit
def permute3_kernel(x, out, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr):
    a = tl.arange(0, A)[:, None, None]
    b = tl.arange(0, B)[None, :, None]
    c = tl.arange(0, C)[None, None, :]
    v = tl.load(x + a * B * C + b * C + c)
    p = tl.permute(v, (2, 0, 1))  # [C, A, B]
    cc = tl.arange(0, C)[:, None, None]
    aa = tl.arange(0, A)[None, :, None]
    bb = tl.arange(0, B)[None, None, :]
    tl.store(out + cc * A * B + aa * B + bb, p)
    q = v.trans(1, 0, 2)  # [B, A, C], a tensor method with dims as arguments
    tl.store(out + A * B * C + b.trans(1, 0, 2) * A * C + a.trans(1, 0, 2) * C + c, q)


def test_permute_3d(run: Any) -> None:
    x = np.arange(2 * 4 * 8, dtype=np.int32).reshape(2, 4, 8)
    out = np.zeros(2 * x.size, np.int32)
    run(permute3_kernel, (1,), x, out, A=2, B=4, C=8)
    np.testing.assert_array_equal(out[: x.size].reshape(8, 2, 4), x.transpose(2, 0, 1))
    np.testing.assert_array_equal(out[x.size :].reshape(4, 2, 8), x.transpose(1, 0, 2))


# ---- reshape / ravel / view ----


@triton.jit
def reshape_kernel(x, out, M: tl.constexpr, N: tl.constexpr):
    v = tl.load(x + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :])
    r = tl.reshape(v, (N // 2, 2, M))
    tl.store(
        out
        + tl.arange(0, N // 2)[:, None, None] * 2 * M
        + tl.arange(0, 2)[None, :, None] * M
        + tl.arange(0, M)[None, None, :],
        r,
    )
    tl.store(out + M * N + tl.arange(0, M * N), v.ravel() + 1)
    tl.store(out + 2 * M * N + tl.arange(0, M * N), tl.view(v, M * N) + 2)


def test_reshape_ravel_view(run: Any) -> None:
    x = _rng(1).standard_normal((4, 8)).astype(np.float32)
    out = np.zeros(3 * x.size, np.float32)
    run(reshape_kernel, (1,), x, out, M=4, N=8)
    np.testing.assert_array_equal(out[: x.size], x.ravel())
    np.testing.assert_array_equal(out[x.size : 2 * x.size], x.ravel() + 1)
    np.testing.assert_array_equal(out[2 * x.size :], x.ravel() + 2)


# ---- join / split / interleave: rotary embedding ----


@triton.jit
def rotary_kernel(x, cos, sin, out, BLOCK: tl.constexpr, D: tl.constexpr):
    rows = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)[:, None]
    cols = tl.arange(0, D)[None, :]
    v = tl.load(x + rows * D + cols)
    half = tl.arange(0, D // 2)[None, :]
    c = tl.load(cos + rows * (D // 2) + half)
    s = tl.load(sin + rows * (D // 2) + half)
    pairs = tl.reshape(v, (BLOCK, D // 2, 2))
    even, odd = tl.split(pairs)
    rotated = tl.join(even * c - odd * s, even * s + odd * c)
    tl.store(out + rows * D + cols, tl.reshape(rotated, (BLOCK, D)))


@pytest.mark.parametrize("rows, d, block", [(8, 16, 4), (32, 32, 16)])
def test_rotary_embedding(run: Any, rows: int, d: int, block: int) -> None:
    rng = _rng(2)
    x = rng.standard_normal((rows, d)).astype(np.float32)
    theta = rng.uniform(0, 6.28, (rows, d // 2)).astype(np.float32)
    cos, sin = np.cos(theta), np.sin(theta)
    out = np.zeros_like(x)
    run(rotary_kernel, (rows // block,), x, cos, sin, out, BLOCK=block, D=d)
    even, odd = x[:, 0::2], x[:, 1::2]
    ref = np.stack([even * cos - odd * sin, even * sin + odd * cos], axis=-1).reshape(rows, d)
    np.testing.assert_allclose(out, ref, rtol=1e-5, atol=1e-6)


@triton.jit
def interleave_kernel(a, b, out, N: tl.constexpr):
    x = tl.load(a + tl.arange(0, N))
    y = tl.load(b + tl.arange(0, N))
    tl.store(out + tl.arange(0, 2 * N), tl.interleave(x, y))
    lo, hi = tl.split(tl.join(x, y))  # a round trip
    tl.store(out + 2 * N + tl.arange(0, N), lo - hi)
    s0, s1 = tl.split(tl.join(x, y).reshape(N, 2).permute(0, 1))
    tl.store(out + 3 * N + tl.arange(0, N), s0 + s1)


@pytest.mark.parametrize("dtype", [np.int8, np.float16])
def test_interleave_join_split(run: Any, dtype: Any) -> None:
    a = np.arange(8).astype(dtype)
    b = (np.arange(8) * 3 - 9).astype(dtype)
    out = np.zeros(32, dtype)
    run(interleave_kernel, (1,), a, b, out, N=8)
    np.testing.assert_array_equal(out[:16], np.stack([a, b], -1).ravel())
    np.testing.assert_array_equal(out[16:24], a - b)
    np.testing.assert_array_equal(out[24:], a + b)


@triton.jit
def join_scalars_kernel(out, v):
    pair = tl.join(v, v + 1)  # two scalars: a block of 2
    tl.store(out + tl.arange(0, 2), pair)
    first, second = tl.split(pair)  # a block of 2: two scalars
    tl.store(out + 2, second * 10 + first)
    one = tl.full((1,), 4, tl.int32).item() + tl.reshape(tl.full((1, 1), 2, tl.int32), ())
    tl.store(out + 3, tl.full((), 7, tl.int32) + one)


def test_join_split_scalars_and_0d_full(run: Any) -> None:
    out = np.zeros(4, np.int32)
    run(join_scalars_kernel, (1,), out, 5)
    np.testing.assert_array_equal(out, [5, 6, 65, 13])


# ---- cat ----


@triton.jit
def cat_kernel(a, b, out, N: tl.constexpr):
    x = tl.load(a + tl.arange(0, N))
    y = tl.load(b + tl.arange(0, N))
    c = tl.cat(x, y, can_reorder=True)
    tl.store(out + tl.arange(0, 2 * N), c)
    tl.store(out + 2 * N, tl.sum(c, axis=0))


def test_cat(run: Any) -> None:
    a = np.arange(16, dtype=np.int32)
    b = np.arange(16, dtype=np.int32) * 100
    out = np.zeros(33, np.int32)
    run(cat_kernel, (1,), a, b, out, N=16)
    # Triton leaves the order unspecified: compare as multisets, and the sum
    np.testing.assert_array_equal(np.sort(out[:32]), np.sort(np.concatenate([a, b])))
    assert out[32] == a.sum() + b.sum()


# ---- gather ----


@triton.jit
def gather_kernel(src, idx, out, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    s = tl.load(src + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :])
    i = tl.load(idx + tl.arange(0, M)[:, None] * K + tl.arange(0, K)[None, :])
    g = tl.gather(s, i, axis=1)
    tl.store(out + tl.arange(0, M)[:, None] * K + tl.arange(0, K)[None, :], g)


@pytest.mark.parametrize("dtype", [np.float32, np.int64])
def test_gather_axis1(run: Any, dtype: Any) -> None:
    rng = _rng(3)
    src = rng.integers(-50, 50, (4, 8)).astype(dtype)
    idx = rng.integers(0, 8, (4, 16)).astype(np.int32)
    out = np.zeros((4, 16), dtype)
    run(gather_kernel, (1,), src, idx, out, M=4, N=8, K=16)
    np.testing.assert_array_equal(out, np.take_along_axis(src, idx, axis=1))


@triton.jit
def gather0_kernel(src, idx, out, M: tl.constexpr, N: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    g = tl.load(src + offs).gather(tl.load(idx + offs), 0)
    tl.store(out + offs, g)


def test_gather_axis0_int64_index(run: Any) -> None:
    rng = _rng(4)
    src = rng.standard_normal((8, 4)).astype(np.float32)
    idx = rng.integers(0, 8, (8, 4)).astype(np.int64)
    out = np.zeros_like(src)
    run(gather0_kernel, (1,), src, idx, out, M=8, N=4)
    np.testing.assert_array_equal(out, np.take_along_axis(src, idx, axis=0))


# ---- flip / sort ----


@triton.jit
def flip_sort_kernel(x, out, M: tl.constexpr, N: tl.constexpr, DESC: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    v = tl.load(x + offs)
    tl.store(out + offs, tl.flip(v))
    tl.store(out + M * N + offs, tl.flip(v, 0))
    tl.store(out + 2 * M * N + offs, tl.sort(v, descending=DESC))


@pytest.mark.parametrize("dtype, desc", [(np.float32, False), (np.int32, True), (np.float16, True)])
def test_flip_sort(run: Any, dtype: Any, desc: bool) -> None:
    x = _rng(5).permutation(64).reshape(4, 16).astype(dtype) - 20
    out = np.zeros(3 * x.size, dtype)
    run(flip_sort_kernel, (1,), x, out, M=4, N=16, DESC=desc)
    n = x.size
    np.testing.assert_array_equal(out[:n].reshape(x.shape), x[:, ::-1])
    np.testing.assert_array_equal(out[n : 2 * n].reshape(x.shape), x[::-1, :])
    ref = np.sort(x, axis=1)
    np.testing.assert_array_equal(out[2 * n :].reshape(x.shape), ref[:, ::-1] if desc else ref)


@triton.jit
def topk_kernel(x, out, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    v = tl.load(x + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :])
    tl.store(out + tl.arange(0, M)[:, None] * K + tl.arange(0, K)[None, :], tl.topk(v, K))


@pytest.mark.parametrize(("dtype", "k"), [(np.float32, 4), (np.int32, 16), (np.float16, 1)])
def test_topk(run: Any, dtype: Any, k: int) -> None:
    x = _rng(9).permutation(64).reshape(4, 16).astype(dtype) - 20
    out = np.zeros((4, k), dtype)
    run(topk_kernel, (1,), x, out, M=4, N=16, K=k)
    np.testing.assert_array_equal(out, np.sort(x, axis=1)[:, ::-1][:, :k])


# ---- histogram ----


@triton.jit
def histogram_kernel(x, out, N: tl.constexpr, BINS: tl.constexpr):
    v = tl.load(x + tl.arange(0, N))
    tl.store(out + tl.arange(0, BINS), tl.histogram(v, BINS))
    m = tl.arange(0, N) < N // 2
    tl.store(out + BINS + tl.arange(0, BINS), v.histogram(BINS, mask=m))


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.uint8])
def test_histogram(run: Any, dtype: Any) -> None:
    x = _rng(6).integers(-2, 10, 32).astype(dtype)  # some values outside [0, 8) (255: uint8)
    out = np.zeros(16, np.int32)
    run(histogram_kernel, (1,), x, out, N=32, BINS=8)
    ref = np.array([(x == b).sum() for b in range(8)])
    half = np.array([(x[:16] == b).sum() for b in range(8)])
    np.testing.assert_array_equal(out, np.concatenate([ref, half]))


# ---- swizzle2d ----


@triton.jit
def swizzle_kernel(out, SI: tl.constexpr, SJ: tl.constexpr, SG: tl.constexpr):
    i = tl.arange(0, SI)[:, None]
    j = tl.arange(0, SJ)[None, :]
    ni, nj = tl.swizzle2d(i, j, SI, SJ, SG)
    tl.store(out + i * SJ + j, ni * SJ + nj)


def _swizzle_ref(si: int, sj: int, sg: int) -> np.ndarray:
    out = np.zeros((si, sj), np.int32)
    for i in range(si):
        for j in range(sj):
            ij = i * sj + j
            group = ij // (sg * sj)
            off_i = group * sg
            g = min(si - off_i, sg)
            ij %= sg * sj
            out[i, j] = (off_i + ij % g) * sj + ij // g
    return out


def test_swizzle2d(run: Any) -> None:
    out = np.zeros((8, 4), np.int32)
    run(swizzle_kernel, (1,), out, SI=8, SJ=4, SG=3)
    np.testing.assert_array_equal(out, _swizzle_ref(8, 4, 3))


# ---- 3-D blocks through loads, stores, elementwise ops and reductions ----


@triton.jit
def block3d_kernel(x, out, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr):
    a = tl.arange(0, A)[:, None, None]
    b = tl.arange(0, B)[None, :, None]
    c = tl.arange(0, C)[None, None, :]
    v = tl.load(x + a * B * C + b * C + c, mask=c < C - 1, other=-1.0)
    tl.store(out + a * B * C + b * C + c, v * 2 + 1)
    s = tl.sum(v, axis=1)  # [A, C]
    tl.store(out + A * B * C + tl.arange(0, A)[:, None] * C + tl.arange(0, C)[None, :], s)
    e = tl.broadcast_to(tl.expand_dims(tl.max(v, axis=2), 2), (A, B, C))
    tl.store(out + A * B * C + A * C + a * B * C + b * C + c, e)


def test_3d_blocks(run: Any) -> None:
    x = _rng(7).standard_normal((2, 4, 8)).astype(np.float32)
    v = x.copy()
    v[:, :, -1] = -1
    out = np.zeros(2 * x.size + 2 * 8, np.float32)
    run(block3d_kernel, (1,), x, out, A=2, B=4, C=8)
    n = x.size
    np.testing.assert_allclose(out[:n], (v * 2 + 1).ravel(), rtol=1e-6)
    np.testing.assert_allclose(out[n : n + 16], v.sum(axis=1).ravel(), rtol=1e-5)
    ref = np.broadcast_to(v.max(axis=2)[:, :, None], v.shape)
    np.testing.assert_array_equal(out[n + 16 :], ref.ravel())


# ---- batched 3-D dot ----


@triton.jit
def dot3d_kernel(
    a,
    b,
    c,
    out,
    B: tl.constexpr,
    M: tl.constexpr,
    K: tl.constexpr,
    N: tl.constexpr,
    OUT: tl.constexpr,
):
    bb = tl.arange(0, B)[:, None, None]
    x = tl.load(
        a + bb * M * K + tl.arange(0, M)[None, :, None] * K + tl.arange(0, K)[None, None, :]
    )
    y = tl.load(
        b + bb * K * N + tl.arange(0, K)[None, :, None] * N + tl.arange(0, N)[None, None, :]
    )
    offs = bb * M * N + tl.arange(0, M)[None, :, None] * N + tl.arange(0, N)[None, None, :]
    acc = tl.load(c + offs)
    tl.store(out + offs, tl.dot(x, y, acc, out_dtype=OUT))


@pytest.mark.parametrize(
    "dtype, acc_dtype", [(np.float32, np.float32), (np.float16, np.float32), (np.int8, np.int32)]
)
def test_dot3d(run: Any, dtype: Any, acc_dtype: Any) -> None:
    rng = _rng(8)
    shape_b, m, k, n = 2, 8, 32, 4  # K >= 32 for int8 on NVIDIA (Triton's min_dot_size)
    a = rng.integers(-4, 5, (shape_b, m, k)).astype(dtype)
    b = rng.integers(-4, 5, (shape_b, k, n)).astype(dtype)
    c = rng.integers(-4, 5, (shape_b, m, n)).astype(acc_dtype)
    out = np.zeros_like(c)
    out_dtype = tl.int32 if acc_dtype == np.int32 else tl.float32
    run(dot3d_kernel, (1,), a, b, c, out, B=shape_b, M=m, K=k, N=n, OUT=out_dtype)
    ref = np.matmul(a.astype(np.float64), b.astype(np.float64)) + c
    np.testing.assert_array_equal(out, ref.astype(acc_dtype))


@triton.jit
def multidim_dot_kernel(
    a, b, c, out, RANK: tl.constexpr, TRANS_A: tl.constexpr, TRANS_B: tl.constexpr
):
    """Triton's rank-2 to rank-6 dot test: 2 x ... x 2 batches of 16 x 16 blocks, operands
    transposed (their last two dimensions) or not, an accumulator."""
    n: tl.constexpr = 64 << RANK
    shape: tl.constexpr = [2] * (RANK - 2) + [16, 16]
    x = tl.load(a + tl.arange(0, n)).reshape(shape)
    y = tl.load(b + tl.arange(0, n)).reshape(shape)
    if TRANS_A:
        x = tl.trans(x)
    if TRANS_B:
        y = tl.trans(y)
    acc = tl.load(c + tl.arange(0, n)).reshape(shape)
    tl.store(out + tl.arange(0, n), tl.dot(x, y, acc).reshape([n]))


@pytest.mark.parametrize(("rank", "trans_a", "trans_b"), [(4, False, True), (5, True, False)])
def test_multidim_dot(run: Any, rank: int, trans_a: bool, trans_b: bool) -> None:
    """Several batch dimensions: one batched dot over all of them (rank 3 was the most)."""
    rng = _rng(rank)
    shape = (2,) * (rank - 2) + (16, 16)
    a = rng.integers(-4, 5, shape).astype(np.float16)
    b = rng.integers(-4, 5, shape).astype(np.float16)
    c = rng.integers(-4, 5, shape).astype(np.float32)
    out = np.zeros(c.size, np.float32)
    run(multidim_dot_kernel, (1,), a, b, c, out, RANK=rank, TRANS_A=trans_a, TRANS_B=trans_b)
    x = np.swapaxes(a, -1, -2) if trans_a else a
    y = np.swapaxes(b, -1, -2) if trans_b else b
    ref = np.matmul(x.astype(np.float64), y.astype(np.float64)) + c
    np.testing.assert_array_equal(out.reshape(shape), ref)


def shape_warmups() -> list[Any]:
    """The kernels above compiled once each (compile-only: tests/cuda and tests/mlir check the
    C++ and the PTX)."""
    f32, f16, i32 = np.zeros(512, np.float32), np.zeros(512, np.float16), np.zeros(512, np.int32)
    i8 = np.zeros(512, np.int8)
    return [
        trans_kernel.warmup(f16, f16, M=4, N=16, grid=(1,)),
        permute3_kernel.warmup(i32, i32, A=2, B=4, C=8, grid=(1,)),
        reshape_kernel.warmup(f32, f32, M=4, N=8, grid=(1,)),
        rotary_kernel.warmup(f32, f32, f32, f32, BLOCK=4, D=16, grid=(2,)),
        rotary_kernel.warmup(f32, f32, f32, f32, BLOCK=16, D=32, grid=(2,)),
        interleave_kernel.warmup(i8, i8, i8, N=8, grid=(1,)),
        join_scalars_kernel.warmup(i32, 5, grid=(1,)),
        cat_kernel.warmup(i32, i32, i32, N=16, grid=(1,)),
        gather_kernel.warmup(f32, i32, f32, M=4, N=8, K=16, grid=(1,)),
        gather0_kernel.warmup(f32, np.zeros(32, np.int64), f32, M=8, N=4, grid=(1,)),
        flip_sort_kernel.warmup(f16, f16, M=4, N=16, DESC=True, grid=(1,)),
        # 28 gathers of 1024 floats: each reuses one 4 KiB buffer (48 KiB would not hold them)
        flip_sort_kernel.warmup(np.zeros(4096, np.float32), f32, M=8, N=128, DESC=False, grid=(1,)),
        histogram_kernel.warmup(i32, i32, N=32, BINS=8, grid=(1,)),
        swizzle_kernel.warmup(i32, SI=8, SJ=4, SG=3, grid=(1,)),
        block3d_kernel.warmup(f32, f32, A=2, B=4, C=8, grid=(1,)),
        dot3d_kernel.warmup(f16, f16, f32, f32, B=2, M=8, K=16, N=4, OUT=tl.float32, grid=(1,)),
    ]
