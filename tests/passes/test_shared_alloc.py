"""``shared_alloc``: first-fit by liveness, alignment, buffers kept apart, the disjointness
assertion, and the barriers a reuse needs."""

from __future__ import annotations

import pytest
from xdsl.dialects import arith, gpu
from xdsl.dialects.builtin import IntegerAttr, MemRefType, i32
from xdsl.ir import Block, Operation

from mytriton.passes.gpu_lowering.context import KERNEL_END, SharedBuffer
from mytriton.passes.gpu_lowering.shared_alloc import allocate, check_disjoint, separate


def buf(name: str, nbytes: int, first: int, last: int, alignment: int = 16) -> SharedBuffer:
    t = MemRefType(i32, [nbytes // 4], memory_space=IntegerAttr(3, 64))
    return SharedBuffer(name, t, nbytes, alignment, first, last)


def test_buffers_never_live_at_once_share_bytes() -> None:
    ring = buf("ring", 4096, 0, 2)
    q = buf("q", 1024, 1, 3)
    scratch = buf("scratch", 2048, 4, 4)  # after both: at 0
    tmap = buf("tmap", 128, 0, KERNEL_END)
    offsets, total = allocate([ring, q, scratch, tmap])
    assert offsets == [0, 4096, 0, 5120]
    assert total == 5248


def test_alignment_is_kept() -> None:
    small = buf("small", 48, 0, 5)
    tile = buf("tile", 2048, 0, 5, alignment=1024)
    offsets, total = allocate([small, tile])
    assert offsets == [2048, 0]  # the larger first, at 0; then past it
    offsets, total = allocate([buf("a", 4096, 0, 5), buf("b", 48, 0, 5), tile])
    assert offsets[2] % 1024 == 0 and offsets == [0, 6144, 4096]
    assert total == 6144 + 48


def test_the_assertion_refuses_overlapping_live_buffers() -> None:
    a, b = buf("a", 1024, 0, 3), buf("b", 1024, 2, 5)
    check_disjoint([a, b], [0, 1024])
    with pytest.raises(AssertionError):
        check_disjoint([a, b], [0, 512])
    with pytest.raises(AssertionError):  # misaligned
        check_disjoint([buf("t", 1024, 0, 0, alignment=1024)], [512])


def _body(ops_per_top: list[list[Operation]]) -> tuple[Block, list[tuple[Operation, Operation]]]:
    body = Block()
    spans = []
    for ops in ops_per_top:
        for op in ops:
            body.add_op(op)
        spans.append((ops[0], ops[-1]))
    return body, spans


def _const() -> Operation:
    return arith.ConstantOp(IntegerAttr(0, i32))


def test_a_reuse_without_a_barrier_between_gets_one() -> None:
    first, middle, last = _const(), _const(), _const()
    body, spans = _body([[first], [middle], [last]])
    a, b = buf("a", 1024, 0, 0), buf("b", 1024, 2, 2)
    assert separate(body, spans, [a, b], [0, 0]) == 1
    ops = list(body.ops)
    assert isinstance(ops[2], gpu.BarrierOp) and ops[3] is last


def test_a_barrier_already_between_suffices() -> None:
    body, spans = _body([[_const(), gpu.BarrierOp()], [_const()]])
    a, b = buf("a", 1024, 0, 0), buf("b", 1024, 1, 1)
    assert separate(body, spans, [a, b], [0, 0]) == 0
    body, spans = _body([[_const()], [gpu.BarrierOp(), _const()], [_const()]])
    a, b = buf("a", 1024, 0, 0), buf("b", 1024, 2, 2)
    assert separate(body, spans, [a, b], [0, 0]) == 0


def test_a_barrier_before_the_earlier_buffer_ends_does_not_count() -> None:
    body, spans = _body([[gpu.BarrierOp(), _const()], [_const()]])
    a, b = buf("a", 1024, 0, 0), buf("b", 1024, 1, 1)
    assert separate(body, spans, [a, b], [0, 0]) == 1


def test_buffers_apart_need_no_barrier() -> None:
    body, spans = _body([[_const()], [_const()]])
    a, b = buf("a", 1024, 0, 0), buf("b", 1024, 1, 1)
    assert separate(body, spans, [a, b], [0, 1024]) == 0
