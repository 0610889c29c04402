"""Unsigned integers (uint8..uint64) on every backend, against NumPy in the same dtype: division,
remainder, comparisons, shifts, max/min, reductions and conversions use their unsigned forms;
promotion follows C (Triton's rule), and mixing them with signed values or negative constants
is an error where Triton makes it one."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.errors import KernelTypeError, KernelValueError

pytestmark = pytest.mark.execution

UINTS = [np.uint8, np.uint16, np.uint32, np.uint64]
N, BLOCK = 200, 64
OPS = 14


@triton.jit
def unsigned_ops_kernel(x, y, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    a = tl.load(x + offs, mask=m)
    b = tl.load(y + offs, mask=m, other=1)
    tl.store(out + 0 * n + offs, a // b, mask=m)
    tl.store(out + 1 * n + offs, a % b, mask=m)
    tl.store(out + 2 * n + offs, (a < b).to(a.dtype), mask=m)
    tl.store(out + 3 * n + offs, (a >= b).to(a.dtype), mask=m)
    tl.store(out + 4 * n + offs, a >> 3, mask=m)
    tl.store(out + 5 * n + offs, a << 2, mask=m)
    tl.store(out + 6 * n + offs, tl.maximum(a, b), mask=m)
    tl.store(out + 7 * n + offs, tl.minimum(a, b), mask=m)
    tl.store(out + 8 * n + offs, ~a, mask=m)
    tl.store(out + 9 * n + offs, a - b, mask=m)  # wraps
    tl.store(out + 10 * n + offs, a * b + 1, mask=m)
    tl.store(out + 11 * n + offs, (a.to(tl.float64) * 0.5).to(a.dtype), mask=m)
    tl.store(out + 12 * n + offs, a & b | (a ^ b), mask=m)
    tl.store(out + 13 * n + offs, -a, mask=m)


def _expected(x: np.ndarray, y: np.ndarray) -> list[np.ndarray]:
    dt = x.dtype
    with np.errstate(over="ignore"):
        return [
            x // y,
            x % y,
            (x < y).astype(dt),
            (x >= y).astype(dt),
            x >> dt.type(3),
            x << dt.type(2),
            np.maximum(x, y),
            np.minimum(x, y),
            ~x,
            x - y,
            x * y + dt.type(1),
            np.array([int(v) // 2 for v in x], dtype=dt),  # exact: v * 0.5 truncated
            (x & y) | (x ^ y),
            (0 - x.astype(np.uint64)).astype(dt),
        ]


def _inputs(dt: Any, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    info = np.iinfo(dt)
    x = rng.integers(0, info.max, N, dtype=dt, endpoint=True)
    y = rng.integers(1, info.max, N, dtype=dt, endpoint=True)
    x[:4] = [info.max, info.max, 0, 1 << (info.bits - 1)]  # the top bit set: negative if signed
    y[:4] = [1, info.max, 7, 3]
    y[4:8] = [1 << (info.bits - 1), 2, info.max - 1, 5]
    return x, y


@pytest.mark.parametrize("dt", UINTS, ids=lambda d: np.dtype(d).name)
def test_unsigned_ops_match_numpy(run: Any, dt: Any) -> None:
    x, y = _inputs(dt)
    if np.dtype(dt).itemsize == 8:  # op 11 goes through float64: exact below 2**53 only
        x[8:] = x[8:] >> np.uint64(12)
    out = np.zeros(OPS * N, dt)
    run(unsigned_ops_kernel, (triton.cdiv(N, BLOCK),), x, y, out, N, BLOCK=BLOCK)
    got = out.reshape(OPS, N)
    for i, want in enumerate(_expected(x, y)):
        rows = slice(8, N) if i == 11 and np.dtype(dt).itemsize == 8 else slice(0, N)
        np.testing.assert_array_equal(got[i][rows], want[rows], err_msg=f"op {i}")


@triton.jit
def reduce_kernel(x, out, BLOCK: tl.constexpr):
    v = tl.load(x + tl.arange(0, BLOCK))
    tl.store(out + 0, tl.max(v, axis=0).to(tl.uint64))
    tl.store(out + 1, tl.min(v, axis=0).to(tl.uint64))
    tl.store(out + 2, tl.sum(v, axis=0).to(tl.uint64))


@pytest.mark.parametrize("dt", UINTS, ids=lambda d: np.dtype(d).name)
def test_unsigned_reductions_order_by_value(run: Any, dt: Any) -> None:
    """The largest element has its top bit set: a signed max would pick another one."""
    x, _ = _inputs(dt, seed=1)
    x = x[:128]
    out = np.zeros(3, np.uint64)
    run(reduce_kernel, (1,), x, out, BLOCK=128)
    wide = 32 if np.dtype(dt).itemsize < 4 else np.dtype(dt).itemsize * 8
    total = int(sum(int(v) for v in x)) % (1 << wide)
    np.testing.assert_array_equal(out, [x.max(), x.min(), total])


@triton.jit
def convert_kernel(x, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out + offs, tl.load(x + offs, mask=m).to(out.dtype.element_ty), mask=m)


_CONVERSIONS = [
    (np.uint8, np.int32),  # zero-extends
    (np.int8, np.uint32),  # sign-extends, then reads as unsigned
    (np.uint32, np.int64),
    (np.uint32, np.float32),
    (np.uint64, np.float64),
    (np.uint16, np.float16),
    (np.uint32, np.uint8),  # keeps the low bits
    (np.int32, np.uint32),
    (np.uint32, np.int32),
]


@pytest.mark.parametrize(
    ("src", "dst"), _CONVERSIONS, ids=lambda d: np.dtype(d).name if isinstance(d, type) else ""
)
def test_conversions_of_unsigned_values(run: Any, src: Any, dst: Any) -> None:
    rng = np.random.default_rng(2)
    info = np.iinfo(src)
    x = rng.integers(info.min, info.max, N, dtype=src, endpoint=True)
    x[:3] = [info.max, info.min, info.max // 2 + 1]
    out = np.zeros(N, dst)
    run(convert_kernel, (triton.cdiv(N, BLOCK),), x, out, N, BLOCK=BLOCK)
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(out, x.astype(dst))


@pytest.mark.parametrize("dst", UINTS, ids=lambda d: np.dtype(d).name)
def test_floats_to_unsigned_truncate_and_saturate(run: Any, dst: Any) -> None:
    """PTX ``cvt.rzi.u*``: toward zero, negatives give 0, beyond the top the maximum; uint8 is
    the low byte of the saturated uint16 (tests/execution/test_float_to_int.py has the rule)."""
    info = np.iinfo(dst)
    x = np.array([0.5, 1.99, 200.7, -3.5, -0.0, 300.0, 1e30, float(info.max) * 4], np.float32)
    out = np.zeros(x.size, dst)
    run(convert_kernel, (1,), x, out, x.size, BLOCK=8)
    top = 65535 if info.bits == 8 else info.max  # the uint16 saturates, then its low byte
    want = [0, 1, 200, 0, 0, 300, top, min(top, int(info.max) * 4)]
    np.testing.assert_array_equal(out, np.array(want, np.uint64).astype(dst))  # keeps low bits


@triton.jit
def promotion_kernel(out, a_dtype: tl.constexpr, b_dtype: tl.constexpr, want: tl.constexpr):
    a = tl.full((4,), 3, a_dtype)
    b = tl.full((4,), 5, b_dtype)
    c = a + b
    tl.static_assert(c.dtype == want)
    tl.store(out + tl.arange(0, 4), c.to(tl.int32))


@pytest.mark.parametrize(
    ("a", "b", "want"),
    [
        (tl.uint8, tl.int32, tl.int32),  # the signed one is wider
        (tl.uint32, tl.int32, tl.uint32),  # same width: unsigned
        (tl.uint32, tl.int64, tl.int64),
        (tl.uint64, tl.int8, tl.uint64),
        (tl.uint16, tl.uint8, tl.uint16),
        (tl.uint8, tl.float16, tl.float16),
    ],
)
def test_promotion_follows_c(run: Any, a: Any, b: Any, want: Any) -> None:
    out = np.zeros(4, np.int32)
    run(promotion_kernel, (1,), out, a_dtype=a, b_dtype=b, want=want)
    np.testing.assert_array_equal(out, 8)


@triton.jit
def constant_kernel(out, big):
    x = tl.full((4,), 7, tl.uint32) + 3_000_000_000  # the constant fits uint32
    tl.store(out + tl.arange(0, 4), x)
    tl.store(out + 4 + tl.arange(0, 4), (big >> 60).to(tl.uint32))


def test_large_constants_and_uint64_arguments(run: Any) -> None:
    """A Python int above int64's range is a uint64 argument, as in Triton."""
    out = np.zeros(8, np.uint32)
    run(constant_kernel, (1,), out, 2**64 - 1)
    np.testing.assert_array_equal(out, [3_000_000_007] * 4 + [15] * 4)


@triton.jit
def offset_kernel(x, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK).to(tl.uint32)
    tl.store(out + tl.arange(0, BLOCK), tl.load(x + offs + 2))


def test_unsigned_offsets_are_zero_extended(run: Any) -> None:
    x = np.arange(40, dtype=np.float32)
    out = np.zeros(32, np.float32)
    run(offset_kernel, (1,), x, out, BLOCK=32)
    np.testing.assert_array_equal(out, x[2:34])


@triton.jit
def shift_kernel(x, s, out, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    m = offs < n
    a = tl.load(x + offs, mask=m)
    k = tl.load(s + offs, mask=m)
    tl.store(out + offs, a >> k, mask=m)
    tl.store(out + n + offs, a << k, mask=m)


@pytest.mark.parametrize("dt", [np.int8, np.int32, np.int64, np.uint8, np.uint32])
def test_shifts(run: Any, dt: Any) -> None:
    """``>>`` is arithmetic on signed integers, logical on unsigned ones; an amount of the width
    or more shifts every bit out (PTX)."""
    bits = np.dtype(dt).itemsize * 8
    x = np.array([-100, -1, 77, 5, -128, 1, 100, -7], dtype=np.int64).astype(dt)
    k = np.array([1, 3, 2, 0, bits - 1, bits, bits + 3, 2], dtype=dt)
    out = np.zeros(16, dt)
    run(shift_kernel, (1,), x, k, out, 8, BLOCK=8)

    def shr(v: Any, a: int) -> int:
        v = int(v)
        if a >= bits:
            return -1 if v < 0 else 0
        return v >> a  # Python's >> on a negative int is arithmetic; unsigned values are >= 0

    def shl(v: Any, a: int) -> Any:
        return 0 if a >= bits else (int(v) << a) % (1 << bits)

    want_shr = np.array([shr(v, int(a)) for v, a in zip(x, k, strict=True)], np.int64).astype(dt)
    want_shl = np.array([shl(v, int(a)) for v, a in zip(x, k, strict=True)], np.uint64).astype(dt)
    np.testing.assert_array_equal(out[:8], want_shr)
    np.testing.assert_array_equal(out[8:], want_shl)


@triton.jit
def mixed_division_kernel(out):
    a = tl.full((4,), 7, tl.uint32)
    b = tl.full((4,), 2, tl.int32)
    tl.store(out + tl.arange(0, 4), a // b)


@triton.jit
def negative_constant_kernel(out):
    a = tl.full((4,), 7, tl.uint32)
    tl.store(out + tl.arange(0, 4), a + -1)


@triton.jit
def out_of_range_constant_kernel(out):
    a = tl.full((4,), 7, tl.uint8)
    tl.store(out + tl.arange(0, 4), a + 300)


@pytest.mark.parametrize(
    ("kernel", "error", "message"),
    [
        (mixed_division_kernel, KernelTypeError, "because they have different signedness"),
        (negative_constant_kernel, KernelValueError, "negative constant -1"),
        (out_of_range_constant_kernel, KernelValueError, "300 is out of range for type uint8"),
    ],
)
def test_errors_name_the_line(
    monkeypatch: pytest.MonkeyPatch, kernel: Any, error: type, message: str
) -> None:
    monkeypatch.setenv("MYTRITON_BACKEND", "interpreter")
    out = np.zeros(4, np.uint32)
    with pytest.raises(error, match=message) as info:
        kernel[(1,)](out)
    assert "test_unsigned.py" in str(info.value)


@triton.jit
def change_signedness_kernel(x, out, BLOCK: tl.constexpr):
    a = tl.load(x + tl.arange(0, BLOCK))
    bits = a.to(tl.int32, bitcast=True)
    value = a.to(tl.int32)
    tl.store(out + tl.arange(0, BLOCK), tl.where(bits < 0, -bits - 1, bits))
    tl.store(out + BLOCK + tl.arange(0, BLOCK), value + 1)
    back = bits.to(tl.uint32, bitcast=True)
    tl.store(out + 2 * BLOCK + tl.arange(0, BLOCK), (back >> 1).to(tl.int32))


def test_signedness_changes_then_arithmetic(run: Any) -> None:
    """uint32 <-> int32 casts and bitcasts keep the bits and give values of the new type that
    later operations (signed comparisons, arithmetic, logical shifts) use as such."""
    x = np.array([0, 1, 2**31 - 1, 2**31, 2**32 - 1, 7, 2**31 + 5, 12345], np.uint32)
    out = np.zeros(24, np.int32)
    run(change_signedness_kernel, (1,), x, out, BLOCK=8)
    signed = x.view(np.int32).astype(np.int64)
    np.testing.assert_array_equal(out[:8], np.where(signed < 0, -signed - 1, signed))
    np.testing.assert_array_equal(out[8:16], (signed + 1).astype(np.int32))
    np.testing.assert_array_equal(out[16:], (x >> np.uint32(1)).astype(np.int32))


def unsigned_warmups() -> list[Any]:
    """The kernels above compiled once per unsigned dtype (compile-only: tests/cuda and
    tests/mlir check the C++ and the PTX)."""
    out = []
    for dt in UINTS:
        x = np.zeros(N, dt)
        out.append(
            unsigned_ops_kernel.warmup(x, x, np.zeros(OPS * N, dt), N, BLOCK=BLOCK, grid=(4,))
        )
        out.append(reduce_kernel.warmup(x, np.zeros(3, np.uint64), BLOCK=128, grid=(1,)))
    out.append(constant_kernel.warmup(np.zeros(8, np.uint32), 2**64 - 1, grid=(1,)))
    return out
