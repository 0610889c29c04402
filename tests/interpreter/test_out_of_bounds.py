"""Out-of-bounds detection: unmasked and masked-on accesses outside their array raise
``OutOfBoundsAccess`` naming the kernel line, program and offset; masked-off lanes never fault."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from mytriton.backends.interpreter import InterpreterError, OutOfBoundsAccess
from tests.interpreter.util import kernel_source, offsets_1d, poisoned, run

pytestmark = pytest.mark.execution

B = 256
PT = f"tensor<{B}x!tt.ptr<f32>>"
TI = f"tensor<{B}xi32>"

SOURCE = [
    "@triton.jit",
    "def copy_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):",
    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)",
    "    mask = offs < n",
    "    x = tl.load(x_ptr + offs, mask=LOAD_MASK)",
    "    tl.store(out_ptr + offs, x, mask=mask)",
]


def copy_kernel(src: str, *, load_mask: bool, shift: int = 0, far: bool = False) -> str:
    """``out[offs] = x[offs + shift]`` with the store masked by ``offs < n``.

    ``far`` moves the masked-off lanes' addresses a billion elements away.
    """
    load_args = "%xp_p, %mask" if load_mask else "%xp_p"
    far_lines = ""
    if far:
        far_lines = f"""
  %big = arith.constant 1000000000 : i32
  %bigs = tt.splat %big : i32 -> {TI}
  %far = tt.add %offs_x, %bigs : {TI}
  %offs_y = tt.select %mask, %offs_x, %far : {TI}"""
    else:
        far_lines = f"\n  %offs_y = tt.add %offs_x, %zero : {TI}"
    return f"""
func.func @copy_kernel(%x_ptr: !tt.ptr<f32>, %out_ptr: !tt.ptr<f32>, %n: i32) {{
  {offsets_1d(B)}
  %ns = tt.splat %n : i32 -> {TI}
  %mask = tt.cmp lt, %offs, %ns : {TI}
  %sh = arith.constant {shift} : i32
  %shs = tt.splat %sh : i32 -> {TI}
  %offs_x = tt.add %offs, %shs : {TI}
  %zero = tt.zeros : {TI}
  {far_lines}
  %xs = tt.splat %x_ptr : !tt.ptr<f32> -> {PT}
  %xp_p = tt.addptr %xs, %offs_y : {PT}, {TI}
  %os = tt.splat %out_ptr : !tt.ptr<f32> -> {PT}
  %op = tt.addptr %os, %offs : {PT}, {TI}
  %x = tt.load {load_args} : {PT} loc("{src}":5:9)
  tt.store %op, %x, %mask : {PT} loc("{src}":6:5)
  func.return
}}"""


def test_unmasked_load_past_the_end(tmp_path: Path) -> None:
    src = kernel_source(tmp_path, SOURCE)
    n = 1000
    x = np.arange(n, dtype=np.float32)
    out = poisoned(1024)
    with pytest.raises(OutOfBoundsAccess) as info:
        run(copy_kernel(src, load_mask=False), (4,), [x, out, n], name="copy_kernel")
    message = str(info.value)
    assert f"{src}:5:9" in message
    assert "x = tl.load(x_ptr + offs, mask=LOAD_MASK)" in message  # the source text
    assert "out-of-bounds load in program (3, 0, 0) of kernel 'copy_kernel'" in message
    assert "offset 1000 (element [232] of the block)" in message
    assert "argument 'x_ptr' (1000 elements, valid offsets 0..999)" in message
    assert isinstance(info.value, InterpreterError)
    # the programs before the failing one ran, as when programs run one after another
    np.testing.assert_array_equal(out[:768], x[:768])
    assert np.isnan(out[768:]).all()


def test_masked_on_store_past_the_end(tmp_path: Path) -> None:
    src = kernel_source(tmp_path, SOURCE)
    x = np.arange(1024, dtype=np.float32)
    out = poisoned(1000)
    with pytest.raises(OutOfBoundsAccess) as info:  # n = 1024 > len(out): the mask lets it through
        run(copy_kernel(src, load_mask=True), (4,), [x, out, 1024], name="copy_kernel")
    message = str(info.value)
    assert f"{src}:6:5" in message and "tl.store(out_ptr + offs, x, mask=mask)" in message
    assert "out-of-bounds store in program (3, 0, 0)" in message
    assert "offset 1000" in message and "'out_ptr' (1000 elements" in message


def test_negative_offset(tmp_path: Path) -> None:
    src = kernel_source(tmp_path, SOURCE)
    x = np.arange(1024, dtype=np.float32)
    out = poisoned(1024)
    with pytest.raises(OutOfBoundsAccess, match=r"program \(0, 0, 0\).*offset -3 \(element \[0\]"):
        run(copy_kernel(src, load_mask=True, shift=-3), (4,), [x, out, 1024], name="copy_kernel")


def test_masked_off_lanes_never_fault(tmp_path: Path) -> None:
    src = kernel_source(tmp_path, SOURCE)
    n = 1000
    x = np.arange(n, dtype=np.float32)
    out = poisoned(n)
    run(copy_kernel(src, load_mask=True, far=True), (4,), [x, out, n], name="copy_kernel")
    np.testing.assert_array_equal(out, x)


def test_scalar_store_past_the_end() -> None:
    text = """
func.func @k(%outp: !tt.ptr<i32>) {
  %pid = tt.get_program_id x : i32
  %p = tt.addptr %outp, %pid : !tt.ptr<i32>, i32
  tt.store %p, %pid : !tt.ptr<i32>
  func.return
}"""
    out = poisoned(5, np.int32)
    with pytest.raises(OutOfBoundsAccess, match=r"program \(5, 0, 0\).*offset 5 is outside"):
        run(text, (8,), [out])
    np.testing.assert_array_equal(out, np.arange(5))


def test_2d_tile_names_the_element() -> None:
    text = """
func.func @k(%xp: !tt.ptr<f32>) {
  %r = tt.make_range {start = 0 : i32, end = 4 : i32} : tensor<4xi32>
  %r2 = tt.expand_dims %r {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
  %c2 = tt.expand_dims %r {axis = 0 : i32} : tensor<4xi32> -> tensor<1x4xi32>
  %four = arith.constant 4 : i32
  %fs = tt.splat %four : i32 -> tensor<4x1xi32>
  %ro = tt.mul %r2, %fs : tensor<4x1xi32>
  %rb = tt.broadcast %ro : tensor<4x1xi32> -> tensor<4x4xi32>
  %cb = tt.broadcast %c2 : tensor<1x4xi32> -> tensor<4x4xi32>
  %off = tt.add %rb, %cb : tensor<4x4xi32>
  %ps = tt.splat %xp : !tt.ptr<f32> -> tensor<4x4x!tt.ptr<f32>>
  %p = tt.addptr %ps, %off : tensor<4x4x!tt.ptr<f32>>, tensor<4x4xi32>
  %x = tt.load %p : tensor<4x4x!tt.ptr<f32>>
  func.return
}"""
    with pytest.raises(OutOfBoundsAccess, match=r"offset 10 \(element \[2, 2\] of the block\)"):
        run(text, (1,), [np.zeros(10, np.float32)])
