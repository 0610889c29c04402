"""``tl.dot`` on int8, float16 and float64 operands on every backend, against NumPy.

Triton's rules: int8 operands accumulate exactly into int32, f16 operands into f32 (the default
``out_dtype``) or f16 (``out_dtype=tl.float16``), f64 into f64. References are computed in
float64 (int64 for int8), so a lowering that drops the accumulator, mixes up the K index or
accumulates in too narrow a type is caught.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl

pytestmark = pytest.mark.execution


@triton.jit
def matmul_kernel(
    a,
    b,
    c,
    out,
    M,
    N,
    K,
    OUT: tl.constexpr,
    USE_ACC: tl.constexpr,
    BM: tl.constexpr,
    BN: tl.constexpr,
    BK: tl.constexpr,
):
    """``out = a @ b (+ c)`` over a grid of ``BM x BN`` tiles, with masked edges and a K loop."""
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    tile = (rm[:, None] < M) & (rn[None, :] < N)
    if USE_ACC:
        acc = tl.load(c + rm[:, None] * N + rn[None, :], mask=tile, other=0)
    else:
        acc = tl.zeros((BM, BN), OUT)
    for k0 in range(0, K, BK):
        kk = k0 + rk
        a_mask = (rm[:, None] < M) & (kk[None, :] < K)
        b_mask = (kk[:, None] < K) & (rn[None, :] < N)
        a_tile = tl.load(a + rm[:, None] * K + kk[None, :], mask=a_mask, other=0)
        b_tile = tl.load(b + kk[:, None] * N + rn[None, :], mask=b_mask, other=0)
        acc = tl.dot(a_tile, b_tile, acc, out_dtype=OUT)
    tl.store(out + rm[:, None] * N + rn[None, :], acc, mask=tile)


@triton.jit
def single_dot_kernel(
    a, b, out, OUT: tl.constexpr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr
):
    """One ``tl.dot`` without ``acc``: its zero accumulator comes from ``out_dtype``."""
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    a_tile = tl.load(a + rm[:, None] * K + rk[None, :])
    b_tile = tl.load(b + rk[:, None] * N + rn[None, :])
    tl.store(out + rm[:, None] * N + rn[None, :], tl.dot(a_tile, b_tile, out_dtype=OUT))


# (operand NumPy dtype, tl out_dtype, result NumPy dtype)
DTYPES = [
    (np.int8, tl.int32, np.int32),
    (np.float16, tl.float32, np.float32),
    (np.float16, tl.float16, np.float16),
    (np.float64, tl.float64, np.float64),
]
DTYPE_IDS = ["i8-i32", "f16-f32", "f16-f16", "f64-f64"]

# (M, N, K, BM, BN, BK): one exact tile, a grid with a K loop, and masked edges everywhere.
SHAPES = [
    (16, 16, 16, 16, 16, 16),
    (32, 64, 32, 16, 32, 16),
    (20, 40, 24, 16, 32, 16),
]


def _operand(rng: np.random.Generator, dtype: type, shape: tuple[int, ...]) -> np.ndarray:
    """int8 over its whole range; floats small (multiples of 1/16 in [-2, 2])."""
    if dtype == np.int8:
        return rng.integers(-128, 128, shape, dtype=np.int8)
    return (rng.integers(-32, 33, shape) / 16).astype(dtype)


def _reference(a: np.ndarray, b: np.ndarray, c: np.ndarray | None) -> np.ndarray:
    wide = np.int64 if a.dtype == np.int8 else np.float64
    ref = a.astype(wide) @ b.astype(wide)
    return ref if c is None else ref + c.astype(wide)


def _check(out: np.ndarray, ref: np.ndarray, dots: int) -> None:
    if out.dtype == np.int32:
        np.testing.assert_array_equal(out.astype(np.int64), ref)
    elif out.dtype == np.float16:
        # The f32 sum of f16 products (exact, multiples of 2**-8 under 2**24 * 2**-8) is exact,
        # and an f16 accumulator rounds once per dot: half an f16 ulp of |sum| <= 128 (2**-4)
        # after each of the ``dots`` steps.
        np.testing.assert_allclose(out.astype(np.float64), ref, rtol=0, atol=dots * 2.0**-4)
    else:
        # f16 products are exact in f32, so only the f32 additions round.
        rtol = 1e-13 if out.dtype == np.float64 else 1e-6
        np.testing.assert_allclose(out.astype(np.float64), ref, rtol=rtol, atol=rtol)


@pytest.mark.parametrize("use_acc", [False, True], ids=["zeros", "acc"])
@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s[:3])))
@pytest.mark.parametrize(("operand", "out_dtype", "result"), DTYPES, ids=DTYPE_IDS)
def test_matmul(
    run: Any, operand: type, out_dtype: Any, result: type, shape: tuple[int, ...], use_acc: bool
) -> None:
    m, n, k, bm, bn, bk = shape
    if operand is np.int8:
        bk = max(bk, 32)  # the least K of an 8-bit dot on NVIDIA (Triton's min_dot_size)
    rng = np.random.default_rng(m * 1000 + n * 10 + k)
    a, b = _operand(rng, operand, (m, k)), _operand(rng, operand, (k, n))
    c = _operand(rng, operand, (m, n)).astype(result)
    out = np.full((m, n), 77, result)
    grid = (triton.cdiv(m, bm), triton.cdiv(n, bn))
    run(
        matmul_kernel,
        grid,
        a,
        b,
        c,
        out,
        m,
        n,
        k,
        OUT=out_dtype,
        USE_ACC=use_acc,
        BM=bm,
        BN=bn,
        BK=bk,
    )
    _check(out, _reference(a, b, c if use_acc else None), triton.cdiv(k, bk))


@pytest.mark.parametrize(("operand", "out_dtype", "result"), DTYPES, ids=DTYPE_IDS)
def test_single_dot(run: Any, operand: type, out_dtype: Any, result: type) -> None:
    rng = np.random.default_rng(3)
    a, b = _operand(rng, operand, (16, 32)), _operand(rng, operand, (32, 16))
    out = np.full((16, 16), 77, result)
    run(single_dot_kernel, (1,), a, b, out, OUT=out_dtype, M=16, N=16, K=32)
    _check(out, _reference(a, b, None), 1)


def test_int8_extremes(run: Any) -> None:
    """All -128 operands: every product is 16384 and the sum 524288, beyond int16."""
    a = np.full((16, 32), -128, np.int8)
    b = np.full((32, 16), -128, np.int8)
    out = np.zeros((16, 16), np.int32)
    run(single_dot_kernel, (1,), a, b, out, OUT=tl.int32, M=16, N=16, K=32)
    np.testing.assert_array_equal(out, np.full((16, 16), 524288, np.int32))


@triton.jit
def acc_plus_dot_kernel(
    a, b, c, out, OUT: tl.constexpr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr
):
    """The K-loop idiom ``acc + tl.dot(a, b)``, which canonicalization folds into the dot."""
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    a_tile = tl.load(a + rm[:, None] * K + rk[None, :])
    b_tile = tl.load(b + rk[:, None] * N + rn[None, :])
    acc = tl.load(c + rm[:, None] * N + rn[None, :])
    acc = acc + tl.dot(a_tile, b_tile, out_dtype=OUT)
    tl.store(out + rm[:, None] * N + rn[None, :], acc)


@pytest.mark.parametrize(("operand", "out_dtype", "result"), DTYPES, ids=DTYPE_IDS)
def test_acc_plus_dot(run: Any, operand: type, out_dtype: Any, result: type) -> None:
    rng = np.random.default_rng(5)
    a, b = _operand(rng, operand, (16, 32)), _operand(rng, operand, (32, 32))
    c = _operand(rng, operand, (16, 32)).astype(result)
    out = np.full((16, 32), 77, result)
    run(acc_plus_dot_kernel, (1,), a, b, c, out, OUT=out_dtype, M=16, N=32, K=32)
    _check(out, _reference(a, b, c), 2)  # the dot, then the sum


def test_f16_accumulator_rounds_once_per_dot(run: Any) -> None:
    """``out_dtype=tl.float16`` accumulates in f32 over the dot's K and rounds once: 2048 plus
    sixteen products of 0.5 is 2056, as Triton's f16-accumulator MMA (one m16n8k16) gives it.
    Rounding after every k step (Triton's CUDA-core loop, and mytriton's before) would give
    2048: 2048 + 0.5 rounds back to 2048 (f16's spacing there is 2)."""
    a = np.full((16, 16), 0.5, np.float16)
    b = np.ones((16, 16), np.float16)
    c = np.full((16, 16), 2048, np.float16)
    out = np.zeros((16, 16), np.float16)
    grid = (1, 1)
    run(
        matmul_kernel,
        grid,
        a,
        b,
        c,
        out,
        16,
        16,
        16,
        OUT=tl.float16,
        USE_ACC=True,
        BM=16,
        BN=16,
        BK=16,
    )
    np.testing.assert_array_equal(out, np.full((16, 16), 2056, np.float16))
