"""Block pointers (``tl.make_block_ptr``, ``tl.advance``, ``tl.load``/``tl.store`` with
``boundary_check`` and ``padding_option``) and tensor descriptors (``tl.make_tensor_descriptor``,
``desc.load``/``desc.store``) on every backend, against NumPy references: windows that stick out
of non-multiple shapes, both orders, strided views, block pointers carried by runtime loops,
``if``s and ``@jit`` helpers, and the matmul loops they are made for."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl

pytestmark = pytest.mark.execution


@triton.jit
def padded_window_kernel(
    x,
    out,
    M,
    N,
    sxm,
    sxn,
    BM: tl.constexpr,
    BN: tl.constexpr,
    PAD: tl.constexpr,
    ORDER: tl.constexpr,
):
    """Each program loads the (BM, BN) block of x at its grid position, boundary-checked on
    both dims, and stores it whole into out (whose shape is a multiple of the block)."""
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    src = tl.make_block_ptr(
        base=x,
        shape=(M, N),
        strides=(sxm, sxn),
        offsets=(pm * BM, pn * BN),
        block_shape=(BM, BN),
        order=ORDER,
    )
    dst = tl.make_block_ptr(
        out, (tl.num_programs(0) * BM, tl.num_programs(1) * BN), (tl.num_programs(1) * BN, 1),
        (pm * BM, pn * BN), (BM, BN), (1, 0),
    )  # fmt: skip
    tl.store(dst, tl.load(src, boundary_check=(0, 1), padding_option=PAD))


def padded(x: np.ndarray, shape: tuple[int, int], fill: float) -> np.ndarray:
    ref = np.full(shape, fill, x.dtype)
    ref[: x.shape[0], : x.shape[1]] = x
    return ref


@pytest.mark.parametrize(("pad", "fill"), [("zero", 0.0), ("nan", np.nan), ("", 0.0)])
@pytest.mark.parametrize("order", [(1, 0), (0, 1)])
def test_load_pads_outside_the_tensor(run: Any, pad: str, fill: float, order: tuple) -> None:
    m, n, bm, bn = 13, 10, 8, 4
    x = np.random.default_rng(1).standard_normal((m, n)).astype(np.float32)
    grid = (triton.cdiv(m, bm), triton.cdiv(n, bn))
    out = np.full((grid[0] * bm, grid[1] * bn), -7.0, np.float32)
    run(padded_window_kernel, grid, x, out, m, n, n, 1, BM=bm, BN=bn, PAD=pad, ORDER=order)
    np.testing.assert_array_equal(out, padded(x, out.shape, fill))


def test_strided_transposed_view(run: Any) -> None:
    """The tensor is a transposed view: its strides are (1, rows), order (0, 1)."""
    base = np.random.default_rng(2).standard_normal((9, 12)).astype(np.float32)
    x = base.T  # (12, 9), strides (1, 12) in elements
    bm = bn = 8
    grid = (2, 2)
    out = np.full((16, 16), -7.0, np.float32)
    sm, sn = (s // 4 for s in x.strides)
    run(padded_window_kernel, grid, x, out, 12, 9, sm, sn, BM=bm, BN=bn, PAD="zero", ORDER=(0, 1))
    np.testing.assert_array_equal(out, padded(x, out.shape, 0.0))


@triton.jit
def add_one_kernel(x, out, M, N, BM: tl.constexpr, BN: tl.constexpr, CHECK: tl.constexpr):
    """out = x + 1 through block pointers on both sides; stores are boundary-checked on the
    dims in CHECK."""
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    src = tl.make_block_ptr(x, (M, N), (N, 1), (pm * BM, pn * BN), (BM, BN), (1, 0))
    dst = tl.make_block_ptr(out, (M, N), (N, 1), (pm * BM, pn * BN), (BM, BN), (1, 0))
    v = tl.load(src, boundary_check=CHECK)
    tl.store(dst, v + 1, boundary_check=CHECK)


@pytest.mark.parametrize(
    ("m", "n", "check"), [(13, 16, (0,)), (16, 11, (1,)), (13, 11, (0, 1)), (13, 11, (1, 0))]
)
def test_store_drops_outside_the_tensor(run: Any, m: int, n: int, check: tuple) -> None:
    """Only the dims that stick out need a check; an unchecked store past the end would be a
    bounds error under gpusim."""
    x = np.arange(m * n, dtype=np.int32).reshape(m, n)
    out = np.full((m, n), -1, np.int32)
    run(
        add_one_kernel,
        (triton.cdiv(m, 8), triton.cdiv(n, 8)),
        x,
        out,
        m,
        n,
        BM=8,
        BN=8,
        CHECK=check,
    )
    np.testing.assert_array_equal(out, x + 1)


@triton.jit
def copy_3d_kernel(x, out, A, B, C, BA: tl.constexpr, BB: tl.constexpr, BC: tl.constexpr):
    """A rank-3 window per program, checked on the two dims that stick out."""
    start = (tl.program_id(0) * BA, tl.program_id(1) * BB, tl.program_id(2) * BC)
    src = tl.make_block_ptr(x, (A, B, C), (B * C, C, 1), start, (BA, BB, BC), (2, 1, 0))
    dst = tl.make_block_ptr(out, (A, B, C), (B * C, C, 1), start, (BA, BB, BC), (2, 1, 0))
    tl.store(dst, tl.load(src, boundary_check=(1, 2)) * 3, boundary_check=(1, 2))


def test_rank_3_block_pointer(run: Any) -> None:
    shape, block = (4, 5, 11), (2, 4, 8)
    x = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
    out = np.zeros(shape, np.float32)
    grid = tuple(triton.cdiv(s, b) for s, b in zip(shape, block, strict=True))
    run(copy_3d_kernel, grid, x, out, *shape, BA=2, BB=4, BC=8)
    np.testing.assert_array_equal(out, 3 * x)


@triton.jit
def running_sum_kernel(x, out, n, BLOCK: tl.constexpr):
    """out[i] = sum of x[i::BLOCK]: a 1-D block pointer advanced by a runtime loop, one step
    with ``tl.advance`` and one with the method (and stored through with ``.store``)."""
    p = tl.make_block_ptr(x, (n,), (1,), (0,), (BLOCK,), (0,))
    acc = tl.zeros((BLOCK,), tl.float32)
    for _ in range(0, n, 2 * BLOCK):
        acc += tl.load(p, boundary_check=(0,))
        p = tl.advance(p, (BLOCK,))
        acc += tl.load(p, boundary_check=(0,))
        p = p.advance((BLOCK,))
    o = tl.make_block_ptr(out, (BLOCK,), (1,), (0,), (BLOCK,), (0,))
    o.store(acc)


@pytest.mark.parametrize("n", [37, 64])
def test_advance_in_runtime_for(run: Any, n: int) -> None:
    block = 16
    x = np.random.default_rng(n).standard_normal(n).astype(np.float32)
    out = np.zeros(block, np.float32)
    run(running_sum_kernel, (1,), x, out, n, BLOCK=block)
    steps = triton.cdiv(n, 2 * block) * 2
    ref = np.zeros(steps * block, np.float32)
    ref[:n] = x
    np.testing.assert_allclose(out, ref.reshape(steps, block).sum(0), rtol=1e-5, atol=1e-6)


@triton.jit
def load_tile(p, CHECK: tl.constexpr):
    return tl.load(p, boundary_check=CHECK)


@triton.jit
def next_tile(p, k):
    return tl.advance(p, (0, k))


@triton.jit
def row_sums_while_kernel(x, out, M, N, BM: tl.constexpr, BN: tl.constexpr):
    """Sums the rows of x block by block in a runtime ``while`` carrying a block pointer that
    @jit helpers load from and advance."""
    pm = tl.program_id(0)
    p = tl.make_block_ptr(x, (M, N), (N, 1), (pm * BM, 0), (BM, BN), (1, 0))
    acc = tl.zeros((BM, BN), tl.float32)
    done = 0
    while done < N:
        acc += load_tile(p, (0, 1))
        p = next_tile(p, BN)
        done += BN
    o = tl.make_block_ptr(out, (M,), (1,), (pm * BM,), (BM,), (0,))
    tl.store(o, tl.sum(acc, axis=1), boundary_check=(0,))


def test_block_pointer_in_while_and_helpers(run: Any) -> None:
    m, n = 11, 21
    x = np.random.default_rng(3).standard_normal((m, n)).astype(np.float32)
    out = np.zeros(m, np.float32)
    run(row_sums_while_kernel, (triton.cdiv(m, 8),), x, out, m, n, BM=8, BN=8)
    np.testing.assert_allclose(out, x.sum(1), rtol=1e-5, atol=1e-5)


@triton.jit
def pick_pointer_kernel(a, b, out, n, split, BLOCK: tl.constexpr):
    """A runtime ``if`` chooses which block pointer later code loads from."""
    pid = tl.program_id(0)
    if pid < split:
        p = tl.make_block_ptr(a, (n,), (1,), (pid * BLOCK,), (BLOCK,), (0,))
    else:
        p = tl.make_block_ptr(b, (n,), (1,), (pid * BLOCK,), (BLOCK,), (0,))
    q = tl.make_block_ptr(out, (n,), (1,), (pid * BLOCK,), (BLOCK,), (0,))
    tl.store(q, tl.load(p, boundary_check=(0,)), boundary_check=(0,))


def test_block_pointer_through_runtime_if(run: Any) -> None:
    n, block = 50, 16
    a = np.arange(n, dtype=np.float32)
    b = -np.arange(n, dtype=np.float32)
    out = np.zeros(n, np.float32)
    run(pick_pointer_kernel, (triton.cdiv(n, block),), a, b, out, n, 2, BLOCK=block)
    np.testing.assert_array_equal(out, np.where(np.arange(n) < 2 * block, a, b))


@triton.jit
def block_ptr_matmul_kernel(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    """The classic loop: A and B block pointers advanced along K in a runtime ``for``."""
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    a_ptr = tl.make_block_ptr(a, (M, K), (K, 1), (pm * BM, 0), (BM, BK), (1, 0))
    b_ptr = tl.make_block_ptr(b, (K, N), (N, 1), (0, pn * BN), (BK, BN), (1, 0))
    acc = tl.zeros((BM, BN), tl.float32)
    for _ in range(0, K, BK):
        x = tl.load(a_ptr, boundary_check=(0, 1))
        y = tl.load(b_ptr, boundary_check=(0, 1))
        acc = tl.dot(x, y, acc)
        a_ptr = tl.advance(a_ptr, (0, BK))
        b_ptr = tl.advance(b_ptr, (BK, 0))
    c_ptr = tl.make_block_ptr(c, (M, N), (N, 1), (pm * BM, pn * BN), (BM, BN), (1, 0))
    tl.store(c_ptr, acc.to(tl.float16), boundary_check=(0, 1))


def test_block_pointer_matmul(run: Any) -> None:
    m, n, k = 20, 18, 40
    rng = np.random.default_rng(4)
    a = rng.standard_normal((m, k)).astype(np.float16)
    b = rng.standard_normal((k, n)).astype(np.float16)
    c = np.zeros((m, n), np.float16)
    grid = (triton.cdiv(m, 16), triton.cdiv(n, 16))
    run(block_ptr_matmul_kernel, grid, a, b, c, m, n, k, BM=16, BN=16, BK=16)
    ref = a.astype(np.float32) @ b.astype(np.float32)
    np.testing.assert_allclose(c.astype(np.float32), ref, rtol=1e-2, atol=1e-2)


@triton.jit
def bool_block_kernel(x, out, n, BLOCK: tl.constexpr):
    """A bool block pointer reads int8 (Triton reads bool memory through an int8 pointer)."""
    p = tl.make_block_ptr(x, (n,), (1,), (0,), (BLOCK,), (0,))
    v = tl.load(p, boundary_check=(0,))
    tl.store(out + tl.arange(0, BLOCK), v)


def test_bool_block_pointer_reads_int8(run: Any) -> None:
    x = np.array([True, False, True, True, False], np.bool_)
    out = np.full(8, -1, np.int8)
    run(bool_block_kernel, (1,), x, out, 5, BLOCK=8)
    np.testing.assert_array_equal(out, np.array([1, 0, 1, 1, 0, 0, 0, 0], np.int8))


# ---- tensor descriptors ----


@triton.jit
def descriptor_copy_kernel(x, out, M, N, BM: tl.constexpr, BN: tl.constexpr):
    """out = 2 * x through descriptors; the edge blocks read zeros and drop their writes."""
    src = tl.make_tensor_descriptor(x, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    dst = tl.make_tensor_descriptor(out, [M, N], [N, 1], [BM, BN])
    offs = [tl.program_id(0) * BM, tl.program_id(1) * BN]
    v = src.load(offs)
    dst.store(offs, v * 2)


def test_descriptor_copy(run: Any) -> None:
    m, n = 13, 21
    x = np.random.default_rng(5).standard_normal((m, n)).astype(np.float32)
    out = np.full((m, n), np.nan, np.float32)
    run(descriptor_copy_kernel, (triton.cdiv(m, 8), triton.cdiv(n, 8)), x, out, m, n, BM=8, BN=8)
    np.testing.assert_array_equal(out, 2 * x)


@triton.jit
def descriptor_padding_kernel(x, out, M, N, BM: tl.constexpr, BN: tl.constexpr, PAD: tl.constexpr):
    """Each program's whole block, padding included, lands in out (functions of tl.*)."""
    src = tl.make_tensor_descriptor(x, [M, N], [N, 1], [BM, BN], padding_option=PAD)
    pm, pn = tl.program_id(0), tl.program_id(1)
    wide = tl.num_programs(1) * BN
    dst = tl.make_tensor_descriptor(out, [tl.num_programs(0) * BM, wide], [wide, 1], [BM, BN])
    v = tl.load_tensor_descriptor(src, [pm * BM, pn * BN])
    tl.store_tensor_descriptor(dst, [pm * BM, pn * BN], v)


@pytest.mark.parametrize(("pad", "fill"), [("zero", 0.0), ("nan", np.nan)])
def test_descriptor_padding(run: Any, pad: str, fill: float) -> None:
    m, n = 9, 6
    x = np.random.default_rng(6).standard_normal((m, n)).astype(np.float32)
    out = np.full((16, 8), -7.0, np.float32)
    run(descriptor_padding_kernel, (2, 2), x, out, m, n, BM=8, BN=4, PAD=pad)
    np.testing.assert_array_equal(out, padded(x, out.shape, fill))


@triton.jit
def descriptor_matmul_kernel(
    a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr
):
    a_desc = tl.make_tensor_descriptor(a, [M, K], [K, 1], [BM, BK])
    b_desc = tl.make_tensor_descriptor(b, [K, N], [N, 1], [BK, BN])
    c_desc = tl.make_tensor_descriptor(c, [M, N], [N, 1], [BM, BN])
    pm = tl.program_id(0) * BM
    pn = tl.program_id(1) * BN
    acc = tl.zeros((BM, BN), tl.float32)
    for k in range(0, K, BK):
        acc = tl.dot(a_desc.load([pm, k]), b_desc.load([k, pn]), acc)
    c_desc.store([pm, pn], acc)  # converted to the descriptor's float16, as Triton does


def test_descriptor_matmul(run: Any) -> None:
    m, n, k = 24, 20, 40
    rng = np.random.default_rng(7)
    a = rng.standard_normal((m, k)).astype(np.float16)
    b = rng.standard_normal((k, n)).astype(np.float16)
    c = np.zeros((m, n), np.float16)
    grid = (triton.cdiv(m, 16), triton.cdiv(n, 16))
    run(descriptor_matmul_kernel, grid, a, b, c, m, n, k, BM=16, BN=16, BK=16)
    ref = a.astype(np.float32) @ b.astype(np.float32)
    np.testing.assert_allclose(c.astype(np.float32), ref, rtol=1e-2, atol=1e-2)


def block_pointer_warmups() -> list[Any]:
    """The kernels above (and test_descriptor_gather.py's) compiled once each (compile-only:
    tests/cuda checks the C++)."""
    from tests.execution.test_descriptor_gather import descriptor_gather_warmups

    f32 = np.zeros((16, 16), np.float32)
    f16 = np.zeros((32, 32), np.float16)
    i32 = np.zeros((16, 16), np.int32)
    return [
        padded_window_kernel.warmup(
            f32, f32, 13, 10, 10, 1, BM=8, BN=4, PAD="nan", ORDER=(1, 0), grid=(2, 3)
        ),
        add_one_kernel.warmup(i32, i32, 13, 11, BM=8, BN=8, CHECK=(0, 1), grid=(2, 2)),
        running_sum_kernel.warmup(f32, f32, 37, BLOCK=16, grid=(1,)),
        copy_3d_kernel.warmup(f32, f32, 4, 5, 11, BA=2, BB=4, BC=8, grid=(2, 2, 2)),
        row_sums_while_kernel.warmup(f32, f32, 11, 16, BM=8, BN=8, grid=(2,)),
        pick_pointer_kernel.warmup(f32, f32, f32, 50, 2, BLOCK=16, grid=(4,)),
        block_ptr_matmul_kernel.warmup(f16, f16, f16, 20, 18, 32, BM=16, BN=16, BK=16, grid=(2, 2)),
        descriptor_copy_kernel.warmup(f32, f32, 13, 16, BM=8, BN=8, grid=(2, 2)),
        descriptor_padding_kernel.warmup(f32, f32, 9, 6, BM=8, BN=4, PAD="nan", grid=(2, 2)),
        descriptor_matmul_kernel.warmup(
            f16, f16, f16, 24, 20, 32, BM=16, BN=16, BK=16, grid=(2, 2)
        ),
        *descriptor_gather_warmups(),
    ]
