"""``tl.associative_scan``, ``tl.cumsum`` and ``tl.cumprod`` (``tt.scan``) against NumPy: rank 1
to 3, both axes of 2-D blocks, forward and reversed, 1 to 8 warps (layouts that split the axis
over registers, lanes, warps and layout repetitions), integer and float, tuple scans and a
non-commutative combine function (which only the scan order makes right)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl

pytestmark = pytest.mark.execution


@triton.jit
def cumsum_2d_kernel(
    x_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr, AXIS: tl.constexpr, REVERSE: tl.constexpr
):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, tl.cumsum(x, axis=AXIS, reverse=REVERSE))


def _reference_cumsum(x: np.ndarray, axis: int, reverse: bool, dtype: Any) -> np.ndarray:
    if reverse:
        return np.flip(np.cumsum(np.flip(x, axis), axis=axis, dtype=dtype), axis)
    return np.cumsum(x, axis=axis, dtype=dtype)


@pytest.mark.parametrize(
    ("m", "n", "axis", "reverse", "num_warps"),
    [
        (1, 128, 1, False, 1),  # lanes and registers
        (1, 256, 1, True, 2),  # two warps along the axis
        (1, 1024, 1, False, 4),  # layout repetitions (chunks) and warps
        (8, 16, 0, False, 4),  # down the columns
        (8, 16, 0, True, 8),
        (16, 8, 1, True, 1),
        (2, 4, 1, False, 4),  # a block smaller than the warps: replicated lanes and warps
    ],
)
def test_cumsum_int32(run: Any, m: int, n: int, axis: int, reverse: bool, num_warps: int) -> None:
    x = np.random.RandomState(m * n + axis).randint(-100, 100, (m, n)).astype(np.int32)
    out = np.zeros_like(x)
    run(cumsum_2d_kernel, (1,), x, out, M=m, N=n, AXIS=axis, REVERSE=reverse, num_warps=num_warps)
    np.testing.assert_array_equal(out, _reference_cumsum(x, axis, reverse, np.int32))


def test_cumsum_float32(run: Any) -> None:
    x = np.random.RandomState(1).standard_normal((4, 64)).astype(np.float32)
    out = np.zeros_like(x)
    run(cumsum_2d_kernel, (1,), x, out, M=4, N=64, AXIS=1, REVERSE=False, num_warps=2)
    np.testing.assert_allclose(out, np.cumsum(x, axis=1), rtol=1e-5, atol=1e-5)


@triton.jit
def cumsum_narrow_kernel(x_ptr, out_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    y = tl.cumsum(tl.load(x_ptr + offs))
    tl.static_assert(y.dtype == tl.int32, "int8 prefix sums are int32")
    tl.store(out_ptr + offs, y)


def test_cumsum_of_int8_widens(run: Any) -> None:
    x = np.full(64, 100, np.int8)
    out = np.zeros(64, np.int32)
    run(cumsum_narrow_kernel, (1,), x, out, N=64)
    np.testing.assert_array_equal(out, np.cumsum(x, dtype=np.int32))


@triton.jit
def cumprod_kernel(x_ptr, out_ptr, N: tl.constexpr, REVERSE: tl.constexpr):
    offs = tl.arange(0, N)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs).cumprod(0, reverse=REVERSE))


@pytest.mark.parametrize("reverse", [False, True])
def test_cumprod_float(run: Any, reverse: bool) -> None:
    x = np.random.RandomState(2).uniform(0.5, 1.5, 64).astype(np.float32)
    out = np.zeros_like(x)
    run(cumprod_kernel, (1,), x, out, N=64, REVERSE=reverse, num_warps=2)
    ref = np.flip(np.cumprod(np.flip(x))) if reverse else np.cumprod(x)
    np.testing.assert_allclose(out, ref, rtol=1e-5)


@triton.jit
def _affine_combine(a1, b1, a2, b2):
    # composition of x -> a*x + b maps: associative, not commutative
    return a1 * a2, b1 * a2 + b2


@triton.jit
def affine_scan_kernel(a_ptr, b_ptr, out_a_ptr, out_b_ptr, N: tl.constexpr, REVERSE: tl.constexpr):
    offs = tl.arange(0, N)
    a, b = tl.associative_scan(
        (tl.load(a_ptr + offs), tl.load(b_ptr + offs)), 0, _affine_combine, reverse=REVERSE
    )
    tl.store(out_a_ptr + offs, a)
    tl.store(out_b_ptr + offs, b)


@pytest.mark.parametrize(("n", "reverse", "num_warps"), [(256, False, 2), (64, True, 1)])
def test_tuple_scan_keeps_the_order(run: Any, n: int, reverse: bool, num_warps: int) -> None:
    rs = np.random.RandomState(3)
    a = rs.randint(-3, 4, n).astype(np.int32)
    b = rs.randint(-3, 4, n).astype(np.int32)
    out_a, out_b = np.zeros_like(a), np.zeros_like(b)
    run(affine_scan_kernel, (1,), a, b, out_a, out_b, N=n, REVERSE=reverse, num_warps=num_warps)
    ref_a, ref_b = np.empty_like(a), np.empty_like(b)
    order = range(n - 1, -1, -1) if reverse else range(n)
    acc: tuple[int, int] | None = None
    for j in order:
        acc = (a[j], b[j]) if acc is None else _affine_ref(acc, (a[j], b[j]))
        ref_a[j], ref_b[j] = acc
    np.testing.assert_array_equal(out_a, ref_a)
    np.testing.assert_array_equal(out_b, ref_b)


def _affine_ref(x: tuple[Any, Any], y: tuple[Any, Any]) -> tuple[Any, Any]:
    with np.errstate(over="ignore"):
        return np.int32(x[0] * y[0]), np.int32(x[1] * y[0] + y[1])


@triton.jit
def cumsum_3d_kernel(x_ptr, out_ptr, AXIS: tl.constexpr):
    i = tl.arange(0, 2)[:, None, None]
    j = tl.arange(0, 4)[None, :, None]
    k = tl.arange(0, 8)[None, None, :]
    offs = i * 32 + j * 8 + k
    tl.store(out_ptr + offs, tl.cumsum(tl.load(x_ptr + offs), AXIS))


@pytest.mark.parametrize("axis", [0, 1, 2])
def test_cumsum_rank3(run: Any, axis: int) -> None:
    x = np.random.RandomState(4).randint(-9, 9, (2, 4, 8)).astype(np.int32)
    out = np.zeros_like(x)
    run(cumsum_3d_kernel, (1,), x, out, AXIS=axis, num_warps=2)
    np.testing.assert_array_equal(out, np.cumsum(x, axis=axis, dtype=np.int32))


@triton.jit
def cumsum_rows_kernel(x_ptr, out_ptr, N: tl.constexpr):
    offs = tl.program_id(0) * N + tl.arange(0, N)
    mask = tl.load(x_ptr + offs) > 0
    tl.store(out_ptr + offs, tl.cumsum(mask, 0))  # booleans count in uint32


def test_cumsum_per_program_of_a_mask(run: Any) -> None:
    x = np.random.RandomState(5).randint(-3, 3, (8, 32)).astype(np.int32)
    out = np.zeros_like(x)
    run(cumsum_rows_kernel, (8,), x, out, N=32, num_warps=1)
    np.testing.assert_array_equal(out, np.cumsum(x > 0, axis=1))


def scan_warmups() -> list[Any]:
    """The scan kernels above compiled once each in several layouts (compile-only:
    tests/cuda and tests/mlir check the C++ and the PTX)."""
    i32 = np.zeros(2048, np.int32)
    f32 = np.zeros(2048, np.float32)
    return [
        cumsum_2d_kernel.warmup(i32, i32, M=1, N=1024, AXIS=1, REVERSE=False, grid=(1,)),
        cumsum_2d_kernel.warmup(i32, i32, M=8, N=16, AXIS=0, REVERSE=True, num_warps=8, grid=(1,)),
        cumprod_kernel.warmup(f32, f32, N=64, REVERSE=True, num_warps=2, grid=(1,)),
        affine_scan_kernel.warmup(i32, i32, i32, i32, N=256, REVERSE=False, grid=(1,)),
        cumsum_3d_kernel.warmup(i32, i32, AXIS=1, num_warps=2, grid=(1,)),
    ]


@triton.jit
def cumsum_of_row_sums_kernel(x_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :])
    totals = tl.sum(x, axis=0)  # a block laid out as a slice of x's layout
    tl.store(out_ptr + tl.arange(0, N), tl.cumsum(totals, axis=0))


@pytest.mark.parametrize("num_warps", [4, 8])
def test_cumsum_of_a_sliced_block_across_warps(run: Any, num_warps: int) -> None:
    """The scan's axis is a dimension of the slice, not of its parent layout: the carries
    between warps address their shared slots along the parent's dimension that the block keeps."""
    x = np.arange(4 * 512, dtype=np.int32).reshape(4, 512) % 7
    out = np.zeros(512, np.int32)
    run(cumsum_of_row_sums_kernel, (1,), x, out, M=4, N=512, num_warps=num_warps)
    np.testing.assert_array_equal(out, np.cumsum(x.sum(axis=0)))
