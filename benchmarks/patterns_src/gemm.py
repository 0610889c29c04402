"""GEMM patterns: the tutorial's grouped-ordering matmul (plain and autotuned over a few
configs), a persistent matmul through host tensor descriptors (TMA on Hopper: one program per
SM looping over output tiles), the fused-MoE grouped GEMM (rows gathered by an expert-sorted,
block-padded token list; each row block multiplies one expert's weights; routing weight applied
in the epilogue), and fp8 (e4m3) quantization / dequantization with one scale per token group."""

import triton
import triton.language as tl


@triton.jit
def _grouped_tile(pid, num_pid_m, num_pid_n, GROUP_M: tl.constexpr):
    """(pid_m, pid_n) of tile ``pid`` when ``GROUP_M`` row tiles go down one column of tiles
    before the next (their operands stay in L2)."""
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + (pid % num_pid_in_group) % group_size_m
    pid_n = (pid % num_pid_in_group) // group_size_m
    return pid_m, pid_n


@triton.jit
def matmul(
    A, B, C, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr,
):  # fmt: skip
    pid = tl.program_id(0)
    pid_m, pid_n = _grouped_tile(pid, tl.cdiv(M, BLOCK_M), tl.cdiv(N, BLOCK_N), GROUP_M)
    offs_m = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
    offs_n = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = A + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = B + offs_k[:, None] * stride_bk + offs_n[None, :] * stride_bn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        k_left = K - k * BLOCK_K
        a = tl.load(a_ptrs, mask=offs_k[None, :] < k_left, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < k_left, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    c_ptrs = C + rm[:, None] * stride_cm + rn[None, :] * stride_cn
    tl.store(c_ptrs, acc.to(C.dtype.element_ty), mask=(rm[:, None] < M) & (rn[None, :] < N))


# (BLOCK_M, BLOCK_N, BLOCK_K, GROUP_M, num_warps, num_stages): a few of the tutorial's kind
MATMUL_CONFIGS = [
    (128, 256, 64, 8, 8, 3),
    (128, 128, 64, 8, 4, 4),
    (128, 64, 32, 8, 4, 4),
    (64, 128, 32, 8, 4, 4),
]

matmul_autotuned = triton.autotune(
    configs=[
        triton.Config(
            {"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk, "GROUP_M": g},
            num_warps=w,
            num_stages=s,
        )
        for bm, bn, bk, g, w, s in MATMUL_CONFIGS
    ],
    key=["M", "N", "K"],
)(matmul)


@triton.jit
def matmul_persistent_tma(
    a_desc, b_desc, c_desc, M, N, K,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr,
    NUM_PROGRAMS: tl.constexpr,
):  # fmt: skip
    """``NUM_PROGRAMS`` programs (one per SM) take the output tiles in turn; A [M, K], B [K, N]
    and C [M, N] through host tensor descriptors of blocks [BLOCK_M, BLOCK_K], [BLOCK_K,
    BLOCK_N] and [BLOCK_M, BLOCK_N]."""
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    k_tiles = tl.cdiv(K, BLOCK_K)
    num_tiles = num_pid_m * num_pid_n
    for tile in tl.range(tl.program_id(0), num_tiles, NUM_PROGRAMS, flatten=True):
        pid_m, pid_n = _grouped_tile(tile, num_pid_m, num_pid_n, GROUP_M)
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for ki in range(k_tiles):
            a = a_desc.load([pid_m * BLOCK_M, ki * BLOCK_K])
            b = b_desc.load([ki * BLOCK_K, pid_n * BLOCK_N])
            acc = tl.dot(a, b, acc)
        c_desc.store([pid_m * BLOCK_M, pid_n * BLOCK_N], acc.to(tl.float16))


@triton.jit
def fused_moe_gemm(
    A, W, C, TopkWeights, SortedTokenIds, ExpertIds, num_tokens_padded, num_valid, N, K,
    stride_am, stride_ak, stride_we, stride_wn, stride_wk, stride_cm, stride_cn,
    TOP_K: tl.constexpr, MUL_ROUTED_WEIGHT: tl.constexpr,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr,
):  # fmt: skip
    """``C[i] = A[i // TOP_K] @ W[e].T (* weight[i])`` for each routed row ``i`` (a token's
    ``TOP_K`` choices are rows ``token * TOP_K + j``), ``e`` its expert. ``SortedTokenIds``
    lists the rows expert by expert, each expert's list padded to a multiple of ``BLOCK_M``
    with ``num_valid`` (masked); ``ExpertIds`` has the expert of each block of ``BLOCK_M``.
    W is [E, N, K] (a linear layer's weights)."""
    pid = tl.program_id(0)
    num_pid_m = tl.cdiv(num_tokens_padded, BLOCK_M)
    pid_m, pid_n = _grouped_tile(pid, num_pid_m, tl.cdiv(N, BLOCK_N), GROUP_M)
    if pid_m * BLOCK_M >= num_tokens_padded:
        return
    offs_tok = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    token_ids = tl.load(SortedTokenIds + offs_tok)
    token_mask = token_ids < num_valid
    expert = tl.load(ExpertIds + pid_m).to(tl.int64)
    offs_n = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = A + (token_ids[:, None] // TOP_K) * stride_am + offs_k[None, :] * stride_ak
    w_ptrs = W + expert * stride_we + offs_k[:, None] * stride_wk + offs_n[None, :] * stride_wn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        k_left = K - k * BLOCK_K
        a = tl.load(a_ptrs, mask=token_mask[:, None] & (offs_k[None, :] < k_left), other=0.0)
        w = tl.load(w_ptrs, mask=offs_k[:, None] < k_left, other=0.0)
        acc = tl.dot(a, w, acc)
        a_ptrs += BLOCK_K * stride_ak
        w_ptrs += BLOCK_K * stride_wk
    if MUL_ROUTED_WEIGHT:
        weight = tl.load(TopkWeights + token_ids, mask=token_mask, other=0.0)
        acc = acc * weight[:, None]
    offs_cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    c_ptrs = C + token_ids[:, None].to(tl.int64) * stride_cm + offs_cn[None, :] * stride_cn
    c_mask = token_mask[:, None] & (offs_cn[None, :] < N)
    tl.store(c_ptrs, acc.to(C.dtype.element_ty), mask=c_mask)


@triton.jit
def quant_fp8_per_token_group(
    X, Q, S, eps, fp8_min, fp8_max, GROUP: tl.constexpr
):  # fmt: skip
    """One program per group of ``GROUP`` consecutive elements of a row (rows a multiple of
    ``GROUP`` long, contiguous): scale = max |x| / fp8_max, q = x / scale in e4m3."""
    g = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, GROUP)
    x = tl.load(X + g * GROUP + cols).to(tl.float32)
    amax = tl.maximum(tl.max(tl.abs(x), axis=0), eps)
    scale = amax / fp8_max
    q = tl.clamp(x / scale, fp8_min, fp8_max)
    tl.store(Q + g * GROUP + cols, q.to(Q.dtype.element_ty))
    tl.store(S + g, scale)


@triton.jit
def dequant_fp8_per_token_group(
    Q, S, Y, K, GROUP: tl.constexpr, BLOCK_K: tl.constexpr
):  # fmt: skip
    """``Y = Q * scale of its group``, a row block of ``BLOCK_K`` (a multiple of ``GROUP``)."""
    row = tl.program_id(0).to(tl.int64)
    cols = tl.program_id(1) * BLOCK_K + tl.arange(0, BLOCK_K)
    mask = cols < K
    q = tl.load(Q + row * K + cols, mask=mask, other=0.0).to(tl.float32)
    s = tl.load(S + row * (K // GROUP) + cols // GROUP, mask=mask, other=0.0)
    tl.store(Y + row * K + cols, (q * s).to(Y.dtype.element_ty), mask=mask)
