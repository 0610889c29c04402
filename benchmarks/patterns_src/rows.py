"""Reductions along long rows: a softmax whose block is the whole row (eviction hints on the
load and the store), log-softmax over a vocabulary in chunks (online max and sum, then a second
pass), fused cross entropy (loss and its gradient written over the logits in place, optional
logit soft-capping), KL divergence, argmax over a long row and a running sum (cumsum) in chunks
with a carry. One program per row; statistics in f32."""

import triton
import triton.language as tl


@triton.jit
def _tanh(x):
    return 1.0 - 2.0 / (tl.exp(2.0 * x) + 1.0)


@triton.jit
def softmax_row(X, Y, stride_x, stride_y, N, BLOCK_N: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N
    x = tl.load(
        X + row * stride_x + cols, mask=mask, other=-float("inf"), eviction_policy="evict_first"
    ).to(tl.float32)
    z = x - tl.max(x, axis=0)
    num = tl.exp(z)
    y = num / tl.sum(num, axis=0)
    tl.store(
        Y + row * stride_y + cols,
        y.to(Y.dtype.element_ty),
        mask=mask,
        eviction_policy="evict_first",
    )


@triton.jit
def log_softmax_chunked(X, Y, stride_x, stride_y, N, BLOCK_N: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    x_row = X + row * stride_x
    y_row = Y + row * stride_y
    m = -float("inf")
    s = 0.0
    for start in range(0, N, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        x = tl.load(x_row + cols, mask=cols < N, other=-float("inf")).to(tl.float32)
        m_new = tl.maximum(m, tl.max(x, axis=0))
        s = s * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), axis=0)
        m = m_new
    lse = m + tl.log(s)
    for start in range(0, N, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        x = tl.load(x_row + cols, mask=cols < N, other=0.0).to(tl.float32)
        tl.store(y_row + cols, (x - lse).to(Y.dtype.element_ty), mask=cols < N)


@triton.jit
def cross_entropy_fwd_bwd(
    Logits, stride, Labels, Loss, V, n_valid, ignore_index, softcap,
    BLOCK_V: tl.constexpr, HAS_SOFTCAP: tl.constexpr,
):  # fmt: skip
    """The mean cross entropy's per-row term (``Loss``) and its gradient, written over the row's
    logits: a first pass over the vocabulary in ``BLOCK_V`` chunks keeps a running max and sum
    of exponentials; the second writes ``(softmax - onehot) / n_valid``. With ``HAS_SOFTCAP``
    the logits are ``softcap * tanh(logit / softcap)`` first (and the gradient goes through it).
    Rows labelled ``ignore_index`` get a zero loss and gradient."""
    row = tl.program_id(0).to(tl.int64)
    base = Logits + row * stride
    label = tl.load(Labels + row)
    if label == ignore_index:
        for start in range(0, V, BLOCK_V):
            cols = start + tl.arange(0, BLOCK_V)
            tl.store(base + cols, tl.zeros((BLOCK_V,), tl.float32).to(Logits.dtype.element_ty),
                     mask=cols < V)  # fmt: skip
        tl.store(Loss + row, 0.0)
        return
    x_label = tl.load(base + label).to(tl.float32)
    if HAS_SOFTCAP:
        x_label = softcap * _tanh(x_label / softcap)
    m = -float("inf")
    d = 0.0
    for start in range(0, V, BLOCK_V):
        cols = start + tl.arange(0, BLOCK_V)
        mask = cols < V
        x = tl.load(base + cols, mask=mask, other=-float("inf")).to(tl.float32)
        if HAS_SOFTCAP:
            x = tl.where(mask, softcap * _tanh(x / softcap), -float("inf"))
        m_new = tl.maximum(m, tl.max(x, axis=0))
        d = d * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), axis=0)
        m = m_new
    lse = m + tl.log(d)
    for start in range(0, V, BLOCK_V):
        cols = start + tl.arange(0, BLOCK_V)
        mask = cols < V
        x = tl.load(base + cols, mask=mask, other=0.0).to(tl.float32)
        if HAS_SOFTCAP:
            t = _tanh(x / softcap)
            x = softcap * t
        grad = tl.exp(x - lse) - tl.where(cols == label, 1.0, 0.0)
        if HAS_SOFTCAP:
            grad = grad * (1.0 - t * t)
        grad = grad / n_valid
        tl.store(base + cols, grad.to(Logits.dtype.element_ty), mask=mask)
    tl.store(Loss + row, (lse - x_label) / n_valid)


@triton.jit
def kl_div_rows(LogP, Target, Loss, stride_p, stride_t, V, BLOCK_V: tl.constexpr):
    """``sum_j t_j * (log t_j - log p_j)`` per row (``t_j = 0`` terms are 0), as
    ``kl_div(log_p, t, reduction="none").sum(-1)``."""
    row = tl.program_id(0).to(tl.int64)
    acc = tl.zeros((BLOCK_V,), dtype=tl.float32)
    for start in range(0, V, BLOCK_V):
        cols = start + tl.arange(0, BLOCK_V)
        mask = cols < V
        lp = tl.load(LogP + row * stride_p + cols, mask=mask, other=0.0).to(tl.float32)
        t = tl.load(Target + row * stride_t + cols, mask=mask, other=0.0).to(tl.float32)
        acc += tl.where(t > 0.0, t * (tl.log(tl.maximum(t, 1e-30)) - lp), 0.0)
    tl.store(Loss + row, tl.sum(acc, axis=0))


@triton.jit
def argmax_rows(X, Out, stride_x, N, BLOCK_N: tl.constexpr):
    """Index of each row's largest element (the first of equal ones), in chunks."""
    row = tl.program_id(0).to(tl.int64)
    best_val = -float("inf")
    best_idx = 0
    for start in range(0, N, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        x = tl.load(X + row * stride_x + cols, mask=cols < N, other=-float("inf")).to(tl.float32)
        v = tl.max(x, axis=0)
        i = tl.argmax(x, axis=0) + start
        best_idx = tl.where(v > best_val, i, best_idx)
        best_val = tl.maximum(v, best_val)
    tl.store(Out + row, best_idx)


@triton.jit
def cumsum_rows(X, Y, stride_x, stride_y, N, BLOCK_N: tl.constexpr):
    """Inclusive running sum of each row (top-p sampling's cumulative probabilities), chunk by
    chunk with the previous chunks' total carried."""
    row = tl.program_id(0).to(tl.int64)
    carry = 0.0
    for start in range(0, N, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        mask = cols < N
        x = tl.load(X + row * stride_x + cols, mask=mask, other=0.0).to(tl.float32)
        c = tl.cumsum(x, axis=0) + carry
        tl.store(Y + row * stride_y + cols, c.to(Y.dtype.element_ty), mask=mask)
        carry += tl.sum(x, axis=0)
