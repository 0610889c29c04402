"""Views of dynamic shared memory that share bytes (``backends/gpusim/shared_aliases.py``).

The lowering reuses the bytes of buffers never live at once (``shared_alloc``); gpusim keeps
each view a buffer of its own and checks every access against the views sharing its bytes: a
reuse separated by a barrier runs, a missing barrier is a data race, a read through a view
whose bytes another view wrote since fails, and so does an access while a copy to the other
view is in flight. Element sizes may differ between the views, and each overlapping view has
shared addresses of its own.
"""

from __future__ import annotations

import numpy as np
import pytest

from mytriton.backends.gpusim import SimulationError, run_lowered
from mytriton.backends.gpusim.shared_memory import SharedBuffer, SharedMemory
from tests.gpusim.test_dynamic_shared import module_with, store_out, view

pytestmark = pytest.mark.execution

#: thread t writes t into %a (32 x i64 at byte 0), every thread reads its neighbour's
WRITE_A = """
      %one = arith.constant 1 : index
      %n = arith.constant 32 : index
      %t64 = arith.index_cast %t : index to i64
      memref.store %t64, %a[%t] : memref<32xi64, 3 : i64>
      "gpu.barrier"() : () -> ()
      %t1 = arith.addi %t, %one : index
      %next = arith.remsi %t1, %n : index
      %va = memref.load %a[%next] : memref<32xi64, 3 : i64>"""

#: then thread t writes 100 + t into %b (64 x i32 over the same 256 bytes: its element 2t),
#: and reads its neighbour's
WRITE_B = """
      %two = arith.constant 2 : index
      %c100 = arith.constant 100 : i32
      %tb = arith.addi %ti, %c100 : i32
      %slot = arith.muli %t, %two : index
      memref.store %tb, %b[%slot] : memref<64xi32, 3 : i64>
      "gpu.barrier"() : () -> ()
      %nslot = arith.muli %next, %two : index
      %vb = memref.load %b[%nslot] : memref<64xi32, 3 : i64>
      %vb64 = arith.extsi %vb : i32 to i64
      %sum = arith.addi %va, %vb64 : i64"""


def views() -> str:
    return view("a", 0, "32xi64") + view("b", 0, "64xi32")


def test_reuse_after_a_barrier_runs() -> None:
    body = views() + WRITE_A + '\n      "gpu.barrier"() : () -> ()' + WRITE_B + store_out("%sum")
    out = np.zeros(32, np.int64)
    run_lowered(module_with(body), (2, 1, 1), [out])
    nxt = (np.arange(32) + 1) % 32
    np.testing.assert_array_equal(out, nxt + 100 + nxt)


def test_reuse_without_a_barrier_is_a_race() -> None:
    """Thread 0 writes %b's first bytes, which thread 31 read through %a since the barrier."""
    body = views() + WRITE_A + WRITE_B + store_out("%sum")
    with pytest.raises(SimulationError, match=r"data race: writes b\[0\], whose bytes a\[0\]"):
        run_lowered(module_with(body), (1, 1, 1), [np.zeros(32, np.int64)])


def test_reading_a_view_after_its_bytes_were_reused_fails() -> None:
    """A buffer still in use whose bytes another took: its elements read as never written."""
    again = """
      %again = memref.load %a[%t] : memref<32xi64, 3 : i64>"""
    body = (
        views()
        + WRITE_A
        + '\n      "gpu.barrier"() : () -> ()'
        + WRITE_B
        + again
        + store_out("%again")
    )
    with pytest.raises(SimulationError, match=r"reads a\[0\], which no thread of the program"):
        run_lowered(module_with(body), (1, 1, 1), [np.zeros(32, np.int64)])


def test_reading_another_threads_write_through_the_other_view_is_a_race() -> None:
    """Thread 1 reads %a[0] over the bytes thread 0 wrote through %b without a barrier."""
    body = (
        views()
        + """
      %c7 = arith.constant 7 : i32
      %two = arith.constant 2 : index
      %slot = arith.muli %t, %two : index
      memref.store %c7, %b[%slot] : memref<64xi32, 3 : i64>
      %one = arith.constant 1 : index
      %n = arith.constant 32 : index
      %t1 = arith.addi %t, %one : index
      %next = arith.remsi %t1, %n : index
      %v = memref.load %a[%next] : memref<32xi64, 3 : i64>"""
        + store_out("%v")
    )
    with pytest.raises(SimulationError, match=r"data race: reads a\[1\], whose bytes b\[2\]"):
        run_lowered(module_with(body), (1, 1, 1), [np.zeros(32, np.int64)])


def test_overlapping_views_get_addresses_of_their_own() -> None:
    """A view overlapping an earlier one gets a window of its own, at the same offset modulo
    1024, so a shared address (a pointer derived from one view) tells its buffer; the two are
    aliases of each other by their real offsets."""
    buffers = {
        "a": SharedBuffer("a", np.dtype(np.int64), (32,), 1),
        "b": SharedBuffer("b", np.dtype(np.int32), (64,), 1),
        "c": SharedBuffer("c", np.dtype(np.int32), (16,), 1),
    }
    shared = SharedMemory(buffers, {"a": 0, "b": 128, "c": 1024})
    base = shared.dynamic_base
    assert shared.base["a"] == base and shared.base["c"] == base + 1024  # apart: as laid out
    assert shared.base["b"] >= base + 1088 and shared.base["b"] % 1024 == 128
    found = shared.buffer_at(shared.base["b"] + 8)
    assert found is not None and found[0] == "b"
    assert [x.other.name for x in buffers["a"].aliases] == ["b"]
    assert [x.other.name for x in buffers["b"].aliases] == ["a"]
    assert buffers["c"].aliases == []
    # b's elements 0 and 1 (bytes 128 to 136) are a's element 16: i32 into i64
    assert buffers["b"].aliases[0].elements(4, np.zeros(2, np.int64), np.array([0, 1]))[
        2
    ].tolist() == [16, 16]


def test_writing_bytes_a_copy_to_the_other_view_has_in_flight_fails() -> None:
    """Thread t copies out[t] into %a[t] with cp.async; writing %b over those bytes before the
    copy's wait would race with its landing."""
    body = (
        views()
        + """
      %xa = "memref.extract_aligned_pointer_as_index"(%a) : (memref<32xi64, 3 : i64>) -> index
      %eight = arith.constant 8 : index
      %off = arith.muli %t, %eight : index
      %at = arith.addi %xa, %off : index
      %at64 = arith.index_cast %at : index to i64
      %dst = llvm.inttoptr %at64 : i64 to !llvm.ptr<3>
      %src = llvm.getelementptr %out[%ti] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i64
      "nvvm.cp.async.shared.global"(%dst, %src) <{modifier = #nvvm<load_cache_modifier ca>, size = 8 : i32}> : (!llvm.ptr<3>, !llvm.ptr<1>) -> ()
      "nvvm.cp.async.commit.group"() : () -> ()
      %c5 = arith.constant 5 : i32
      %two = arith.constant 2 : index
      %slot = arith.muli %t, %two : index
      memref.store %c5, %b[%slot] : memref<64xi32, 3 : i64>
      "nvvm.cp.async.wait.group"() <{n = 0 : i32}> : () -> ()"""
    )
    with pytest.raises(
        SimulationError, match=r"writes b\[0\], whose bytes a\[0\] shares, while an asynchronous"
    ):
        run_lowered(module_with(body), (1, 1, 1), [np.zeros(32, np.int64)])
