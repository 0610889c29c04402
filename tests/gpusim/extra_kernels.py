"""Kernels beyond ``tests/kernels.py`` that reach more of the lowering: reductions along either
axis of 2-D blocks, layout conversions (also of booleans), integer and float math, casts,
chained dots, transposed and gathered accesses, and loop-carried pointer blocks."""

from __future__ import annotations

import mytriton as triton
import mytriton.language as tl


@triton.jit
def reduce_2d_kernel(x, out0, out1, M, N, BM: tl.constexpr, BN: tl.constexpr):
    rows = tl.arange(0, BM)[:, None]
    cols = tl.arange(0, BN)[None, :]
    mask = (rows < M) & (cols < N)
    v = tl.load(x + rows * N + cols, mask=mask, other=0.0)
    tl.store(out0 + tl.arange(0, BN), tl.sum(v, axis=0), mask=tl.arange(0, BN) < N)
    row_max = tl.max(tl.where(mask, v, -float("inf")), axis=1)
    tl.store(out1 + tl.arange(0, BM), row_max, mask=tl.arange(0, BM) < M)


@triton.jit
def softmax_2d_kernel(x, out, M, N, BM: tl.constexpr, BN: tl.constexpr):
    rows = tl.program_id(0) * BM + tl.arange(0, BM)[:, None]
    cols = tl.arange(0, BN)[None, :]
    mask = (rows < M) & (cols < N)
    v = tl.load(x + rows * N + cols, mask=mask, other=-float("inf"))
    v = v - tl.max(v, axis=1)[:, None]
    e = tl.exp(v)
    tl.store(out + rows * N + cols, e / tl.sum(e, axis=1)[:, None], mask=mask)


@triton.jit
def row_plus_column_sums_kernel(x, out, B: tl.constexpr):
    """Adds a slice(0) block to a slice(1) block: a layout conversion through shared memory."""
    r = tl.arange(0, B)[:, None]
    c = tl.arange(0, B)[None, :]
    v = tl.load(x + r * B + c)
    tl.store(out + tl.arange(0, B), tl.sum(v, axis=0) + tl.sum(v, axis=1))


@triton.jit
def bool_convert_kernel(x, out, B: tl.constexpr):
    r = tl.arange(0, B)[:, None]
    c = tl.arange(0, B)[None, :]
    v = tl.load(x + r * B + c)
    m0 = tl.sum(v, axis=0) > 0
    m1 = tl.sum(v, axis=1) > 0
    tl.store(out + tl.arange(0, B), (m0 & m1).to(tl.float32) + m0.to(tl.float32) * 2.0)


@triton.jit
def int_ops_kernel(x, y, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    a = tl.load(x + offs, mask=m, other=1)
    b = tl.load(y + offs, mask=m, other=1)
    r = a // b + a % b * 3 + (a & b) + (a | b) - (a ^ b)
    r = r + tl.maximum(a, b) * tl.minimum(a, b) - tl.abs(a) + tl.where(a > b, a, -b)
    tl.store(out + offs, r, mask=m)


@triton.jit
def int_reduce_kernel(x, out, N, BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    v = tl.load(x + tl.program_id(0) * N + cols, mask=cols < N, other=0)
    tl.store(out + tl.program_id(0) * 3, tl.sum(v, axis=0))
    tl.store(out + tl.program_id(0) * 3 + 1, tl.max(tl.where(cols < N, v, -2147483647), axis=0))
    tl.store(out + tl.program_id(0) * 3 + 2, tl.min(tl.where(cols < N, v, 2147483647), axis=0))


@triton.jit
def casts_kernel(x, out_i, out_f, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    v = tl.load(x + offs, mask=m, other=0.0)
    i = v.to(tl.int32)
    tl.store(out_i + offs, i * 2, mask=m)
    tl.store(out_f + offs, i.to(tl.float32) + (v > 0).to(tl.float32), mask=m)


@triton.jit
def float_math_kernel(x, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    v = tl.load(x + offs, mask=m, other=1.0)
    a = tl.abs(v) + 0.5
    r = tl.exp2(v) * 0.1 + tl.log(a) + tl.sqrt(a) + tl.rsqrt(a) + tl.sin(v) + tl.cos(v)
    r = r + tl.floor(v) - tl.ceil(v) + v % 0.75 + tl.log2(a) + tl.clamp(v, -0.5, 0.5)
    r = r + tl.minimum(v, 0.25) + tl.sigmoid(v) + tl.fdiv(v, a) - (-v)
    tl.store(out + offs, r, mask=m)


@triton.jit
def dot_chain_kernel(a, b, c, out, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    A = tl.load(a + rm[:, None] * K + rk[None, :])
    B = tl.load(b + rk[:, None] * N + rn[None, :])
    C = tl.load(c + rn[:, None] * N + rn[None, :])
    acc = tl.dot(A, B)
    tl.store(out + rm[:, None] * N + rn[None, :], tl.dot(acc, C, acc))


@triton.jit
def dot_then_reduce_kernel(a, b, out, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    A = tl.load(a + rm[:, None] * K + rk[None, :])
    B = tl.load(b + rk[:, None] * N + rn[None, :])
    acc = tl.dot(A, B)
    tl.store(out + rn, tl.sum(acc, axis=0))
    tl.store(out + N + rm, tl.max(acc, axis=1))


@triton.jit
def dot_transposed_kernel(a, b, out, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    A = tl.load(a + rm[:, None] + rk[None, :] * M)  # a is stored K x M
    B = tl.load(b + rk[:, None] + rn[None, :] * K)  # b is stored N x K
    tl.store(out + rm[:, None] * N + rn[None, :], tl.dot(A, B))


@triton.jit
def transpose_kernel(x, out, M, N, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    v = tl.load(x + rm[:, None] * N + rn[None, :], mask=mask)
    tl.store(out + rn[None, :] * M + rm[:, None], v, mask=mask)


@triton.jit
def gather_rows_kernel(x, idx, out, N, B: tl.constexpr, BN: tl.constexpr):
    rows = tl.load(idx + tl.arange(0, B))
    cols = tl.arange(0, BN)
    v = tl.load(x + rows[:, None] * N + cols[None, :], mask=cols[None, :] < N, other=0.0)
    tl.store(out + tl.arange(0, B)[:, None] * N + cols[None, :], v, mask=cols[None, :] < N)


@triton.jit
def col_sum_loop_kernel(x, out, M, N, BM: tl.constexpr, BN: tl.constexpr):
    cols = tl.program_id(0) * BN + tl.arange(0, BN)
    acc = tl.zeros((BN,), tl.float32)
    for m0 in range(0, M, BM):
        rows = m0 + tl.arange(0, BM)
        mask = (rows[:, None] < M) & (cols[None, :] < N)
        acc += tl.sum(tl.load(x + rows[:, None] * N + cols[None, :], mask=mask, other=0.0), axis=0)
    tl.store(out + cols, acc, mask=cols < N)


@triton.jit
def num_programs_kernel(out):
    p = tl.program_id(0) + tl.program_id(1) * tl.num_programs(0)
    p = p + tl.program_id(2) * tl.num_programs(0) * tl.num_programs(1)
    tl.store(out + p, p + tl.num_programs(2) * 1000)


@triton.jit
def running_column_sums_kernel(x, out, STEPS, B: tl.constexpr):
    """Writes the running column sums of STEPS BxB tiles through a loop-carried pointer block."""
    r = tl.arange(0, B)[:, None]
    c = tl.arange(0, B)[None, :]
    ptrs = out + tl.arange(0, B)
    acc = tl.zeros((B,), tl.float32)
    for i in range(0, STEPS):
        acc += tl.sum(tl.load(x + i * B * B + r * B + c), axis=0)
        tl.store(ptrs, acc)
        ptrs += B


@triton.jit
def running_matmul_kernel(a, b, c, STEPS, B: tl.constexpr):
    """Stores A @ B, 2 A @ B, ... through a loop-carried 2-D pointer block."""
    r = tl.arange(0, B)
    A = tl.load(a + r[:, None] * B + r[None, :])
    Bm = tl.load(b + r[:, None] * B + r[None, :])
    c_ptrs = c + r[:, None] * B + r[None, :]
    acc = tl.zeros((B, B), tl.float32)
    for _ in range(0, STEPS):
        acc = tl.dot(A, Bm, acc)
        tl.store(c_ptrs, acc)
        c_ptrs += B * B
