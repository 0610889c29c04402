"""FlashAttention-style forward kernel, written for real Triton. ``attention.py`` imports this file
twice: once with ``triton`` being Triton and once with ``triton`` being mytriton, so both compile
the same source.

The structure of Triton's fused-attention tutorial (06): one program per BLOCK_M query rows of one
(batch, head); q, k, v, o are [BATCH, HEADS, N_CTX, HEAD_DIM] arrays, contiguous along HEAD_DIM
(the other strides are passed); online softmax in base 2 (``tl.exp2`` with ``sm_scale * log2(e)``)
with a running max, two ``tl.dot``s per K/V block (f16 operands, f32 accumulators; P rounded to
f16 before the second). Causal: the loop stops at the diagonal block (the K/V blocks right of
it are skipped) and the ``tl.where`` mask keeps the lower triangle. One loop, not the tutorial's
two stages (unmasked blocks, then the diagonal ones): mytriton gives every layout conversion
and dot staging its own shared memory, and a second loop doubles it. N_CTX
must be a multiple of BLOCK_M and of BLOCK_N, and BLOCK_M a multiple of BLOCK_N (no bounds
masks, as in the tutorial)."""

import triton
import triton.language as tl


@triton.jit
def attn_fwd(
    q_ptr,
    k_ptr,
    v_ptr,
    o_ptr,
    sm_scale,
    stride_qz,
    stride_qh,
    stride_qm,
    stride_kz,
    stride_kh,
    stride_kn,
    stride_vz,
    stride_vh,
    stride_vn,
    stride_oz,
    stride_oh,
    stride_om,
    HEADS,
    N_CTX,
    HEAD_DIM: tl.constexpr,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    CAUSAL: tl.constexpr,
):
    start_m = tl.program_id(0)
    off_hz = tl.program_id(1)
    off_z = off_hz // HEADS
    off_h = off_hz % HEADS
    q_base = q_ptr + off_z * stride_qz + off_h * stride_qh
    k_base = k_ptr + off_z * stride_kz + off_h * stride_kh
    v_base = v_ptr + off_z * stride_vz + off_h * stride_vh
    o_base = o_ptr + off_z * stride_oz + off_h * stride_oh

    rm = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rd = tl.arange(0, HEAD_DIM)
    qt = tl.load(q_base + rm[:, None] * stride_qm + rd[None, :])
    qk_scale = sm_scale * 1.44269504  # log2(e): exp(x) = exp2(x * log2(e))
    m_i = tl.zeros((BLOCK_M,), tl.float32) - float("inf")
    l_i = tl.zeros((BLOCK_M,), tl.float32)
    acc = tl.zeros((BLOCK_M, HEAD_DIM), tl.float32)

    # causal: the K/V blocks right of the diagonal are skipped, the mask keeps the lower triangle
    hi = (start_m + 1) * BLOCK_M if CAUSAL else N_CTX
    for start_n in range(0, hi, BLOCK_N):
        rn = start_n + tl.arange(0, BLOCK_N)
        kt = tl.load(k_base + rn[None, :] * stride_kn + rd[:, None])  # K^T: [HEAD_DIM, BLOCK_N]
        s = tl.dot(qt, kt) * qk_scale
        if CAUSAL:
            s = tl.where(rm[:, None] >= rn[None, :], s, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(s, 1))
        alpha = tl.exp2(m_i - m_new)
        p = tl.exp2(s - m_new[:, None])
        l_i = l_i * alpha + tl.sum(p, 1)
        vt = tl.load(v_base + rn[:, None] * stride_vn + rd[None, :])
        acc = acc * alpha[:, None] + tl.dot(p.to(tl.float16), vt)
        m_i = m_new

    out = acc / l_i[:, None]
    tl.store(o_base + rm[:, None] * stride_om + rd[None, :], out.to(tl.float16))
