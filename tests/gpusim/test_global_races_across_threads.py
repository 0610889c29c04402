"""Races across the threads of a program on global memory (``gpusim.global_read_owners``): a
load of an element another thread stored, a changing store to an element other threads loaded,
since the last barrier; Triton's replicated values (a scalar every thread loads and thread 0
stores, a block element its replicas load and its owner, the lowest, stores) pass."""

from __future__ import annotations

import numpy as np
import pytest

from mytriton.backends.gpusim import SimulationError, run_lowered
from tests.gpusim.util import gpu_module

# 64 threads (2 warps) over a row ``r`` of 64 i32: thread t owns element t (``%own``); ``%next``
# is element t + 1 (mod 64), ``%pair`` element t ^ 1, ``%half`` element t % 32.
PRELUDE = """
      %t = "gpu.thread_id"() <{dimension = #gpu<dim x>}> : () -> index
      %ti = arith.index_cast %t : index to i32
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %c31 = arith.constant 31 : i32
      %c32 = arith.constant 32 : i32
      %c63 = arith.constant 63 : i32
      %thread0 = arith.cmpi eq, %ti, %c0 : i32
      %low = arith.cmpi slt, %ti, %c32 : i32
      %high = arith.cmpi sge, %ti, %c32 : i32
      %n1 = arith.addi %ti, %c1 : i32
      %ni = arith.andi %n1, %c63 : i32
      %pi = arith.xori %ti, %c1 : i32
      %hi = arith.andi %ti, %c31 : i32
      %own = llvm.getelementptr %r[%ti] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
      %next = llvm.getelementptr %r[%ni] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
      %pair = llvm.getelementptr %r[%pi] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
      %half = llvm.getelementptr %r[%hi] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
      %first = llvm.getelementptr %r[%c0] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32"""
BARRIER = """
      "gpu.barrier"() : () -> ()"""
STORE_OWN = """
      %s = arith.addi %ti, %c32 : i32
      llvm.store %s, %own : i32, !llvm.ptr<1>"""
LOAD_NEXT = """
      %got = llvm.load %next : !llvm.ptr<1> -> i32"""
LOAD_OWN = """
      %got = llvm.load %own : !llvm.ptr<1> -> i32"""
RAW = r"data race: loads element (\d+) of `r`, which thread (\d+) of the program stored since "
WAR = r"data race: stores a different value to element \d+ of `r`, which {} .*since the last "


def run(body: str, programs: int = 1) -> np.ndarray:
    module = gpu_module("%r: !llvm.ptr<1>", "i32", PRELUDE + body, threads=64)
    r = np.arange(64, dtype=np.int32)
    run_lowered(module, (programs, 1, 1), [r])
    return r


def test_a_load_of_another_threads_store_races() -> None:
    """Thread 0 loads element 1, which thread 1 stored: on a GPU thread 1's warp may store later."""
    with pytest.raises(
        SimulationError, match=RAW + r".*\[llvm.load, program \(0, 0, 0\), thread 0\]"
    ):
        run(STORE_OWN + LOAD_NEXT)


def test_a_barrier_orders_the_store_before_the_load() -> None:
    assert list(run(STORE_OWN + BARRIER + LOAD_NEXT)) == [t + 32 for t in range(64)]


def test_a_thread_loading_its_own_store_is_fine() -> None:
    body = (
        STORE_OWN
        + LOAD_OWN
        + """
      %u = arith.addi %got, %c1 : i32
      llvm.store %u, %own : i32, !llvm.ptr<1>"""
    )
    assert list(run(body)) == [t + 33 for t in range(64)]


def test_a_store_over_another_threads_load_races() -> None:
    """Thread 63 loaded element 0, which thread 0 then changes: on a GPU thread 63's warp may
    load after that store."""
    with pytest.raises(SimulationError, match=WAR.format("a load by thread 63 of the program")):
        run(LOAD_NEXT + STORE_OWN)


def test_a_barrier_orders_the_load_before_the_store() -> None:
    body = LOAD_NEXT + BARRIER + STORE_OWN
    assert list(run(body)) == [t + 32 for t in range(64)]


def test_storing_the_value_already_there_after_another_threads_load_is_fine() -> None:
    """No load order can tell: the element does not change."""
    body = (
        LOAD_NEXT
        + LOAD_OWN.replace("%got", "%mine")
        + """
      llvm.store %mine, %own : i32, !llvm.ptr<1>"""
    )
    assert list(run(body)) == list(range(64))


def test_a_thread_storing_over_its_own_load_is_fine() -> None:
    body = (
        LOAD_OWN
        + """
      %u = arith.addi %got, %c1 : i32
      llvm.store %u, %own : i32, !llvm.ptr<1>"""
        + LOAD_OWN.replace("%got", "%again")
    )
    assert list(run(body)) == [t + 1 for t in range(64)]


def test_the_scalar_pattern_passes() -> None:
    """Triton's scalar: every thread loads it, thread 0 stores it, every thread loads it again
    (the broadcast's lowest thread, 0, is the storer)."""
    body = """
      %x = llvm.load %first : !llvm.ptr<1> -> i32
      %y = arith.addi %x, %c1 : i32
      scf.if %thread0 {
        llvm.store %y, %first : i32, !llvm.ptr<1>
      }
      %z = llvm.load %first : !llvm.ptr<1> -> i32
      %w = arith.addi %z, %c1 : i32
      scf.if %thread0 {
        llvm.store %w, %first : i32, !llvm.ptr<1>
      }"""
    assert run(body)[0] == 2


def _scalar_then_owners_store(element: int) -> str:
    """Every thread loads element ``element`` (a scalar: its owner is thread 0, in warp 0), then
    each thread stores its own element (cross entropy's label logit, then its gradient)."""
    return (
        f"""
      %ce = arith.constant {element} : i32
      %at = llvm.getelementptr %r[%ce] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
      %x = llvm.load %at : !llvm.ptr<1> -> i32"""
        + STORE_OWN
    )


def test_a_scalar_whose_element_warp_0_stores_passes() -> None:
    """Thread 5 changes the scalar's element: warp 0 runs the scalar's load (its owner's copy,
    thread 0's) before its later store, in program order."""
    assert list(run(_scalar_then_owners_store(5))) == [t + 32 for t in range(64)]


def test_a_scalar_whose_element_another_warp_stores_races() -> None:
    """Thread 40 (warp 1) changes the scalar's element: warp 0's load may come after it."""
    with pytest.raises(SimulationError, match=WAR.format("a scalar load of every thread")):
        run(_scalar_then_owners_store(40))


def test_a_replicated_block_updated_by_its_owners_passes() -> None:
    """Threads t and t + 32 load element t % 32 (replicas), the lower one stores it: Triton's
    read-modify-write of a block smaller than the threads."""
    body = """
      %x = llvm.load %half : !llvm.ptr<1> -> i32
      %y = arith.addi %x, %c1 : i32
      scf.if %low {
        llvm.store %y, %half : i32, !llvm.ptr<1>
      }
      %z = llvm.load %half : !llvm.ptr<1> -> i32"""
    assert list(run(body)) == [t + 1 for t in range(32)] + list(range(32, 64))


def test_a_replicated_block_stored_by_a_replica_races() -> None:
    body = """
      %x = llvm.load %half : !llvm.ptr<1> -> i32
      %y = arith.addi %x, %c1 : i32
      scf.if %high {
        llvm.store %y, %half : i32, !llvm.ptr<1>
      }"""
    with pytest.raises(SimulationError, match=WAR.format("a load by thread 0 of the program")):
        run(body)


def test_a_row_loaded_again_by_other_owners_races_with_its_store() -> None:
    """What a re-issued load does: element t loaded by thread t, then again by thread t ^ 1;
    thread t's store may reach memory before thread t ^ 1's load. A barrier between orders it."""
    body = (
        LOAD_OWN
        + """
      %again = llvm.load %pair : !llvm.ptr<1> -> i32"""
    )
    with pytest.raises(SimulationError, match=WAR.format("loads owned by several threads")):
        run(body + STORE_OWN)
    assert list(run(body + BARRIER + STORE_OWN)) == [t + 32 for t in range(64)]


def test_a_vector_load_over_other_threads_stores_races() -> None:
    """Threads 4k to 4k + 3 each store their element, then each loads the four: the lowest
    loader of element 4k + 1 is thread 4k, not its storer."""
    body = (
        STORE_OWN
        + """
      %c2 = arith.constant 2 : i32
      %quad = arith.shrui %ti, %c2 : i32
      %base = arith.shli %quad, %c2 : i32
      %q = llvm.getelementptr %r[%base] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
      %v = llvm.load %q {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xi32>"""
    )
    with pytest.raises(SimulationError, match=RAW.replace(r"(\d+)", "1", 1)):
        run(body)


def test_programs_do_not_race_with_each_other() -> None:
    """Program 0 stores the row, program 1 loads it shifted: in one program a race, across
    programs an order (the grid runs as if one program after another)."""
    body = (
        """
      %b = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
      %bi = arith.index_cast %b : index to i32
      %p0 = arith.cmpi eq, %bi, %c0 : i32
      scf.if %p0 {"""
        + STORE_OWN
        + """
      } else {"""
        + LOAD_NEXT
        + """
      }"""
    )
    assert list(run(body, programs=2)) == [t + 32 for t in range(64)]
