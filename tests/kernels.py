"""The seed's kernels and Triton-tutorial kernels, shared by the test suites.

Each kernel is written exactly as for real Triton (only the imports differ).
"""

from __future__ import annotations

import mytriton as triton
import mytriton.language as tl


@triton.jit
def add_kernel(x, y, out, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x_values = tl.load(x + offsets, mask=mask, other=0.0)
    y_values = tl.load(y + offsets, mask=mask, other=0.0)
    tl.store(out + offsets, x_values + y_values, mask=mask)


@triton.jit
def copy_kernel(x, out, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(out + offsets, tl.load(x + offsets, mask=mask), mask=mask)


@triton.jit
def relu_kernel(x, out, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    v = tl.load(x + offsets, mask=mask, other=0.0)
    tl.store(out + offsets, tl.maximum(v, 0.0), mask=mask)


@triton.jit
def leaky_relu_kernel(x, out, n, alpha, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    v = tl.load(x + offsets, mask=mask, other=0.0)
    tl.store(out + offsets, tl.where(v > 0, v, v * alpha), mask=mask)


@triton.jit
def sigmoid_kernel(x, out, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    v = tl.load(x + offsets, mask=mask, other=0.0)
    tl.store(out + offsets, 1.0 / (1.0 + tl.exp(-v)), mask=mask)


@triton.jit
def matrix_add_2d_kernel(x, y, out, M, N, BM: tl.constexpr, BN: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BM + tl.arange(0, BM)[:, None]
    offs_n = pid_n * BN + tl.arange(0, BN)[None, :]
    offsets = offs_m * N + offs_n
    mask = (offs_m < M) & (offs_n < N)
    lhs = tl.load(x + offsets, mask=mask, other=0.0)
    rhs = tl.load(y + offsets, mask=mask, other=0.0)
    tl.store(out + offsets, lhs + rhs, mask=mask)


@triton.jit
def row_sum_kernel(x, out, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    v = tl.load(x + row * N + cols, mask=cols < N, other=0.0)
    tl.store(out + row, tl.sum(v, axis=0))


@triton.jit
def row_max_kernel(x, out, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    v = tl.load(x + row * N + cols, mask=cols < N, other=-float("inf"))
    tl.store(out + row, tl.max(v, axis=0))


@triton.jit
def row_min_kernel(x, out, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    v = tl.load(x + row * N + cols, mask=cols < N, other=float("inf"))
    tl.store(out + row, tl.min(v, axis=0))


@triton.jit
def softmax_kernel(x, out, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    v = tl.load(x + row * N + cols, mask=mask, other=-float("inf"))
    v = v - tl.max(v, axis=0)
    num = tl.exp(v)
    den = tl.sum(num, axis=0)
    tl.store(out + row * N + cols, num / den, mask=mask)


@triton.jit
def long_row_sum_kernel(x, out, N, BLOCK: tl.constexpr, CHUNKS: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    partial = tl.zeros((BLOCK,), tl.float32)
    for c in tl.static_range(0, CHUNKS):
        idx = c * BLOCK + cols
        partial += tl.load(x + row * N + idx, mask=idx < N, other=0.0)
    tl.store(out + row, tl.sum(partial, axis=0))


@triton.jit
def runtime_sum_kernel(x, out, K):
    accumulator = 0.0
    for k in range(K):
        accumulator += tl.load(x + k)
    tl.store(out, accumulator)


@triton.jit
def runtime_block_sum_kernel(x, out, N, BLOCK: tl.constexpr):
    """A block carried through a runtime loop with a pointer increment."""
    cols = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK,), tl.float32)
    ptrs = x + cols
    for start in range(0, N, BLOCK):
        acc += tl.load(ptrs, mask=start + cols < N, other=0.0)
        ptrs += BLOCK
    tl.store(out + cols, acc)


@triton.jit
def nested_loop_kernel(x, out, M, N):
    total = 0.0
    for i in range(M):
        row = 0.0
        for j in range(N):
            row += tl.load(x + i * N + j)
        total += row * row
    tl.store(out, total)


@triton.jit
def factories_kernel(out, fill, BLOCK: tl.constexpr):
    offsets = tl.arange(0, BLOCK)
    z = tl.zeros((BLOCK,), tl.float32)
    f = tl.full((BLOCK,), 2.5, tl.float32)
    g = tl.full([BLOCK], fill, tl.float32)
    tl.store(out + offsets, z + f * g)


@triton.jit
def naive_matmul_kernel(a, b, c, M, N, K: tl.constexpr, BN: tl.constexpr):
    """One row of C per program, rank-1 vectors, compile-time K unrolled."""
    row = tl.program_id(0)
    cols = tl.arange(0, BN)
    acc = tl.zeros((BN,), tl.float32)
    for k in range(K):
        acc += tl.load(a + row * K + k) * tl.load(b + k * N + cols, mask=cols < N, other=0.0)
    tl.store(c + row * N + cols, acc, mask=cols < N)


@triton.jit
def tiled_matmul_kernel(
    a, b, c, M, N, K: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr
):
    """Compile-time K: the K loop is unrolled."""
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rows = pid_m * BM + tl.arange(0, BM)
    cols = pid_n * BN + tl.arange(0, BN)
    ks = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), tl.float32)
    for k0 in range(0, K, BK):
        a_rows = rows[:, None]
        a_cols = (k0 + ks)[None, :]
        a_values = tl.load(a + a_rows * K + a_cols, mask=(a_rows < M) & (a_cols < K), other=0.0)
        b_rows = (k0 + ks)[:, None]
        b_cols = cols[None, :]
        b_values = tl.load(b + b_rows * N + b_cols, mask=(b_rows < K) & (b_cols < N), other=0.0)
        acc = acc + tl.dot(a_values, b_values)
    tl.store(
        c + rows[:, None] * N + cols[None, :], acc, mask=(rows[:, None] < M) & (cols[None, :] < N)
    )


@triton.jit
def tiled_matmul_runtime_k_kernel(
    a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr
):
    """Runtime K: the K loop is a structured loop carrying the accumulator."""
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rows = pid_m * BM + tl.arange(0, BM)
    cols = pid_n * BN + tl.arange(0, BN)
    ks = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), tl.float32)
    for k0 in range(0, K, BK):
        a_rows = rows[:, None]
        a_cols = (k0 + ks)[None, :]
        a_values = tl.load(a + a_rows * K + a_cols, mask=(a_rows < M) & (a_cols < K), other=0.0)
        b_rows = (k0 + ks)[:, None]
        b_cols = cols[None, :]
        b_values = tl.load(b + b_rows * N + b_cols, mask=(b_rows < K) & (b_cols < N), other=0.0)
        acc = acc + tl.dot(a_values, b_values)
    tl.store(
        c + rows[:, None] * N + cols[None, :], acc, mask=(rows[:, None] < M) & (cols[None, :] < N)
    )


@triton.jit
def tutorial_matmul_kernel(
    a_ptr,
    b_ptr,
    c_ptr,
    M,
    N,
    K,
    stride_am,
    stride_ak,
    stride_bk,
    stride_bn,
    stride_cm,
    stride_cn,
    BLOCK_SIZE_M: tl.constexpr,
    BLOCK_SIZE_N: tl.constexpr,
    BLOCK_SIZE_K: tl.constexpr,
    GROUP_SIZE_M: tl.constexpr,
):
    """Triton tutorial 03 (f32, no autotune): grouped ordering, strides, pointer increments."""
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    offs_am = (pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)) % M
    offs_bn = (pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)) % N
    offs_k = tl.arange(0, BLOCK_SIZE_K)
    a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)
    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_SIZE_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_SIZE_K, other=0.0)
        accumulator = tl.dot(a, b, accumulator)
        a_ptrs += BLOCK_SIZE_K * stride_ak
        b_ptrs += BLOCK_SIZE_K * stride_bk
    offs_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptrs, accumulator, mask=c_mask)


@triton.jit
def fused_softmax_kernel(
    output_ptr,
    input_ptr,
    input_row_stride,
    output_row_stride,
    n_rows,
    n_cols,
    BLOCK_SIZE: tl.constexpr,
):
    """Triton tutorial 02 (one row per program)."""
    row_idx = tl.program_id(0)
    row_start_ptr = input_ptr + row_idx * input_row_stride
    col_offsets = tl.arange(0, BLOCK_SIZE)
    input_ptrs = row_start_ptr + col_offsets
    mask = col_offsets < n_cols
    row = tl.load(input_ptrs, mask=mask, other=-float("inf"))
    row_minus_max = row - tl.max(row, axis=0)
    numerator = tl.exp(row_minus_max)
    denominator = tl.sum(numerator, axis=0)
    softmax_output = numerator / denominator
    output_row_start_ptr = output_ptr + row_idx * output_row_stride
    output_ptrs = output_row_start_ptr + col_offsets
    tl.store(output_ptrs, softmax_output, mask=mask)


@triton.jit
def layer_norm_no_sqrt_kernel(x, out, N, eps, BLOCK: tl.constexpr):
    """Two reductions over one row: mean, then variance (a layer norm without its sqrt)."""
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    v = tl.load(x + row * N + cols, mask=mask, other=0.0)
    mean = tl.sum(v, axis=0) / N
    d = tl.where(mask, v - mean, 0.0)
    var = tl.sum(d * d, axis=0) / N
    tl.store(out + row * N + cols, d / (var + eps), mask=mask)
