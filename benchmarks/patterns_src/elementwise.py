"""Elementwise patterns: SwiGLU and GeGLU (the gated MLP's activation, one program per row
block and column block, computed in f32), dropout with Philox random numbers (``tl.rand``), and
rotary position embedding (the NeoX form: the two halves of each head rotated, q and k in place,
cos/sin gathered by position)."""

import triton
import triton.language as tl


@triton.jit
def _tanh(x):
    # 1 - 2 / (e^{2x} + 1): exact at both ends (e^{2x} overflowing to inf gives 1)
    return 1.0 - 2.0 / (tl.exp(2.0 * x) + 1.0)


@triton.jit
def swiglu_fwd(A, B, C, stride_a, stride_b, stride_c, N, BLOCK_N: tl.constexpr):
    """``C = silu(A) * B`` for [M, N] A (gate) and B (up)."""
    row = tl.program_id(0).to(tl.int64)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = cols < N
    a = tl.load(A + row * stride_a + cols, mask=mask, other=0.0).to(tl.float32)
    b = tl.load(B + row * stride_b + cols, mask=mask, other=0.0)
    silu = a * tl.sigmoid(a)
    c = silu.to(b.dtype) * b  # rounded as torch's silu(a) * b rounds
    tl.store(C + row * stride_c + cols, c, mask=mask)


@triton.jit
def geglu_fwd(A, B, C, stride_a, stride_b, stride_c, N, BLOCK_N: tl.constexpr):
    """``C = gelu_tanh(A) * B``: GELU's tanh approximation, as Gemma's MLP uses it."""
    row = tl.program_id(0).to(tl.int64)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = cols < N
    a = tl.load(A + row * stride_a + cols, mask=mask, other=0.0).to(tl.float32)
    b = tl.load(B + row * stride_b + cols, mask=mask, other=0.0)
    sqrt_2_over_pi = 0.7978845608028654
    inner = sqrt_2_over_pi * (a + 0.044715 * a * a * a)
    gelu = 0.5 * a * (1.0 + _tanh(inner))
    c = gelu.to(b.dtype) * b
    tl.store(C + row * stride_c + cols, c, mask=mask)


@triton.jit
def dropout_fwd(X, Y, n_elements, p, seed, BLOCK: tl.constexpr):
    """Keeps each element with probability ``1 - p`` (Philox numbers keyed by ``seed`` and the
    element's offset), scaled by ``1 / (1 - p)``."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(X + offs, mask=mask, other=0.0)
    keep = tl.rand(seed, offs) > p
    y = tl.where(keep, x.to(tl.float32) / (1.0 - p), 0.0)
    tl.store(Y + offs, y.to(Y.dtype.element_ty), mask=mask)


@triton.jit
def rotary_neox(
    Q, K, Positions, CosSin, stride_qt, stride_qh, stride_kt, stride_kh, stride_cs,
    n_qh, n_kh, HALF: tl.constexpr, BLOCK_QH: tl.constexpr, BLOCK_KH: tl.constexpr,
):  # fmt: skip
    """One program per token: q [T, n_qh, 2 * HALF] and k [T, n_kh, 2 * HALF] rotated in place
    by the token's position's cos/sin (``CosSin`` [max_pos, 2 * HALF]: cos then sin)."""
    t = tl.program_id(0).to(tl.int64)
    pos = tl.load(Positions + t).to(tl.int64)
    d = tl.arange(0, HALF)
    cos = tl.load(CosSin + pos * stride_cs + d).to(tl.float32)[None, :]
    sin = tl.load(CosSin + pos * stride_cs + HALF + d).to(tl.float32)[None, :]

    hq = tl.arange(0, BLOCK_QH)
    mq = (hq < n_qh)[:, None]
    q_lo = Q + t * stride_qt + hq[:, None] * stride_qh + d[None, :]
    q1 = tl.load(q_lo, mask=mq, other=0.0).to(tl.float32)
    q2 = tl.load(q_lo + HALF, mask=mq, other=0.0).to(tl.float32)
    tl.store(q_lo, (q1 * cos - q2 * sin).to(Q.dtype.element_ty), mask=mq)
    tl.store(q_lo + HALF, (q2 * cos + q1 * sin).to(Q.dtype.element_ty), mask=mq)

    hk = tl.arange(0, BLOCK_KH)
    mk = (hk < n_kh)[:, None]
    k_lo = K + t * stride_kt + hk[:, None] * stride_kh + d[None, :]
    k1 = tl.load(k_lo, mask=mk, other=0.0).to(tl.float32)
    k2 = tl.load(k_lo + HALF, mask=mk, other=0.0).to(tl.float32)
    tl.store(k_lo, (k1 * cos - k2 * sin).to(K.dtype.element_ty), mask=mk)
    tl.store(k_lo + HALF, (k2 * cos + k1 * sin).to(K.dtype.element_ty), mask=mk)
