"""The axis analysis (contiguity, divisibility, constancy) on small `tt` functions."""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.ir import SSAValue
from xdsl.parser import Parser

from mytriton.dialects import make_context
from mytriton.passes.analysis.axis_info import MAX_DIVISIBILITY, AxisAnalysis, pow2_dividing


def analyse(body: str, args: str) -> tuple[AxisAnalysis, dict[str, SSAValue]]:
    text = f"func.func @k({args}) {{\n{body}\n  func.return\n}}"
    module = Parser(make_context(), text).parse_module()
    values: dict[str, SSAValue] = {}
    for op in module.walk():
        if isinstance(op, func.FuncOp):
            for a in op.body.block.args:
                values[a.name_hint or ""] = a
        for r in op.results:
            if r.name_hint:
                values[r.name_hint] = r
    return AxisAnalysis(module), values


ALIGNED = "%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}"
BODY = """
  %pid = tt.get_program_id x : i32
  %c = arith.constant 256 : i32
  %start = tt.mul %pid, %c : i32
  %r = tt.make_range {start = 0 : i32, end = 256 : i32} : tensor<256xi32>
  %s = tt.splat %start : i32 -> tensor<256xi32>
  %offs = tt.add %s, %r : tensor<256xi32>
  %ns = tt.splat %n : i32 -> tensor<256xi32>
  %mask = tt.cmp lt, %offs, %ns : tensor<256xi32>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
  %p = tt.addptr %xs, %offs : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
"""


def test_pow2_dividing() -> None:
    assert pow2_dividing(48) == 16 and pow2_dividing(-8) == 8 and pow2_dividing(7) == 1
    assert pow2_dividing(0) == MAX_DIVISIBILITY


def test_range_plus_aligned_start_is_contiguous_and_divisible() -> None:
    a, v = analyse(BODY, ALIGNED)
    assert a[v["r"]].contiguity == (256,) and a[v["r"]].divisibility == (MAX_DIVISIBILITY,)
    assert a[v["start"]].scalar_divisibility == 256  # program id (1) times 256
    offs = a[v["offs"]]
    assert offs.contiguity == (256,) and offs.divisibility == (256,) and offs.constancy == (1,)


def test_splat_is_constant_and_keeps_the_scalar_divisibility() -> None:
    a, v = analyse(BODY, ALIGNED)
    ns = a[v["ns"]]
    assert ns.constancy == (256,) and ns.contiguity == (1,) and ns.divisibility == (16,)


def test_mask_against_a_multiple_of_16_is_constant_over_16() -> None:
    a, v = analyse(BODY, ALIGNED)
    assert a[v["mask"]].constancy == (16,)
    a, v = analyse(BODY, "%x: !tt.ptr<f32>, %n: i32")
    assert a[v["mask"]].constancy == (1,)


def test_pointer_divisibility_is_in_bytes() -> None:
    a, v = analyse(BODY, ALIGNED)
    p = a[v["p"]]
    assert p.contiguity == (256,) and p.divisibility == (16,)  # gcd(16 B, 256 * 4 B)
    a, v = analyse(BODY, "%x: !tt.ptr<f32>, %n: i32")
    assert a[v["p"]].divisibility == (1,)


def test_unaligned_offset_breaks_the_alignment() -> None:
    body = (
        BODY
        + """
  %three = arith.constant 3 : i32
  %t = tt.splat %three : i32 -> tensor<256xi32>
  %q = tt.addptr %p, %t : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
"""
    )
    a, v = analyse(body, ALIGNED)
    q = a[v["q"]]
    assert q.contiguity == (256,) and q.divisibility == (4,)  # 12 bytes: 4-byte aligned only


def test_multiplication_by_a_runtime_stride_breaks_contiguity() -> None:
    body = (
        BODY
        + """
  %ms = tt.mul %offs, %ns : tensor<256xi32>
"""
    )
    a, v = analyse(body, ALIGNED)
    ms = a[v["ms"]]
    assert ms.contiguity == (1,) and ms.divisibility == (16,)


def test_remainder_by_a_multiple_of_16_keeps_runs_of_16() -> None:
    body = (
        BODY
        + """
  %wrapped = tt.rem %offs, %ns : tensor<256xi32>
"""
    )
    a, v = analyse(body, ALIGNED)
    assert a[v["wrapped"]].contiguity == (16,)


def test_broadcast_and_expand_dims() -> None:
    body = """
  %r = tt.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32>
  %row = tt.expand_dims %r {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %tile = tt.broadcast %row : tensor<1x32xi32> -> tensor<16x32xi32>
"""
    a, v = analyse(body, ALIGNED)
    tile = a[v["tile"]]
    assert tile.contiguity == (1, 32) and tile.constancy == (16, 1)


def test_loop_carried_pointer_increment_keeps_alignment() -> None:
    body = (
        BODY
        + """
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c16 = arith.constant 16 : i32
  %inc = tt.splat %c16 : i32 -> tensor<256xi32>
  %final = scf.for %i = %c0 to %n step %c1 iter_args(%cur = %p) -> (tensor<256x!tt.ptr<f32>>) : i32 {
    %next = tt.addptr %cur, %inc : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    scf.yield %next : tensor<256x!tt.ptr<f32>>
  }
"""
    )
    a, v = analyse(body, ALIGNED)
    final = a[v["final"]]
    assert final.contiguity == (256,) and final.divisibility == (16,)


def test_loaded_values_are_unknown() -> None:
    body = (
        BODY
        + """
  %vals = tt.load %p : tensor<256x!tt.ptr<f32>>
"""
    )
    a, v = analyse(body, ALIGNED)
    assert a[v["vals"]].contiguity == (1,) and a[v["vals"]].divisibility == (1,)
