"""Runtime ``scf.for`` loops: block and scalar carried values, pointer increments, nesting,
empty and divergent trip counts."""

from __future__ import annotations

import numpy as np
import pytest

from tests.interpreter.util import poisoned, reduce_op, run

pytestmark = pytest.mark.execution

B = 32
F = f"tensor<{B}xf32>"
TI = f"tensor<{B}xi32>"
PT = f"tensor<{B}x!tt.ptr<f32>>"

ROW_PREAMBLE = f"""
  %row = tt.get_program_id x : i32
  %base = tt.mul %row, %n : i32
  %r = tt.make_range {{start = 0 : i32, end = {B} : i32}} : {TI}
  %c0 = arith.constant 0 : i32
  %cB = arith.constant {B} : i32
  %zero = tt.zeros : {F}
  %ns = tt.splat %n : i32 -> {TI}"""

STORE_ROW_RESULT = """
  %o = tt.addptr %outp, %row : !tt.ptr<f32>, i32
  tt.store %o, %s : !tt.ptr<f32>"""


def row_sums(text: str, rows: int = 9, n: int = 100) -> None:
    x = np.random.default_rng(20).standard_normal((rows, n)).astype(np.float32)
    out = poisoned(rows)
    run(text, (rows,), [x, out, n])
    np.testing.assert_allclose(out, x.astype(np.float64).sum(axis=1), rtol=1e-5, atol=1e-5)


def test_long_row_sum_with_block_accumulator() -> None:
    row_sums(f"""
func.func @k(%xp: !tt.ptr<f32>, %outp: !tt.ptr<f32>, %n: i32) {{
  {ROW_PREAMBLE}
  %bs = tt.splat %base : i32 -> {TI}
  %xs = tt.splat %xp : !tt.ptr<f32> -> {PT}
  %acc = scf.for %k = %c0 to %n step %cB iter_args(%a = %zero) -> ({F}) : i32 {{
    %ks = tt.splat %k : i32 -> {TI}
    %cols = tt.add %ks, %r : {TI}
    %m = tt.cmp lt, %cols, %ns : {TI}
    %offs = tt.add %bs, %cols : {TI}
    %p = tt.addptr %xs, %offs : {PT}, {TI}
    %x = tt.load %p, %m, %zero : {PT}
    %a2 = tt.add %a, %x : {F}
    scf.yield %a2 : {F}
  }}
  {reduce_op("s", "sum", "acc", 0, F, "f32", "f32")}
  {STORE_ROW_RESULT}
  func.return
}}""")


def test_scalar_accumulator_and_pointer_increments() -> None:
    row_sums(f"""
func.func @k(%xp: !tt.ptr<f32>, %outp: !tt.ptr<f32>, %n: i32) {{
  {ROW_PREAMBLE}
  %bs = tt.splat %base : i32 -> {TI}
  %start = tt.add %bs, %r : {TI}
  %xs = tt.splat %xp : !tt.ptr<f32> -> {PT}
  %p0 = tt.addptr %xs, %start : {PT}, {TI}
  %f0 = arith.constant 0.0 : f32
  %inc = tt.splat %cB : i32 -> {TI}
  %s, %p_end = scf.for %k = %c0 to %n step %cB iter_args(%a = %f0, %p = %p0) -> (f32, {PT}) : i32 {{
    %ks = tt.splat %k : i32 -> {TI}
    %cols = tt.add %ks, %r : {TI}
    %m = tt.cmp lt, %cols, %ns : {TI}
    %x = tt.load %p, %m, %zero : {PT}
    {reduce_op("part", "sum", "x", 0, F, "f32", "f32")}
    %a2 = tt.add %a, %part : f32
    %p2 = tt.addptr %p, %inc : {PT}, {TI}
    scf.yield %a2, %p2 : f32, {PT}
  }}
  {STORE_ROW_RESULT}
  func.return
}}""")


def test_nested_loops_sum_each_matrix() -> None:
    text = f"""
func.func @k(%xp: !tt.ptr<f32>, %outp: !tt.ptr<f32>, %R: i32, %C: i32) {{
  %b = tt.get_program_id x : i32
  %rc = tt.mul %R, %C : i32
  %base = tt.mul %b, %rc : i32
  %r = tt.make_range {{start = 0 : i32, end = {B} : i32}} : {TI}
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %cB = arith.constant {B} : i32
  %f0 = arith.constant 0.0 : f32
  %zero = tt.zeros : {F}
  %Cs = tt.splat %C : i32 -> {TI}
  %xs = tt.splat %xp : !tt.ptr<f32> -> {PT}
  %s = scf.for %i = %c0 to %R step %c1 iter_args(%t = %f0) -> (f32) : i32 {{
    %ic = tt.mul %i, %C : i32
    %rowbase = tt.add %base, %ic : i32
    %rbs = tt.splat %rowbase : i32 -> {TI}
    %t2 = scf.for %j = %c0 to %C step %cB iter_args(%u = %t) -> (f32) : i32 {{
      %js = tt.splat %j : i32 -> {TI}
      %cols = tt.add %js, %r : {TI}
      %m = tt.cmp lt, %cols, %Cs : {TI}
      %offs = tt.add %rbs, %cols : {TI}
      %p = tt.addptr %xs, %offs : {PT}, {TI}
      %x = tt.load %p, %m, %zero : {PT}
      {reduce_op("part", "sum", "x", 0, F, "f32", "f32")}
      %u2 = tt.add %u, %part : f32
      scf.yield %u2 : f32
    }}
    scf.yield %t2 : f32
  }}
  %o = tt.addptr %outp, %b : !tt.ptr<f32>, i32
  tt.store %o, %s : !tt.ptr<f32>
  func.return
}}"""
    batches, rows, cols = 5, 7, 45
    x = np.random.default_rng(21).standard_normal((batches, rows, cols)).astype(np.float32)
    out = poisoned(batches)
    run(text, (batches,), [x, out, rows, cols])
    np.testing.assert_allclose(out, x.astype(np.float64).sum(axis=(1, 2)), rtol=1e-5, atol=1e-5)


def scalar_loop(step: int) -> str:
    """``out[pid] = sum(range(lb, ub, step))`` with runtime bounds (the step is a constant)."""
    return f"""
func.func @k(%outp: !tt.ptr<i32>, %lb: i32, %ub: i32) {{
  %pid = tt.get_program_id x : i32
  %c0 = arith.constant 0 : i32
  %step = arith.constant {step} : i32
  %s = scf.for %i = %lb to %ub step %step iter_args(%a = %c0) -> (i32) : i32 {{
    %a2 = tt.add %a, %i : i32
    scf.yield %a2 : i32
  }}
  %o = tt.addptr %outp, %pid : !tt.ptr<i32>, i32
  tt.store %o, %s : !tt.ptr<i32>
  func.return
}}"""


@pytest.mark.parametrize(("lb", "ub", "step"), [(3, 20, 4), (0, 1, 1), (5, 5, 1), (9, 2, 3)])
def test_induction_variable_bounds_and_empty_loops(lb: int, ub: int, step: int) -> None:
    out = poisoned(3, np.int32)
    run(scalar_loop(step), (3,), [out, lb, ub])
    np.testing.assert_array_equal(out, sum(range(lb, ub, step)))


def test_trip_count_differs_between_programs() -> None:
    """``for i in range(pid + 1)``: programs cannot run in lockstep, the result must not care."""
    text = """
func.func @k(%outp: !tt.ptr<i32>) {
  %pid = tt.get_program_id x : i32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %ub = tt.add %pid, %c1 : i32
  %s = scf.for %i = %c0 to %ub step %c1 iter_args(%a = %c0) -> (i32) : i32 {
    %a2 = tt.add %a, %i : i32
    scf.yield %a2 : i32
  }
  %o = tt.addptr %outp, %pid : !tt.ptr<i32>, i32
  tt.store %o, %s : !tt.ptr<i32>
  func.return
}"""
    out = poisoned(64, np.int32)
    run(text, (64,), [out])
    p = np.arange(64)
    np.testing.assert_array_equal(out, p * (p + 1) // 2)
