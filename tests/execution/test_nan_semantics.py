"""Triton's NaN and signed-zero rules for ``tl.maximum``/``tl.minimum``/``tl.clamp`` and the
``tl.max``/``tl.min`` reductions, on every backend.

By default (``tl.PropagateNan.NONE``) a NaN operand is ignored (LLVM ``maxnum``, PTX
``max.f32``); with ``tl.PropagateNan.ALL`` the result is NaN (PTX ``max.NaN.f32``). Either way
``+0.0 > -0.0``. The reductions combine with the default, so a row is NaN only if all of it is.
The expected values come from NumPy's ``fmax``/``maximum`` with the zero rule spelled out here.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl

pytestmark = pytest.mark.execution

NAN, INF = np.float32(np.nan), np.float32(np.inf)
MODES = [tl.PropagateNan.NONE, tl.PropagateNan.ALL]


def ref_max(a: np.ndarray, b: np.ndarray, propagate_nan: bool) -> np.ndarray:
    """IEEE maxNum (``np.fmax``) or maximum (``np.maximum``), with +0.0 > -0.0."""
    r = np.maximum(a, b) if propagate_nan else np.fmax(a, b)
    zeros = (a == 0) & (b == 0)
    return np.where(zeros, np.where(np.signbit(a) & np.signbit(b), -0.0, 0.0), r).astype(a.dtype)


def ref_min(a: np.ndarray, b: np.ndarray, propagate_nan: bool) -> np.ndarray:
    """IEEE minNum (``np.fmin``) or minimum (``np.minimum``), with -0.0 < +0.0."""
    r = np.minimum(a, b) if propagate_nan else np.fmin(a, b)
    zeros = (a == 0) & (b == 0)
    return np.where(zeros, np.where(np.signbit(a) | np.signbit(b), -0.0, 0.0), r).astype(a.dtype)


def assert_same_floats(got: np.ndarray, expected: np.ndarray) -> None:
    """Equal values, NaN exactly where expected, and the sign of every non-NaN (zeros)."""
    got, expected = np.asarray(got), np.asarray(expected)
    same = np.where(
        np.isnan(expected),
        np.isnan(got),
        (got == expected) & (np.signbit(got) == np.signbit(expected)),
    )
    bad = np.flatnonzero(~same.ravel())[:6]
    assert bad.size == 0, [(int(i), got.ravel()[i], expected.ravel()[i]) for i in bad]


# Every pairing that matters: NaN on either side or both, signed zeros in both orders, infinities,
# ties, ordinary numbers (each pair also appears swapped).
_PAIRS = [
    (NAN, 1.0),
    (NAN, -2.0),
    (NAN, NAN),
    (NAN, 0.0),
    (NAN, -0.0),
    (NAN, INF),
    (NAN, -INF),
    (0.0, -0.0),
    (0.0, 0.0),
    (-0.0, -0.0),
    (-1.5, -1.5),
    (3.0, 2.0),
    (-3.0, 2.0),
    (INF, -INF),
    (1e-45, -1e-45),
]
A = np.array([p[0] for p in _PAIRS] + [p[1] for p in _PAIRS], np.float32)
B = np.array([p[1] for p in _PAIRS] + [p[0] for p in _PAIRS], np.float32)
N = len(A)


@triton.jit
def extrema_kernel(x, y, mx, mn, n, PROPAGATE: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    m = offs < n
    a = tl.load(x + offs, mask=m)
    b = tl.load(y + offs, mask=m)
    tl.store(mx + offs, tl.maximum(a, b, propagate_nan=PROPAGATE), mask=m)
    tl.store(mn + offs, tl.minimum(a, b, propagate_nan=PROPAGATE), mask=m)


@triton.jit
def default_extrema_kernel(x, y, mx, mn, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    m = offs < n
    a = tl.load(x + offs, mask=m)
    b = tl.load(y + offs, mask=m)
    tl.store(mx + offs, tl.maximum(a, b), mask=m)
    tl.store(mn + offs, tl.minimum(a, b), mask=m)


@pytest.mark.parametrize("mode", MODES, ids=["none", "all"])
def test_maximum_minimum_nan_and_signed_zeros(run: Any, mode: tl.PropagateNan) -> None:
    mx, mn = np.full(N, 7.0, np.float32), np.full(N, 7.0, np.float32)
    run(extrema_kernel, (1,), A, B, mx, mn, N, PROPAGATE=mode, BLOCK=32, num_warps=1)
    propagate = mode is tl.PropagateNan.ALL
    assert_same_floats(mx, ref_max(A, B, propagate))
    assert_same_floats(mn, ref_min(A, B, propagate))


def test_default_ignores_nan(run: Any) -> None:
    """Without ``propagate_nan``: ``tl.maximum(nan, 1) == 1``, as in Triton."""
    mx, mn = np.full(N, 7.0, np.float32), np.full(N, 7.0, np.float32)
    run(default_extrema_kernel, (1,), A, B, mx, mn, N, BLOCK=32, num_warps=1)
    assert_same_floats(mx, ref_max(A, B, False))
    assert_same_floats(mn, ref_min(A, B, False))


@triton.jit
def constant_extrema_kernel(out, A: tl.constexpr, B: tl.constexpr, PROPAGATE: tl.constexpr):
    # (magnitude, sign) pairs: a -0.0 constexpr is +0.0 (Triton's rule), 0.0 * -1.0 folds to
    # the -0.0 constant
    o = tl.arange(0, 1)
    a = tl.full((1,), A[0], tl.float32) * A[1]
    b = tl.full((1,), B[0], tl.float32) * B[1]
    tl.store(out + o, tl.maximum(a, b, propagate_nan=PROPAGATE))
    tl.store(out + 1 + o, tl.minimum(a, b, propagate_nan=PROPAGATE))


@pytest.mark.parametrize("mode", MODES, ids=["none", "all"])
@pytest.mark.parametrize(
    ("a", "b"), [(np.nan, 1.0), (1.0, np.nan), (0.0, -0.0), (-0.0, 0.0), (-0.0, -0.0)]
)
def test_constant_operands_fold_the_same(
    run: Any, mode: tl.PropagateNan, a: float, b: float
) -> None:
    """Compile-time operands are folded by the `tt` folder: the same rule as at run time."""
    out = np.full(2, 7.0, np.float32)
    sa, sb = ((abs(v), -1.0 if np.signbit(v) else 1.0) for v in (a, b))
    run(constant_extrema_kernel, (1,), out, A=sa, B=sb, PROPAGATE=mode, num_warps=1)
    x, y = np.float32([a]), np.float32([b])
    propagate = mode is tl.PropagateNan.ALL
    assert_same_floats(out, np.concatenate([ref_max(x, y, propagate), ref_min(x, y, propagate)]))


@triton.jit
def clamp_kernel(x, lo, hi, out, n, PROPAGATE: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    m = offs < n
    v = tl.load(x + offs, mask=m)
    a = tl.load(lo + offs, mask=m)
    b = tl.load(hi + offs, mask=m)
    tl.store(out + offs, tl.clamp(v, a, b, propagate_nan=PROPAGATE), mask=m)


@pytest.mark.parametrize("mode", MODES, ids=["none", "all"])
def test_clamp_follows_propagate_nan(run: Any, mode: tl.PropagateNan) -> None:
    x = np.array([NAN, NAN, 5.0, -5.0, 0.5, -0.0, 0.0, NAN], np.float32)
    lo = np.array([-1.0, NAN, -1.0, -1.0, NAN, 0.0, -0.0, -0.0], np.float32)
    hi = np.array([1.0, 1.0, 1.0, NAN, 1.0, 1.0, 1.0, 0.0], np.float32)
    out = np.full(len(x), 7.0, np.float32)
    run(clamp_kernel, (1,), x, lo, hi, out, len(x), PROPAGATE=mode, BLOCK=8, num_warps=1)
    propagate = mode is tl.PropagateNan.ALL
    assert_same_floats(out, ref_min(ref_max(x, lo, propagate), hi, propagate))


@triton.jit
def int_extrema_kernel(x, y, mx, mn, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(x + offs)
    b = tl.load(y + offs)
    tl.store(mx + offs, tl.maximum(a, b, propagate_nan=tl.PropagateNan.ALL))
    tl.store(mn + offs, tl.minimum(a, b))


def test_integers_ignore_propagate_nan(run: Any) -> None:
    x = np.array([1, -5, 7, -(2**31), 2**31 - 1, 0, -1, 3], np.int32)
    y = np.array([2, -6, 7, 0, -1, 0, 1, -3], np.int32)
    mx, mn = np.zeros(8, np.int32), np.zeros(8, np.int32)
    run(int_extrema_kernel, (1,), x, y, mx, mn, BLOCK=8, num_warps=1)
    np.testing.assert_array_equal(mx, np.maximum(x, y))
    np.testing.assert_array_equal(mn, np.minimum(x, y))


# ------------------------------------------------------------------ reductions


def ref_reduce(x: np.ndarray, axis: int, larger: bool) -> np.ndarray:
    """The NaN-ignoring max/min folded element by element along ``axis``."""
    step = ref_max if larger else ref_min
    parts = np.moveaxis(x, axis, 0)
    return functools.reduce(lambda acc, v: step(acc, v, False), parts[1:], parts[0])


def nan_rows(rows: int, cols: int, seed: int) -> np.ndarray:
    """Rows with NaN somewhere, NaN first/last, all NaN, only zeros of either or both signs."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((rows, cols)).astype(np.float32)
    x[rng.random((rows, cols)) < 0.2] = NAN
    x[0, :] = NAN  # all NaN: the only NaN result
    x[1, 0], x[1, -1] = NAN, NAN
    x[2, :] = -0.0
    x[2, cols // 2] = 0.0  # one +0.0 among -0.0: max is +0.0, min is -0.0
    x[3, :] = np.where(np.arange(cols) % 3 == 0, NAN, -0.0)  # -0.0 and NaN only
    if rows > 4:
        x[4, :] = np.where(np.arange(cols) % 2 == 0, NAN, 0.0)  # +0.0 and NaN only
        x[5, :] = NAN
        x[5, cols - 1] = -INF  # NaN everywhere but one element
    return x


@triton.jit
def row_extrema_kernel(x, mx, mn, ROWS: tl.constexpr, COLS: tl.constexpr):
    r = tl.arange(0, ROWS)
    c = tl.arange(0, COLS)
    v = tl.load(x + r[:, None] * COLS + c[None, :])
    tl.store(mx + r, tl.max(v, axis=1))
    tl.store(mn + r, tl.min(v, axis=1))
    tl.store(mx + ROWS + c, tl.max(v, axis=0))
    tl.store(mn + ROWS + c, tl.min(v, axis=0))


@pytest.mark.parametrize(
    ("rows", "cols", "num_warps"), [(4, 32, 1), (8, 128, 4), (8, 256, 8), (16, 64, 4)]
)
def test_max_min_reductions_ignore_nan(run: Any, rows: int, cols: int, num_warps: int) -> None:
    """Across registers, lanes and warps (both axes): NaN only where a whole row/column is."""
    x = nan_rows(rows, cols, seed=rows * cols)
    x[:, 1] = NAN  # an all-NaN column too
    mx = np.full(rows + cols, 7.0, np.float32)
    mn = np.full(rows + cols, 7.0, np.float32)
    run(row_extrema_kernel, (1,), x, mx, mn, ROWS=rows, COLS=cols, num_warps=num_warps)
    for got, larger in ((mx, True), (mn, False)):
        assert_same_floats(got[:rows], ref_reduce(x, 1, larger))
        assert_same_floats(got[rows:], ref_reduce(x, 0, larger))


@triton.jit
def full_extrema_kernel(x, out, BLOCK: tl.constexpr):
    v = tl.load(x + tl.arange(0, BLOCK))
    tl.store(out, tl.max(v))
    tl.store(out + 1, tl.min(v))


@pytest.mark.parametrize(
    "values",
    [
        [NAN, 2.0, -1.0, NAN],
        [2.0, NAN, NAN, 5.0],
        [NAN, NAN, NAN, NAN],
        [-0.0, NAN, 0.0, -0.0],
        [0.0, 0.0, NAN, 0.0],
        [-0.0, -0.0, -0.0, NAN],
    ],
    ids=["nan-first", "nan-middle", "all-nan", "mixed-zeros", "pos-zeros", "neg-zeros"],
)
def test_whole_block_max_min(run: Any, values: list[float]) -> None:
    """``tl.max([nan, 2, ...]) == 2`` (Triton), spread over 4 warps (1024 elements)."""
    x = np.resize(np.array(values, np.float32), 1024)
    out = np.full(2, 7.0, np.float32)
    run(full_extrema_kernel, (1,), x, out, BLOCK=1024, num_warps=4)
    assert_same_floats(out, [ref_reduce(x, 0, True), ref_reduce(x, 0, False)])
