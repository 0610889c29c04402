"""Program ids and grid sizes on 1-, 2- and 3-D grids; the 2**20-element add of the benchmark."""

from __future__ import annotations

import time

import numpy as np
import pytest

from mytriton.backends.interpreter.bench import add_kernel_ir, time_add
from tests.interpreter.util import parse, poisoned, run

pytestmark = pytest.mark.execution

PROGRAM_IDS = """
func.func @k(%outp: !tt.ptr<i32>, %nump: !tt.ptr<i32>) {
  %x = tt.get_program_id x : i32
  %y = tt.get_program_id y : i32
  %z = tt.get_program_id z : i32
  %gx = tt.get_num_programs x : i32
  %gy = tt.get_num_programs y : i32
  %gz = tt.get_num_programs z : i32
  %yz = tt.mul %z, %gy : i32
  %row = tt.add %yz, %y : i32
  %rowx = tt.mul %row, %gx : i32
  %linear = tt.add %rowx, %x : i32
  %c10 = arith.constant 10 : i32
  %c100 = arith.constant 100 : i32
  %y10 = tt.mul %y, %c10 : i32
  %z100 = tt.mul %z, %c100 : i32
  %xy = tt.add %x, %y10 : i32
  %code = tt.add %xy, %z100 : i32
  %o = tt.addptr %outp, %linear : !tt.ptr<i32>, i32
  tt.store %o, %code : !tt.ptr<i32>
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  %n1 = tt.addptr %nump, %one : !tt.ptr<i32>, i32
  %n2 = tt.addptr %nump, %two : !tt.ptr<i32>, i32
  tt.store %nump, %gx : !tt.ptr<i32>
  tt.store %n1, %gy : !tt.ptr<i32>
  tt.store %n2, %gz : !tt.ptr<i32>
  func.return
}"""


@pytest.mark.parametrize("grid", [(7,), (3, 5), (2, 3, 4)])
def test_program_ids_and_num_programs(grid: tuple[int, ...]) -> None:
    full = (*grid, 1, 1)[:3]
    total = full[0] * full[1] * full[2]
    out = poisoned(total, np.int32)
    nums = poisoned(3, np.int32)
    run(PROGRAM_IDS, grid, [out, nums])
    z, y, x = np.meshgrid(*(np.arange(g) for g in full[::-1]), indexing="ij")
    np.testing.assert_array_equal(out, (x + 10 * y + 100 * z).reshape(-1))
    np.testing.assert_array_equal(nums, full)


def test_vector_add_of_2_pow_20_elements() -> None:
    """The speed target of issue 3 (under 1 s on one core); prints the time, asserts only the
    result (``python -m mytriton.backends.interpreter.bench`` is the benchmark)."""
    module = parse(add_kernel_ir(256))
    start = time.perf_counter()
    best = time_add(module, 1 << 20, 256, repeat=1)
    print(f"2**20-element add: {best:.3f} s ({time.perf_counter() - start:.3f} s with setup)")
