"""Arithmetic, comparisons, casts and reductions on every integer and float width the backends
support, against NumPy computing in the same dtype (integers wrap, C division, each float
rounds to its own precision)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl

pytestmark = pytest.mark.execution

INTS = [np.int8, np.int16, np.int32, np.int64]
FLOATS = [np.float16, np.float32, np.float64]
N, BLOCK = 200, 64


@triton.jit
def arith_kernel(x, y, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    a = tl.load(x + offs, mask=m)
    b = tl.load(y + offs, mask=m)
    tl.store(out + 0 * n + offs, a + b, mask=m)
    tl.store(out + 1 * n + offs, a - b, mask=m)
    tl.store(out + 2 * n + offs, a * b, mask=m)
    tl.store(out + 3 * n + offs, tl.where(a < b, a, b), mask=m)
    tl.store(out + 4 * n + offs, -a, mask=m)
    tl.store(out + 5 * n + offs, a * 3 - 7, mask=m)


@triton.jit
def int_division_kernel(x, y, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    a = tl.load(x + offs, mask=m)
    b = tl.load(y + offs, mask=m)
    tl.store(out + offs, a // b, mask=m)
    tl.store(out + n + offs, a % b, mask=m)
    tl.store(out + 2 * n + offs, a & b, mask=m)
    tl.store(out + 3 * n + offs, a ^ b, mask=m)


@triton.jit
def float_division_kernel(x, y, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    a = tl.load(x + offs, mask=m)
    b = tl.load(y + offs, mask=m)
    tl.store(out + offs, a / b, mask=m)


@triton.jit
def cast_kernel(x, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out + offs, tl.load(x + offs, mask=m).to(out.dtype.element_ty), mask=m)


@triton.jit
def row_sum_kernel(x, out, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    v = tl.load(x + row * BLOCK + tl.arange(0, BLOCK))
    tl.store(out + row, tl.sum(v, axis=0))
    tl.store(out + tl.num_programs(0) + row, tl.max(v, axis=0))


def _inputs(dt: Any, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    if np.issubdtype(dt, np.integer):
        info = np.iinfo(dt)
        lo, hi = max(info.min, -(2**40)), min(info.max, 2**40)
        x = rng.integers(lo, hi, N, dtype=np.int64, endpoint=True).astype(dt)
        y = rng.integers(lo, hi, N, dtype=np.int64, endpoint=True).astype(dt)
        x[:4] = [info.max, info.min, -1, 0]
        y[:4] = [1, -1, info.min, info.max]
    else:
        x = (rng.standard_normal(N) * 20).astype(dt)
        y = (rng.standard_normal(N) * 20).astype(dt)
    return x, y


def _wrap(v: np.ndarray, dt: Any) -> np.ndarray:
    """Two's complement wrap of exact int64 results (as a GPU computes in ``dt``)."""
    return v.astype(np.int64).astype(dt) if dt != np.int64 else v


def _c_div(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    a64, b64 = a.astype(object), b.astype(object)
    q = np.array(
        [
            abs(p) // abs(r) * (1 if (p < 0) == (r < 0) else -1)
            for p, r in zip(a64, b64, strict=True)
        ],
        dtype=object,
    )
    r = a64 - q * b64
    return q, r


def _wrapping(values: np.ndarray, dt: Any) -> np.ndarray:
    """Exact Python integers wrapped to ``dt``."""
    bits = np.iinfo(dt).bits
    return np.array(
        [((int(v) + 2 ** (bits - 1)) % 2**bits) - 2 ** (bits - 1) for v in values], dtype=dt
    )


@pytest.mark.parametrize("dt", INTS + FLOATS, ids=lambda d: np.dtype(d).name)
def test_arithmetic(run: Any, dt: Any) -> None:
    x, y = _inputs(dt, 1)
    out = np.zeros(6 * N, dt)
    run(arith_kernel, (triton.cdiv(N, BLOCK),), x, y, out, N, BLOCK=BLOCK)
    if np.issubdtype(dt, np.integer):
        a, b = x.astype(object), y.astype(object)
        expected = [a + b, a - b, a * b, np.where(x < y, a, b), -a, a * 3 - 7]
        expected = [_wrapping(e, dt) for e in expected]
    else:
        expected = [x + y, x - y, x * y, np.where(x < y, x, y), -x, x * dt(3) - dt(7)]
    got, want = out.reshape(6, N), np.stack(expected).astype(dt)
    if np.issubdtype(dt, np.floating):
        # `a * 3 - 7` may be contracted into one fma on the GPU (as Triton's default
        # enable_fp_fusion does): one rounding instead of two
        if dt == np.float64:  # the exact value, rounded once
            fused = np.array([float(Fraction(float(v)) * 3 - 7) for v in x])
        else:  # exact in float64 for narrower inputs, then rounded once
            fused = (x.astype(np.float64) * 3 - 7).astype(dt)
        assert np.all((got[5] == want[5]) | (got[5] == fused)), (got[5], want[5], fused)
        got, want = got[:5], want[:5]
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dt", INTS, ids=lambda d: np.dtype(d).name)
def test_integer_division_and_bits(run: Any, dt: Any) -> None:
    x, y = _inputs(dt, 2)
    y[y == 0] = 3
    keep = ~((x == np.iinfo(dt).min) & (y == -1))  # overflowing quotient: undefined on a GPU
    x, y = x[keep][: N // 2].repeat(2)[:N], y[keep][: N // 2].repeat(2)[:N]
    out = np.zeros(4 * N, dt)
    run(int_division_kernel, (triton.cdiv(N, BLOCK),), x, y, out, N, BLOCK=BLOCK)
    q, r = _c_div(x, y)
    expected = np.stack([_wrapping(q, dt), _wrapping(r, dt), x & y, x ^ y])
    np.testing.assert_array_equal(out.reshape(4, N), expected)


@pytest.mark.parametrize(
    "dt", [*FLOATS, np.int8, np.int32, np.int64], ids=lambda d: np.dtype(d).name
)
def test_true_division(run: Any, dt: Any) -> None:
    """``/`` of f32 and f64 stays in their dtype; of f16 and integers it is float32 (Triton's
    rule; the f16 quotient is stored to f16 here, test_bfloat16.py checks it in f32). A GPU
    computes the f32 quotient with ``div.full.f32``, as Triton: within 2 ulp (2.4e-7), so its
    f16 rounding may go the other way where the quotient is on an f16 rounding boundary."""
    x, y = _inputs(dt, 3)
    y[y == 0] = 5
    out_dt = dt if np.issubdtype(dt, np.floating) else np.float32
    out = np.zeros(N, out_dt)
    run(float_division_kernel, (triton.cdiv(N, BLOCK),), x, y, out, N, BLOCK=BLOCK)
    expected = (x.astype(out_dt) / y.astype(out_dt)).astype(out_dt)
    rtol = 2.4e-7 if np.dtype(out_dt) == np.float32 else 0.0
    if np.dtype(out_dt) == np.float16 and run.backend not in ("interpreter", "gpusim"):
        rtol = 2.0**-10  # one ulp of f16
    np.testing.assert_allclose(out, expected, rtol=rtol)


CASTS = [
    (np.int8, np.int64),
    (np.int64, np.int16),
    (np.int16, np.int8),
    (np.int32, np.float16),
    (np.int64, np.float64),
    (np.float64, np.int32),
    (np.float16, np.float32),
    (np.float32, np.float16),
    (np.float64, np.float16),
    (np.float64, np.float32),
    (np.float16, np.int16),
]


@pytest.mark.parametrize(("src", "dst"), CASTS, ids=lambda d: np.dtype(d).name)
def test_casts(run: Any, src: Any, dst: Any) -> None:
    rng = np.random.default_rng(4)
    if np.issubdtype(src, np.integer):
        x = rng.integers(-100, 100, N).astype(src)
        if src == np.int64 and dst == np.int16:
            x[:3] = [2**40 + 5, -(2**33) - 1, 70000]  # narrowing keeps the low bits
    else:
        x = (rng.standard_normal(N) * 50).astype(src)
        if np.issubdtype(dst, np.floating):  # ties and the f16 limit; ints get in-range values
            x[:3] = [1.0 / 3.0, 65504.5, -2.5]
    out = np.zeros(N, dst)
    run(cast_kernel, (triton.cdiv(N, BLOCK),), x, out, N, BLOCK=BLOCK)
    if np.issubdtype(dst, np.integer) and np.issubdtype(src, np.integer):
        expected = _wrapping(x.astype(object), dst)
    elif np.issubdtype(dst, np.integer):
        expected = np.trunc(x.astype(np.float64)).astype(dst)  # C conversion truncates
    else:
        expected = x.astype(dst)  # round to nearest even, once
    np.testing.assert_array_equal(out, expected)


@pytest.mark.parametrize(
    "dt", [np.int8, np.int16, np.int64, np.float16, np.float64], ids=lambda d: np.dtype(d).name
)
def test_row_sum_and_max(run: Any, dt: Any) -> None:
    rows = 8
    rng = np.random.default_rng(5)
    if np.issubdtype(dt, np.integer):
        x = rng.integers(-9, 9, (rows, BLOCK)).astype(dt)
    else:
        x = rng.integers(-9, 9, (rows, BLOCK)).astype(dt) / dt(4)  # exact sums in every order
    out = np.zeros(2 * rows, np.int32 if dt in (np.int8, np.int16) else dt)
    run(row_sum_kernel, (rows,), x.reshape(-1), out, BLOCK=BLOCK)
    # sums of narrow integers accumulate in int32 (Triton's default), max stays in the dtype
    expected = np.concatenate([x.astype(np.float64).sum(axis=1), x.max(axis=1)])
    np.testing.assert_array_equal(out, expected.astype(out.dtype))


@triton.jit
def int64_offsets_kernel(x, out, scale, BLOCK: tl.constexpr):
    pid = tl.program_id(0).to(tl.int64)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(x + offs)
    tl.store(out + offs, v * scale + 2**40)


def test_int64_program_offsets_arguments_and_constants(run: Any) -> None:
    """``program_id(0).to(tl.int64)`` row offsets, an int argument beyond int32 (specialized
    as int64, as Triton does) and a constant beyond int32."""
    x = np.arange(4 * BLOCK, dtype=np.int64) - 100
    out = np.zeros_like(x)
    compiled = run(int64_offsets_kernel, (4,), x, out, 3_000_000_007, BLOCK=BLOCK)
    np.testing.assert_array_equal(out, x * 3_000_000_007 + 2**40)
    assert "%scale: i64" in compiled.asm["tt"]
