"""fp8 kernels (the five formats Triton names) against an exact reference of what Triton's GPU
code computes: every byte decoded, f32/f16/bf16 values around every rounding boundary encoded
(round to nearest even, saturating at the largest finite value, NaN to the format's NaN;
fp8e4b15 rounds half away and clamps at 1.75), loads, stores, arguments, arithmetic through
float32, ``tl.dot``, and the typed errors for what Triton's GPU backends reject (on the cuda
and mlir backends, as on Triton's NVIDIA backend, fp8e4b8 and fp8e5b16 are such errors)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.backends.nvidia.nvidia_fp8 import supported_fp8_dtypes
from mytriton.dialects.ttg.layouts import DEFAULT_CAPABILITY
from mytriton.errors import KernelTypeError, KernelValueError
from tests.frontend.util import expect_error

ml_dtypes = pytest.importorskip("ml_dtypes")
BF16 = np.dtype(ml_dtypes.bfloat16)

pytestmark = pytest.mark.execution


@dataclass(frozen=True)
class Format:
    dtype: Any  # tl dtype
    numpy: str | None  # ml_dtypes' name; None: no array dtype (passed with reinterpret)
    nan_byte: int | None  # what NaN encodes to (None: fp8e4b15 has no NaN)
    largest: int  # the largest magnitude byte encoding produces
    ties_away: bool = False

    @property
    def name(self) -> str:
        return str(self.dtype)

    @property
    def fnuz(self) -> bool:
        return self.nan_byte == 0x80


FORMATS = [
    Format(tl.float8e4nv, "float8_e4m3fn", 0x7F, 0x7E),
    Format(tl.float8e5, "float8_e5m2", 0x7F, 0x7B),
    Format(tl.float8e4b8, "float8_e4m3fnuz", 0x80, 0x7F),
    Format(tl.float8e5b16, "float8_e5m2fnuz", 0x80, 0x7F),
    Format(tl.float8e4b15, None, None, 0x7E, ties_away=True),
]
IDS = [f.name for f in FORMATS]


# ------------------------------------------------------------------ the reference


def decoded(fmt: Format) -> np.ndarray:
    """The float64 value of every byte: ml_dtypes' for its formats; fp8e4b15 is f16's sign,
    exponent field (bias 15) and top mantissa bits (Triton's definition: 0x7f is 1.875)."""
    b = np.arange(256, dtype=np.uint16)
    if fmt.numpy is None:
        half = ((b & 0x80) << 8) | ((b & 0x7F) << 7)
        return half.view(np.float16).astype(np.float64)
    return b.astype(np.uint8).view(getattr(ml_dtypes, fmt.numpy)).astype(np.float64)


def encoded(fmt: Format, x: np.ndarray, *, nan_sign: bool = False) -> np.ndarray:
    """The byte of each value of ``x`` (exact in float64): clamped to the largest finite value,
    rounded to the nearest byte value (ties to the even byte, or away from zero)."""
    values = decoded(fmt)[: fmt.largest + 1]  # the magnitudes encoding can give, increasing
    x = np.asarray(x, np.float64)
    mag = np.minimum(np.abs(np.nan_to_num(x)), values[-1])
    hi = np.searchsorted(values, mag)  # values[hi - 1] < mag <= values[hi]
    lo = np.maximum(hi - 1, 0)
    exact = values[hi] == mag
    d_lo, d_hi = mag - values[lo], values[hi] - mag
    tie_up = (hi % 2 == 0) if not fmt.ties_away else np.ones_like(exact)
    up = exact | (d_hi < d_lo) | ((d_hi == d_lo) & tie_up)
    byte = np.where(up, hi, lo)
    negative = np.signbit(x) & ~(fmt.fnuz & (byte == 0))
    out = byte | np.where(negative, 0x80, 0)
    nan = 0x7E | (0x80 if nan_sign else 0) if fmt.nan_byte is None else fmt.nan_byte
    return np.where(np.isnan(x), nan, out).astype(np.uint8)


def test_reference_agrees_with_ml_dtypes() -> None:
    """The reference rounds like ml_dtypes (to nearest even) wherever no saturation happens."""
    for fmt in FORMATS[:4]:
        x = sweep(fmt)
        inside = np.abs(x) <= decoded(fmt)[fmt.largest]
        ml = x[inside].astype(getattr(ml_dtypes, fmt.numpy)).view(np.uint8)
        np.testing.assert_array_equal(encoded(fmt, x[inside]), ml)


def sweep(fmt: Format) -> np.ndarray:
    """f32 values at and around every rounding boundary of ``fmt``: each value, each midpoint
    between neighbours and the f32 values just beside it, saturation, specials, both signs."""
    values = decoded(fmt)[: fmt.largest + 1]
    mids = (values[:-1] + values[1:]) / 2
    top, step = values[-1], values[-1] - values[-2]
    beyond = [top + step / 2, top + step, 2 * top, 3.0e38, np.inf, 2.0**-149, values[1] / 4]
    base = np.concatenate([values, mids, beyond]).astype(np.float32)
    near = np.concatenate(
        [
            np.nextafter(mids.astype(np.float32), np.float32(np.inf)),
            np.nextafter(mids.astype(np.float32), np.float32(0)),
        ]
    )
    pos = np.concatenate([base, near])
    return np.concatenate([pos, -pos, np.float32([np.nan])]).astype(np.float32)


# ------------------------------------------------------------------ helpers


def fp8_array(fmt: Format, data: np.ndarray) -> Any:
    """An fp8 kernel argument holding bytes ``data``: an ml_dtypes array, or for fp8e4b15 a
    byte array passed through ``mytriton.reinterpret``."""
    data = np.asarray(data, np.uint8)
    if fmt.numpy is None:
        return triton.reinterpret(data.view(np.int8), fmt.dtype)
    return data.view(getattr(ml_dtypes, fmt.numpy))


def device_rejects(run: Any, formats: list[Format]) -> str | None:
    """The first of ``formats`` that ``run``'s backend rejects: on the cuda and mlir backends
    the fp8 dtypes Triton's NVIDIA backend lacks (``nvidia_fp8``)."""
    if run.backend not in ("cuda", "mlir"):
        return None
    from mytriton.backends.nvidia.cuda_driver import compute_capability, current_device

    device = current_device()
    capability = (compute_capability(device) if device is not None else None) or 90
    supported = supported_fp8_dtypes(capability)
    return next((f.name for f in formats if f.name not in supported), None)


def run_fp8(run: Any, formats: list[Format], *launch: Any, **options: Any) -> bool:
    """``run(*launch, **options)``; where ``run``'s backend rejects one of ``formats`` the
    launch must instead raise Triton's typed error, and False says there is nothing to check."""
    rejected = device_rejects(run, formats)
    if rejected is None:
        run(*launch, **options)
        return True
    with pytest.raises(KernelTypeError, match=f"type {rejected} not supported in this arch"):
        run(*launch, **options)
    return False


def fp8_bytes(a: Any) -> np.ndarray:
    base = a.base if isinstance(a, triton.TensorWrapper) else a
    return np.asarray(base).view(np.uint8)


def assert_same_floats(got: np.ndarray, want: np.ndarray) -> None:
    """Equal values, NaN where NaN, and the sign of every zero."""
    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(np.signbit(got[got == 0]), np.signbit(want[want == 0]))


def sources(fmt: Format) -> list[np.dtype]:
    """The float types ``fmt`` converts to and from (Triton's fp8e4b15: f16 and f32 only)."""
    half = [np.dtype(np.float16), np.dtype(np.float32)]
    return half if fmt.numpy is None else [*half, BF16]


# every format with every float type it converts to and from
CONVERSIONS = [(fmt, t) for fmt in FORMATS for t in sources(fmt)]
CONVERSION_IDS = [f"{fmt.name}-{t.name}" for fmt, t in CONVERSIONS]


# ------------------------------------------------------------------ decoding


@triton.jit
def decode_kernel(bits, out, DT: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    v = tl.load(bits + offs).to(DT, bitcast=True)
    tl.store(out + offs, v.to(out.dtype.element_ty))


@pytest.mark.parametrize(("fmt", "dst"), CONVERSIONS, ids=CONVERSION_IDS)
def test_every_byte_decodes(run: Any, fmt: Format, dst: np.dtype) -> None:
    bits = np.arange(256, dtype=np.uint8).view(np.int8)
    out = np.zeros(256, dst)
    if not run_fp8(run, [fmt], decode_kernel, (1,), bits, out, DT=fmt.dtype, BLOCK=256):
        return
    assert_same_floats(out.astype(np.float64), decoded(fmt).astype(dst))


# ------------------------------------------------------------------ encoding


@triton.jit
def encode_kernel(x, out, n, DT: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    v = tl.load(x + offs, mask=m).to(DT)
    tl.store(out + offs, v.to(tl.int8, bitcast=True), mask=m)


@pytest.mark.parametrize(("fmt", "src"), CONVERSIONS, ids=CONVERSION_IDS)
def test_rounding_boundaries_encode(run: Any, fmt: Format, src: np.dtype) -> None:
    with np.errstate(over="ignore"):
        x = sweep(fmt).astype(src)  # beyond f16's range: infinities
    if src == np.float16 and fmt.numpy is None:
        x = np.concatenate([x, -x[-1:]])  # fp8e4b15 keeps an f16 NaN's sign: -NaN -> -1.75
    out = np.zeros(len(x), np.int8)
    grid = (triton.cdiv(len(x), 256),)
    if not run_fp8(run, [fmt], encode_kernel, grid, x, out, len(x), DT=fmt.dtype, BLOCK=256):
        return
    want = encoded(fmt, x.astype(np.float64))
    if src == np.float16 and fmt.numpy is None:
        want[-1] = 0xFE
    np.testing.assert_array_equal(out.view(np.uint8), want)


@triton.jit
def odd_kernel(x, out_bytes, out_back, DT: tl.constexpr):
    # with one warp, one value a thread (sm_89+ pairs registers: here a pair of one), and a
    # scalar; both converted to fp8 and back
    offs = tl.arange(0, 32)
    v = tl.load(x + offs).to(DT)
    tl.store(out_bytes + offs, v.to(tl.int8, bitcast=True))
    tl.store(out_back + offs, v.to(tl.float32))
    s = tl.load(x + 32).to(DT)
    tl.store(out_bytes + 32, s.to(tl.int8, bitcast=True))
    tl.store(out_back + 32, s.to(tl.float32))


def odd_values() -> np.ndarray:
    x = (np.random.default_rng(0).standard_normal(33) * 100).astype(np.float32)
    x[:4] = [np.nan, -np.inf, 1e6, -0.0]
    x[-1] = 2.0**-8  # the scalar: a subnormal of both formats
    return x


@pytest.mark.parametrize("fmt", FORMATS[:2], ids=IDS[:2])
def test_odd_register_counts_and_scalars(run: Any, fmt: Format) -> None:
    x = odd_values()
    out_bytes, out_back = np.zeros(33, np.int8), np.zeros(33, np.float32)
    if not run_fp8(run, [fmt], odd_kernel, (1,), x, out_bytes, out_back, DT=fmt.dtype, num_warps=1):
        return
    want = encoded(fmt, x.astype(np.float64))
    np.testing.assert_array_equal(out_bytes.view(np.uint8), want)
    assert_same_floats(out_back, decoded(fmt)[want])


# values Triton 3.6's interpreter (and torch) convert the same way: in range, no ties
TRITON_SPOT_CHECKS = {
    "fp8e4nv": ([0.0, 1.0, 448.0, -0.0, 2**-9, 0.1, -3.3], [0, 56, 126, 128, 1, 29, 197]),
    "fp8e5": ([0.0, 1.0, 448.0, -0.0, 2**-9, 0.1, -3.3], [0, 60, 95, 128, 24, 46, 195]),
    "fp8e4b15": ([0.0, 1.0, 1.75, -0.0, 2**-17, 0.1, -1.5], [0, 120, 126, 128, 1, 93, 252]),
}


@pytest.mark.parametrize("name", list(TRITON_SPOT_CHECKS))
def test_agrees_with_triton_on_plain_values(run: Any, name: str) -> None:
    fmt = next(f for f in FORMATS if f.name == name)
    values, triton_bytes = TRITON_SPOT_CHECKS[name]
    x = np.array(values, np.float32)
    out = np.zeros(len(x), np.int8)
    run(encode_kernel, (1,), x, out, len(x), DT=fmt.dtype, BLOCK=8)
    np.testing.assert_array_equal(out.view(np.uint8), triton_bytes)


@triton.jit
def constant_kernel(out, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr, DT: tl.constexpr):
    # conversions of compile-time constants (folded where the type allows) and their bytes;
    # each value is a (magnitude, sign) pair: a -0.0 constant is +0.0 (Triton's rule), a
    # folded 0.0 * -1.0 is -0.0
    o = tl.arange(0, 4)
    a = (tl.full((4,), A[0], tl.float32) * A[1]).to(DT)
    b = (tl.full((4,), B[0], tl.float32) * B[1]).to(DT)
    c = (tl.full((4,), C[0], tl.float32) * C[1]).to(DT)
    v = tl.where(o == 0, a, tl.where(o == 1, b, c))
    tl.store(out + o, v.to(tl.int8, bitcast=True))
    tl.store(out + 4 + o, v.to(tl.float32).to(DT).to(tl.int8, bitcast=True))


@pytest.mark.parametrize("fmt", FORMATS, ids=IDS)
def test_converted_constants_keep_their_bytes(run: Any, fmt: Format) -> None:
    """A constant's conversion is the same at compile time as at run time: fp8e4b15's 2**-17
    and -0.0, and NaN, survive (fp8e4b15 cannot sit in an attribute of its stand-in type)."""
    values = [1.7, 2.0**-17, -0.0] if fmt.numpy is None else [1.7, -0.0, float("nan")]
    signed = [(v, 1.0) if v != 0 else (0.0, -1.0 if np.signbit(v) else 1.0) for v in values]
    out = np.zeros(8, np.int8)
    if not run_fp8(run, [fmt], constant_kernel, (1,), out, *signed, DT=fmt.dtype):
        return
    want = encoded(fmt, np.array([*values, values[-1]]))
    np.testing.assert_array_equal(out.view(np.uint8), np.concatenate([want, want]))


# ------------------------------------------------------------------ encoding toward zero

E5 = next(f for f in FORMATS if f.name == "fp8e5")


def encoded_toward_zero(fmt: Format, x: np.ndarray) -> np.ndarray:
    """The byte of the largest magnitude not beyond ``|x|`` (the largest finite one for a
    finite ``x`` beyond it), with ``x``'s sign; an infinity stays one (fp8e5: ``0x7c``), NaN
    of either sign is the format's NaN. What Triton's NVIDIA backend computes: ``cvt.rz`` to
    f16 (saturating at 65504, keeping infinities, NaN made ``0x7fff``), then its high byte."""
    values = decoded(fmt)[: fmt.largest + 1]
    x = np.asarray(x, np.float64)
    finite = np.isfinite(x)
    mag = np.abs(np.where(finite, x, 0.0))
    byte = np.searchsorted(values, mag, side="right") - 1  # values[byte] <= mag
    byte = np.where(finite, byte, 0x7C)
    out = byte | np.where(np.signbit(x), 0x80, 0)
    return np.where(np.isnan(x), fmt.nan_byte, out).astype(np.uint8)


def toward_zero_sweep(fmt: Format) -> np.ndarray:
    """``sweep`` and the f32 values just beside every byte's value (rounding to nearest gives
    the value above them, toward zero the one below), f16's overflow edge, a negative NaN."""
    values = decoded(fmt)[1 : fmt.largest + 1].astype(np.float32)
    beside = np.concatenate(
        [np.nextafter(values, np.float32(0)), np.nextafter(values, np.float32(np.inf))]
    )
    edges = np.float32([65504.0, np.nextafter(np.float32(65520.0), np.float32(0)), 65520.0])
    pos = np.concatenate([beside, edges, np.float32([np.finfo(np.float32).max])])
    return np.concatenate([sweep(fmt), pos, -pos, np.float32([-np.nan])])


@triton.jit
def encode_toward_zero_kernel(x, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    v = tl.load(x + offs, mask=m).to(tl.float8e5, fp_downcast_rounding="rtz")
    tl.store(out + offs, v.to(tl.int8, bitcast=True), mask=m)


def test_toward_zero_sweep_is_where_the_roundings_differ() -> None:
    x = toward_zero_sweep(E5)
    differ = encoded_toward_zero(E5, x) != encoded(E5, x)
    assert differ.sum() > len(x) // 3  # every byte's value has such neighbours, both signs


def test_rounding_boundaries_encode_toward_zero(run: Any) -> None:
    """f32 -> fp8e5 with ``fp_downcast_rounding="rtz"`` (the one fp8 pair Triton's NVIDIA
    backend rounds toward zero): truncated, saturating finite values, keeping infinities."""
    x = toward_zero_sweep(E5)
    out = np.zeros(len(x), np.int8)
    grid = (triton.cdiv(len(x), 256),)
    run(encode_toward_zero_kernel, grid, x, out, len(x), BLOCK=256)
    np.testing.assert_array_equal(out.view(np.uint8), encoded_toward_zero(E5, x))


# Triton 3.6's interpreter (``TRITON_INTERPRET=1``) on values in range: it agrees with its GPU
# code there (beyond 61440 it makes NaN, and NaN 0x7e, where the GPU gives 0x7b and 0x7f)
TRITON_TOWARD_ZERO_SPOT_CHECKS = (
    [1.2, 1.49, 1.74, -1.99, -0.0, 0.1, -3.3, 500.0, 60000.0, 1.3e-05, 4.5e-05, 6.0e-05, 1.2e-04],
    [60, 61, 62, 191, 128, 46, 194, 95, 123, 0, 2, 3, 7],
)


def test_toward_zero_agrees_with_triton_on_plain_values(run: Any) -> None:
    values, triton_bytes = TRITON_TOWARD_ZERO_SPOT_CHECKS
    x = np.array(values, np.float32)
    out = np.zeros(len(x), np.int8)
    run(encode_toward_zero_kernel, (1,), x, out, len(x), BLOCK=16)
    np.testing.assert_array_equal(out.view(np.uint8), triton_bytes)


@triton.jit
def constant_toward_zero_kernel(out, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr):
    # conversions of compile-time constants (folded) and of the same values at run time
    o = tl.arange(0, 4)
    a = tl.full((4,), A, tl.float32).to(tl.float8e5, fp_downcast_rounding="rtz")
    b = tl.full((4,), B, tl.float32).to(tl.float8e5, fp_downcast_rounding="rtz")
    c = tl.full((4,), C, tl.float32).to(tl.float8e5, fp_downcast_rounding="rtz")
    v = tl.where(o == 0, a, tl.where(o == 1, b, c))
    tl.store(out + o, v.to(tl.int8, bitcast=True))


def test_converted_constants_round_toward_zero(run: Any) -> None:
    out = np.zeros(4, np.int8)
    run(constant_toward_zero_kernel, (1,), out, 1.99, -1e6, float("-inf"))
    np.testing.assert_array_equal(out.view(np.uint8), [0x3F, 0xFB, 0xFC, 0xFC])


@triton.jit
def toward_zero_from_kernel(x, out, SRC: tl.constexpr, DT: tl.constexpr):
    offs = tl.arange(0, 16)
    v = tl.load(x + offs).to(SRC)
    r = v.to(DT, fp_downcast_rounding="rtz")  # <-
    tl.store(out + offs, r.to(tl.int8, bitcast=True))


TOWARD_ZERO_REJECTED = [
    (tl.float16, tl.float8e5),
    (tl.bfloat16, tl.float8e5),
    (tl.float64, tl.float8e5),
    (tl.float32, tl.float8e4nv),
    (tl.float32, tl.float8e4b8),
    (tl.float32, tl.float8e5b16),
    (tl.float32, tl.float8e4b15),
    (tl.float16, tl.float8e4b15),
]


@pytest.mark.parametrize(
    ("src", "dst"), TOWARD_ZERO_REJECTED, ids=[f"{s}-{d}" for s, d in TOWARD_ZERO_REJECTED]
)
def test_toward_zero_pairs_triton_cannot_compile_are_typed_errors(src: Any, dst: Any) -> None:
    """Triton's NVIDIA backend aborts on every other rtz conversion into fp8 (its fp8e4b15
    code would ignore the mode): a typed error at the line, naming the pair."""
    args = (np.zeros(16, np.float32), np.zeros(16, np.int8))
    words = (f"'rtz' from {src} to {dst} is not supported", "only from fp32 to fp8e5")
    expect_error(
        toward_zero_from_kernel, args, {"SRC": src, "DT": dst}, KernelValueError, words, "v.to"
    )


# ------------------------------------------------------------------ storage


@triton.jit
def copy_kernel(x, y, z, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    a = tl.load(x + offs, mask=m)
    tl.store(y + offs, a, mask=m)
    # select, a zero fill of masked-off lanes, a scalar load and store
    picked = tl.where(offs % 3 == 0, a, 0.0)
    tl.store(z + offs, tl.load(y + offs, mask=m & (offs % 2 == 0)), mask=m)
    tl.store(z + n + offs, picked, mask=m)
    s = tl.load(x + 5)
    if tl.program_id(0) == 0:
        tl.store(z + 2 * n, s)


@pytest.mark.parametrize("fmt", FORMATS, ids=IDS)
def test_loads_and_stores_keep_the_bytes(run: Any, fmt: Format) -> None:
    n = 300
    data = np.random.default_rng(1).integers(0, 256, n, dtype=np.uint8)
    x = fp8_array(fmt, data)
    y = fp8_array(fmt, np.zeros(n, np.uint8))
    z = fp8_array(fmt, np.full(2 * n + 1, 0x55, np.uint8))
    if not run_fp8(run, [fmt], copy_kernel, (triton.cdiv(n, 128),), x, y, z, n, BLOCK=128):
        return
    np.testing.assert_array_equal(fp8_bytes(y), data)
    offs = np.arange(n)
    got = fp8_bytes(z)
    np.testing.assert_array_equal(got[:n], np.where(offs % 2 == 0, data, 0))
    np.testing.assert_array_equal(got[n : 2 * n], np.where(offs % 3 == 0, data, 0))
    assert got[2 * n] == data[5]


@triton.jit
def loop_kernel(x, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    v = tl.load(x + offs)
    keep = tl.zeros((BLOCK,), v.dtype)
    for i in range(4):  # an fp8 block carried by a loop, picked by a runtime condition
        keep = tl.where(offs % 4 == i, v, keep)
    tl.store(out + offs, keep)


@pytest.mark.parametrize("fmt", FORMATS, ids=IDS)
def test_fp8_blocks_carried_by_loops(run: Any, fmt: Format) -> None:
    data = np.random.default_rng(2).integers(0, 256, 64, dtype=np.uint8)
    out = fp8_array(fmt, np.zeros(64, np.uint8))
    if not run_fp8(run, [fmt], loop_kernel, (1,), fp8_array(fmt, data), out, BLOCK=64):
        return
    np.testing.assert_array_equal(fp8_bytes(out), data)


@triton.jit
def abs_kernel(bits, out, DT: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    v = tl.abs(tl.load(bits + offs).to(DT, bitcast=True))
    tl.static_assert(v.dtype == DT)
    tl.store(out + offs, v.to(tl.float32))


@pytest.mark.parametrize("fmt", FORMATS, ids=IDS)
def test_abs_clears_the_sign(run: Any, fmt: Format) -> None:
    """``tl.abs`` is the one fp8 operation Triton compiles (on the bits; NaN stays NaN)."""
    bits = np.arange(256, dtype=np.uint8).view(np.int8)
    out = np.zeros(256, np.float32)
    if not run_fp8(run, [fmt], abs_kernel, (1,), bits, out, DT=fmt.dtype, BLOCK=256):
        return
    assert_same_floats(out, np.abs(decoded(fmt)))


# ------------------------------------------------------------------ arithmetic through f32


@triton.jit
def arith_kernel(x, y, h, b, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(x + offs)
    c = tl.load(y + offs)
    r = (a.to(tl.float32) * c.to(tl.float32) + 0.5).to(a.dtype)
    tl.store(out + offs, r.to(tl.float32))
    with_half = a + tl.load(h + offs)
    with_bf16 = a + tl.load(b + offs)
    with_f32 = a + r.to(tl.float32)
    tl.static_assert(with_half.dtype == tl.float16)
    tl.static_assert(with_bf16.dtype == tl.float32)
    tl.static_assert(with_f32.dtype == tl.float32)
    tl.store(out + BLOCK + offs, with_half.to(tl.float32))
    tl.store(out + 2 * BLOCK + offs, with_bf16)
    tl.store(out + 3 * BLOCK + offs, tl.sum(a, axis=0, dtype=tl.float32))


@pytest.mark.parametrize("fmt", FORMATS, ids=IDS)
def test_arithmetic_goes_through_float32(run: Any, fmt: Format) -> None:
    """Triton has no fp8 arithmetic: values are widened, computed and converted back; with a
    wider float the fp8 operand promotes (with bfloat16 both become float32)."""
    n = 64
    rng = np.random.default_rng(3)
    limit = 1.5 if fmt.numpy is None else 8.0
    xa = rng.uniform(-limit, limit, n)
    xc = rng.uniform(-limit, limit, n)
    xb, cb = encoded(fmt, xa), encoded(fmt, xc)
    a, c = decoded(fmt)[xb], decoded(fmt)[cb]
    h = rng.uniform(-4, 4, n).astype(np.float16)
    bf = rng.uniform(-4, 4, n).astype(BF16)
    out = np.zeros(4 * n, np.float32)
    x, y = fp8_array(fmt, xb), fp8_array(fmt, cb)
    if not run_fp8(run, [fmt], arith_kernel, (1,), x, y, h, bf, out, BLOCK=n):
        return
    product = (a.astype(np.float32) * c.astype(np.float32) + np.float32(0.5)).astype(np.float64)
    r = decoded(fmt)[encoded(fmt, product)]
    assert_same_floats(out[:n], r)
    assert_same_floats(out[n : 2 * n], (a.astype(np.float16) + h).astype(np.float32))
    assert_same_floats(out[2 * n : 3 * n], a.astype(np.float32) + bf.astype(np.float32))
    np.testing.assert_allclose(out[3 * n], a.sum(), rtol=1e-6)


@triton.jit
def mixed_fp8_kernel(x, y, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    s = tl.load(x + offs) + tl.load(y + offs)
    tl.static_assert(s.dtype == tl.float16)
    tl.store(out + offs, s)


def test_two_fp8_formats_promote_to_float16(run: Any) -> None:
    e4, e5 = FORMATS[0], FORMATS[1]
    xb = encoded(e4, np.linspace(-20, 20, 32))
    yb = encoded(e5, np.linspace(3, -3, 32))
    out = np.zeros(32, np.float16)
    run(mixed_fp8_kernel, (1,), fp8_array(e4, xb), fp8_array(e5, yb), out, BLOCK=32)
    want = decoded(e4)[xb].astype(np.float16) + decoded(e5)[yb].astype(np.float16)
    np.testing.assert_array_equal(out, want)


# ------------------------------------------------------------------ dot


@triton.jit
def dot_kernel(a, b, out, out16, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    rm, rn, rk = tl.arange(0, M), tl.arange(0, N), tl.arange(0, K)
    x = tl.load(a + rm[:, None] * K + rk[None, :])
    y = tl.load(b + rk[:, None] * N + rn[None, :])
    c = tl.dot(x, y)
    tl.static_assert(c.dtype == tl.float32)
    tl.store(out + rm[:, None] * N + rn[None, :], c)
    c16 = tl.dot(x, y, out_dtype=tl.float16)
    tl.static_assert(c16.dtype == tl.float16)
    tl.store(out16 + rm[:, None] * N + rn[None, :], c16)


@pytest.mark.parametrize(
    ("fa", "fb"),
    [(f, f) for f in FORMATS] + [(FORMATS[0], FORMATS[1]), (FORMATS[4], FORMATS[2])],
    ids=[f.name for f in FORMATS] + ["fp8e4nv-fp8e5", "fp8e4b15-fp8e4b8"],
)
def test_dot_of_fp8_operands(run: Any, fa: Format, fb: Format) -> None:
    """Any two fp8 formats (Triton's fp8 MMA takes mixed ones); every partial sum is exact."""
    m, n, k = 16, 16, 32
    rng = np.random.default_rng(4)
    pick = np.array([-1.5, -1.0, -0.5, 0.0, 0.5, 1.0, 1.5])
    ab = encoded(fa, rng.choice(pick, (m, k)))
    bb = encoded(fb, rng.choice(pick, (k, n)))
    out = np.zeros((m, n), np.float32)
    out16 = np.zeros((m, n), np.float16)
    a, b = fp8_array(fa, ab), fp8_array(fb, bb)
    if not run_fp8(run, [fa, fb], dot_kernel, (1,), a, b, out, out16, M=m, N=n, K=k):
        return
    want = decoded(fa)[ab] @ decoded(fb)[bb]
    np.testing.assert_array_equal(out, want)
    np.testing.assert_array_equal(out16, want.astype(np.float16))


# ------------------------------------------------------------------ arguments


def test_reinterpret_checks_the_element_size() -> None:
    @triton.jit
    def k(x):
        tl.store(x, tl.load(x))

    with pytest.raises(triton.LaunchError, match="element sizes differ"):
        k[(1,)](triton.reinterpret(np.zeros(4, np.int16), tl.float8e4nv))


def test_bit_patterns_survive_a_reinterpret_round_trip() -> None:
    raw = np.arange(4, dtype=np.int8)
    w = triton.reinterpret(raw, tl.float8e5)
    assert w.dtype == tl.float8e5 and w.base is raw
    assert triton.reinterpret(w, tl.float8e4nv).dtype == tl.float8e4nv


# ------------------------------------------------------------------ what Triton rejects


@triton.jit
def reject_kernel(x, i, out, CASE: tl.constexpr):
    offs = tl.arange(0, 16)
    a = tl.load(x + offs)
    if CASE == "add":
        r = a + a
    elif CASE == "scale":
        r = a * 2
    elif CASE == "neg":
        r = -a
    elif CASE == "exp":
        r = tl.exp(a)
    elif CASE == "compare":
        r = a < a
    elif CASE == "sum":
        r = tl.sum(a, axis=0)
    elif CASE == "max":
        r = tl.max(a, axis=0)
    elif CASE == "maximum":
        r = tl.maximum(a, a)
    elif CASE == "with_int":
        r = a + tl.load(i + offs)
    elif CASE == "to_int":
        r = a.to(tl.int32)
    elif CASE == "from_int":
        r = tl.load(i + offs).to(a.dtype)
    elif CASE == "to_fp8":
        r = a.to(tl.float8e5)
    elif CASE == "to_f64":
        r = a.to(tl.float64)
    elif CASE == "with_f64":
        r = a + a.to(tl.float32).to(tl.float64)
    elif CASE == "e4b15_bf16":
        r = a.to(tl.float32).to(tl.float8e4b15).to(tl.bfloat16)
    elif CASE == "full":
        r = tl.full((16,), 1.5, a.dtype)
    elif CASE == "rtz":
        r = a.to(tl.float32).to(a.dtype, fp_downcast_rounding="rtz")
    else:
        r = a
    tl.store(out + offs, r)


REJECTED = {
    "add": (KernelTypeError, "no fp8 arithmetic"),
    "scale": (KernelTypeError, "no fp8 constants but 0"),
    "neg": (KernelTypeError, "negation on fp8e4nv"),
    "exp": (KernelTypeError, "tl.exp on fp8e4nv"),
    "compare": (KernelTypeError, "operator < on fp8e4nv"),
    "sum": (KernelTypeError, "tl.sum on fp8e4nv"),
    "max": (KernelTypeError, "tl.max on fp8e4nv"),
    "maximum": (KernelTypeError, "no fp8 arithmetic"),
    "with_int": (KernelTypeError, "unexpected type fp8e4nv and int32"),
    "to_int": (KernelTypeError, "only to and from floats"),
    "from_int": (KernelTypeError, "only to and from floats"),
    "to_fp8": (KernelTypeError, "no fp8 to fp8 conversion"),
    "to_f64": (KernelTypeError, "fp8 <-> float64"),
    "with_f64": (KernelTypeError, "fp8 <-> float64"),
    "e4b15_bf16": (KernelTypeError, "float8e4b15 only to and from float16 and float32"),
    "full": (KernelTypeError, "no fp8 constants but 0"),
    "rtz": (KernelValueError, "'rtz' from fp32 to fp8e4nv is not supported"),
}


@pytest.mark.parametrize("case", list(REJECTED))
def test_what_triton_rejects_is_a_typed_error_at_the_line(case: str) -> None:
    """Triton's GPU backends have no fp8 arithmetic, no fp8 <-> fp8/int/f64 conversion and no
    fp8 constants but zero; each is a typed error naming the kernel line."""
    error, message = REJECTED[case]
    x = np.zeros(16, ml_dtypes.float8_e4m3fn)
    with pytest.raises(error, match=message) as info:
        reject_kernel[(1,)](x, np.zeros(16, np.int32), np.zeros(16, np.float32), CASE=case)
    assert info.value.loc is not None and "test_fp8.py" in info.value.loc.file


# ------------------------------------------------------------------ the GPU backends' code


def fp8_warmups() -> list[Any]:
    """Every kernel above compiled once per format the GPU backends take (compile-only: their
    C++/PTX checks in tests/cuda and tests/mlir)."""
    bits = np.zeros(256, np.int8)
    kernels = []
    for fmt in FORMATS:
        if fmt.name not in supported_fp8_dtypes(DEFAULT_CAPABILITY):
            continue
        x = fp8_array(fmt, np.zeros(256, np.uint8))
        for t in sources(fmt):
            other = np.zeros(256, t)
            kernels.append(decode_kernel.warmup(bits, other, DT=fmt.dtype, BLOCK=256, grid=(1,)))
            kernels.append(
                encode_kernel.warmup(other, bits, 256, DT=fmt.dtype, BLOCK=256, grid=(1,))
            )
        kernels.append(
            abs_kernel.warmup(bits, np.zeros(256, np.float32), DT=fmt.dtype, BLOCK=256, grid=(1,))
        )
        kernels.append(
            constant_kernel.warmup(
                bits, (1.7, 1.0), (0.0, -1.0), (2.0**-17, 1.0), DT=fmt.dtype, grid=(1,)
            )
        )
        kernels.append(copy_kernel.warmup(x, x, x, 100, BLOCK=64, grid=(2,)))
        kernels.append(loop_kernel.warmup(x, x, BLOCK=64, grid=(1,)))
        h, f = np.zeros(64, np.float16), np.zeros(256, np.float32)
        kernels.append(arith_kernel.warmup(x, x, h, np.zeros(64, BF16), f, BLOCK=64, grid=(1,)))
        out16 = np.zeros(256, np.float16)
        kernels.append(dot_kernel.warmup(x, x, f, out16, M=16, N=16, K=32, grid=(1,)))  # K >= 32
    f = np.zeros(256, np.float32)
    kernels.append(encode_toward_zero_kernel.warmup(f, bits, 256, BLOCK=256, grid=(1,)))
    kernels.append(constant_toward_zero_kernel.warmup(bits, 1.99, -1e6, -1.0, grid=(1,)))
    return kernels


def test_cpu_torch_fp8_tensors_on_the_interpreter(monkeypatch: pytest.MonkeyPatch) -> None:
    """NumPy cannot hold torch's fp8: the CPU backends read its bytes as ml_dtypes' fp8."""
    torch = pytest.importorskip("torch")
    monkeypatch.setenv("MYTRITON_BACKEND", "interpreter")
    for fmt in FORMATS[:4]:
        x = torch.tensor([1.5, -2.25, 0.125, 96.0]).to(getattr(torch, fmt.numpy))
        out = torch.zeros(4, dtype=torch.int8)
        encode_kernel[(1,)](x.float(), out, 4, DT=fmt.dtype, BLOCK=4)
        assert torch.equal(out, x.view(torch.int8)), fmt.name
        back = torch.zeros(4, dtype=torch.float32)
        decode_kernel[(1,)](x.view(torch.int8), back, DT=fmt.dtype, BLOCK=4)
        assert back.tolist() == x.float().tolist()
        y = torch.zeros(4, dtype=x.dtype)
        loop_kernel[(1,)](x, y, BLOCK=4)
        assert torch.equal(y.view(torch.int8), x.view(torch.int8))


# ------------------------------------------------------------------ Triton's NVIDIA fp8 dtypes


@triton.jit
def unused_fp8_kernel(x, DT: tl.constexpr):
    v = tl.load(x + tl.arange(0, 16))
    _unused = v.to(DT)  # <- dead, but Triton's frontend makes its type


@pytest.mark.parametrize("backend", ["cuda", "mlir"])
@pytest.mark.parametrize("fmt", [f for f in FORMATS if f.fnuz], ids=lambda f: f.name)
def test_nvidia_backends_reject_the_fp8_dtypes_triton_lacks(
    monkeypatch: pytest.MonkeyPatch, backend: str, fmt: Format
) -> None:
    """Triton's NVIDIA backend has no fp8e4b8 and fp8e5b16 (AMD's formats): a typed error at
    the first line that needs the type (the ``def`` for a parameter), also in dead code and
    without a GPU (compile-only); Triton's conformance test matches these words."""
    monkeypatch.setenv("MYTRITON_BACKEND", backend)
    words = f"type {fmt.name} not supported in this architecture. The supported fp8 dtypes are"
    supported = "('fp8e4b15', 'fp8e4nv', 'fp8e5')"
    bits, f32 = np.zeros(256, np.int8), np.zeros(256, np.float32)
    cases = [
        (decode_kernel, (bits, f32), {"DT": fmt.dtype, "BLOCK": 256}, "v = tl.load(bits"),
        (loop_kernel, (fp8_array(fmt, bits), f32), {"BLOCK": 64}, "def loop_kernel("),
        (unused_fp8_kernel, (f32,), {"DT": fmt.dtype}, "_unused = v.to(DT)"),
    ]
    for kernel, args, constexprs, line in cases:
        with pytest.raises(KernelTypeError, match=words) as info:
            kernel.warmup(*args, grid=(1,), **constexprs)
        assert supported in str(info.value) and line in str(info.value)
        assert info.value.loc is not None and info.value.loc.file == __file__


@pytest.mark.parametrize("backend", ["interpreter", "gpusim"])
def test_the_cpu_backends_take_every_fp8_dtype(
    monkeypatch: pytest.MonkeyPatch, backend: str
) -> None:
    """Like Triton's interpreter (its tests run fp8e4b8 and fp8e5b16 on the CPU)."""
    monkeypatch.setenv("MYTRITON_BACKEND", backend)
    for fmt in FORMATS:
        unused_fp8_kernel[(1,)](np.zeros(16, np.float32), DT=fmt.dtype)


def test_fp8e4nv_needs_compute_capability_8_9(monkeypatch: pytest.MonkeyPatch) -> None:
    """Triton's NVIDIA backend takes fp8e4nv from sm_89 on, fp8e5 and fp8e4b15 on any chip."""
    from mytriton.backends.nvidia.nvidia_fp8 import check_fp8_types
    from mytriton.backends.stages import parse_module

    monkeypatch.setenv("MYTRITON_BACKEND", "interpreter")
    x = np.zeros(16, np.float32)
    e4nv = parse_module(unused_fp8_kernel.warmup(x, DT=tl.float8e4nv, grid=(1,)).asm["tt"])
    with pytest.raises(KernelTypeError, match=r"type fp8e4nv not .* are \('fp8e4b15', 'fp8e5'\)"):
        check_fp8_types(e4nv, 80, "cuda")
    check_fp8_types(e4nv, 89, "cuda")
    for dt in (tl.float8e5, tl.float8e4b15):
        check_fp8_types(
            parse_module(unused_fp8_kernel.warmup(x, DT=dt, grid=(1,)).asm["tt"]), 75, "cuda"
        )
