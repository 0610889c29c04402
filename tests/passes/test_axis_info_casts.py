"""Integer widening casts keep what the axis analysis knows (Triton's rule for extsi/extui):
block pointers compute their offsets in i64 from i32 ranges, offsets and shapes, and their
loads vectorize only if the i64 offsets stay visibly contiguous and aligned."""

from __future__ import annotations

from tests.passes.test_axis_info import analyse

ARGS = "%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}"
BODY = """
  %r = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %wide = tt.cast %r : tensor<64xi32> -> tensor<64xi64>
  %n64 = tt.cast %n : i32 -> i64
  %ns = tt.splat %n64 : i64 -> tensor<64xi64>
  %mask = tt.cmp lt, %wide, %ns : tensor<64xi64>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %p = tt.addptr %xs, %wide : tensor<64x!tt.ptr<f32>>, tensor<64xi64>
  %narrow = tt.cast %wide : tensor<64xi64> -> tensor<64xi16>
  %f = tt.cast %r : tensor<64xi32> -> tensor<64xf32>
"""


def test_widening_cast_keeps_contiguity_and_divisibility() -> None:
    a, v = analyse(BODY, ARGS)
    assert a[v["wide"]] == a[v["r"]]
    assert a[v["n64"]].scalar_divisibility == 16
    assert a[v["mask"]].constancy == (16,)  # the mask of a block pointer's boundary check
    assert a[v["p"]].contiguity == (64,) and a[v["p"]].divisibility == (16,)


def test_narrowing_and_float_casts_know_nothing() -> None:
    a, v = analyse(BODY, ARGS)
    assert a[v["narrow"]].contiguity == (1,) and a[v["narrow"]].divisibility == (1,)
    assert a[v["f"]].contiguity == (1,)
