"""``shared_alloc``: first-fit by liveness, alignment, buffers kept apart, the disjointness
assertion, and the barriers a reuse needs."""

from __future__ import annotations

import pytest
from xdsl.dialects import arith, func, gpu, scf
from xdsl.dialects.builtin import IntegerAttr, MemRefType, i1, i32
from xdsl.ir import Block, Operation, Region

from mytriton.passes.gpu_lowering.context import KERNEL_END, SharedBuffer
from mytriton.passes.gpu_lowering.shared_alloc import (
    Span,
    Units,
    allocate,
    check_disjoint,
    separate,
)


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


def _const() -> Operation:
    return arith.ConstantOp(IntegerAttr(0, i32))


def _kernel(n: int, branches: tuple[int, int] | None = None) -> tuple[Units, dict[int, Span]]:
    """A source kernel of ``n`` constants (units 0 .. n-1), or with ``branches`` an ``scf.if``
    after them holding that many in each branch; each unit lowered to one constant of a gpu
    block (one per source block)."""
    ops: list[Operation] = [_const() for _ in range(n)]
    if branches is not None:
        then = Block([*(_const() for _ in range(branches[0])), scf.YieldOp()])
        other = Block([*(_const() for _ in range(branches[1])), scf.YieldOp()])
        cond = arith.ConstantOp(IntegerAttr(1, i1))
        ops += [cond, scf.IfOp(cond, [], [then], [other])]
    fn = func.FuncOp("k", ((), ()), Region(Block([*ops, func.ReturnOp()])))
    units = Units(fn)
    spans: dict[int, Span] = {}
    gpu_blocks: dict[Block, Block] = {}
    for u, op in enumerate(units.ops):
        source = op.parent_block()
        assert source is not None
        block = gpu_blocks.setdefault(source, Block())
        before = block.last_op
        block.add_op(_const())
        spans[u] = Span(block, before, block.last_op)
    return units, spans


def _ops(spans: dict[int, Span], u: int) -> list[Operation]:
    return list(spans[u].block.ops)


def test_a_reuse_without_a_barrier_between_gets_one() -> None:
    units, spans = _kernel(3)
    a, b = buf("a", 1024, 0, 0), buf("b", 1024, 2, 2)
    assert separate(units, spans, [a, b], [0, 0]) == 1
    ops = _ops(spans, 0)
    assert [isinstance(o, gpu.BarrierOp) for o in ops] == [False, False, True, False, False]


def test_a_barrier_already_between_suffices() -> None:
    units, spans = _kernel(3)
    spans[1].block.insert_op_after(gpu.BarrierOp(), spans[1].last)  # type: ignore[arg-type]
    a, b = buf("a", 1024, 0, 0), buf("b", 1024, 2, 2)
    assert separate(units, spans, [a, b], [0, 0]) == 0


def test_a_barrier_before_the_earlier_buffer_ends_does_not_count() -> None:
    units, spans = _kernel(2)
    block = spans[0].block
    block.insert_op_before(gpu.BarrierOp(), block.first_op)  # type: ignore[arg-type]
    a, b = buf("a", 1024, 0, 0), buf("b", 1024, 1, 1)
    assert separate(units, spans, [a, b], [0, 0]) == 1


def test_buffers_apart_need_no_barrier() -> None:
    units, spans = _kernel(2)
    a, b = buf("a", 1024, 0, 0), buf("b", 1024, 1, 1)
    assert separate(units, spans, [a, b], [0, 1024]) == 0


def test_units_inside_an_if_and_its_branches() -> None:
    """Units 0 and 1, the condition 2, the if 3, its then-branch 4 and yield 5, its
    else-branch 6 and yield 7, the return 8."""
    units, spans = _kernel(2, (1, 1))
    assert [units.of(op) for op in units.ops] == list(range(9))
    # the two branches exclude each other: no barrier
    assert separate(units, spans, [buf("a", 64, 4, 4), buf("b", 64, 6, 6)], [0, 0]) == 0
    # a buffer of the then-branch, then one after the if: in the function's block, before it
    assert separate(units, spans, [buf("a", 64, 4, 4), buf("b", 64, 8, 8)], [0, 0]) == 1
    ops = _ops(spans, 8)
    assert isinstance(ops[-2], gpu.BarrierOp)
    # one before the if, then one inside it: before the if
    assert separate(units, spans, [buf("a", 64, 0, 0), buf("b", 64, 6, 6)], [0, 0]) == 1
    assert isinstance(_ops(spans, 3)[3], gpu.BarrierOp)
    # both in one branch: in it
    units, spans = _kernel(0, (3, 0))
    assert separate(units, spans, [buf("a", 64, 2, 2), buf("b", 64, 4, 4)], [0, 0]) == 1
    assert [isinstance(o, gpu.BarrierOp) for o in _ops(spans, 2)] == [0, 0, 1, 0, 0]
