"""GPU semantics, not NumPy's or Python's: i32 wraps, C division and remainder, PTX's
minimum/maximum (NaN ignored unless propagated, -0.0 < +0.0), f32 stays f32, C casts."""

from __future__ import annotations

import numpy as np
import pytest

from tests.interpreter.util import poisoned, reduce_op, run

pytestmark = pytest.mark.execution

N = 16


def elementwise_kernel(op_line: str, in_elem: str, out_elem: str, arity: int = 2) -> str:
    """``out[i] = op(x[i], y[i])``; ``op_line`` defines ``%v`` from ``%x`` (and ``%y``)."""
    ti, to = f"tensor<{N}x{in_elem}>", f"tensor<{N}x{out_elem}>"
    pi, po = f"tensor<{N}x!tt.ptr<{in_elem}>>", f"tensor<{N}x!tt.ptr<{out_elem}>>"
    load_y = ""
    if arity == 2:
        load_y = f"""
  %ys = tt.splat %yp : !tt.ptr<{in_elem}> -> {pi}
  %ypp = tt.addptr %ys, %r : {pi}, tensor<{N}xi32>
  %y = tt.load %ypp : {pi}"""
    return f"""
func.func @k(%xp: !tt.ptr<{in_elem}>, %yp: !tt.ptr<{in_elem}>, %outp: !tt.ptr<{out_elem}>) {{
  %r = tt.make_range {{start = 0 : i32, end = {N} : i32}} : tensor<{N}xi32>
  %xs = tt.splat %xp : !tt.ptr<{in_elem}> -> {pi}
  %xpp = tt.addptr %xs, %r : {pi}, tensor<{N}xi32>
  %x = tt.load %xpp : {pi}
  {load_y}
  {op_line.format(ti=ti, to=to)}
  %os = tt.splat %outp : !tt.ptr<{out_elem}> -> {po}
  %opp = tt.addptr %os, %r : {po}, tensor<{N}xi32>
  tt.store %opp, %v : {po}
  func.return
}}"""


def apply(
    op_line: str, x: np.ndarray, y: np.ndarray, out_dtype: type, in_elem: str, out_elem: str
) -> np.ndarray:
    out = poisoned(N, out_dtype)
    run(elementwise_kernel(op_line, in_elem, out_elem), (1,), [x, y, out])
    return out


def i32(values: list[int]) -> np.ndarray:
    return np.array(values + [0] * (N - len(values)), dtype=np.int64).astype(np.int32)


def c_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def test_i32_arithmetic_wraps() -> None:
    x = i32([2**31 - 1, -(2**31), 65536, 123456789, -1])
    y = i32([1, -1, 65536, 1000, 2**31 - 1])
    for op, ref in (("add", np.add), ("sub", np.subtract), ("mul", np.multiply)):
        out = apply(f"%v = tt.{op} %x, %y : {{ti}}", x, y, np.int32, "i32", "i32")
        expected = ref(x.astype(np.int64), y.astype(np.int64)).astype(np.int32)  # wraps mod 2**32
        np.testing.assert_array_equal(out, expected, err_msg=op)
    out = apply("%v = tt.neg %x : {ti}", x, y, np.int32, "i32", "i32")
    assert out[1] == np.int32(-(2**31))  # -INT_MIN wraps to itself


def test_integer_division_and_remainder_truncate_like_c() -> None:
    pairs = [(7, 2), (-7, 2), (7, -2), (-7, -2), (0, 3), (1, 7), (-1, 7), (2**31 - 1, -1)]
    x = i32([a for a, _ in pairs])
    y = i32([b for _, b in pairs] + [1] * (N - len(pairs)))
    div = apply("%v = tt.div %x, %y : {ti}", x, y, np.int32, "i32", "i32")
    rem = apply("%v = tt.rem %x, %y : {ti}", x, y, np.int32, "i32", "i32")
    for i, (a, b) in enumerate(pairs):
        assert div[i] == c_div(a, b), (a, b)
        assert rem[i] == a - b * c_div(a, b), (a, b)


def test_float_remainder_follows_the_dividend() -> None:
    x = np.array([7.5, -7.5, 7.5, -7.5] + [1.0] * (N - 4), dtype=np.float32)
    y = np.array([2.0, 2.0, -2.0, -2.0] + [1.0] * (N - 4), dtype=np.float32)
    out = apply("%v = tt.rem %x, %y : {ti}", x, y, np.float32, "f32", "f32")
    np.testing.assert_array_equal(out[:4], [1.5, -1.5, 1.5, -1.5])


@pytest.mark.parametrize("op", ["maximum", "minimum"])
@pytest.mark.parametrize("propagate", [False, True])
def test_minimum_maximum_nan_and_signed_zeros(op: str, propagate: bool) -> None:
    """Default: a NaN operand is ignored (maxnum); ``propagate_nan = all``: NaN. Either way
    +0.0 > -0.0, whichever side it is on."""
    nan = np.nan
    x = np.array([nan, 1.0, nan, 0.0, -0.0, 2.0, -0.0] + [0.0] * (N - 7), dtype=np.float32)
    y = np.array([1.0, nan, nan, -0.0, 0.0, 3.0, -0.0] + [0.0] * (N - 7), dtype=np.float32)
    attr = ", propagate_nan = all" if propagate else ""
    out = apply(f"%v = tt.{op} %x, %y{attr} : {{ti}}", x, y, np.float32, "f32", "f32")
    if propagate:
        assert np.isnan(out[:3]).all()
    else:
        assert out[:2].tolist() == [1.0, 1.0] and np.isnan(out[2])
    zero_signs = np.signbit(out[3:5]).tolist()
    assert zero_signs == ([False, False] if op == "maximum" else [True, True])
    assert np.signbit(out[6])
    assert out[5] == (3.0 if op == "maximum" else 2.0)


@pytest.mark.parametrize("kind", ["max", "min"])
def test_max_min_reductions_ignore_nan(kind: str) -> None:
    text = f"""
func.func @k(%xp: !tt.ptr<f32>, %outp: !tt.ptr<f32>) {{
  %r = tt.make_range {{start = 0 : i32, end = {N} : i32}} : tensor<{N}xi32>
  %xs = tt.splat %xp : !tt.ptr<f32> -> tensor<{N}x!tt.ptr<f32>>
  %xpp = tt.addptr %xs, %r : tensor<{N}x!tt.ptr<f32>>, tensor<{N}xi32>
  %x = tt.load %xpp : tensor<{N}x!tt.ptr<f32>>
  {reduce_op("m", kind, "x", 0, f"tensor<{N}xf32>", "f32", "f32")}
  tt.store %outp, %m : !tt.ptr<f32>
  func.return
}}"""
    x = np.arange(N, dtype=np.float32)
    x[5] = np.nan
    out = np.zeros(1, np.float32)
    run(text, (1,), [x, out])
    assert out[0] == (N - 1 if kind == "max" else 0)
    run(text, (1,), [np.full(N, np.nan, np.float32), out])
    assert np.isnan(out[0])


def test_float_comparisons_with_nan() -> None:
    x = np.array([np.nan, 1.0, np.nan] + [0.0] * (N - 3), dtype=np.float32)
    y = np.array([1.0, np.nan, np.nan] + [0.0] * (N - 3), dtype=np.float32)
    for pred, expected in (("lt", False), ("ge", False), ("eq", False), ("ne", True)):
        out = apply(f"%v = tt.cmp {pred}, %x, %y : {{ti}}", x, y, np.bool_, "f32", "i1")
        assert (out[:3] == expected).all(), pred


def test_f32_arithmetic_stays_f32() -> None:
    """(1e8 + 1) - 1e8 is 0 in f32; a float64 intermediate would give 1."""
    x = np.full(N, 1e8, dtype=np.float32)
    y = np.ones(N, dtype=np.float32)
    line = "%s = tt.add %x, %y : {ti}\n  %v = tt.sub %s, %x : {ti}"
    out = apply(line, x, y, np.float32, "f32", "f32")
    np.testing.assert_array_equal(out, 0.0)


def test_casts_truncate_toward_zero_and_saturate() -> None:
    x = np.array([2.7, -2.7, 0.5, -0.5, 3e9, -3e9, np.nan] + [0.0] * (N - 7), dtype=np.float32)
    out = apply("%v = tt.cast %x : {ti} -> {to}", x, x, np.int32, "f32", "i32")
    np.testing.assert_array_equal(out[:7], [2, -2, 0, 0, 2**31 - 1, -(2**31), 0])
    b = np.array([0, 3, -1] + [0] * (N - 3), dtype=np.int32)
    out_b = apply("%v = tt.cast %x : {ti} -> {to}", b, b, np.bool_, "i32", "i1")
    np.testing.assert_array_equal(out_b[:3], [False, True, True])
    out_f = apply("%v = tt.cast %x : {ti} -> {to}", out_b, out_b, np.float32, "i1", "f32")
    np.testing.assert_array_equal(out_f[:3], [0.0, 1.0, 1.0])


def test_bitwise_ops() -> None:
    x = i32([0b1100, -1, 5])
    y = i32([0b1010, 0x0F0F, 3])
    for op, ref in (("and", np.bitwise_and), ("or", np.bitwise_or), ("xor", np.bitwise_xor)):
        out = apply(f"%v = tt.{op} %x, %y : {{ti}}", x, y, np.int32, "i32", "i32")
        np.testing.assert_array_equal(out, ref(x, y), err_msg=op)


@pytest.mark.parametrize(
    ("op", "ref"),
    [
        ("exp", np.exp),
        ("exp2", np.exp2),
        ("log", np.log),
        ("log2", np.log2),
        ("sqrt", np.sqrt),
        ("sin", np.sin),
        ("cos", np.cos),
        ("floor", np.floor),
        ("ceil", np.ceil),
        ("abs", np.abs),
        ("rsqrt", lambda a: 1 / np.sqrt(a)),
    ],
)
def test_math_functions(op: str, ref: object) -> None:
    x = np.random.default_rng(40).uniform(0.1, 4.0, N).astype(np.float32)
    out = apply(f"%v = tt.{op} %x : {{ti}}", x, x, np.float32, "f32", "f32")
    np.testing.assert_allclose(out, ref(x.astype(np.float64)), rtol=1e-6)  # type: ignore[operator]
