"""``llvm.atomicrmw`` for LLVM 22's NVPTX back end, which drops an atomicrmw's ordering: every
one becomes a relaxed ``atom.global.<op>`` (``cmpxchg`` keeps its ``atom.acq_rel.gpu``). So
before MLIR sees it, an ordered atomicrmw becomes a relaxed one between fences of its scope:
``fence.acq_rel.<scope>`` before it when it releases, after it when it acquires (the fences
LLVM's own atomic expansion uses). The atom itself stays at NVPTX's ``.gpu`` scope (stronger
than ``cta``; a ``sys`` atomic is atomic against the GPU's threads only on this path).
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr, i64
from xdsl.ir import Operation

from mytriton.dialects.nvgpu.atomic import AtomicOrdering, AtomicRMWOp, FenceOp

_RELEASES = (AtomicOrdering.RELEASE, AtomicOrdering.ACQ_REL, AtomicOrdering.SEQ_CST)
_ACQUIRES = (AtomicOrdering.ACQUIRE, AtomicOrdering.ACQ_REL, AtomicOrdering.SEQ_CST)


def fence_atomicrmw(op: Operation) -> None:
    """Make ``op``'s ordering explicit fences around a relaxed (``monotonic``) atomicrmw."""
    assert isinstance(op, AtomicRMWOp)
    ordering = op.atomic_ordering
    if ordering is AtomicOrdering.MONOTONIC:
        return
    block = op.parent_block()
    assert block is not None
    scope = op.syncscope.data if op.syncscope is not None else None
    strong = ordering is AtomicOrdering.SEQ_CST
    if ordering in _RELEASES:
        before = FenceOp(AtomicOrdering.SEQ_CST if strong else AtomicOrdering.RELEASE, scope)
        before.location = op.location
        block.insert_op_before(before, op)
    if ordering in _ACQUIRES:
        after = FenceOp(AtomicOrdering.SEQ_CST if strong else AtomicOrdering.ACQUIRE, scope)
        after.location = op.location
        block.insert_op_after(after, op)
    op.properties["ordering"] = IntegerAttr(int(AtomicOrdering.MONOTONIC), i64)
