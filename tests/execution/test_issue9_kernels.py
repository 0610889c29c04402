"""Issue 9's "done when" kernels, written as a Triton user writes them (tutorial style), on
every backend: a half-precision vector add, an int32 affine kernel, a bf16 RMS norm with
``libdevice.rsqrt`` and int64 row offsets, an fp16 softmax, a layer norm with ``tl.sqrt`` or
``tl.rsqrt``, an f16/bf16 ``tl.dot`` accumulating in f32 over a K loop, and a matmul reading a
transposed (non-contiguous) tensor.

Each result is checked against a float64 NumPy reference computed from the inputs, within what
the kernel's dtypes allow: exact where the kernel rounds once, a bound on the f32 accumulation
error for the dots. Sizes are not powers of two, so every kernel runs with masked tails, and
the elements a kernel must not write are checked to keep their initial value.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.language.extra import libdevice

ml_dtypes = pytest.importorskip("ml_dtypes")
BF16 = np.dtype(ml_dtypes.bfloat16)
F16 = np.dtype(np.float16)

pytestmark = pytest.mark.execution

SENTINEL = -77.0  # what the elements a kernel must not write hold


def _f64(a: np.ndarray) -> np.ndarray:
    return np.asarray(a, np.float64)


def _bits(a: np.ndarray) -> np.ndarray:
    """Half-precision values compared bit for bit."""
    return np.ascontiguousarray(a).view(np.uint16)


# ---- half-precision vector add (tutorial 01)


@triton.jit
def add_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    output = x + y
    tl.store(output_ptr + offsets, output, mask=mask)


@pytest.mark.parametrize("dt", [F16, BF16], ids=lambda d: d.name)
def test_half_precision_vector_add(run: Any, dt: np.dtype) -> None:
    """The sum of two halves is exact in float64: the kernel must round it once, to nearest."""
    n, pad = 1000, 24
    rng = np.random.default_rng(90)
    x = (rng.standard_normal(n) * 100).astype(dt)
    y = (rng.standard_normal(n) * 100).astype(dt)
    out = np.full(n + pad, SENTINEL, dt)
    run(add_kernel, (triton.cdiv(n, 128),), x, y, out, n, BLOCK_SIZE=128)
    np.testing.assert_array_equal(_bits(out[:n]), _bits((_f64(x) + _f64(y)).astype(dt)))
    np.testing.assert_array_equal(_f64(out[n:]), SENTINEL)


# ---- int32 affine map


@triton.jit
def affine_kernel(x_ptr, out_ptr, scale, shift, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x * scale + shift, mask=mask)


def _wrap_int32(values: np.ndarray) -> np.ndarray:
    """Exact integers wrapped to int32 (two's complement), as the GPU computes in int32."""
    return np.array([((int(v) + 2**31) % 2**32) - 2**31 for v in values], np.int32)


@pytest.mark.parametrize(("scale", "shift"), [(3, -7), (-40_503, 2_000_000_000)])
def test_int32_affine(run: Any, scale: int, shift: int) -> None:
    """``x * scale + shift`` in int32; the second case overflows and must wrap."""
    n, pad = 777, 9
    rng = np.random.default_rng(91)
    x = rng.integers(-(2**31), 2**31, n, dtype=np.int64).astype(np.int32)
    x[:4] = [2**31 - 1, -(2**31), -1, 0]
    out = np.full(n + pad, -5, np.int32)
    run(affine_kernel, (triton.cdiv(n, 256),), x, out, scale, shift, n, BLOCK_SIZE=256)
    exact = x.astype(object) * scale + shift
    np.testing.assert_array_equal(out[:n], _wrap_int32(exact))
    np.testing.assert_array_equal(out[n:], -5)


# ---- bf16 RMS norm: libdevice.rsqrt, int64 row offsets


@triton.jit
def rms_norm_kernel(Y, y_row_stride, X, x_row_stride, W, n_cols, eps, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    tl.static_assert(row.dtype == tl.int64)
    Y += row * y_row_stride
    X += row * x_row_stride
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    x = tl.load(X + cols, mask=mask, other=0.0).to(tl.float32)
    w = tl.load(W + cols, mask=mask, other=0.0).to(tl.float32)
    mean_square = tl.sum(x * x, axis=0) / n_cols
    rstd = libdevice.rsqrt(mean_square + eps)
    y = x * rstd * w
    tl.store(Y + cols, y.to(tl.bfloat16), mask=mask)


@pytest.mark.parametrize(("rows", "cols"), [(7, 300), (4, 128)])
def test_bfloat16_rms_norm(run: Any, rows: int, cols: int) -> None:
    """Rows of a wider array (row stride > columns), computed in f32 and rounded once to bf16:
    within one bf16 ulp (at most 2**-7 relative) of the float64 result."""
    eps = 1e-6
    rng = np.random.default_rng(92)
    x_base = (rng.standard_normal((rows, cols + 13)) * 3).astype(BF16)
    x = x_base[:, :cols]
    w = (rng.standard_normal(cols) + 1).astype(BF16)
    y_base = np.full((rows, cols + 5), SENTINEL, BF16)
    y = y_base[:, :cols]
    run(rms_norm_kernel, (rows,), y, y_base.shape[1], x, x_base.shape[1], w, cols, eps,
        BLOCK_SIZE=triton.next_power_of_2(cols))  # fmt: skip
    xs = _f64(x)
    want = xs / np.sqrt((xs * xs).mean(axis=1, keepdims=True) + float(np.float32(eps))) * _f64(w)
    np.testing.assert_allclose(_f64(y), want, rtol=2**-7, atol=1e-30)
    np.testing.assert_array_equal(_f64(y_base[:, cols:]), SENTINEL)


# ---- fp16 softmax (tutorial 02: one row per program, and today's persistent loop over rows)


@triton.jit
def softmax_kernel(
    output_ptr,
    input_ptr,
    input_row_stride,
    output_row_stride,
    n_cols,
    BLOCK_SIZE: tl.constexpr,
):
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
def persistent_softmax_kernel(
    output_ptr,
    input_ptr,
    input_row_stride,
    output_row_stride,
    n_rows,
    n_cols,
    BLOCK_SIZE: tl.constexpr,
    num_stages: tl.constexpr,
):
    row_start = tl.program_id(0)
    row_step = tl.num_programs(0)
    for row_idx in tl.range(row_start, n_rows, row_step, num_stages=num_stages):
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


def _softmax_case(rows: int, cols: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """fp16 logits, an output with padded rows (all SENTINEL), and its ``(rows, cols)`` view."""
    rng = np.random.default_rng(93)
    x = (rng.standard_normal((rows, cols)) * 2).astype(F16)
    x[0, :3] = [11.0, -60000.0, 11.0]  # a repeated maximum and an exp that underflows to 0
    out_base = np.full((rows, cols + 3), SENTINEL, F16)
    return x, out_base, out_base[:, :cols]


def _assert_softmax(x: np.ndarray, out_base: np.ndarray) -> None:
    """Tolerance of a softmax computed in fp16 (u = 2**-11): a result that is a normal fp16 has
    ``|x - max| < 10``, where rounding ``x - max`` costs at most 2**-8 relative; exp, the f32
    division and the store cost 3u, the tree sum about log2(cols) u. Below 2**-14 results are
    fp16 subnormals, within 2**-24."""
    cols = x.shape[1]
    out = out_base[:, :cols]
    xs = _f64(x)
    e = np.exp(xs - xs.max(axis=1, keepdims=True))
    want = e / e.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(_f64(out), want, rtol=2**-6, atol=2**-24)
    assert out[0, 1] == 0
    np.testing.assert_allclose(_f64(out).sum(axis=1), 1.0, rtol=2**-6)
    np.testing.assert_array_equal(_f64(out_base[:, cols:]), SENTINEL)


@pytest.mark.parametrize(("rows", "cols"), [(9, 97), (5, 781)])
def test_float16_softmax(run: Any, rows: int, cols: int) -> None:
    x, out_base, out = _softmax_case(rows, cols)
    run(softmax_kernel, (rows,), out, x, cols, out_base.shape[1], cols,
        BLOCK_SIZE=triton.next_power_of_2(cols))  # fmt: skip
    _assert_softmax(x, out_base)


@pytest.mark.parametrize(("rows", "cols", "programs"), [(9, 97, 4), (5, 781, 5)])
def test_float16_persistent_softmax(run: Any, rows: int, cols: int, programs: int) -> None:
    """Today's tutorial: fewer programs than rows, each striding over rows by
    ``tl.num_programs(0)``; ``num_stages`` is a kernel parameter, not the launch option."""
    x, out_base, out = _softmax_case(rows, cols)
    run(persistent_softmax_kernel, (programs,), out, x, cols, out_base.shape[1], rows, cols,
        BLOCK_SIZE=triton.next_power_of_2(cols), num_stages=2)  # fmt: skip
    _assert_softmax(x, out_base)


@triton.jit
def stages_kernel(out, BLOCK: tl.constexpr, num_stages: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out + offs, offs * 0 + num_stages)


def test_a_parameter_named_num_stages_takes_its_argument(run: Any) -> None:
    """As in Triton, ``num_stages=`` binds to a kernel parameter of that name (tutorial 02
    passes it so) instead of being taken as the launch option."""
    out = np.zeros(16, np.int32)
    run(stages_kernel, (1,), out, BLOCK=16, num_stages=5)
    np.testing.assert_array_equal(out, 5)


# ---- layer norm (tutorial 05's forward), with tl.sqrt or tl.rsqrt


@triton.jit
def layer_norm_fwd_kernel(
    X,
    Y,
    W,
    B,
    Mean,
    Rstd,
    stride,
    N,
    eps,
    BLOCK_SIZE: tl.constexpr,
    USE_RSQRT: tl.constexpr,
):
    row = tl.program_id(0)
    Y += row * stride
    X += row * stride
    mean = 0
    _mean = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        a = tl.load(X + cols, mask=cols < N, other=0.0).to(tl.float32)
        _mean += a
    mean = tl.sum(_mean, axis=0) / N
    _var = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        x = tl.load(X + cols, mask=cols < N, other=0.0).to(tl.float32)
        x = tl.where(cols < N, x - mean, 0.0)
        _var += x * x
    var = tl.sum(_var, axis=0) / N
    rstd = tl.rsqrt(var + eps) if USE_RSQRT else 1 / tl.sqrt(var + eps)
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        mask = cols < N
        w = tl.load(W + cols, mask=mask)
        b = tl.load(B + cols, mask=mask)
        x = tl.load(X + cols, mask=mask, other=0.0).to(tl.float32)
        x_hat = (x - mean) * rstd
        y = x_hat * w + b
        tl.store(Y + cols, y, mask=mask)


@pytest.mark.parametrize("use_rsqrt", [False, True], ids=["sqrt", "rsqrt"])
@pytest.mark.parametrize("dt", [F16, np.dtype(np.float32)], ids=lambda d: d.name)
def test_layer_norm(run: Any, dt: np.dtype, use_rsqrt: bool) -> None:
    """Statistics in f32 over a K loop of masked blocks (N = 300, blocks of 128), the output
    stored in the input's dtype: mean and rstd within f32 accumulation error, y within one ulp
    of its dtype (fp16: 2**-10) plus the f32 error of ``x_hat * w + b``."""
    rows, n, eps = 6, 300, 1e-5
    rng = np.random.default_rng(94)
    x = (rng.standard_normal((rows, n)) * 4 + 3).astype(dt)
    w = rng.standard_normal(n).astype(dt)
    b = rng.standard_normal(n).astype(dt)
    y = np.full((rows + 1, n), SENTINEL, dt)  # the last row is never written
    mean = np.full(rows + 1, SENTINEL, np.float32)
    rstd = np.full(rows + 1, SENTINEL, np.float32)
    run(layer_norm_fwd_kernel, (rows,), x, y, w, b, mean, rstd, n, n, eps,
        BLOCK_SIZE=128, USE_RSQRT=use_rsqrt)  # fmt: skip
    xs = _f64(x)
    want_mean = xs.mean(axis=1)
    var = ((xs - want_mean[:, None]) ** 2).mean(axis=1)
    want_rstd = 1 / np.sqrt(var + float(np.float32(eps)))
    want_y = (xs - want_mean[:, None]) * want_rstd[:, None] * _f64(w) + _f64(b)
    np.testing.assert_allclose(mean[:rows], want_mean, rtol=1e-5)
    np.testing.assert_allclose(rstd[:rows], want_rstd, rtol=1e-5)
    ulp = 2**-10 if dt == F16 else 2**-23
    # f32 error of the terms (about 1e-6 of their magnitude) shows where y nearly cancels
    terms = np.abs((xs - want_mean[:, None]) * want_rstd[:, None] * _f64(w)) + np.abs(_f64(b))
    assert np.all(np.abs(_f64(y[:rows]) - want_y) <= ulp * np.abs(want_y) + 4e-6 * terms)
    np.testing.assert_array_equal(_f64(y[rows]), SENTINEL)
    assert mean[rows] == SENTINEL and rstd[rows] == SENTINEL


# ---- f16 / bf16 matmul accumulating in f32 (tutorial 03)


@triton.jit
def matmul_kernel(
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
    tl.static_assert(accumulator.dtype == tl.float32)

    offs_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptrs, accumulator, mask=c_mask)


def _element_strides(a: np.ndarray) -> tuple[int, int]:
    """What a Triton user passes as ``a.stride(0), a.stride(1)``."""
    return a.strides[0] // a.itemsize, a.strides[1] // a.itemsize


def _matmul(run: Any, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a @ b`` in f32 by the tutorial kernel, in an output one row and column too big."""
    (m, k), n = a.shape, b.shape[1]
    c_base = np.full((m + 1, n + 1), SENTINEL, np.float32)
    c = c_base[:m, :n]
    bm, bn, bk = 32, 32, 16
    grid = (triton.cdiv(m, bm) * triton.cdiv(n, bn),)
    run(matmul_kernel, grid, a, b, c, m, n, k, *_element_strides(a), *_element_strides(b),
        *_element_strides(c), BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk,
        GROUP_SIZE_M=2)  # fmt: skip
    np.testing.assert_array_equal(c_base[m], SENTINEL)
    np.testing.assert_array_equal(c_base[:, n], SENTINEL)
    return c.copy()


def _assert_f32_accumulation(c: np.ndarray, a: np.ndarray, b: np.ndarray) -> None:
    """Products of halves are exact in f32, so ``c`` is within K f32 additions of the float64
    product, each off by at most an f32 ulp (tensor cores may truncate): ``K * 2**-23 *
    (|a| @ |b|)``. An f16 or bf16 accumulator is thousands of times further off."""
    k = a.shape[1]
    want = _f64(a) @ _f64(b)
    bound = k * 2**-23 * (np.abs(_f64(a)) @ np.abs(_f64(b)))
    err = np.abs(_f64(c) - want)
    assert np.all(err <= bound), f"max error {err.max()}, allowed {bound[err > bound].min()}"


@pytest.mark.parametrize("shape", [(32, 32, 64), (45, 37, 70)], ids=lambda s: "x".join(map(str, s)))
@pytest.mark.parametrize("dt", [F16, BF16], ids=lambda d: d.name)
def test_half_dot_accumulates_in_float32(run: Any, dt: np.dtype, shape: tuple[int, ...]) -> None:
    m, n, k = shape
    rng = np.random.default_rng(95)
    a = rng.standard_normal((m, k)).astype(dt)
    b = rng.standard_normal((k, n)).astype(dt)
    c = _matmul(run, a, b)
    _assert_f32_accumulation(c, a, b)


def test_dot_float32_accumulation_is_visible(run: Any) -> None:
    """A sum an f16 accumulator cannot hold, in any order: 2048 + 64 * 2**-6 = 2049 is exact in
    f32, between two f16 values (their ulp at 2048 is 2). K = 65 leaves a masked last block."""
    m, n, k = 32, 32, 65
    a = np.full((m, k), 2.0**-3, F16)
    b = np.full((k, n), 2.0**-3, F16)
    a[:, 0], b[0, :] = 64.0, 32.0  # the first product is 2048
    c = _matmul(run, a, b)
    np.testing.assert_array_equal(c, 2049.0)


# ---- a transposed (non-contiguous) operand


@pytest.mark.parametrize("transposed", ["a", "b", "both"])
def test_matmul_of_transposed_tensors(run: Any, transposed: str) -> None:
    """``x @ w.t()`` as a linear layer computes it: the kernel reads the transposed view through
    its strides (on the torch runner, a CUDA tensor with the same strides as ``w.t()``)."""
    m, n, k = 40, 48, 72
    rng = np.random.default_rng(96)
    a = rng.standard_normal((m, k)).astype(F16)
    b = rng.standard_normal((k, n)).astype(F16)
    if transposed in ("a", "both"):
        a = np.ascontiguousarray(a.T).T  # (m, k) with strides (1, m)
    if transposed in ("b", "both"):
        b = np.ascontiguousarray(b.T).T  # w.t() of a (n, k) weight
    assert not (a.flags.c_contiguous and b.flags.c_contiguous)
    c = _matmul(run, a, b)
    _assert_f32_accumulation(c, a, b)


@pytest.mark.parametrize("backend", ["interpreter", "gpusim"])
def test_matmul_of_a_cpu_torch_transposed_tensor(
    backend: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same with torch CPU tensors and ``.t()``, as a user without a GPU runs it."""
    torch = pytest.importorskip("torch")
    monkeypatch.setenv("MYTRITON_BACKEND", backend)
    m, n, k = 40, 48, 72
    gen = torch.Generator().manual_seed(97)
    x = torch.randn((m, k), generator=gen).to(torch.bfloat16)
    weight = torch.randn((n, k), generator=gen).to(torch.bfloat16)
    w_t = weight.t()
    assert not w_t.is_contiguous()
    c = torch.empty((m, n), dtype=torch.float32)
    grid = (triton.cdiv(m, 32) * triton.cdiv(n, 32),)
    matmul_kernel[grid](x, w_t, c, m, n, k, x.stride(0), x.stride(1), w_t.stride(0),
                        w_t.stride(1), c.stride(0), c.stride(1), BLOCK_SIZE_M=32,
                        BLOCK_SIZE_N=32, BLOCK_SIZE_K=16, GROUP_SIZE_M=2)  # fmt: skip
    a, b = x.float().numpy(), w_t.float().numpy()
    _assert_f32_accumulation(c.numpy(), a, b)


def issue9_warmups() -> list[Any]:
    """Every kernel above compiled once (compile-only: for the GPU backends' C++/PTX checks on
    machines without a GPU, as ``bfloat16_warmups`` is used by tests/cuda and tests/mlir)."""
    h, bf = np.zeros(1024, F16), np.zeros(1024, BF16)
    f, i = np.zeros(1024, np.float32), np.zeros(1024, np.int32)
    mm = {"BLOCK_SIZE_M": 32, "BLOCK_SIZE_N": 32, "BLOCK_SIZE_K": 16, "GROUP_SIZE_M": 2}
    kernels = [
        add_kernel.warmup(h, h, h, 1000, grid=(8,), BLOCK_SIZE=128),
        add_kernel.warmup(bf, bf, bf, 1000, grid=(8,), BLOCK_SIZE=128),
        affine_kernel.warmup(i, i, -40_503, 2_000_000_000, 777, grid=(4,), BLOCK_SIZE=256),
        rms_norm_kernel.warmup(bf, 313, bf, 305, bf, 300, 1e-6, grid=(3,), BLOCK_SIZE=512),
        softmax_kernel.warmup(h, h, 97, 100, 97, grid=(9,), BLOCK_SIZE=128),
        persistent_softmax_kernel.warmup(
            h, h, 97, 100, 9, 97, grid=(4,), BLOCK_SIZE=128, num_stages=2
        ),
        stages_kernel.warmup(i, grid=(1,), BLOCK=16, num_stages=5),
    ]
    for dt in (h, f):
        ln_args = (dt, dt, dt, dt, f, f, 300, 300, 1e-5)
        for use_rsqrt in (False, True):
            ln = layer_norm_fwd_kernel.warmup(
                *ln_args, grid=(3,), BLOCK_SIZE=128, USE_RSQRT=use_rsqrt
            )
            kernels.append(ln)
    for dt in (h, bf):
        kernels.append(
            matmul_kernel.warmup(dt, dt, f, 45, 37, 70, 70, 1, 37, 1, 38, 1, grid=(4,), **mm)
        )
    kernels.append(matmul_kernel.warmup(h, h, f, 40, 48, 72, 1, 40, 1, 72, 49, 1, grid=(4,), **mm))
    return kernels
