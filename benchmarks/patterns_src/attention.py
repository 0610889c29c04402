"""Attention patterns, f16/bf16 operands with f32 accumulators, online softmax in base 2:

- ``paged_prefill``: causal prefill over a paged KV cache ([blocks, PAGE, kv_heads, HEAD_DIM]),
  each key's physical block looked up in the sequence's block table; sequences packed along the
  token axis (``CuSeqlens``); grouped-query attention (``GQA`` query heads per KV head).
- ``decode_split_kv`` + ``decode_combine``: one query token per sequence over a paged cache; the
  context split in ``NUM_SPLITS`` parts, each program doing one KV head's group of query heads
  (padded to ``BLOCK_H`` rows for ``tl.dot``) over one part, keeping a partial output and its
  log-sum-exp; the second kernel combines the parts.
- ``causal_prefill``: contiguous [batch, seq, heads, HEAD_DIM] q/k/v with GQA, in two stages as
  the fused-attention tutorial does: the key blocks left of the diagonal without a mask, then
  the diagonal ones with it."""

import triton
import triton.language as tl


@triton.jit
def paged_prefill(
    Q, KCache, VCache, Out, BlockTables, CuSeqlens, sm_scale,
    stride_qt, stride_qh, stride_kb, stride_kt, stride_kh, stride_vb, stride_vt, stride_vh,
    stride_ot, stride_oh, stride_bt,
    GQA: tl.constexpr, PAGE: tl.constexpr, HEAD_DIM: tl.constexpr,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
):  # fmt: skip
    pid_m = tl.program_id(0)
    head = tl.program_id(1)
    seq = tl.program_id(2)
    start = tl.load(CuSeqlens + seq)
    seqlen = tl.load(CuSeqlens + seq + 1) - start
    if pid_m * BLOCK_M >= seqlen:
        return
    kv_head = head // GQA
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, HEAD_DIM)
    m_valid = offs_m < seqlen
    q_ptrs = Q + (start + offs_m)[:, None] * stride_qt + head * stride_qh + offs_d[None, :]
    q = tl.load(q_ptrs, mask=m_valid[:, None], other=0.0)
    qk_scale = sm_scale * 1.4426950408889634  # exp(x) = exp2(x * log2(e))
    m_i = tl.zeros((BLOCK_M,), dtype=tl.float32) - float("inf")
    l_i = tl.zeros((BLOCK_M,), dtype=tl.float32)
    acc = tl.zeros((BLOCK_M, HEAD_DIM), dtype=tl.float32)
    table = BlockTables + seq * stride_bt
    hi = tl.minimum((pid_m + 1) * BLOCK_M, seqlen)
    for start_n in range(0, hi, BLOCK_N):
        offs_n = start_n + tl.arange(0, BLOCK_N)
        n_valid = offs_n < hi
        block = tl.load(table + offs_n // PAGE, mask=n_valid, other=0).to(tl.int64)
        slot = offs_n % PAGE
        k_offs = block * stride_kb + slot * stride_kt + kv_head * stride_kh
        v_offs = block * stride_vb + slot * stride_vt + kv_head * stride_vh
        kt = tl.load(KCache + k_offs[None, :] + offs_d[:, None], mask=n_valid[None, :], other=0.0)
        s = tl.dot(q, kt) * qk_scale
        s = tl.where((offs_m[:, None] >= offs_n[None, :]) & n_valid[None, :], s, -float("inf"))
        m_new = tl.maximum(m_i, tl.max(s, axis=1))
        alpha = tl.exp2(m_i - m_new)
        p = tl.exp2(s - m_new[:, None])
        l_i = l_i * alpha + tl.sum(p, axis=1)
        v = tl.load(VCache + v_offs[:, None] + offs_d[None, :], mask=n_valid[:, None], other=0.0)
        acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
        m_i = m_new
    out = acc / l_i[:, None]
    o_ptrs = Out + (start + offs_m)[:, None] * stride_ot + head * stride_oh + offs_d[None, :]
    tl.store(o_ptrs, out.to(Out.dtype.element_ty), mask=m_valid[:, None])


@triton.jit
def decode_split_kv(
    Q, KCache, VCache, BlockTables, SeqLens, MidO, MidLse, sm_scale,
    stride_qb, stride_qh, stride_kb, stride_kt, stride_kh, stride_vb, stride_vt, stride_vh,
    stride_bt, stride_mb, stride_mh, stride_ms,
    GQA: tl.constexpr, BLOCK_H: tl.constexpr, PAGE: tl.constexpr, HEAD_DIM: tl.constexpr,
    BLOCK_N: tl.constexpr, NUM_SPLITS: tl.constexpr,
):  # fmt: skip
    """Partial attention of the ``GQA`` query heads of KV head ``program_id(1)`` over part
    ``program_id(2)`` of sequence ``program_id(0)``'s context: ``MidO`` [B, Hq, NUM_SPLITS,
    HEAD_DIM] (normalized) and ``MidLse`` [B, Hq, NUM_SPLITS] (base 2)."""
    b = tl.program_id(0)
    kv_head = tl.program_id(1)
    split = tl.program_id(2)
    seqlen = tl.load(SeqLens + b)
    per_split = tl.cdiv(seqlen, NUM_SPLITS)
    lo = split * per_split
    hi = tl.minimum(lo + per_split, seqlen)
    offs_h = tl.arange(0, BLOCK_H)
    h_valid = offs_h < GQA
    heads = kv_head * GQA + offs_h
    offs_d = tl.arange(0, HEAD_DIM)
    q_ptrs = Q + b * stride_qb + heads[:, None] * stride_qh + offs_d[None, :]
    q = tl.load(q_ptrs, mask=h_valid[:, None], other=0.0)
    qk_scale = sm_scale * 1.4426950408889634
    m_i = tl.zeros((BLOCK_H,), dtype=tl.float32) - float("inf")
    l_i = tl.zeros((BLOCK_H,), dtype=tl.float32)
    acc = tl.zeros((BLOCK_H, HEAD_DIM), dtype=tl.float32)
    table = BlockTables + b * stride_bt
    for start_n in range(lo, hi, BLOCK_N):
        offs_n = start_n + tl.arange(0, BLOCK_N)
        n_valid = offs_n < hi
        block = tl.load(table + offs_n // PAGE, mask=n_valid, other=0).to(tl.int64)
        slot = offs_n % PAGE
        k_offs = block * stride_kb + slot * stride_kt + kv_head * stride_kh
        v_offs = block * stride_vb + slot * stride_vt + kv_head * stride_vh
        kt = tl.load(KCache + k_offs[None, :] + offs_d[:, None], mask=n_valid[None, :], other=0.0)
        s = tl.dot(q, kt) * qk_scale
        s = tl.where(n_valid[None, :], s, -float("inf"))
        m_new = tl.maximum(m_i, tl.max(s, axis=1))
        alpha = tl.exp2(m_i - m_new)
        p = tl.exp2(s - m_new[:, None])
        l_i = l_i * alpha + tl.sum(p, axis=1)
        v = tl.load(VCache + v_offs[:, None] + offs_d[None, :], mask=n_valid[:, None], other=0.0)
        acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
        m_i = m_new
    empty = l_i == 0.0  # a part with no keys: weight 0 in the combine
    out = acc / tl.where(empty, 1.0, l_i)[:, None]
    lse = tl.where(empty, -float("inf"), m_i + tl.log2(tl.where(empty, 1.0, l_i)))
    mid = b * stride_mb + heads * stride_mh + split * stride_ms
    tl.store(MidO + mid[:, None] + offs_d[None, :], out, mask=h_valid[:, None])
    tl.store(MidLse + mid // HEAD_DIM, lse, mask=h_valid)


@triton.jit
def decode_combine(
    MidO, MidLse, Out, stride_mb, stride_mh, stride_ms, stride_ob, stride_oh,
    HEAD_DIM: tl.constexpr, NUM_SPLITS: tl.constexpr,
):  # fmt: skip
    b = tl.program_id(0)
    h = tl.program_id(1)
    offs_s = tl.arange(0, NUM_SPLITS)
    offs_d = tl.arange(0, HEAD_DIM)
    mid = b * stride_mb + h * stride_mh + offs_s * stride_ms
    lse = tl.load(MidLse + mid // HEAD_DIM)
    o = tl.load(MidO + mid[:, None] + offs_d[None, :])
    w = tl.exp2(lse - tl.max(lse, axis=0))
    out = tl.sum(w[:, None] * o, axis=0) / tl.sum(w, axis=0)
    tl.store(Out + b * stride_ob + h * stride_oh + offs_d, out.to(Out.dtype.element_ty))


@triton.jit
def _attn_blocks(
    acc, l_i, m_i, q, k_base, v_base, stride_kn, stride_vn, offs_m, offs_d, lo, hi, qk_scale,
    BLOCK_N: tl.constexpr, MASKED: tl.constexpr,
):  # fmt: skip
    for start_n in range(lo, hi, BLOCK_N):
        offs_n = start_n + tl.arange(0, BLOCK_N)
        kt = tl.load(k_base + offs_n[None, :] * stride_kn + offs_d[:, None])
        s = tl.dot(q, kt) * qk_scale
        if MASKED:
            s = tl.where(offs_m[:, None] >= offs_n[None, :], s, -float("inf"))
        m_new = tl.maximum(m_i, tl.max(s, axis=1))
        alpha = tl.exp2(m_i - m_new)
        p = tl.exp2(s - m_new[:, None])
        l_i = l_i * alpha + tl.sum(p, axis=1)
        v = tl.load(v_base + offs_n[:, None] * stride_vn + offs_d[None, :])
        acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
        m_i = m_new
    return acc, l_i, m_i


@triton.jit
def causal_prefill(
    Q, K, V, Out, sm_scale, stride_qb, stride_qs, stride_qh, stride_kb, stride_ks, stride_kh,
    stride_vb, stride_vs, stride_vh, stride_ob, stride_os, stride_oh, HEADS,
    GQA: tl.constexpr, HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
):  # fmt: skip
    """The sequence length a multiple of ``BLOCK_M``, itself a multiple of ``BLOCK_N``."""
    pid_m = tl.program_id(0)
    bh = tl.program_id(1)
    b = bh // HEADS
    head = bh % HEADS
    kv_head = head // GQA
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, HEAD_DIM)
    q_base = Q + b.to(tl.int64) * stride_qb + head * stride_qh
    k_base = K + b.to(tl.int64) * stride_kb + kv_head * stride_kh
    v_base = V + b.to(tl.int64) * stride_vb + kv_head * stride_vh
    q = tl.load(q_base + offs_m[:, None] * stride_qs + offs_d[None, :])
    qk_scale = sm_scale * 1.4426950408889634
    m_i = tl.zeros((BLOCK_M,), dtype=tl.float32) - float("inf")
    l_i = tl.zeros((BLOCK_M,), dtype=tl.float32)
    acc = tl.zeros((BLOCK_M, HEAD_DIM), dtype=tl.float32)
    diag = pid_m * BLOCK_M
    acc, l_i, m_i = _attn_blocks(
        acc, l_i, m_i, q, k_base, v_base, stride_ks, stride_vs, offs_m, offs_d, 0, diag,
        qk_scale, BLOCK_N, False,
    )  # fmt: skip
    acc, l_i, m_i = _attn_blocks(
        acc, l_i, m_i, q, k_base, v_base, stride_ks, stride_vs, offs_m, offs_d, diag,
        diag + BLOCK_M, qk_scale, BLOCK_N, True,
    )  # fmt: skip
    out = acc / l_i[:, None]
    o_base = Out + b.to(tl.int64) * stride_ob + head * stride_oh
    tl.store(o_base + offs_m[:, None] * stride_os + offs_d[None, :], out.to(Out.dtype.element_ty))
