"""Every op of the dialect has an interpreter rule; anything the interpreter cannot run (an op
without a rule, an unsupported type, bad arguments) fails with a typed error before running."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects import arith, func, scf
from xdsl.ir import Operation

from mytriton.backends.interpreter import InterpreterError, run_kernel
from mytriton.backends.interpreter.registry import rule_for
from mytriton.dialects import TT
from tests.interpreter.util import parse, run


@pytest.mark.parametrize(
    "op_class",
    [*TT.operations, arith.ConstantOp, scf.ForOp, scf.YieldOp, func.ReturnOp],
    ids=lambda c: str(c.name),
)
def test_every_op_has_a_rule(op_class: type[Operation]) -> None:
    assert rule_for(op_class) is not None, f"{op_class.name} has no interpreter rule"


def test_tt_dialect_is_not_empty() -> None:
    assert len(list(TT.operations)) >= 30


STORE_THEN = """
func.func @k(%outp: !tt.ptr<i32>, %n: i32) {{
  tt.store %outp, %n : !tt.ptr<i32>
  {line}
  func.return
}}"""


def test_op_without_a_rule_fails_before_anything_runs() -> None:
    text = STORE_THEN.format(line='%x = arith.addi %n, %n : i32 loc("kernel.py":7:9)')
    out = np.zeros(1, np.int32)
    with pytest.raises(
        InterpreterError, match=r"kernel.py:7:9: error: .*no rule for operation 'arith.addi'"
    ):
        run(text, (1,), [out, 5])
    assert out[0] == 0  # the store before it never ran


def test_unsupported_element_type() -> None:
    text = """
func.func @k(%p: !tt.ptr<i24>) {
  func.return
}"""
    with pytest.raises(InterpreterError, match="does not support element type i24"):
        run(text, (1,), [np.zeros(4, np.float32)])
    inside = STORE_THEN.format(line='%e = tt.empty : tensor<4xi24> loc("kernel.py":3:11)')
    out = np.zeros(1, np.int32)
    with pytest.raises(InterpreterError, match=r"kernel.py:3:11: error: .* element type i24"):
        run(inside, (1,), [out, 5])
    assert out[0] == 0  # rejected before anything ran


@pytest.mark.execution
def test_read_only_arrays_can_be_loaded_not_stored() -> None:
    text = """
func.func @k(%xp: !tt.ptr<i32>, %outp: !tt.ptr<i32>) {
  %x = tt.load %xp : !tt.ptr<i32>
  tt.store %outp, %x : !tt.ptr<i32> loc("kernel.py":4:5)
  func.return
}"""
    x = np.array([42], dtype=np.int32)
    x.flags.writeable = False
    out = np.zeros(1, np.int32)
    run(text, (1,), [x, out])
    assert out[0] == 42
    with pytest.raises(InterpreterError, match=r"kernel.py:4:5: .*'outp', a read-only array"):
        run(text, (1,), [out, x])


ARGS = """
func.func @k(%p: !tt.ptr<f32>, %n: i32, %f: f32) {
  func.return
}"""


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([np.zeros(4, np.float32), 1], "takes 3 arguments, got 2"),
        ([np.zeros(4, np.float64), 1, 1.0], "needs an array of float32, got float64"),
        ([[1.0, 2.0], 1, 1.0], "needs a NumPy array, got list"),
        ([np.zeros(4, np.float32), 2**31, 1.0], "= 2147483648 does not fit int32"),
        ([np.zeros(4, np.float32), 1.5, 1.0], "needs an integer, got 1.5"),
        ([np.zeros(4, np.float32), 1, "x"], "needs a number"),
        ([np.zeros(4, np.float32), np.zeros(2, np.int32), 1.0], "is a scalar, got an array"),
    ],
)
def test_bad_arguments(args: list[object], message: str) -> None:
    with pytest.raises(InterpreterError, match=message):
        run(ARGS, (1,), args)


def test_unknown_kernel_and_bad_grid() -> None:
    module = parse(ARGS)
    with pytest.raises(InterpreterError, match="no kernel named 'nope'"):
        run_kernel(module, "nope", (1, 1, 1), [])
    with pytest.raises(InterpreterError, match="grid must be 1 to 3 non-negative sizes"):
        run_kernel(module, "k", (-1, 1, 1), [np.zeros(4, np.float32), 1, 1.0])


@pytest.mark.execution
def test_empty_grid_runs_nothing() -> None:
    out = np.zeros(1, np.int32)
    run(STORE_THEN.format(line=""), (0, 1, 1), [out, 5])
    assert out[0] == 0


@pytest.mark.execution
def test_lanewise_choice_between_arrays_is_refused() -> None:
    """A pointer block into two different arrays has no (base, offsets) form: refuse it loudly."""
    text = """
func.func @k(%xp: !tt.ptr<i32>, %yp: !tt.ptr<i32>) {
  %r = tt.make_range {start = 0 : i32, end = 4 : i32} : tensor<4xi32>
  %two = arith.constant 2 : i32
  %t = tt.splat %two : i32 -> tensor<4xi32>
  %low = tt.cmp lt, %r, %t : tensor<4xi32>
  %xs = tt.splat %xp : !tt.ptr<i32> -> tensor<4x!tt.ptr<i32>>
  %ys = tt.splat %yp : !tt.ptr<i32> -> tensor<4x!tt.ptr<i32>>
  %p = tt.select %low, %xs, %ys : tensor<4x!tt.ptr<i32>> loc("kernel.py":9:9)
  tt.store %p, %r : tensor<4x!tt.ptr<i32>>
  func.return
}"""
    with pytest.raises(InterpreterError, match=r"kernel.py:9:9: .*lane by lane between pointers"):
        run(text, (1,), [np.zeros(4, np.int32), np.zeros(4, np.int32)])
