"""``tl.dot_scaled`` against a NumPy model of Triton 3.6's sm_90 semantics, written from the
spec (``mytriton/frontend/dot_scaled.py`` says what they are): e2m1 nibbles packed along K or
M/N, e8m0 scales in bf16 (0 for scale 0) or f16 (rounded), NaN for scale 0xFF unless
``fast_math``, the product of the bf16/f16 operands summed in f32.

The checks of Triton's own tests of ``dot_scaled`` (``test_core.py::test_scaled_dot``,
``test_matmul.py::test_mxfp*``/``test_block_scale_fp4``, GPU-only there) are covered with our
own kernels: every format pair with the scale on either side, operands in row- or column-major
memory, e2m1 packed along M/N, a K loop accumulating through ``acc``, ``fast_math``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import ml_dtypes
import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl

pytestmark = pytest.mark.execution

GROUP = 32  # elements along K per scale
E2M1 = np.array([0, 0.5, 1, 1.5, 2, 3, 4, 6, -0.0, -0.5, -1, -1.5, -2, -3, -4, -6])
_VIEW = {
    "e4m3": ml_dtypes.float8_e4m3fn,
    "e5m2": ml_dtypes.float8_e5m2,
    "bf16": ml_dtypes.bfloat16,
    "fp16": np.float16,
}


# ---- the reference ----


def elements(x: np.ndarray, fmt: str, packed_axis: int) -> np.ndarray:
    """The values ``x`` holds in ``fmt`` (float64); e2m1: two per byte along ``packed_axis``,
    the first in the low nibble."""
    if fmt != "e2m1":
        return x.view(_VIEW[fmt]).astype(np.float64)
    pairs = np.stack([E2M1[x & 0xF], E2M1[x >> 4]], axis=packed_axis + 1)
    shape = list(x.shape)
    shape[packed_axis] *= 2
    return pairs.reshape(shape)


def rounded(v: np.ndarray, compute: Any) -> np.ndarray:
    """``v`` rounded to ``compute`` (bf16 or f16), as float64; too large: inf."""
    with np.errstate(over="ignore"):
        return v.astype(compute).astype(np.float64)


def scale_factors(s: np.ndarray, compute: Any) -> np.ndarray:
    """2**(s - 127) as the sm_90 decomposition makes it: bf16 bits ``s << 7`` (0 for s == 0,
    inf for 255); f32 bits ``s << 23`` rounded to f16."""
    e = s.astype(np.int64)
    value = np.where(e == 0, 0.0, np.where(e == 255, np.inf, 2.0 ** (e - 127).astype(np.float64)))
    return rounded(value, compute)


def operand(
    x: np.ndarray,
    fmt: str,
    scale: np.ndarray | None,
    side: str,
    k_pack: bool,
    fast: bool,
    compute: Any,
) -> np.ndarray:
    """The operand as the dot reads it: ``[M, K]`` (lhs) or ``[K, N]`` (rhs) compute values."""
    k_axis = x.ndim - 1 if side == "lhs" else x.ndim - 2
    other_axis = x.ndim - 2 if side == "lhs" else x.ndim - 1
    v = rounded(elements(x, fmt, k_axis if k_pack else other_axis), compute)
    if scale is None:
        return v
    per_k = np.repeat(scale, GROUP, axis=1)  # [rows, K]
    if side == "rhs":
        per_k = per_k.T
    with np.errstate(invalid="ignore"):
        v = rounded(v * scale_factors(per_k, compute), compute)
    return v if fast else np.where(per_k == 255, np.nan, v)


def reference(
    case: Case, a: np.ndarray, sa: Any, b: np.ndarray, sb: Any
) -> tuple[np.ndarray, np.ndarray]:
    """The exact product of the operands as the dot reads them, and that of their magnitudes."""
    compute = np.float16 if "fp16" in (case.fa, case.fb) else ml_dtypes.bfloat16
    x = operand(a, case.fa, sa, "lhs", case.lhs_k_pack, case.fast, compute)
    y = operand(b, case.fb, sb, "rhs", case.rhs_k_pack, case.fast, compute)
    with np.errstate(invalid="ignore", over="ignore"):
        return x @ y, np.abs(x) @ np.abs(y)


def check(out: np.ndarray, exact: np.ndarray, magnitude: np.ndarray, k: int) -> None:
    """``out`` (summed in f32) is ``exact`` within f32 rounding of the sum; NaNs and infinities
    where ``exact`` has them."""
    np.testing.assert_array_equal(np.isnan(out), np.isnan(exact))
    finite = np.isfinite(exact)
    np.testing.assert_array_equal(
        out[~finite & ~np.isnan(exact)], exact[~finite & ~np.isnan(exact)]
    )
    err = np.abs(out[finite] - exact[finite])
    bound = k * 2.0**-23 * magnitude[finite] + k * 2.0**-149  # f32 rounding, f32 underflow
    assert (err <= bound).all(), f"max error {np.max(err - bound)} above the f32 bound"


# ---- the kernel ----


@triton.jit
def scaled_matmul(
    a, a_s0, a_s1, a_scale, b, b_s0, b_s1, b_scale, out, K,
    FA: tl.constexpr, FB: tl.constexpr, FAST: tl.constexpr, LKP: tl.constexpr,
    RKP: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
):  # fmt: skip
    """out[M, N] = dot_scaled over K in steps of BK; one program per [BM, BN] tile."""
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    # the stored block of each operand: e2m1 halves K (k_pack) or M/N
    A_ROWS: tl.constexpr = BM // 2 if FA == "e2m1" and not LKP else BM
    A_COLS: tl.constexpr = BK // 2 if FA == "e2m1" and LKP else BK
    B_ROWS: tl.constexpr = BK // 2 if FB == "e2m1" and RKP else BK
    B_COLS: tl.constexpr = BN // 2 if FB == "e2m1" and not RKP else BN
    rows_a = pid_m * A_ROWS + tl.arange(0, A_ROWS)
    cols_b = pid_n * B_COLS + tl.arange(0, B_COLS)
    offs_m = pid_m * BM + tl.arange(0, BM)
    offs_n = pid_n * BN + tl.arange(0, BN)
    acc = tl.zeros((BM, BN), tl.float32)
    for step in range(0, K // BK):
        cols_a = step * A_COLS + tl.arange(0, A_COLS)
        rows_b = step * B_ROWS + tl.arange(0, B_ROWS)
        x = tl.load(a + rows_a[:, None] * a_s0 + cols_a[None, :] * a_s1)
        y = tl.load(b + rows_b[:, None] * b_s0 + cols_b[None, :] * b_s1)
        groups = step * (BK // 32) + tl.arange(0, BK // 32)
        sx = None
        if a_scale is not None:
            sx = tl.load(a_scale + offs_m[:, None] * (K // 32) + groups[None, :])
        sy = None
        if b_scale is not None:
            sy = tl.load(b_scale + offs_n[:, None] * (K // 32) + groups[None, :])
        acc = tl.dot_scaled(
            x, sx, FA, y, sy, FB, acc, fast_math=FAST, lhs_k_pack=LKP, rhs_k_pack=RKP
        )
    tl.store(out + offs_m[:, None] * BN * tl.num_programs(1) + offs_n[None, :], acc)


@dataclass(frozen=True)
class Case:
    fa: str
    fb: str
    lhs_scale: bool
    rhs_scale: bool
    m: int = 32
    n: int = 32
    k: int = 64
    bk: int = 64
    fast: bool = False
    lhs_k_pack: bool = True
    rhs_k_pack: bool = True
    col_major_a: bool = False
    col_major_b: bool = False
    scales: tuple[int, int] = (0, 142)  # the range of scale bytes drawn (both ends included)
    nan_scales: bool = False  # one scale in 8 replaced by 0xFF

    @property
    def name(self) -> str:
        flags = [f"{self.fa}x{self.fb}", f"s{int(self.lhs_scale)}{int(self.rhs_scale)}"]
        flags += [f"{self.m}x{self.n}x{self.k}/{self.bk}"]
        flags += ["fast"] * self.fast + ["lhs_mpack"] * (not self.lhs_k_pack)
        flags += ["rhs_npack"] * (not self.rhs_k_pack)
        flags += ["colA"] * self.col_major_a + ["colB"] * self.col_major_b
        flags += ["0xFF"] * self.nan_scales
        return "-".join(flags) + f"-{self.scales[0]}..{self.scales[1]}"


def stored(rng: np.random.Generator, fmt: str, shape: tuple[int, ...], finite: bool) -> np.ndarray:
    """Random storage for ``fmt``; ``finite``: fp8 inf/NaN encodings replaced by ones of the
    same sign, bf16/fp16 drawn as normal numbers."""
    if fmt in ("bf16", "fp16"):
        return rng.standard_normal(shape).astype(_VIEW[fmt]).view(np.uint16)
    x = rng.integers(0, 256, shape, dtype=np.uint8)
    if finite and fmt in ("e4m3", "e5m2"):
        special = 0x7F if fmt == "e4m3" else 0x7C
        x = np.where(x & special == special, x & 0x83, x).astype(np.uint8)
    return x


def run_case(run: Any, case: Case, finite: bool = True, seed: int = 0) -> None:
    rng = np.random.default_rng(seed)
    lhs_div = (2, 1) if case.lhs_k_pack else (1, 2)  # (K, M) divisors of an e2m1 lhs
    rhs_div = (2, 1) if case.rhs_k_pack else (1, 2)
    a_shape = (
        (case.m // lhs_div[1], case.k // lhs_div[0]) if case.fa == "e2m1" else (case.m, case.k)
    )
    b_shape = (
        (case.k // rhs_div[0], case.n // rhs_div[1]) if case.fb == "e2m1" else (case.k, case.n)
    )
    a = stored(rng, case.fa, a_shape, finite)
    b = stored(rng, case.fb, b_shape, finite)
    a_mem = np.asfortranarray(a) if case.col_major_a else a
    b_mem = np.asfortranarray(b) if case.col_major_b else b
    lo, hi = case.scales
    groups = case.k // GROUP
    sa = rng.integers(lo, hi + 1, (case.m, groups), dtype=np.uint8) if case.lhs_scale else None
    sb = rng.integers(lo, hi + 1, (case.n, groups), dtype=np.uint8) if case.rhs_scale else None
    if case.nan_scales:
        for s in (sa, sb):
            if s is not None:
                s[rng.integers(0, 8, s.shape) == 0] = 255
    out = np.full((case.m, case.n), 7.0, np.float32)
    bm, bn = min(case.m, 32), min(case.n, 32)
    item_a, item_b = a.dtype.itemsize, b.dtype.itemsize
    run(
        scaled_matmul,
        (case.m // bm, case.n // bn),
        a_mem,
        a_mem.strides[0] // item_a,
        a_mem.strides[1] // item_a,
        sa,
        b_mem,
        b_mem.strides[0] // item_b,
        b_mem.strides[1] // item_b,
        sb,
        out,
        case.k,
        FA=case.fa,
        FB=case.fb,
        FAST=case.fast,
        LKP=case.lhs_k_pack,
        RKP=case.rhs_k_pack,
        BM=bm,
        BN=bn,
        BK=case.bk,
    )
    exact, magnitude = reference(case, a, sa, b, sb)
    check(out, exact, magnitude, case.k)


def mx_pairs() -> list[Case]:
    """test_scaled_dot's pairs: an MX operand (scaled) with a "normal" one, on either side."""
    cases = []
    for mx in ("e2m1", "e4m3", "e5m2"):
        for normal in ("e4m3", "e5m2", "bf16", "fp16"):
            scales = (124, 131) if normal == "fp16" else (0, 142)
            cases.append(Case(mx, normal, True, False, scales=scales))
            cases.append(Case(normal, mx, False, True, scales=scales))
    return cases


CASES = [
    *mx_pairs(),
    Case("e2m1", "e2m1", True, True),  # test_block_scale_fp4 (mxfp4), packed along K
    Case("e2m1", "e2m1", True, True, lhs_k_pack=False, rhs_k_pack=False),  # ... along M and N
    Case("e2m1", "e4m3", True, False, lhs_k_pack=False),
    Case("e5m2", "e2m1", False, True, rhs_k_pack=False),
    Case("e2m1", "e2m1", False, False, lhs_k_pack=False),  # no scales at all
    Case("e5m2", "e5m2", True, True, m=64, n=64, k=128, bk=64),  # test_mxfp8_mxfp4's K loop
    Case("e4m3", "e2m1", True, True, k=128, bk=64, col_major_a=True, col_major_b=True),
    Case("e2m1", "e4m3", True, True, col_major_a=True),
    Case("bf16", "fp16", False, False),  # bf16 rounded to f16
    Case("bf16", "bf16", True, True, scales=(110, 140)),  # scales on bf16 operands too
    Case("fp16", "fp16", True, True, scales=(100, 145)),  # f16 scales underflow / overflow
    Case("e4m3", "fp16", True, False, scales=(95, 145)),
    Case("e2m1", "e4m3", True, False, scales=(0, 4)),  # tiny scales: bf16 subnormals and zeros
    Case("e2m1", "e5m2", True, True, scales=(120, 130), nan_scales=True),  # NaN where 0xFF scales
    Case("e2m1", "e5m2", True, True, scales=(120, 130), nan_scales=True, fast=True),  # inf * x
    Case("e4m3", "fp16", True, True, scales=(120, 135), nan_scales=True, fast=True),
    Case("e4m3", "fp16", True, True, scales=(120, 135), nan_scales=True),
]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_dot_scaled(run, case):
    run_case(run, case)


@pytest.mark.parametrize("fmt", ["e4m3", "e5m2"])
def test_fp8_non_finite(run, fmt):
    """inf and NaN encodings of fp8 operands reach the dot (sm_90 Triton's e5m2 upcast loses
    NaNs, a FIXME in its own test; the conversion here is exact)."""
    run_case(run, Case(fmt, "e2m1", True, False, scales=(120, 130)), finite=False, seed=3)


@triton.jit
def typed_operands(a, a_scale, b, out, FA: tl.constexpr, FB: tl.constexpr):
    """fp8 and bf16 operands in their float types (no bitcast needed), rhs without scale."""
    offs = tl.arange(0, 32)
    x = tl.load(a + offs[:, None] * 64 + tl.arange(0, 64)[None, :])
    y = tl.load(b + tl.arange(0, 64)[:, None] * 32 + offs[None, :])
    s = tl.load(a_scale + offs[:, None] * 2 + tl.arange(0, 2)[None, :])
    tl.store(out + offs[:, None] * 32 + offs[None, :], tl.dot_scaled(x, s, FA, y, None, FB))


@pytest.mark.parametrize(("fa", "fb"), [("e4m3", "bf16"), ("e5m2", "fp16")])
def test_float_typed_operands(run, fa, fb):
    rng = np.random.default_rng(5)
    a = rng.standard_normal((32, 64)).astype(_VIEW[fa])
    b = rng.standard_normal((64, 32)).astype(_VIEW[fb])
    sa = rng.integers(124, 131, (32, 2), dtype=np.uint8)
    out = np.zeros((32, 32), np.float32)
    run(typed_operands, (1,), a, sa, b, out, FA=fa, FB=fb)
    case = Case(fa, fb, True, False)
    exact, magnitude = reference(case, a.view(np.uint8), sa, b.view(np.uint16), None)
    check(out, exact, magnitude, 64)


@triton.jit
def batched(a, b, out, FA: tl.constexpr, FB: tl.constexpr):
    """A [2, 16, 64] @ [2, 64, 16] scaled dot without scales (Triton's Hopper path compiles
    batched ones only so); a is e2m1, packed along K."""
    i = tl.arange(0, 2)[:, None, None]
    r = tl.arange(0, 16)
    x = tl.load(a + i * 16 * 32 + r[None, :, None] * 32 + tl.arange(0, 32)[None, None, :])
    y = tl.load(b + i * 64 * 16 + tl.arange(0, 64)[None, :, None] * 16 + r[None, None, :])
    z = tl.dot_scaled(x, None, FA, y, None, FB)
    tl.store(out + i * 256 + r[None, :, None] * 16 + r[None, None, :], z)


def test_batched(run):
    rng = np.random.default_rng(9)
    a = rng.integers(0, 256, (2, 16, 32), dtype=np.uint8)
    b = stored(rng, "e4m3", (2, 64, 16), finite=True)
    out = np.zeros((2, 16, 16), np.float32)
    run(batched, (1,), a, b, out, FA="e2m1", FB="e4m3")
    x = rounded(elements(a, "e2m1", 2), ml_dtypes.bfloat16)
    y = elements(b, "e4m3", 1)
    check(out, x @ y, np.abs(x) @ np.abs(y), 64)


def test_reference_model():
    """The model itself, on values worked out by hand: nibble order, scale placement (the
    rhs's ``[N, K // 32]`` scale runs along K), the bf16 scale of 0 and the NaN of 0xFF."""
    a = np.zeros((1, 16), np.uint8)
    a[0, 0] = 0x71  # elements 0.5 (low nibble, k=0) then 6.0 (high, k=1)
    a[0, 15] = 0xA0  # k=30: 0, k=31: -1
    b = np.zeros((32, 2), np.uint8)
    b[:, 0] = 0x38  # e4m3 1.0
    b[:, 1] = 0x40  # e4m3 2.0
    sa = np.array([[128]], np.uint8)  # x2
    sb = np.array([[127], [0]], np.uint8)  # column 0: x1, column 1: x0 (bf16 flush)
    case = Case("e2m1", "e4m3", True, True, m=1, n=2, k=32)
    exact, _ = reference(case, a, sa, b, sb)
    np.testing.assert_array_equal(exact, [[(0.5 + 6 - 1) * 2, 0.0]])
    exact, _ = reference(case, a, np.array([[255]], np.uint8), b, sb)
    assert np.isnan(exact).all()


@pytest.mark.parametrize("fast", [False, True])
@pytest.mark.parametrize("fb", ["e4m3", "fp16"])
def test_scale_0xff(run, fast, fb):
    """A 0xFF scale makes its elements NaN, so the dot is NaN even where inf * x would be +inf;
    with ``fast_math`` it is a plain (infinite) factor. Row 0 of A has scale 0xFF on its first
    32 elements, column 1 of B on its last 32; every element is 1.0."""
    case = Case("e4m3", fb, True, True, fast=fast)
    a = np.full((32, 64), 0x38, np.uint8)  # e4m3 1.0
    b = np.ones((64, 32), _VIEW[fb]).view(np.uint8 if fb == "e4m3" else np.uint16)
    if fb == "e4m3":
        b[:] = 0x38
    sa = np.full((32, 2), 127, np.uint8)
    sb = np.full((32, 2), 127, np.uint8)
    sa[0, 0] = 255
    sb[1, 1] = 255
    out = np.zeros((32, 32), np.float32)
    run(scaled_matmul, (1, 1), a, 64, 1, sa, b, 32, 1, sb, out, 64, FA="e4m3", FB=fb,
        FAST=fast, LKP=True, RKP=True, BM=32, BN=32, BK=64)  # fmt: skip
    expected = np.full((32, 32), 64.0)
    expected[0, :] = expected[:, 1] = np.inf if fast else np.nan
    np.testing.assert_array_equal(out, expected)
    exact, _ = reference(case, a, sa, b, sb)
    np.testing.assert_array_equal(exact, expected)
