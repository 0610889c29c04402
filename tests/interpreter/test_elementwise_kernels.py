"""1-D kernels of the seed: vector add (masks, ``other``), copy, relu, leaky relu, sigmoid."""

from __future__ import annotations

import numpy as np
import pytest

from tests.interpreter.util import mask_lt, offsets_1d, pointers, poisoned, run, splat_const

pytestmark = pytest.mark.execution

B = 256
PTR = f"tensor<{B}x!tt.ptr<f32>>"
F = f"tensor<{B}xf32>"


def unary_kernel(body: str) -> str:
    """``out[i] = f(x[i])`` for ``i < n``; ``body`` maps ``%x`` to ``%y``."""
    return f"""
func.func @k(%xp: !tt.ptr<f32>, %outp: !tt.ptr<f32>, %n: i32) {{
  {offsets_1d(B)}
  {mask_lt("offs", "n", B)}
  {pointers("xp", "offs", B)}
  {pointers("outp", "offs", B)}
  %x = tt.load %xp_p, %mask : {PTR}
  {body}
  tt.store %outp_p, %y, %mask : {PTR}
  func.return
}}"""


def run_unary(body: str, x: np.ndarray) -> np.ndarray:
    out = poisoned(x.shape)
    run(unary_kernel(body), ((x.size + B - 1) // B,), [x, out, x.size])
    return out


@pytest.fixture
def x() -> np.ndarray:
    return np.random.default_rng(0).standard_normal(1000).astype(np.float32)


ADD = f"""
func.func @k(%xp: !tt.ptr<f32>, %yp: !tt.ptr<f32>, %outp: !tt.ptr<f32>, %n: i32) {{
  {offsets_1d(B)}
  {mask_lt("offs", "n", B)}
  {pointers("xp", "offs", B)}
  {pointers("yp", "offs", B)}
  {pointers("outp", "offs", B)}
  {splat_const("other", "-1.5", B)}
  %x = tt.load %xp_p, %mask, %other : {PTR}
  %y = tt.load %yp_p, %mask, %other : {PTR}
  %s = tt.add %x, %y : {F}
  tt.store %outp_p, %s : {PTR}
  func.return
}}"""


def test_vector_add_masked_lanes_take_other() -> None:
    rng = np.random.default_rng(1)
    n = 1000
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    out = poisoned(1024)  # the unmasked store writes all 4 * 256 lanes
    run(ADD, (4,), [x, y, out, n])
    np.testing.assert_array_equal(out[:n], x + y)
    np.testing.assert_array_equal(out[n:], np.float32(-3.0))


def test_vector_add_many_programs() -> None:
    rng = np.random.default_rng(2)
    n = 1 << 16
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    out = poisoned(n)
    run(ADD, (n // B,), [x, y, out, n])
    np.testing.assert_array_equal(out, x + y)


def test_copy(x: np.ndarray) -> None:
    np.testing.assert_array_equal(run_unary("%y = tt.add %x, %x : " + F, x), x + x)
    body = splat_const("one", "1.0", B) + f"\n  %y = tt.mul %x, %one : {F}"
    np.testing.assert_array_equal(run_unary(body, x), x)


def test_relu(x: np.ndarray) -> None:
    body = splat_const("z", "0.0", B) + f"\n  %y = tt.maximum %x, %z : {F}"
    np.testing.assert_array_equal(run_unary(body, x), np.maximum(x, 0))


def test_leaky_relu(x: np.ndarray) -> None:
    body = (
        splat_const("z", "0.0", B)
        + splat_const("a", "0.01", B)
        + f"""
  %pos = tt.cmp gt, %x, %z : {F}
  %xa = tt.mul %x, %a : {F}
  %y = tt.select %pos, %x, %xa : {F}"""
    )
    expected = np.where(x > 0, x, x * np.float32(0.01))
    np.testing.assert_array_equal(run_unary(body, x), expected)


def test_sigmoid(x: np.ndarray) -> None:
    body = (
        splat_const("one", "1.0", B)
        + f"""
  %nx = tt.neg %x : {F}
  %e = tt.exp %nx : {F}
  %d = tt.add %one, %e : {F}
  %y = tt.div %one, %d : {F}"""
    )
    out = run_unary(body, x)
    np.testing.assert_allclose(out, 1 / (1 + np.exp(-x.astype(np.float64))), rtol=1e-6)
    # computed in f32 throughout: bit-identical to the same f32 NumPy expression
    one = np.float32(1)
    np.testing.assert_array_equal(out, one / (one + np.exp(-x)))


def test_scalar_arguments_f32_and_i1() -> None:
    """``out = flag ? x * alpha : x`` with an f32 and an i1 scalar parameter."""
    text = f"""
func.func @k(%xp: !tt.ptr<f32>, %outp: !tt.ptr<f32>, %n: i32, %alpha: f32, %flag: i1) {{
  {offsets_1d(B)}
  {mask_lt("offs", "n", B)}
  {pointers("xp", "offs", B)}
  {pointers("outp", "offs", B)}
  %x = tt.load %xp_p, %mask : {PTR}
  %a = tt.splat %alpha : f32 -> {F}
  %f = tt.splat %flag : i1 -> tensor<{B}xi1>
  %xa = tt.mul %x, %a : {F}
  %y = tt.select %f, %xa, %x : {F}
  tt.store %outp_p, %y, %mask : {PTR}
  func.return
}}"""
    x = np.random.default_rng(3).standard_normal(300).astype(np.float32)
    for flag, expected in ((True, x * np.float32(0.5)), (False, x)):
        out = poisoned(300)
        run(text, (2,), [x, out, 300, 0.5, flag])
        np.testing.assert_array_equal(out, expected)
