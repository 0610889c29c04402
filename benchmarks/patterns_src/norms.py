"""Row-wise normalizations: layer norm forward (storing mean and rstd) and backward, RMS norm,
fused residual add + RMS norm, and a Welford variance/mean (``tl.reduce`` of a 3-tuple). One
program per row, the whole row in one block (``BLOCK_N`` the next power of two of the row),
statistics in f32, results stored in the input's dtype."""

import triton
import triton.language as tl


@triton.jit
def layer_norm_fwd(
    X, Y, W, B, Mean, Rstd, stride_x, stride_y, N, eps, BLOCK_N: tl.constexpr
):  # fmt: skip
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N
    x = tl.load(X + row * stride_x + cols, mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=0) / N
    xc = tl.where(mask, x - mean, 0.0)
    var = tl.sum(xc * xc, axis=0) / N
    rstd = tl.rsqrt(var + eps)
    w = tl.load(W + cols, mask=mask, other=0.0).to(tl.float32)
    b = tl.load(B + cols, mask=mask, other=0.0).to(tl.float32)
    y = xc * rstd * w + b
    tl.store(Y + row * stride_y + cols, y.to(Y.dtype.element_ty), mask=mask)
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)


@triton.jit
def layer_norm_bwd_dx(
    X, DY, DX, W, Mean, Rstd, DW_part, DB_part, stride, M, N, rows_per_program,
    BLOCK_N: tl.constexpr,
):  # fmt: skip
    """dx of each of this program's rows, and the program's partial sums of dw and db (one row
    of ``DW_part``/``DB_part`` [programs, N], f32) that ``layer_norm_bwd_dwdb`` adds up."""
    pid = tl.program_id(0)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N
    w = tl.load(W + cols, mask=mask, other=0.0).to(tl.float32)
    dw = tl.zeros((BLOCK_N,), dtype=tl.float32)
    db = tl.zeros((BLOCK_N,), dtype=tl.float32)
    row_start = pid * rows_per_program
    row_end = tl.minimum(row_start + rows_per_program, M)
    for row in range(row_start, row_end):
        offs = row * stride + cols
        x = tl.load(X + offs, mask=mask, other=0.0).to(tl.float32)
        dy = tl.load(DY + offs, mask=mask, other=0.0).to(tl.float32)
        mean = tl.load(Mean + row)
        rstd = tl.load(Rstd + row)
        xhat = tl.where(mask, (x - mean) * rstd, 0.0)
        wdy = w * dy
        c1 = tl.sum(xhat * wdy, axis=0) / N
        c2 = tl.sum(wdy, axis=0) / N
        dx = (wdy - (xhat * c1 + c2)) * rstd
        tl.store(DX + offs, dx.to(DX.dtype.element_ty), mask=mask)
        dw += dy * xhat
        db += dy
    tl.store(DW_part + pid * N + cols, dw, mask=mask)
    tl.store(DB_part + pid * N + cols, db, mask=mask)


@triton.jit
def layer_norm_bwd_dwdb(
    DW_part, DB_part, DW, DB, P, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr
):  # fmt: skip
    """Column sums of the ``P`` partial rows: dw and db, one program per ``BLOCK_N`` columns."""
    cols = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    dw = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    db = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for i in range(0, P, BLOCK_M):
        rows = i + tl.arange(0, BLOCK_M)
        mask = (rows[:, None] < P) & (cols[None, :] < N)
        offs = rows[:, None] * N + cols[None, :]
        dw += tl.load(DW_part + offs, mask=mask, other=0.0)
        db += tl.load(DB_part + offs, mask=mask, other=0.0)
    tl.store(DW + cols, tl.sum(dw, axis=0).to(DW.dtype.element_ty), mask=cols < N)
    tl.store(DB + cols, tl.sum(db, axis=0).to(DB.dtype.element_ty), mask=cols < N)


@triton.jit
def rms_norm_fwd(X, Y, W, Rstd, stride_x, stride_y, N, eps, BLOCK_N: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N
    x = tl.load(X + row * stride_x + cols, mask=mask, other=0.0).to(tl.float32)
    rstd = tl.rsqrt(tl.sum(x * x, axis=0) / N + eps)
    w = tl.load(W + cols, mask=mask, other=0.0).to(tl.float32)
    tl.store(Y + row * stride_y + cols, (x * rstd * w).to(Y.dtype.element_ty), mask=mask)
    tl.store(Rstd + row, rstd)


@triton.jit
def fused_add_rms_norm(X, R, W, stride_x, stride_r, N, eps, BLOCK_N: tl.constexpr):
    """In place, as inference engines do it: ``R <- X + R`` (the new residual), then
    ``X <- rms_norm(R) * W``."""
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N
    x = tl.load(X + row * stride_x + cols, mask=mask, other=0.0).to(tl.float32)
    r = tl.load(R + row * stride_r + cols, mask=mask, other=0.0).to(tl.float32)
    h = x + r
    h_stored = h.to(R.dtype.element_ty)
    tl.store(R + row * stride_r + cols, h_stored, mask=mask)
    h = h_stored.to(tl.float32)  # normalize the residual as stored
    rstd = tl.rsqrt(tl.sum(h * h, axis=0) / N + eps)
    w = tl.load(W + cols, mask=mask, other=0.0).to(tl.float32)
    tl.store(X + row * stride_x + cols, (h * rstd * w).to(X.dtype.element_ty), mask=mask)


@triton.jit
def _welford_combine(mean_a, m2_a, n_a, mean_b, m2_b, n_b):
    n = n_a + n_b
    w_b = tl.where(n == 0.0, 0.0, n_b / tl.maximum(n, 1.0))
    delta = mean_b - mean_a
    return mean_a + delta * w_b, m2_a + m2_b + delta * delta * n_a * w_b, n


@triton.jit
def var_mean_welford(X, Mean, Var, stride_x, N, BLOCK_N: tl.constexpr):
    """Population variance and mean of each row: one ``tl.reduce`` of (mean, M2, count) with a
    Welford combine over the whole row's block."""
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N
    x = tl.load(X + row * stride_x + cols, mask=mask, other=0.0).to(tl.float32)
    count = tl.where(mask, 1.0, 0.0)
    mean, m2, n = tl.reduce((x, tl.zeros_like(x), count), 0, _welford_combine)
    tl.store(Mean + row, mean)
    tl.store(Var + row, m2 / n)
