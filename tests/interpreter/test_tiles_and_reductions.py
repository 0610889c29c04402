"""2-D tiles (expand_dims/broadcast, 2-D grid), row reductions over both axes, and softmax."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from tests.interpreter.util import (
    mask_lt,
    offsets_1d,
    pointers,
    poisoned,
    reduce_op,
    run,
    splat_const,
)

pytestmark = pytest.mark.execution


def tile_offsets(bm: int, bn: int) -> str:
    """IR for ``%off = rows[:, None] * stride + cols[None, :]`` and ``%mask`` (rows < M, cols < N)
    of the (pid_x, pid_y) tile."""
    t = f"tensor<{bm}x{bn}xi32>"
    return f"""
  {offsets_1d(bm, "rm", "x")}
  {offsets_1d(bn, "rn", "y")}
  %rm2 = tt.expand_dims %rm {{axis = 1 : i32}} : tensor<{bm}xi32> -> tensor<{bm}x1xi32>
  %rn2 = tt.expand_dims %rn {{axis = 0 : i32}} : tensor<{bn}xi32> -> tensor<1x{bn}xi32>
  %st = tt.splat %stride : i32 -> tensor<{bm}x1xi32>
  %rowoff = tt.mul %rm2, %st : tensor<{bm}x1xi32>
  %rowb = tt.broadcast %rowoff : tensor<{bm}x1xi32> -> {t}
  %colb = tt.broadcast %rn2 : tensor<1x{bn}xi32> -> {t}
  %off = tt.add %rowb, %colb : {t}
  %Ms = tt.splat %M : i32 -> tensor<{bm}x1xi32>
  %Ns = tt.splat %N : i32 -> tensor<1x{bn}xi32>
  %mr = tt.cmp lt, %rm2, %Ms : tensor<{bm}x1xi32>
  %mc = tt.cmp lt, %rn2, %Ns : tensor<1x{bn}xi32>
  %mrb = tt.broadcast %mr : tensor<{bm}x1xi1> -> tensor<{bm}x{bn}xi1>
  %mcb = tt.broadcast %mc : tensor<1x{bn}xi1> -> tensor<{bm}x{bn}xi1>
  %mask = tt.and %mrb, %mcb : tensor<{bm}x{bn}xi1>"""


def tile_pointers(ptr: str, bm: int, bn: int) -> str:
    pt = f"tensor<{bm}x{bn}x!tt.ptr<f32>>"
    return f"""
  %{ptr}_s = tt.splat %{ptr} : !tt.ptr<f32> -> {pt}
  %{ptr}_t = tt.addptr %{ptr}_s, %off : {pt}, tensor<{bm}x{bn}xi32>"""


def test_2d_tile_add() -> None:
    bm, bn = 16, 32
    pt = f"tensor<{bm}x{bn}x!tt.ptr<f32>>"
    text = f"""
func.func @k(%xp: !tt.ptr<f32>, %yp: !tt.ptr<f32>, %outp: !tt.ptr<f32>,
             %M: i32, %N: i32, %stride: i32) {{
  {tile_offsets(bm, bn)}
  {tile_pointers("xp", bm, bn)}
  {tile_pointers("yp", bm, bn)}
  {tile_pointers("outp", bm, bn)}
  %x = tt.load %xp_t, %mask : {pt}
  %y = tt.load %yp_t, %mask : {pt}
  %s = tt.add %x, %y : tensor<{bm}x{bn}xf32>
  tt.store %outp_t, %s, %mask : {pt}
  func.return
}}"""
    rng = np.random.default_rng(10)
    m, n = 50, 70
    x = rng.standard_normal((m, n)).astype(np.float32)
    y = rng.standard_normal((m, n)).astype(np.float32)
    out = poisoned((m, n))
    run(text, (4, 3, 1), [x, y, out, m, n, n])
    np.testing.assert_array_equal(out, x + y)


REDUCTIONS: dict[str, tuple[str, Callable[..., Any]]] = {
    "sum": ("0.0", np.sum),
    "max": ("0xFF800000", np.max),  # -inf
    "min": ("0x7F800000", np.min),  # +inf
}


@pytest.mark.parametrize("kind", REDUCTIONS)
def test_row_reduction_one_program_per_row(kind: str) -> None:
    block = 128
    other, reference = REDUCTIONS[kind]
    text = f"""
func.func @k(%xp: !tt.ptr<f32>, %outp: !tt.ptr<f32>, %n: i32) {{
  %row = tt.get_program_id x : i32
  %base = tt.mul %row, %n : i32
  %r = tt.make_range {{start = 0 : i32, end = {block} : i32}} : tensor<{block}xi32>
  %bs = tt.splat %base : i32 -> tensor<{block}xi32>
  %offs = tt.add %bs, %r : tensor<{block}xi32>
  {mask_lt("r", "n", block)}
  {pointers("xp", "offs", block)}
  {splat_const("other", other, block)}
  %x = tt.load %xp_p, %mask, %other : tensor<{block}x!tt.ptr<f32>>
  {reduce_op("red", kind, "x", 0, f"tensor<{block}xf32>", "f32", "f32")}
  %o = tt.addptr %outp, %row : !tt.ptr<f32>, i32
  tt.store %o, %red : !tt.ptr<f32>
  func.return
}}"""
    rng = np.random.default_rng(11)
    rows, n = 37, 100
    x = rng.standard_normal((rows, n)).astype(np.float32)
    out = poisoned(rows)
    run(text, (rows,), [x, out, n])
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, reference(x.astype(np.float64), axis=1), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("kind", REDUCTIONS)
@pytest.mark.parametrize("axis", [0, 1])
def test_tile_reduction_over_each_axis(kind: str, axis: int) -> None:
    r, c = 16, 32
    kept = c if axis == 0 else r
    t = f"tensor<{r}x{c}xi32>"
    text = f"""
func.func @k(%xp: !tt.ptr<f32>, %outp: !tt.ptr<f32>) {{
  %rr = tt.make_range {{start = 0 : i32, end = {r} : i32}} : tensor<{r}xi32>
  %cc = tt.make_range {{start = 0 : i32, end = {c} : i32}} : tensor<{c}xi32>
  %r2 = tt.expand_dims %rr {{axis = 1 : i32}} : tensor<{r}xi32> -> tensor<{r}x1xi32>
  %c2 = tt.expand_dims %cc {{axis = 0 : i32}} : tensor<{c}xi32> -> tensor<1x{c}xi32>
  %stride = arith.constant {c} : i32
  %st = tt.splat %stride : i32 -> tensor<{r}x1xi32>
  %ro = tt.mul %r2, %st : tensor<{r}x1xi32>
  %rb = tt.broadcast %ro : tensor<{r}x1xi32> -> {t}
  %cb = tt.broadcast %c2 : tensor<1x{c}xi32> -> {t}
  %off = tt.add %rb, %cb : {t}
  %xs = tt.splat %xp : !tt.ptr<f32> -> tensor<{r}x{c}x!tt.ptr<f32>>
  %xt = tt.addptr %xs, %off : tensor<{r}x{c}x!tt.ptr<f32>>, {t}
  %x = tt.load %xt : tensor<{r}x{c}x!tt.ptr<f32>>
  {reduce_op("red", kind, "x", axis, f"tensor<{r}x{c}xf32>", f"tensor<{kept}xf32>", "f32")}
  %k = tt.make_range {{start = 0 : i32, end = {kept} : i32}} : tensor<{kept}xi32>
  {pointers("outp", "k", kept)}
  tt.store %outp_p, %red : tensor<{kept}x!tt.ptr<f32>>
  func.return
}}"""
    x = np.random.default_rng(12).standard_normal((r, c)).astype(np.float32)
    out = poisoned(kept)
    run(text, (1,), [x, out])
    reference = REDUCTIONS[kind][1]
    np.testing.assert_allclose(out, reference(x.astype(np.float64), axis=axis), rtol=1e-5)


def test_integer_sum_reduction_wraps() -> None:
    text = f"""
func.func @k(%xp: !tt.ptr<i32>, %outp: !tt.ptr<i32>) {{
  %r = tt.make_range {{start = 0 : i32, end = 4 : i32}} : tensor<4xi32>
  %xs = tt.splat %xp : !tt.ptr<i32> -> tensor<4x!tt.ptr<i32>>
  %xt = tt.addptr %xs, %r : tensor<4x!tt.ptr<i32>>, tensor<4xi32>
  %x = tt.load %xt : tensor<4x!tt.ptr<i32>>
  {reduce_op("s", "sum", "x", 0, "tensor<4xi32>", "i32", "i32")}
  tt.store %outp, %s : !tt.ptr<i32>
  func.return
}}"""
    x = np.array([2**31 - 1, 1, 5, -3], dtype=np.int32)
    out = np.zeros(1, dtype=np.int32)
    run(text, (1,), [x, out])
    assert out[0] == np.int32(-(2**31) + 2)  # 2**31 + 2 wraps


def test_softmax() -> None:
    block = 128
    f = f"tensor<{block}xf32>"
    pt = f"tensor<{block}x!tt.ptr<f32>>"
    text = f"""
func.func @k(%xp: !tt.ptr<f32>, %outp: !tt.ptr<f32>, %n: i32) {{
  %row = tt.get_program_id x : i32
  %base = tt.mul %row, %n : i32
  %r = tt.make_range {{start = 0 : i32, end = {block} : i32}} : tensor<{block}xi32>
  %bs = tt.splat %base : i32 -> tensor<{block}xi32>
  %offs = tt.add %bs, %r : tensor<{block}xi32>
  {mask_lt("r", "n", block)}
  {pointers("xp", "offs", block)}
  {pointers("outp", "offs", block)}
  {splat_const("ninf", "0xFF800000", block)}
  %x = tt.load %xp_p, %mask, %ninf : {pt}
  {reduce_op("m", "max", "x", 0, f, "f32", "f32")}
  %ms = tt.splat %m : f32 -> {f}
  %xm = tt.sub %x, %ms : {f}
  %e = tt.exp %xm : {f}
  {reduce_op("s", "sum", "e", 0, f, "f32", "f32")}
  %ss = tt.splat %s : f32 -> {f}
  %y = tt.div %e, %ss : {f}
  tt.store %outp_p, %y, %mask : {pt}
  func.return
}}"""
    rng = np.random.default_rng(13)
    rows, n = 37, 100
    x = (rng.standard_normal((rows, n)) * 5).astype(np.float32)
    out = poisoned((rows, n))
    run(text, (rows,), [x, out, n])
    x64 = x.astype(np.float64)
    e = np.exp(x64 - x64.max(axis=1, keepdims=True))
    np.testing.assert_allclose(out, e / e.sum(axis=1, keepdims=True), rtol=1e-5, atol=1e-7)
