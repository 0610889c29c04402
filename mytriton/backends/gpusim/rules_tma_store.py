"""Hopper's TMA tile stores and their bulk async-groups (``upstream_tma_store``); the state of
the stores in flight lives in ``Machine.bulk_stores`` (``bulk_stores``, which says when their
reads of shared memory are done).

* ``nvvm.cp.async.bulk.tensor.global.shared.cta %map, %src, box[...]``: per active thread (the
  lowering issues it from one), read the gpusim tensor map through the map pointer (as a TMA
  load does: ``rules_tma``), read the box from shared memory at ``%src`` (its rows at
  ``src + row * box_inner_bytes``, swizzled on the absolute shared address; 128-byte aligned,
  and to the swizzle's period), and write the elements inside the tensor to global memory now;
  the elements outside the tensor (negative coordinates included) are not written, except
  that, as on the H100 and H200, the copy engine writes whole 16-byte chunks of a row
  (``STORE_GRANULE``): where the tensor's innermost extent is not a multiple of 16 bytes, the
  elements after it up to the next 16-byte boundary are written too (the box's values there:
  for a box a TMA load filled, its zeros). Every
  element read must have been written, no copy may be in flight to it, and no other thread may
  have written it since the last barrier (the copy engine reads it at any moment after the
  issue: a barrier after the threads' writes is what makes them visible, after their
  ``nvvm.fence.proxy``, which like every proxy fence here is not checked). The store reads the
  box until its group's wait (``bulk_stores``).
* ``nvvm.cp.async.bulk.commit.group``: the active threads' open stores become a group.
* ``nvvm.cp.async.bulk.wait_group N [{read}]``: per active thread, the reads of all but its
  newest ``N`` groups are done (a full wait completes their global writes too, which gpusim
  made at the issue already).

Global writes are bounds-checked against the tensor map's array but not race-logged.
"""

from __future__ import annotations

import numpy as np
from xdsl.ir import Operation

from mytriton.backends.gpusim.bulk_stores import BulkStore
from mytriton.backends.gpusim.compiler import Compiler
from mytriton.backends.gpusim.machine import Machine, Step
from mytriton.backends.gpusim.registry import rule
from mytriton.backends.gpusim.rules_tma import (
    _destination,
    _ints,
    box_bytes,
    checked_map,
)
from mytriton.backends.gpusim.shared_memory import SharedBuffer
from mytriton.backends.gpusim.values import Ptr
from mytriton.dialects.nvgpu.tma_store import (
    CpAsyncBulkTensorSharedCTAToGlobalOp,
    CpAsyncBulkWaitGroupOp,
)

#: bytes: a TMA store writes a row's elements in whole chunks of this many, so up to 15 bytes
#: past the tensor's innermost extent (measured on an H100; Triton issue 11583)
STORE_GRANULE = 16


def _check_source(
    m: Machine, op: Operation, lane: int, buf: SharedBuffer, elements: np.ndarray, check: bool
) -> None:
    """The box's elements are written, settled, and published by a barrier (module doc)."""
    p, tid = int(m.prog[lane]), int(m.tid[lane])
    rows, lanes = np.full(elements.size, p), np.full(elements.size, lane)
    buf._check_settled(m, op, "a TMA store reads", rows, elements, lanes)
    unwritten = ~buf.written[p, elements]
    if unwritten.any():
        i = int(elements[np.argmax(unwritten)])
        m.fail(
            op,
            f"a TMA store reads {buf.name}[{i}], which no thread has written (shared memory is "
            "uninitialised)",
            m.lane_mask(lane),
        )
    if not check:
        return
    low, high = buf.writer_lo[p, elements], buf.writer_hi[p, elements]
    other = (high >= 0) & ((low != tid) | (high != tid))
    if other.any():
        i = int(np.argmax(other))
        who = int(low[i]) if low[i] != tid else int(high[i])
        m.fail(
            op,
            f"data race: a TMA store reads {buf.name}[{int(elements[i])}], which thread {who} "
            "wrote since the last barrier (a barrier is missing between the writes and the store)",
            m.lane_mask(lane),
        )


@rule("nvvm.cp.async.bulk.tensor.global.shared.cta")
def _bulk_store(op: Operation, c: Compiler) -> Step:
    assert isinstance(op, CpAsyncBulkTensorSharedCTAToGlobalOp)
    tmap, src, coordinates = op.tmaDescriptor, op.srcMem, list(op.coordinates)
    rank, check = op.rank, c.check_races

    def step(m: Machine) -> None:
        active = np.flatnonzero(m.mask)
        if active.size == 0:
            return
        pointer = m.env[tmap]
        assert isinstance(pointer, Ptr)
        source = _ints(m, src)
        coords = [_ints(m, x) for x in coordinates]
        for lane in active.tolist():
            tm = checked_map(m, op, lane, pointer, rank, int(coords[0][lane]), "store")
            buf, elements = _destination(m, op, lane, int(source[lane]), tm, "source")
            _check_source(m, op, lane, buf, elements, check)
            p = int(m.prog[lane])
            data = buf.data[p, elements].view(np.uint8).reshape(-1, tm.element_bytes)
            where = [int(x[lane]) for x in coords]
            raw, first, inside = box_bytes(m, op, lane, tm, where, STORE_GRANULE)
            at = first[inside][:, None] + np.arange(tm.element_bytes)
            raw[at] = data.reshape(first.size, tm.element_bytes)[inside]
            m.bulk_stores.issue(BulkStore(op, buf, p, elements, lane))

    return step


@rule("nvvm.cp.async.bulk.commit.group")
def _bulk_commit(op: Operation, c: Compiler) -> Step:
    def step(m: Machine) -> None:
        m.bulk_stores.commit(m)

    return step


@rule("nvvm.cp.async.bulk.wait_group")
def _bulk_wait(op: Operation, c: Compiler) -> Step:
    assert isinstance(op, CpAsyncBulkWaitGroupOp)
    pending = op.pending

    def step(m: Machine) -> None:
        m.bulk_stores.wait(m, pending)

    return step
