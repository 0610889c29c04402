"""Uninitialised values (``tl.empty``, masked loads without ``other``): in debug mode storing,
reducing or addressing with a value derived from them raises ``PoisonUse`` at the kernel line;
values that merely pass near poison (a ``select`` that picks the defined side, a masked store that
skips poisoned lanes, a loop variable overwritten before use) do not."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from mytriton.backends.interpreter import PoisonUse
from tests.interpreter.util import kernel_source, offsets_1d, poisoned, reduce_op, run

pytestmark = pytest.mark.execution

B = 64
F = f"tensor<{B}xf32>"
TI = f"tensor<{B}xi32>"
PT = f"tensor<{B}x!tt.ptr<f32>>"

SOURCE = [
    "def kernel(x_ptr, out_ptr, n):",
    "    buf = tl.empty((64,), tl.float32)",
    "    x = tl.load(x_ptr + offs, mask=mask)",
    "    y = compute(x, buf)",
    "    tl.store(out_ptr + offs, y)",
    "    total = tl.sum(y)",
]


def kernel(src: str, body: str, store_mask: bool = False) -> str:
    """Loads ``%x`` (masked by ``offs < n``, other 0), has ``%buf = tl.empty``; ``body`` defines
    ``%y``, which is stored (masked by ``store_mask``)."""
    mask = ", %mask" if store_mask else ""
    return f"""
func.func @k(%x_ptr: !tt.ptr<f32>, %out_ptr: !tt.ptr<f32>, %n: i32) {{
  {offsets_1d(B)}
  %ns = tt.splat %n : i32 -> {TI}
  %mask = tt.cmp lt, %offs, %ns : {TI}
  %xs = tt.splat %x_ptr : !tt.ptr<f32> -> {PT}
  %xp = tt.addptr %xs, %offs : {PT}, {TI}
  %os = tt.splat %out_ptr : !tt.ptr<f32> -> {PT}
  %op = tt.addptr %os, %offs : {PT}, {TI}
  %zero = tt.zeros : {F}
  %buf = tt.empty : {F} loc("{src}":2:11)
  %x = tt.load %xp, %mask, %zero : {PT} loc("{src}":3:9)
  {body}
  tt.store %op, %y{mask} : {PT} loc("{src}":5:5)
  func.return
}}"""


def launch(text: str, *, debug: bool = True, n: int = 100) -> np.ndarray:
    x = np.random.default_rng(50).standard_normal(2 * B).astype(np.float32)
    out = poisoned(2 * B)
    run(text, (2,), [x, out, n], debug=debug)
    return out


def test_storing_empty_is_reported_in_debug_mode(tmp_path: Path) -> None:
    src = kernel_source(tmp_path, SOURCE)
    text = kernel(src, f"%y = tt.add %x, %buf : {F}")
    with pytest.raises(PoisonUse) as info:
        launch(text)
    message = str(info.value)
    assert f"{src}:5:5" in message and "tl.store(out_ptr + offs, y)" in message
    assert f"tl.empty at {src}:2" in message
    assert "the stored value" in message and "program (0, 0, 0)" in message
    # without debug the garbage is visible as NaN, nothing is raised
    assert np.isnan(launch(text, debug=False)).all()


def test_select_of_the_defined_side_is_clean(tmp_path: Path) -> None:
    src = kernel_source(tmp_path, SOURCE)
    body = f"%y = tt.select %mask, %x, %buf : {F}"
    out = launch(kernel(src, body, store_mask=True), n=100)  # lanes >= 100 are poison, not stored
    assert not np.isnan(out[:100]).any()
    with pytest.raises(PoisonUse, match=r"program \(1, 0, 0\) \(element \[36\] of the block\)"):
        launch(kernel(src, body, store_mask=False), n=100)  # the unmasked store writes lane 100


def test_masked_load_without_other(tmp_path: Path) -> None:
    src = kernel_source(tmp_path, SOURCE)
    body = f'%y = tt.load %xp, %mask : {PT} loc("{src}":3:9)'
    launch(kernel(src, body, store_mask=True), n=100)
    with pytest.raises(PoisonUse, match=r"masked-off lanes of the load at .*:3 without 'other'"):
        launch(kernel(src, body, store_mask=False), n=100)


def test_reducing_poison(tmp_path: Path) -> None:
    src = kernel_source(tmp_path, SOURCE)
    body = f"""
  {reduce_op("t", "sum", "buf", 0, F, "f32", "f32", f'loc("{src}":6:13)')}
  %y = tt.splat %t : f32 -> {F}"""
    with pytest.raises(PoisonUse, match=r":6:13: error: the reduced block holds elements derived"):
        launch(kernel(src, body))
    launch(kernel(src, body), debug=False)


def test_poison_through_a_loop_and_dot(tmp_path: Path) -> None:
    src = kernel_source(tmp_path, SOURCE)
    loop = f"""
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  %y = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %buf) -> ({F}) : i32 {{
    %acc2 = tt.add %acc, %x : {F}
    scf.yield %acc2 : {F}
  }}"""
    with pytest.raises(PoisonUse, match=r"tl\.empty at"):
        launch(kernel(src, loop))
    overwritten = loop.replace(f"%acc2 = tt.add %acc, %x : {F}", f"%acc2 = tt.add %x, %x : {F}")
    out = launch(kernel(src, overwritten))
    assert not np.isnan(out[:100]).any()
    dot = f"""
  %e = tt.empty : tensor<8x8xf32>
  %a = tt.zeros : tensor<8x8xf32>
  %d = tt.dot %a, %a, %e : tensor<8x8xf32> * tensor<8x8xf32> -> tensor<8x8xf32>
  {reduce_op("t", "max", "d", 0, "tensor<8x8xf32>", "tensor<8xf32>", "f32")}
  %y = tt.add %x, %x : {F}"""
    with pytest.raises(PoisonUse, match="reduced block"):
        launch(kernel(src, dot))


def test_poison_of_an_earlier_iteration_does_not_stick(tmp_path: Path) -> None:
    """Iteration 0 sees the poisoned initial value (and stores nothing), iteration 1 a clean one."""
    src = kernel_source(tmp_path, SOURCE)
    col = "tensor<64x1xf32>"
    pcol = "tensor<64x1x!tt.ptr<f32>>"
    loop = f"""
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %opc = tt.expand_dims %op {{axis = 1 : i32}} : {PT} -> {pcol}
  %y = scf.for %i = %c0 to %c2 step %c1 iter_args(%a = %buf) -> ({F}) : i32 {{
    %e = tt.expand_dims %a {{axis = 1 : i32}} : {F} -> {col}
    %second = tt.cmp eq, %i, %c1 : i32
    %m = tt.splat %second : i1 -> tensor<64x1xi1>
    tt.store %opc, %e, %m : {pcol}
    scf.yield %x : {F}
  }}"""
    out = launch(kernel(src, loop, store_mask=True))
    assert not np.isnan(out[:100]).any()


def test_poisoned_address(tmp_path: Path) -> None:
    src = kernel_source(tmp_path, SOURCE)
    body = f"""
  %junk = tt.empty : {TI}
  %p = tt.addptr %xp, %junk : {PT}, {TI}
  %y = tt.load %p, %mask, %zero : {PT}"""
    with pytest.raises(PoisonUse, match="the address is derived from uninitialised data"):
        launch(kernel(src, body))
