"""``/`` and ``%`` in Triton 3.6's computation dtype (``computation_type_impl(div_or_mod=True)``):
PTX has no half-precision division, so a float16 or bfloat16 result is computed in float32 and
each operand is converted *straight* to float32 (``int32 100000 / f16 4.0`` is 25000, not
``inf`` through float16); a Python scalar beside a half operand is a float32 constant (0.1 is
not rounded to float16 first). Two different fp8 formats still divide in float16.

The dtype table was taken from Triton 3.6 (its interpreter, ``tl.static_print`` of the result).
A float32 quotient is PTX's approximate ``div.full.f32`` on a GPU, as in Triton
(``test_division_approx.py``): exact on the interpreter and gpusim, within 2 ulp on a GPU."""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl

pytestmark = pytest.mark.execution

EXACT_BACKENDS = ("interpreter", "gpusim")  # the IEEE quotient (gpusim: div.full's model)

N = 8
_NP = {
    tl.int1: np.bool_,
    tl.int8: np.int8,
    tl.int32: np.int32,
    tl.int64: np.int64,
    tl.uint8: np.uint8,
    tl.uint32: np.uint32,
    tl.float16: np.float16,
    tl.bfloat16: ml_dtypes.bfloat16,
    tl.float32: np.float32,
    tl.float64: np.float64,
    tl.float8e5: ml_dtypes.float8_e5m2,
    tl.float8e4nv: ml_dtypes.float8_e4m3fn,
}
# operand values whose float16 roundings differ from their float32 ones (2049, 100000...)
_VALUES = {
    "int": [100000, 2049, -30001, 12345, 7, -7, 65519, 3],
    "uint": [200, 201, 255, 17, 7, 9, 250, 3],
    "bool": [True, True, False, True, True, False, True, True],
    "float": [4.0, 1.0, 3.0, 0.1, -2.5, 7.0, 0.3, -3.0],
    "fp8": [4.0, 1.0, 3.0, 0.5, -2.5, 7.0, 0.375, -3.0],
}
# (a, b) -> (dtype of a / b, dtype of a % b), Triton 3.6's answers
CASES = [
    (tl.int32, tl.float16, tl.float32, tl.float32),
    (tl.float16, tl.int32, tl.float32, tl.float32),
    (tl.int64, tl.bfloat16, tl.float32, tl.float32),
    (tl.uint8, tl.float16, tl.float32, tl.float32),
    (tl.int1, tl.float16, tl.float32, tl.float32),
    (tl.float16, tl.float16, tl.float32, tl.float32),
    (tl.bfloat16, tl.bfloat16, tl.float32, tl.float32),
    (tl.float16, tl.bfloat16, tl.float32, tl.float32),
    (tl.float16, tl.float64, tl.float64, tl.float64),
    (tl.int8, tl.float64, tl.float64, tl.float64),
    (tl.int32, tl.int64, tl.float32, tl.int64),
    (tl.uint8, tl.uint32, tl.float32, tl.uint32),
    (tl.float8e5, tl.float8e4nv, tl.float16, tl.float16),
    (tl.float8e5, tl.float16, tl.float32, tl.float32),
    (tl.float8e4nv, tl.bfloat16, tl.float32, tl.float32),
]


def assert_quotients(run: Any, got: np.ndarray, want: np.ndarray, f32: bool = True) -> None:
    """``got`` is ``want`` (the IEEE quotients), or within 2 ulp of float32 of it where a GPU
    computed them with ``div.full.f32`` (``f32``: the quotient's dtype is float32)."""
    if not f32 or run.backend in EXACT_BACKENDS:
        np.testing.assert_array_equal(got, want)
        return
    finite = np.isfinite(want)
    np.testing.assert_array_equal(got[~finite], want[~finite])
    ulp = np.spacing(np.abs(want[finite]).astype(np.float32)).astype(np.float64)
    assert np.all(np.abs(got[finite] - want[finite]) <= 2 * ulp), (got, want)


def _operand(d: Any, values_of: str) -> np.ndarray:
    return np.array(_VALUES[values_of], dtype=np.float64).astype(_NP[d])


def _values_of(d: Any) -> str:
    if d == tl.int1:
        return "bool"
    if d.is_fp8():
        return "fp8"
    if d.is_floating():
        return "float"
    return "uint" if d.is_int_unsigned() else "int"


@triton.jit
def div_mod_kernel(x, y, q_out, r_out, Q: tl.constexpr, R: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(x + offs)
    b = tl.load(y + offs)
    q = a / b
    r = a % b
    tl.static_assert(q.dtype == Q)
    tl.static_assert(r.dtype == R)
    tl.store(q_out + offs, q.to(tl.float64))
    tl.store(r_out + offs, r.to(tl.float64))


def _expected(a: np.ndarray, b: np.ndarray, q: Any, r: Any) -> tuple[np.ndarray, np.ndarray]:
    """NumPy in Triton's dtypes: both operands converted once to the computation dtype
    (integer quotients in float32; remainders truncate, as C's fmod, srem and urem)."""
    qd, rd = (_NP[q] if q.is_floating() else np.float32), _NP[r]
    with np.errstate(divide="ignore", invalid="ignore"):
        quotient = a.astype(qd) / b.astype(qd)
        remainder = np.fmod(a.astype(rd), b.astype(rd))
    return quotient.astype(np.float64), remainder.astype(np.float64)


@pytest.mark.parametrize(("da", "db", "q", "r"), CASES, ids=lambda d: str(d))
def test_division_dtype_and_values(run: Any, da: Any, db: Any, q: Any, r: Any) -> None:
    a, b = _operand(da, _values_of(da)), _operand(db, _values_of(db))
    qo, ro = np.zeros(N, np.float64), np.zeros(N, np.float64)
    run(div_mod_kernel, (1,), a, b, qo, ro, Q=q, R=r, BLOCK=N, num_warps=1)
    eq, er = _expected(a, b, q, r)
    assert_quotients(run, qo, eq, f32=q == tl.float32)
    np.testing.assert_array_equal(ro, er)


def test_int_by_float16_converts_the_int_straight_to_float32(run: Any) -> None:
    """The reported kernels: 100000 / 4.0 is 25000 (not inf), 2049 / 1.0 is 2049 (not 2048),
    and ``%`` is a number (not NaN)."""
    a = np.array([100000, 2049, 2049, 70000, 1, 2, 3, 4], np.int32)
    b = np.array([4.0, 1.0, 3.0, 65504.0, 1, 1, 1, 1], np.float16)
    qo, ro = np.zeros(N, np.float64), np.zeros(N, np.float64)
    run(div_mod_kernel, (1,), a, b, qo, ro, Q=tl.float32, R=tl.float32, BLOCK=N, num_warps=1)
    assert qo[:2].tolist() == [25000.0, 2049.0]  # exact even for div.full.f32
    assert_quotients(run, qo[2:3], np.array([np.float32(2049 / 3)], np.float64))
    assert ro[:4].tolist() == [0.0, 0.0, 0.0, 4496.0]


@triton.jit
def half_by_python_scalar_kernel(x, out, S: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    v = tl.load(x + offs)
    a = v / S
    b = v % S
    c = S / v
    d = S % v
    tl.static_assert(a.dtype == tl.float32 and b.dtype == tl.float32)
    tl.static_assert(c.dtype == tl.float32 and d.dtype == tl.float32)
    tl.store(out + offs, a)
    tl.store(out + BLOCK + offs, b)
    tl.store(out + 2 * BLOCK + offs, c)
    tl.store(out + 3 * BLOCK + offs, d)


@pytest.mark.parametrize("half", [np.float16, ml_dtypes.bfloat16], ids=["f16", "bf16"])
@pytest.mark.parametrize("scalar", [0.1, 100000, 3, 1e300, True], ids=str)
def test_half_with_python_scalar_uses_a_float32_constant(
    run: Any, half: Any, scalar: float
) -> None:
    """``x_f16 / 0.1`` divides by float32(0.1), and 100000 stays finite: the scalar is a
    float32 constant, never a float16 one (1e300 is float32's inf, as in Triton)."""
    x = np.array([1.0, 0.5, 3.0, -2.0, 0.1, 7.0, 100.0, -0.25], half)
    out = np.zeros(4 * N, np.float32)
    run(half_by_python_scalar_kernel, (1,), x, out, S=scalar, BLOCK=N, num_warps=1)
    v = x.astype(np.float32)
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        s = np.float32(scalar)
        expected = np.concatenate([v / s, np.fmod(v, s), s / v, np.fmod(s, v)])
    for k in (0, 2):
        assert_quotients(run, out[k * N : (k + 1) * N], expected[k * N : (k + 1) * N])
    for k in (1, 3):
        np.testing.assert_array_equal(out[k * N : (k + 1) * N], expected[k * N : (k + 1) * N])


@triton.jit
def fdiv_kernel(x, y, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(x + offs)
    b = tl.load(y + offs)
    q = tl.fdiv(a, b)
    tl.static_assert(q.dtype == a.dtype)
    tl.store(out + offs, q.to(tl.float32))
    tl.store(out + BLOCK + offs, tl.math.fdiv(a.to(tl.float32), 3.0))


def test_fdiv_divides_in_its_operands_dtype(run: Any) -> None:
    """``tl.fdiv`` converts nothing: two float16s divide in float16 (``/`` would give float32),
    and a Python float is a float32."""
    x = np.array([1.0, 2.0, 3.0, 5.0, 0.1, -7.0, 100.0, 2049.0], np.float16)
    y = x + np.float16(2.0)
    out = np.zeros(2 * N, np.float32)
    run(fdiv_kernel, (1,), x, y, out, BLOCK=N, num_warps=1)
    np.testing.assert_array_equal(out[:N], (x / y).astype(np.float32))
    assert_quotients(run, out[N:], x.astype(np.float32) / np.float32(3.0))
