"""Block factories (zeros, full, empty) and ``dot``: one tile, and tiled with a runtime or
compile-time K loop."""

from __future__ import annotations

import numpy as np
import pytest

from tests.interpreter.util import outer_offsets, poisoned, run, tile_pointers, tiled_matmul

pytestmark = pytest.mark.execution


def store_block_kernel(elem: str, body: str, params: str = "") -> str:
    """``out[0:8] = %v`` where ``body`` defines ``%v : tensor<8x{elem}>``."""
    return f"""
func.func @k(%outp: !tt.ptr<{elem}>{params}) {{
  {body}
  %r = tt.make_range {{start = 0 : i32, end = 8 : i32}} : tensor<8xi32>
  %s = tt.splat %outp : !tt.ptr<{elem}> -> tensor<8x!tt.ptr<{elem}>>
  %p = tt.addptr %s, %r : tensor<8x!tt.ptr<{elem}>>, tensor<8xi32>
  tt.store %p, %v : tensor<8x!tt.ptr<{elem}>>
  func.return
}}"""


@pytest.mark.parametrize(("elem", "dtype"), [("f32", np.float32), ("i32", np.int32)])
def test_zeros(elem: str, dtype: type) -> None:
    out = poisoned(8, dtype)
    run(store_block_kernel(elem, f"%v = tt.zeros : tensor<8x{elem}>"), (1,), [out])
    assert out.dtype == dtype
    np.testing.assert_array_equal(out, 0)


@pytest.mark.parametrize(
    ("elem", "dtype", "value"),
    [("f32", np.float32, 2.5), ("i32", np.int32, -7), ("i1", np.bool_, True)],
)
def test_full_with_a_runtime_value(elem: str, dtype: type, value: object) -> None:
    out = np.zeros(8, dtype) if dtype is np.bool_ else poisoned(8, dtype)
    body = f"%v = tt.full %x : {elem} -> tensor<8x{elem}>"
    run(store_block_kernel(elem, body, f", %x: {elem}"), (1,), [out, value])
    np.testing.assert_array_equal(out, np.full(8, value, dtype))


def test_empty_is_poison_filled_without_debug() -> None:
    out = np.zeros(8, np.float32)
    run(store_block_kernel("f32", "%v = tt.empty : tensor<8xf32>"), (1,), [out])
    assert np.isnan(out).all()
    iout = np.zeros(8, np.int32)
    run(store_block_kernel("i32", "%v = tt.empty : tensor<8xi32>"), (1,), [iout])
    np.testing.assert_array_equal(iout, np.array(0xDEADBEEF, np.uint32).view(np.int32))


def test_dense_constant() -> None:
    body = "%v = arith.constant dense<[1, 2, 3, 4, 5, 6, 7, 8]> : tensor<8xi32>"
    out = poisoned(8, np.int32)
    run(store_block_kernel("i32", body), (1,), [out])
    np.testing.assert_array_equal(out, np.arange(1, 9))


def test_dot_single_tile() -> None:
    m, k, n = 16, 32, 8
    text = f"""
func.func @k(%ap: !tt.ptr<f32>, %bp: !tt.ptr<f32>, %cp: !tt.ptr<f32>) {{
  %rm = tt.make_range {{start = 0 : i32, end = {m} : i32}} : tensor<{m}xi32>
  %rk = tt.make_range {{start = 0 : i32, end = {k} : i32}} : tensor<{k}xi32>
  %rn = tt.make_range {{start = 0 : i32, end = {n} : i32}} : tensor<{n}xi32>
  %K = arith.constant {k} : i32
  %N = arith.constant {n} : i32
  {outer_offsets("aoff", "rm", "rk", m, k, "K")}
  {outer_offsets("boff", "rk", "rn", k, n, "N")}
  {outer_offsets("coff", "rm", "rn", m, n, "N")}
  {tile_pointers("a_t", "ap", "aoff", m, k)}
  {tile_pointers("b_t", "bp", "boff", k, n)}
  {tile_pointers("c_t", "cp", "coff", m, n)}
  %a = tt.load %a_t : tensor<{m}x{k}x!tt.ptr<f32>>
  %b = tt.load %b_t : tensor<{k}x{n}x!tt.ptr<f32>>
  %z = tt.zeros : tensor<{m}x{n}xf32>
  %c = tt.dot %a, %b, %z : tensor<{m}x{k}xf32> * tensor<{k}x{n}xf32> -> tensor<{m}x{n}xf32>
  tt.store %c_t, %c : tensor<{m}x{n}x!tt.ptr<f32>>
  func.return
}}"""
    rng = np.random.default_rng(30)
    a = rng.standard_normal((m, k)).astype(np.float32)
    b = rng.standard_normal((k, n)).astype(np.float32)
    c = poisoned((m, n))
    run(text, (1,), [a, b, c])
    np.testing.assert_allclose(c, a.astype(np.float64) @ b, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("k_kind", ["runtime K", "compile-time K"])
def test_tiled_matmul_with_k_loop(k_kind: str) -> None:
    m, n, k = 64, 96, 80
    bm, bn, bk = 32, 32, 16
    rng = np.random.default_rng(31)
    a = rng.standard_normal((m, k)).astype(np.float32)
    b = rng.standard_normal((k, n)).astype(np.float32)
    c = poisoned((m, n))
    text = tiled_matmul(bm, bn, bk, k if k_kind == "compile-time K" else None)
    run(text, (m // bm, n // bn, 1), [a, b, c, n, k])
    np.testing.assert_allclose(c, a.astype(np.float64) @ b + 1, rtol=1e-4, atol=1e-4)


def test_dot_accumulates_in_f32() -> None:
    """(1e8 + 2) - 1e8 is 0 in f32 (it would be 2 in float64)."""
    text = """
func.func @k(%cp: !tt.ptr<f32>) {
  %big = arith.constant 1.0e8 : f32
  %one = arith.constant 1.0 : f32
  %a = tt.full %one : f32 -> tensor<2x2xf32>
  %acc = tt.full %big : f32 -> tensor<2x2xf32>
  %b = tt.full %one : f32 -> tensor<2x2xf32>
  %c = tt.dot %a, %b, %acc : tensor<2x2xf32> * tensor<2x2xf32> -> tensor<2x2xf32>
  %nbig = tt.neg %acc : tensor<2x2xf32>
  %d = tt.add %c, %nbig : tensor<2x2xf32>
  %r = tt.make_range {start = 0 : i32, end = 2 : i32} : tensor<2xi32>
  %two = arith.constant 2 : i32
  %r2 = tt.expand_dims %r {axis = 1 : i32} : tensor<2xi32> -> tensor<2x1xi32>
  %c2 = tt.expand_dims %r {axis = 0 : i32} : tensor<2xi32> -> tensor<1x2xi32>
  %ts = tt.splat %two : i32 -> tensor<2x1xi32>
  %ro = tt.mul %r2, %ts : tensor<2x1xi32>
  %rb = tt.broadcast %ro : tensor<2x1xi32> -> tensor<2x2xi32>
  %cb = tt.broadcast %c2 : tensor<1x2xi32> -> tensor<2x2xi32>
  %off = tt.add %rb, %cb : tensor<2x2xi32>
  %ps = tt.splat %cp : !tt.ptr<f32> -> tensor<2x2x!tt.ptr<f32>>
  %p = tt.addptr %ps, %off : tensor<2x2x!tt.ptr<f32>>, tensor<2x2xi32>
  tt.store %p, %d : tensor<2x2x!tt.ptr<f32>>
  func.return
}"""
    c = poisoned((2, 2))
    run(text, (1,), [c])
    np.testing.assert_array_equal(c, 0.0)  # 1e8 + 2 rounds to 1e8 in f32
