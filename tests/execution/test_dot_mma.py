"""``tl.dot`` on tensor cores (``mma_policy``: f16, bf16, and f32 at ``input_precision="tf32"``)
on every backend, against NumPy.

Each case checks that the compiled kernel really issues tensor-core MMAs (``nvvm.mma.sync``, or
on sm_90 Hopper's warpgroup MMAs where the tile allows them: a fallback to the CUDA-core loop
cannot pass for it), over tile shapes whose warps each own one or several
16 x 8 instruction tiles, 1 to 8 warps, masked edges, a K loop, an accumulator operand and a
transposed B read through its strides. The interpreter computes the same kernels exactly.
"""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from tests.execution.test_dot_dtypes import matmul_kernel

pytestmark = pytest.mark.execution


@triton.jit
def mma_kernel(
    a,
    b,
    c,
    out,
    M,
    N,
    K,
    stride_bk,
    stride_bn,
    USE_ACC: tl.constexpr,
    PRECISION: tl.constexpr,
    BM: tl.constexpr,
    BN: tl.constexpr,
    BK: tl.constexpr,
):
    """``out = a @ b (+ c)`` over ``BM x BN`` tiles with a K loop; B read through strides."""
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    tile = (rm[:, None] < M) & (rn[None, :] < N)
    if USE_ACC:
        acc = tl.load(c + rm[:, None] * N + rn[None, :], mask=tile, other=0.0)
    else:
        acc = tl.zeros((BM, BN), tl.float32)
    for k0 in range(0, K, BK):
        kk = k0 + rk
        a_tile = tl.load(
            a + rm[:, None] * K + kk[None, :],
            mask=(rm[:, None] < M) & (kk[None, :] < K),
            other=0.0,
        )
        b_tile = tl.load(
            b + kk[:, None] * stride_bk + rn[None, :] * stride_bn,
            mask=(kk[:, None] < K) & (rn[None, :] < N),
            other=0.0,
        )
        acc = tl.dot(a_tile, b_tile, acc, input_precision=PRECISION)
    tl.store(out + rm[:, None] * N + rn[None, :], acc, mask=tile)


DTYPES = {"f16": np.float16, "bf16": ml_dtypes.bfloat16, "tf32": np.float32}
# (M, N, K, BM, BN, BK): exact tiles; several tiles per warp; masked edges in M, N and K
SHAPES = [(64, 64, 64, 64, 64, 32), (128, 64, 32, 128, 64, 16), (50, 70, 40, 32, 64, 16)]


def _on_tensor_cores(compiled: Any) -> bool:
    gpu = compiled.asm["gpu"]
    return "nvvm.mma.sync" in gpu or "nvvm.wgmma.mma_async" in gpu


def _tf32(x: np.ndarray) -> np.ndarray:
    """The value a tensor core reads from an f32 operand: its upper 19 bits."""
    return (x.view(np.uint32) & np.uint32(0xFFFFE000)).view(np.float32)


@pytest.mark.parametrize("num_warps", [1, 2, 4, 8])
@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
@pytest.mark.parametrize("kind", list(DTYPES))
def test_mma_dot(run: Any, kind: str, shape: tuple[int, ...], num_warps: int) -> None:
    m, n, k, bm, bn, bk = shape
    rng = np.random.default_rng(m + 7 * n + 31 * k + num_warps)
    dtype = DTYPES[kind]
    a = rng.standard_normal((m, k)).astype(dtype)
    b_t = rng.standard_normal((n, k)).astype(dtype)  # B is read transposed: b[k, n] = b_t[n, k]
    b = b_t.T
    c = rng.standard_normal((m, n)).astype(np.float32)
    out = np.full((m, n), 77, np.float32)
    use_acc = num_warps % 2 == 0
    grid = (triton.cdiv(m, bm), triton.cdiv(n, bn))
    compiled = run(
        mma_kernel,
        grid,
        a,
        b_t,
        c,
        out,
        m,
        n,
        k,
        1,
        k,
        num_warps=num_warps,
        USE_ACC=use_acc,
        PRECISION="tf32",
        BM=bm,
        BN=bn,
        BK=bk,
    )
    if run.backend != "interpreter":
        assert _on_tensor_cores(compiled), "the dot did not use tensor cores"
    wide_a, wide_b = a.astype(np.float64), b.astype(np.float64)
    ref = wide_a @ wide_b + (c if use_acc else 0)
    if kind == "tf32" and run.backend != "interpreter":
        # tensor cores read tf32: compare with the truncated operands' exact product
        ref = _tf32(a).astype(np.float64) @ _tf32(np.ascontiguousarray(b)).astype(np.float64)
        ref = ref + (c if use_acc else 0)
    # the products of 16-bit (and tf32) operands are exact in f32: only the sums round
    np.testing.assert_allclose(out, ref, rtol=1e-5, atol=1e-4 * np.sqrt(k))


@pytest.mark.parametrize("precision", ["ieee", "tf32x3"])
def test_f32_accurate_precisions(run: Any, precision: str) -> None:
    """``ieee`` and ``tf32x3`` ask for f32 accuracy, which one tf32 MMA (~1e-3) misses for
    operands with low mantissa bits set: ``ieee`` stays on CUDA cores, ``tf32x3`` runs three
    tf32 MMAs of the operands' upper 19 bits and the rest (``tt-legalize-tf32x3-dots``)."""
    m = n = k = 32
    rng = np.random.default_rng(5)
    a = (1 + rng.integers(1, 2**12, (m, k)) * 2.0**-23).astype(np.float32)  # below tf32's bits
    b = rng.standard_normal((k, n)).astype(np.float32)
    c = np.zeros((m, n), np.float32)
    out = np.zeros((m, n), np.float32)
    compiled = run(
        mma_kernel,
        (1, 1),
        a,
        b,
        c,
        out,
        m,
        n,
        k,
        n,
        1,
        USE_ACC=False,
        PRECISION=precision,
        BM=m,
        BN=n,
        BK=k,
    )
    if run.backend != "interpreter":
        assert _on_tensor_cores(compiled) == (precision == "tf32x3")
    ref = a.astype(np.float64) @ b.astype(np.float64)
    np.testing.assert_allclose(out, ref, rtol=1e-5, atol=1e-5)
    assert not np.allclose(_tf32(a).astype(np.float64) @ b, ref, rtol=1e-5, atol=1e-5)


INT8_SHAPES = [(64, 64, 64, 64, 64, 32), (128, 64, 96, 128, 64, 64), (50, 70, 40, 32, 64, 32)]


@pytest.mark.parametrize("num_warps", [1, 4, 8])
@pytest.mark.parametrize("shape", INT8_SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_int8_mma_dot(run: Any, shape: tuple[int, ...], num_warps: int) -> None:
    """int8 operands over their whole range into int32 (``mma.sync`` m16n8k32 or warpgroup
    m64nNk32, s8): exact, the accumulator near the top of int32 so that the sums wrap, as
    Triton's int8 dot does."""
    m, n, k, bm, bn, bk = shape
    rng = np.random.default_rng(m + 3 * k + num_warps)
    a = rng.integers(-128, 128, (m, k), dtype=np.int8)
    b = rng.integers(-128, 128, (k, n), dtype=np.int8)
    c = rng.integers(2**31 - 200_000, 2**31, (m, n), dtype=np.int64).astype(np.int32)
    out = np.zeros((m, n), np.int32)
    grid = (triton.cdiv(m, bm), triton.cdiv(n, bn))
    compiled = run(
        matmul_kernel,  # test_dot_dtypes': out = a @ b + c over masked tiles with a K loop
        grid,
        a,
        b,
        c,
        out,
        m,
        n,
        k,
        num_warps=num_warps,
        OUT=tl.int32,
        USE_ACC=True,
        BM=bm,
        BN=bn,
        BK=bk,
    )
    if run.backend != "interpreter":  # 128 x 64 x 64 over 4 or 8 warps: s8 warpgroup MMAs
        assert _on_tensor_cores(compiled), "the dot did not use tensor cores"
    exact = a.astype(np.int64) @ b.astype(np.int64) + c
    assert (exact > np.iinfo(np.int32).max).any()
    np.testing.assert_array_equal(out, exact.astype(np.int32))


# (M, N, K, BM, BN, BK, num_warps): mma.sync (BK = 16), warpgroup MMAs, masked edges
F16_ACC_SHAPES = [
    (64, 64, 64, 64, 64, 16, 4),
    (128, 64, 128, 128, 64, 64, 4),
    (50, 70, 40, 32, 64, 16, 2),
]


@pytest.mark.parametrize("shape", F16_ACC_SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_f16_accumulator_on_tensor_cores(run: Any, shape: tuple[int, ...]) -> None:
    """``out_dtype=tl.float16`` with an f16 ``acc``: each dot is f32-accumulator MMAs rounded
    to f16 at its end (it was the CUDA-core loop, rounding after every k). Every partial sum
    is a multiple of 2**-10 below 2**10, exact in f32, so the result is exactly the f16
    accumulator rounded once per K block, whatever order the tensor cores add in."""
    m, n, k, bm, bn, bk, num_warps = shape
    rng = np.random.default_rng(m + n + k)
    a = (rng.integers(-64, 65, (m, k)) / 32).astype(np.float16)
    b = (rng.integers(-64, 65, (k, n)) / 32).astype(np.float16)
    c = (rng.integers(-512, 513, (m, n)) / 8).astype(np.float16)
    out = np.zeros((m, n), np.float16)
    compiled = run(
        matmul_kernel,
        (triton.cdiv(m, bm), triton.cdiv(n, bn)),
        a,
        b,
        c,
        out,
        m,
        n,
        k,
        num_warps=num_warps,
        OUT=tl.float16,
        USE_ACC=True,
        BM=bm,
        BN=bn,
        BK=bk,
    )
    if run.backend != "interpreter":
        assert _on_tensor_cores(compiled), "the dot did not use tensor cores"
    expected = c
    for k0 in range(0, k, bk):
        block = a[:, k0 : k0 + bk].astype(np.float64) @ b[k0 : k0 + bk].astype(np.float64)
        expected = (expected.astype(np.float64) + block).astype(np.float16)
    np.testing.assert_array_equal(out, expected)


# (M, N, K, BM, BN, BK, num_warps): warpgroup MMAs over a K loop, mma.sync with masked edges
TF32X3_SHAPES = [(128, 64, 128, 64, 64, 32, 4), (50, 70, 40, 32, 64, 16, 2)]


@pytest.mark.parametrize("shape", TF32X3_SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_tf32x3_matmul(run: Any, shape: tuple[int, ...]) -> None:
    """``tf32x3`` on tensor cores is within a few f32 roundings of the exact product, where
    one tf32 MMA (what ``"tf32"`` gives) is ~1e-3 off."""
    m, n, k, bm, bn, bk, num_warps = shape
    rng = np.random.default_rng(m * n + k)
    a = rng.standard_normal((m, k)).astype(np.float32)
    b_t = rng.standard_normal((n, k)).astype(np.float32)
    c = rng.standard_normal((m, n)).astype(np.float32)
    out = np.full((m, n), 77, np.float32)
    compiled = run(
        mma_kernel,
        (triton.cdiv(m, bm), triton.cdiv(n, bn)),
        a,
        b_t,
        c,
        out,
        m,
        n,
        k,
        1,
        k,
        num_warps=num_warps,
        USE_ACC=True,
        PRECISION="tf32x3",
        BM=bm,
        BN=bn,
        BK=bk,
    )
    if run.backend != "interpreter":
        assert _on_tensor_cores(compiled), "the dot did not use tensor cores"
    ref = a.astype(np.float64) @ b_t.T.astype(np.float64) + c
    scale = np.abs(a).astype(np.float64) @ np.abs(b_t.T) + np.abs(c)  # error bounds scale so
    assert (np.abs(out - ref) <= 2e-6 * scale).all()
    one_tf32 = _tf32(a).astype(np.float64) @ _tf32(np.ascontiguousarray(b_t.T)) + c
    assert not (np.abs(one_tf32 - ref) <= 2e-6 * scale).all()
