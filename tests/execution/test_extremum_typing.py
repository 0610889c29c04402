"""How ``tl.maximum``, ``tl.minimum``, ``tl.clamp`` and Python's ``max``/``min`` type their
operands, as in Triton 3.6: a Python scalar first becomes a value of its own dtype (int32,
uint32 or int64 by range, float32, or float64 beyond float32's range), with no weak typing, and
bfloat16 operands become float32; then the usual promotion applies. So ``tl.maximum(x_f16,
0.1)`` is float32 with 0.1 as a float32, ``tl.maximum(x_i8, 1000)`` is int32, and the maximum
of two booleans is a boolean (or). ``tl.max``/``tl.min`` reductions keep their own rule.

Expected values and dtypes were checked against Triton 3.6's interpreter, but for Python's
``max``/``min`` of tensors: compiled Triton makes them ``tl.maximum``/``tl.minimum``
(``builtin_max``), its interpreter runs Python's own, which compares whole tensors."""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.errors import KernelTypeError

pytestmark = pytest.mark.execution

N = 4


@triton.jit
def extremum_kernel(x, out, S: tl.constexpr, MODE: tl.constexpr, D: tl.constexpr):
    offs = tl.arange(0, 4)
    a = tl.load(x + offs)
    if MODE == "max":
        r = tl.maximum(a, S)
    elif MODE == "min_scalar_first":
        r = tl.minimum(S, a)
    elif MODE == "python_max":
        r = max(a, S)
    elif MODE == "python_min":
        r = min(S, a, 1000.0)
    elif MODE == "clamp":
        r = tl.clamp(a, S, 2.0)
    else:
        r = tl.maximum(a, S, propagate_nan=tl.PropagateNan.ALL)
    tl.static_assert(r.dtype == D)
    tl.store(out + offs, r.to(tl.float64))


F, H = (lambda v: float(np.float32(v))), (lambda v: float(np.float16(v)))
# (input, its dtype, scalar, mode, Triton's result dtype, Triton's values)
CASES = [
    ([0.0, 0.0999, 0.1, 1.0], np.float16, 0.1, "max", tl.float32, [F(0.1)] * 3 + [1.0]),
    ([0, 1, -2, 3], np.int8, 1000, "max", tl.int32, [1000] * 4),
    ([0, 1, 2, 3], np.uint32, -3, "min_scalar_first", tl.uint32, [0, 1, 2, 3]),
    ([0.1, 0.1000000001, 0.0, 1.0], np.float64, 0.1, "max", tl.float64, [F(0.1)] * 3 + [1.0]),
    ([0, 1, 2, 3], np.int64, 2**40, "max", tl.int64, [2**40] * 4),
    ([0, 1, 2, 3], np.int32, 2**31, "max", tl.uint32, [2**31] * 4),
    ([0, 1, 2, 3], np.uint64, -1, "max", tl.uint64, [2**64 - 1] * 4),
    ([0, 1, 2, 3], np.uint8, 300, "max", tl.int32, [300] * 4),
    ([0, 1, 2, 3], np.uint8, -1, "max", tl.int32, [0, 1, 2, 3]),
    ([0, 1, 2, 3], np.int8, True, "max", tl.int8, [1, 1, 2, 3]),
    ([0, 1, 0, 1], np.float16, True, "max", tl.float16, [1, 1, 1, 1]),
    ([0, 1, 0, 1], np.float16, 1e300, "max", tl.float64, [1e300] * 4),
    ([0, 1, -1, 1], np.float32, 1e-300, "max", tl.float64, [1e-300, 1, 1e-300, 1]),
    ([0.0, 0.0999, 0.1, 1.0], np.float16, 0.1, "python_max", tl.float32, [F(0.1)] * 3 + [1.0]),
    (
        [0.0, 0.0999, 0.1, 3.0],
        np.float16,
        0.1,
        "python_min",
        tl.float32,
        [0.0, H(0.0999), H(0.1), F(0.1)],
    ),
    ([0.0, 0.0999, 0.1, 3.0], np.float16, 0.1, "clamp", tl.float32, [F(0.1)] * 3 + [2.0]),
    ([0, 1, 2, 3], np.int32, 1, "clamp", tl.float32, [1, 1, 2, 2]),
    ([0.0, 1.0, 2.0, 3.0], np.float64, 0.1, "clamp", tl.float64, [F(0.1), 1.0, 2.0, 2.0]),
    ([np.nan, 1.0, 2.0, 3.0], np.float32, 1.5, "max_nan", tl.float32, [np.nan, 1.5, 2.0, 3.0]),
]


@pytest.mark.parametrize(
    ("x", "dtype", "scalar", "mode", "result", "expected"),
    CASES,
    ids=[f"{c[1].__name__}-{c[2]}-{c[3]}" for c in CASES],
)
def test_scalar_operand_is_its_own_tensor(
    run: Any, x: list, dtype: Any, scalar: Any, mode: str, result: Any, expected: list
) -> None:
    out = np.zeros(N, np.float64)
    run(extremum_kernel, (1,), np.array(x, dtype), out, S=scalar, MODE=mode, D=result)
    np.testing.assert_array_equal(out, np.array(expected, np.float64))


@triton.jit
def bf16_kernel(x, y, z, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(x + offs)
    b = tl.load(y + offs)
    c = tl.load(z + offs)
    r = tl.maximum(a, b) + c
    s = tl.minimum(a, b) + c
    tl.static_assert(r.dtype == tl.float32 and s.dtype == tl.float32)
    tl.store(out + offs, r)
    tl.store(out + BLOCK + offs, s)


def test_bfloat16_extremum_is_float32_so_what_follows_is_too(run: Any) -> None:
    """``tl.maximum(a_bf16, b_bf16) + c_bf16`` adds in float32: 256 + 1.5 is 257.5, not
    rounded to bfloat16 (where it would be 258)."""
    bf = ml_dtypes.bfloat16
    x = np.array([1.0, 1.0078125, 3.0, 256.0], bf)
    y = np.array([0.5, 1.0, -3.0, 254.0], bf)
    z = np.array([1.0, 1.0, 3.0, 1.5], bf)
    out = np.zeros(2 * N, np.float32)
    run(bf16_kernel, (1,), x, y, z, out, BLOCK=N, num_warps=1)
    f = [v.astype(np.float32) for v in (x, y, z)]
    np.testing.assert_array_equal(out[:N], np.maximum(f[0], f[1]) + f[2])
    np.testing.assert_array_equal(out[N:], np.minimum(f[0], f[1]) + f[2])
    assert out[N - 1] == 257.5 and out[2 * N - 1] == 255.5


@triton.jit
def bool_extremum_kernel(x, y, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(x + offs) != 0
    b = tl.load(y + offs) != 0
    hi = tl.maximum(a, b)
    lo = tl.minimum(a, b)
    tl.static_assert(hi.dtype == tl.int1 and lo.dtype == tl.int1)
    tl.store(out + offs, (~hi).to(tl.int32))
    tl.store(out + BLOCK + offs, (~lo).to(tl.int32))
    tl.store(out + 2 * BLOCK + offs, tl.maximum(a, True).to(tl.int32))
    tl.store(out + 3 * BLOCK + offs, tl.minimum(a, b.to(tl.int8)).to(tl.int32))


def test_extremum_of_booleans_is_boolean(run: Any) -> None:
    """Triton's int1 is unsigned: maximum is or, minimum and, and ``~`` of them is a boolean
    not (mytriton computed them in int32, where ``~1`` is -2)."""
    x = np.array([0, 0, 1, 1], np.int32)
    y = np.array([0, 1, 0, 1], np.int32)
    out = np.zeros(4 * N, np.int32)
    run(bool_extremum_kernel, (1,), x, y, out, BLOCK=N, num_warps=1)
    not_or, not_and, or_true, and_int8 = [1, 0, 0, 0], [1, 1, 1, 0], [1, 1, 1, 1], [0, 0, 0, 1]
    assert out.tolist() == [*not_or, *not_and, *or_true, *and_int8]


@triton.jit
def reductions_kernel(x, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    v = tl.load(x + offs)
    hi = tl.max(v, axis=0)
    lo = tl.min(v, axis=0)
    hv, hi_at = tl.max(v, axis=0, return_indices=True)
    lv, lo_at = tl.min(v, axis=0, return_indices=True)
    tl.store(out + 0, hi.to(tl.float64))
    tl.store(out + 1, lo.to(tl.float64))
    tl.store(out + 2, hv.to(tl.float64))
    tl.store(out + 3, hi_at.to(tl.float64))
    tl.store(out + 4, lv.to(tl.float64))
    tl.store(out + 5, lo_at.to(tl.float64))
    tl.store(out + 6, tl.reduce(v, 0, _max_combine).to(tl.float64))


@triton.jit
def _max_combine(a: Any, b: Any) -> Any:
    return tl.maximum(a, b)


@pytest.mark.parametrize(
    "dtype", [np.float16, np.float32, np.int8, np.uint8, np.int32, np.uint32, np.float64]
)
def test_max_min_reductions_unchanged(run: Any, dtype: Any) -> None:
    """``tl.max``/``tl.min`` (with and without indices) and a ``tl.reduce`` whose combine
    function calls ``tl.maximum`` give NumPy's answers."""
    rng = np.random.default_rng(7)
    x = (rng.random(16) * 100).astype(dtype)
    out = np.zeros(7, np.float64)
    run(reductions_kernel, (1,), x, out, BLOCK=16, num_warps=1)
    mx, mn = float(x.max()), float(x.min())
    expected = [mx, mn, mx, int(x.argmax()), mn, int(x.argmin()), mx]
    np.testing.assert_array_equal(out, expected)


@triton.jit
def clamp_int_kernel(x, out):
    v = tl.load(x + tl.arange(0, 4))
    tl.store(out + tl.arange(0, 4), tl.clamp(v, 0, 2))  # <-


def test_clamp_of_integers_is_rejected(run: Any) -> None:
    """Triton clamps floats only (``Only floating point clamp is supported``)."""
    x = np.arange(4, dtype=np.int32)
    with pytest.raises(KernelTypeError, match=r"tl\.clamp of int32") as info:
        run(clamp_int_kernel, (1,), x, x.copy())
    assert info.value.loc is not None and "tl.clamp" in str(info.value)
