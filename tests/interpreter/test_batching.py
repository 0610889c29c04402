"""Programs run in batches only where that gives the result of running them one after another:
races between the programs of a batch, aliasing arguments and divergent loops fall back."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from xdsl.dialects import func

from mytriton.backends.interpreter import launch
from mytriton.backends.interpreter.batching import BatchLog, stored_arguments
from mytriton.backends.interpreter.memory import Memory
from tests.interpreter.util import mask_lt, offsets_1d, parse, pointers, poisoned, run, tiled_matmul

pytestmark = pytest.mark.execution


@pytest.fixture
def executors(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Records the number of programs of every executor created (one per batch or program)."""
    sizes: list[int] = []

    class Counting(launch.Executor):
        def __init__(self, state: launch.LaunchState, pids: np.ndarray, log: object) -> None:
            sizes.append(int(pids.shape[0]))
            super().__init__(state, pids, log)  # type: ignore[arg-type]

    monkeypatch.setattr(launch, "Executor", Counting)
    return sizes


B = 16
PT = f"tensor<{B}x!tt.ptr<f32>>"
F = f"tensor<{B}xf32>"

INCREMENT = f"""
func.func @k(%xp: !tt.ptr<f32>, %outp: !tt.ptr<f32>, %n: i32) {{
  {offsets_1d(B)}
  {mask_lt("offs", "n", B)}
  {pointers("xp", "offs", B)}
  {pointers("outp", "offs", B)}
  %x = tt.load %xp_p, %mask : {PT}
  %one = arith.constant 1.0 : f32
  %ones = tt.splat %one : f32 -> {F}
  %y = tt.add %x, %ones : {F}
  tt.store %outp_p, %y, %mask : {PT}
  func.return
}}"""


def test_independent_programs_run_in_one_batch(schedule: str, executors: list[int]) -> None:
    x = np.arange(1000, dtype=np.float32)
    out = poisoned(1000)
    run(INCREMENT, (63,), [x, out, 1000])
    np.testing.assert_array_equal(out, x + 1)
    assert executors == ([63] if schedule == "batched" else [1] * 63)


def test_in_place_update_batches(schedule: str, executors: list[int]) -> None:
    x = np.arange(1000, dtype=np.float32)
    run(INCREMENT, (63,), [x, x, 1000])  # the same array is read and written, disjoint per program
    np.testing.assert_array_equal(x, np.arange(1000) + 1)
    assert len(executors) == (1 if schedule == "batched" else 63)


def test_overlapping_views_race_like_programs_run_in_order(executors: list[int]) -> None:
    """out = arr[1:], x = arr[:-1]: program p's store feeds program p+1's load (a race on a GPU;
    the interpreter promises the in-order result)."""
    arr = np.zeros(16 * 8 + 1, dtype=np.float32)
    expected = arr.copy()
    for p in range(8):
        block = expected[p * B : p * B + B].copy()
        expected[p * B + 1 : p * B + B + 1] = block + 1
    run(INCREMENT, (8,), [arr[:-1], arr[1:], 16 * 8])
    np.testing.assert_array_equal(arr, expected)


def test_cross_program_dependence_gives_the_in_order_result() -> None:
    """x[p + 1] = x[p] + 1 for every program p: in grid order this counts up."""
    text = """
func.func @k(%xp: !tt.ptr<i32>) {
  %pid = tt.get_program_id x : i32
  %one = arith.constant 1 : i32
  %src = tt.addptr %xp, %pid : !tt.ptr<i32>, i32
  %dst = tt.addptr %src, %one : !tt.ptr<i32>, i32
  %v = tt.load %src : !tt.ptr<i32>
  %w = tt.add %v, %one : i32
  tt.store %dst, %w : !tt.ptr<i32>
  func.return
}"""
    x = np.zeros(50, dtype=np.int32)
    run(text, (49,), [x])
    np.testing.assert_array_equal(x, np.arange(50))


def test_all_programs_storing_one_element_last_program_wins() -> None:
    text = """
func.func @k(%outp: !tt.ptr<i32>) {
  %pid = tt.get_program_id x : i32
  tt.store %outp, %pid : !tt.ptr<i32>
  func.return
}"""
    out = np.zeros(1, dtype=np.int32)
    run(text, (37,), [out])
    assert out[0] == 36


def test_divergent_loop_falls_back(schedule: str, executors: list[int]) -> None:
    text = """
func.func @k(%outp: !tt.ptr<i32>) {
  %pid = tt.get_program_id x : i32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %s = scf.for %i = %c0 to %pid step %c1 iter_args(%a = %c0) -> (i32) : i32 {
    %a2 = tt.add %a, %c1 : i32
    scf.yield %a2 : i32
  }
  %o = tt.addptr %outp, %pid : !tt.ptr<i32>, i32
  tt.store %o, %s : !tt.ptr<i32>
  func.return
}"""
    out = poisoned(10, np.int32)
    run(text, (10,), [out])
    np.testing.assert_array_equal(out, np.arange(10))
    assert executors == ([10] + [1] * 10 if schedule == "batched" else [1] * 10)


def test_memory_regions_follow_aliasing() -> None:
    base = np.zeros(100, dtype=np.float32)
    other = np.zeros(10, dtype=np.float32)
    mem = Memory.from_arrays(["a", "b", "c", "d"], [base[10:], base[:50], other, base])
    regions = [(b.region, b.start) for b in mem.buffers]
    assert regions[0][0] == regions[1][0] == regions[3][0] != regions[2][0]
    # views address their whole base array, from their first element
    assert (regions[0][1], regions[1][1], regions[3][1]) == (0, 0, 0)
    assert [b.origin for b in mem.buffers] == [10, 0, 0, 0]
    assert mem.region_spans[regions[0][0]] == 100 and mem.batchable
    assert not Memory.from_arrays(["a", "b"], [base, base.view(np.int16)]).batchable
    empty = Memory.from_arrays(["a", "b"], [np.zeros(0, np.float32), base])
    assert empty.buffers[0].region != empty.buffers[1].region


def test_stored_arguments_follow_pointer_arithmetic_and_loops() -> None:
    for text, expected in ((INCREMENT, {"outp"}), (tiled_matmul(32, 32, 16, None), {"cp"})):
        kernel = next(op for op in parse(text).walk() if isinstance(op, func.FuncOp))
        stored = stored_arguments(kernel)
        assert stored is not None
        assert {v.name_hint for v in stored} == expected


POINTER_CHOICE = """
func.func @k(%xp: !tt.ptr<i32>, %yp: !tt.ptr<i32>) {
  %pid = tt.get_program_id x : i32
  %two = arith.constant 2 : i32
  %zero = arith.constant 0 : i32
  %parity = tt.rem %pid, %two : i32
  %even = tt.cmp eq, %parity, %zero : i32
  %base = tt.select %even, %xp, %yp : !tt.ptr<i32>
  %half = tt.div %pid, %two : i32
  %p = tt.addptr %base, %half : !tt.ptr<i32>, i32
  tt.store %p, %pid : !tt.ptr<i32>
  func.return
}"""


def test_programs_choosing_different_arrays(schedule: str, executors: list[int]) -> None:
    """``where(pid % 2 == 0, x_ptr, y_ptr)``: each program picks one array; batched programs
    pick different ones, so the batch falls back."""
    x = poisoned(5, np.int32)
    y = poisoned(5, np.int32)
    run(POINTER_CHOICE, (10,), [x, y])
    np.testing.assert_array_equal(x, [0, 2, 4, 6, 8])
    np.testing.assert_array_equal(y, [1, 3, 5, 7, 9])
    assert executors == ([10] + [1] * 10 if schedule == "batched" else [1] * 10)


def test_pointer_comparison_and_lanewise_select_in_one_array() -> None:
    """Reverse a block: ``p = where(q < r, q, r)`` picks lane by lane within one array."""
    text = """
func.func @k(%xp: !tt.ptr<i32>, %outp: !tt.ptr<i32>) {
  %r = tt.make_range {start = 0 : i32, end = 8 : i32} : tensor<8xi32>
  %seven = arith.constant 7 : i32
  %s7 = tt.splat %seven : i32 -> tensor<8xi32>
  %rev = tt.sub %s7, %r : tensor<8xi32>
  %xs = tt.splat %xp : !tt.ptr<i32> -> tensor<8x!tt.ptr<i32>>
  %fwd = tt.addptr %xs, %r : tensor<8x!tt.ptr<i32>>, tensor<8xi32>
  %bwd = tt.addptr %xs, %rev : tensor<8x!tt.ptr<i32>>, tensor<8xi32>
  %lower = tt.cmp lt, %fwd, %bwd : tensor<8x!tt.ptr<i32>>
  %p = tt.select %lower, %fwd, %bwd : tensor<8x!tt.ptr<i32>>
  %v = tt.load %p : tensor<8x!tt.ptr<i32>>
  %os = tt.splat %outp : !tt.ptr<i32> -> tensor<8x!tt.ptr<i32>>
  %op = tt.addptr %os, %r : tensor<8x!tt.ptr<i32>>, tensor<8xi32>
  tt.store %op, %v : tensor<8x!tt.ptr<i32>>
  func.return
}"""
    x = np.arange(10, 18, dtype=np.int32)
    out = poisoned(8, np.int32)
    run(text, (1,), [x, out])
    np.testing.assert_array_equal(out, [10, 11, 12, 13, 13, 12, 11, 10])


@given(
    st.lists(
        st.tuples(
            st.booleans(),  # is_store
            st.lists(st.integers(0, 11), min_size=4, max_size=4),  # program 0's four lanes
            st.lists(st.integers(0, 11), min_size=4, max_size=4),  # program 1's
            st.lists(st.booleans(), min_size=8, max_size=8),  # active lanes
        ),
        max_size=4,
    )
)
def test_conflict_check_matches_its_definition(accesses: list) -> None:  # type: ignore[type-arg]
    """A conflict: some element stored by one program and touched by another."""
    memory = Memory.from_arrays(["a"], [np.zeros(12, np.int32)])
    log = BatchLog(memory, 2, None)
    touched: list[tuple[int, int, bool]] = []
    for is_store, lanes0, lanes1, active in accesses:
        offsets = np.array([lanes0, lanes1], dtype=np.int64)
        mask = np.array(active).reshape(2, 4)
        if is_store:
            log.record_store(memory.buffers[0], offsets, mask, offsets[mask])
        else:
            log.record_load(memory.buffers[0], offsets, mask)
        touched += [(int(offsets[p, i]), int(p), is_store) for p, i in np.argwhere(mask)]
    expected = any(a == b and p != q and stored for a, p, stored in touched for b, q, _ in touched)
    assert log.has_conflict() == expected
