"""Races on global memory that lockstep execution would hide: a GPU runs warps in any order,
so a thread may load an element after another thread of its program stored it."""

from __future__ import annotations

import numpy as np
import pytest

from mytriton.backends.gpusim import SimulationError, run_lowered
from tests.gpusim.util import gpu_module

# 64 threads (2 warps); every program updates its own element p[program].
PRELUDE = """
      %t = "gpu.thread_id"() <{dimension = #gpu<dim x>}> : () -> index
      %ti = arith.index_cast %t : index to i32
      %b = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
      %bi = arith.index_cast %b : index to i32
      %c0 = arith.constant 0 : i32
      %c2 = arith.constant 2 : i32
      %thread0 = arith.cmpi eq, %ti, %c0 : i32
      %mine = llvm.getelementptr %p[%bi] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
      %x = llvm.load %mine : !llvm.ptr<1> -> i32
      %y = arith.muli %x, %c2 : i32"""
STORE = """
      llvm.store %y, %mine : i32, !llvm.ptr<1>"""
BY_THREAD0 = """
      scf.if %thread0 {
        llvm.store %y, %mine : i32, !llvm.ptr<1>
      }"""
BARRIER = """
      "gpu.barrier"() : () -> ()"""


def run(body: str, programs: int = 3) -> np.ndarray:
    module = gpu_module("%p: !llvm.ptr<1>", "i32", PRELUDE + body, threads=64)
    p = np.arange(1, programs + 1, dtype=np.int32)
    run_lowered(module, (programs, 1, 1), [p])
    return p


def test_read_modify_write_by_every_thread_races() -> None:
    """All 64 threads store the same doubled value in lockstep; on a GPU the second warp may
    load the first warp's result and double it again."""
    with pytest.raises(
        SimulationError,
        match=r"data race: threads \d+ and \d+ of the program both store element 0 of `p`, "
        r"which the program loaded since its last barrier",
    ):
        run(STORE)


def test_replicas_storing_back_what_they_loaded_are_fine() -> None:
    """No store changes the element, so no load order can change what is stored."""
    assert list(run(STORE.replace("%y", "%x"))) == [1, 2, 3]


def test_read_modify_write_by_one_owner_thread_is_fine() -> None:
    """What Triton does: every thread loads, thread 0 stores (the others' loads may see either
    value, but they store nothing)."""
    assert list(run(BY_THREAD0)) == [2, 4, 6]


def test_a_barrier_between_the_loads_and_the_stores_orders_them() -> None:
    assert list(run(BARRIER + STORE)) == [2, 4, 6]


def test_replicated_stores_of_an_element_nobody_loaded_are_fine() -> None:
    """Every thread stores the same 7: whatever the order, 7 lands."""
    body = """
      %b = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
      %bi = arith.index_cast %b : index to i32
      %c7 = arith.constant 7 : i32
      %mine = llvm.getelementptr %p[%bi] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
      llvm.store %c7, %mine : i32, !llvm.ptr<1>"""
    p = np.zeros(3, np.int32)
    run_lowered(gpu_module("%p: !llvm.ptr<1>", "i32", body, threads=64), (3, 1, 1), [p])
    assert list(p) == [7, 7, 7]


def test_the_interval_ends_at_a_barrier_even_for_other_owners() -> None:
    """Thread 0 stores, a barrier, then thread 63 stores the same element: ordered."""
    last = """
      %c63 = arith.constant 63 : i32
      %thread63 = arith.cmpi eq, %ti, %c63 : i32
      %z = arith.muli %y, %c2 : i32
      scf.if %thread63 {
        llvm.store %z, %mine : i32, !llvm.ptr<1>
      }"""
    assert list(run(BY_THREAD0 + BARRIER + last)) == [4, 8, 12]
    with pytest.raises(
        SimulationError,
        match=r"data race: overwrites element 0 of `p` with a different value \(4\) after "
        r"thread 0 of the program stored 2 there since the last barrier",
    ):
        run(BY_THREAD0 + last)


def test_two_owners_of_one_loaded_element_race_across_ops() -> None:
    """Thread 0 and thread 32 store the same value in two ops, after loading it."""
    second = """
      %c32 = arith.constant 32 : i32
      %thread32 = arith.cmpi eq, %ti, %c32 : i32
      scf.if %thread32 {
        llvm.store %y, %mine : i32, !llvm.ptr<1>
      }"""
    with pytest.raises(SimulationError, match=r"data race: threads 0 and 32 of the program both"):
        run(BY_THREAD0 + second)


def test_race_checks_can_be_turned_off() -> None:
    module = gpu_module("%p: !llvm.ptr<1>", "i32", PRELUDE + STORE, threads=64)
    p = np.arange(1, 4, dtype=np.int32)
    run_lowered(module, (3, 1, 1), [p], check_races=False)
    assert list(p) == [2, 4, 6]  # lockstep: what a GPU may or may not produce


def test_vector_read_modify_write_by_every_thread_races() -> None:
    body = """
      %c0 = arith.constant 0 : i32
      %q = llvm.getelementptr %p[%c0] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
      %v = llvm.load %q {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xi32>
      %e = vector.extract %v[1] : i32 from vector<4xi32>
      %f = arith.addi %e, %e : i32
      %w = vector.insert %f, %v[1] : i32 into vector<4xi32>
      llvm.store %w, %q {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<1>"""
    p = np.arange(4, dtype=np.int32)
    module = gpu_module("%p: !llvm.ptr<1>", "i32", body, threads=64)
    with pytest.raises(SimulationError, match=r"both store element 1 of `p`"):
        run_lowered(module, (1, 1, 1), [p])
