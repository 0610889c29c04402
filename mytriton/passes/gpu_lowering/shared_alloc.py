"""Shared-memory allocation by liveness: buffers whose live ranges do not overlap share bytes.

As Triton's allocation analysis does, each shared buffer of a kernel (``SharedBuffer``: the
ring tiles of a pipelined loop, attention's Q tile, the scratch of a layout conversion, a
reduction, a scan or an atomic, the dots' staging buffer) is live over a range of *units*
(``Units``), the kernel's ops in program order: the ops of the function's body and, inside an
``scf.if`` (whose blocks run at most once), its ops; a loop (or any other op with regions) is
one unit, so a buffer accessed in a loop is live over the whole loop. Ranges are conservative:

* an op-local buffer (``LoweringContext.shared_buffer(local=True)``, the scratch buffers, whose
  accesses all lie in the op and are synchronous) is live over the unit holding the op;
* a ``ttg.local_alloc`` tile (``tile_range``) from the first unit using its memdesc (its
  subviews, the loops carrying them, the dots reading its ``ttg.local_load``s), or its alloc
  where that stores a value into it, to the last; one that ``cp.async`` copies write is live
  on to the next ``ttg.async_wait {num = 0}`` of that last unit's block (copies past a loop's
  end still write zeros, landing only there), one that an asynchronous warpgroup MMA reads on
  to the next ``ttg.dot_wait {pendings = 0}`` there (the MMA reads it until retired); without
  one, to the kernel's end; one a TMA op touches, over the whole kernel;
* any other buffer (tensor maps) over the whole kernel.

``allocate`` places the buffers first-fit, largest first, each at its alignment (1024 bytes for
wgmma's swizzled tiles), at the lowest offset where it overlaps no buffer that is live at the
same time; ``check_disjoint`` asserts the result (and gpusim checks each reuse as it runs it:
``backends/gpusim/shared_aliases.py``).

Reusing bytes needs the last access to one buffer to be over, in every thread, before the first
write to the next: ``separate`` looks in the innermost block holding the units of both (where
every thread that runs one runs the other: block-level ops sit under uniform control flow) for a
``gpu.barrier`` between them, and inserts one before the later unit where there is none (none
for two branches of one ``scf.if``, which never both run). The waits that end the ranges have
completed the asynchronous accesses before it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.dialects import func, gpu, scf
from xdsl.ir import Block, Operation, SSAValue

from mytriton.dialects.tt import core as tt
from mytriton.dialects.ttg import tma as ttg_tma
from mytriton.dialects.ttg import tma_store as ttg_tma_store
from mytriton.dialects.ttg.async_dot import DotWaitOp, is_async_dot
from mytriton.dialects.ttg.shared import (
    AsyncCopyGlobalToLocalOp,
    AsyncWaitOp,
    LocalAllocOp,
    LocalLoadOp,
    MemDescType,
)
from mytriton.passes.gpu_lowering.context import KERNEL_END, SHARED_ALIGNMENT, SharedBuffer

_TMA_OPS = (*ttg_tma.OPS, *ttg_tma_store.OPS)


class Units:
    """The kernel's ops that live ranges are counted in, numbered in program order: every op of
    the function's body, and, inside an ``scf.if`` (whose blocks run at most once), its ops too;
    an op inside a loop (or another op with regions) counts as the outermost such op (module
    doc)."""

    def __init__(self, fn: func.FuncOp):
        self.index: dict[Operation, int] = {}
        self.ops: list[Operation] = []
        self._number(fn.body.block)

    def _number(self, block: Block) -> None:
        for op in block.ops:
            self.index[op] = len(self.ops)
            self.ops.append(op)
            if isinstance(op, scf.IfOp):
                for region in op.regions:
                    for inner in region.blocks:
                        self._number(inner)

    def of(self, op: Operation) -> int:
        """The number of the unit holding ``op`` (itself, or the nearest enclosing unit: the
        outermost loop around it)."""
        unit: Operation | None = op
        while unit is not None and unit not in self.index:
            unit = unit.parent_op()
        assert unit is not None, op
        return self.index[unit]

    def chain(self, u: int) -> list[int]:
        """Unit ``u`` and the ``scf.if`` units around it, innermost first."""
        out = [u]
        parent = self.ops[u].parent_op()
        while parent is not None and parent in self.index:
            out.append(self.index[parent])
            parent = parent.parent_op()
        return out

    def next_in_block(self, u: int, found: Callable[[Operation], bool]) -> int:
        """The first unit after ``u`` in ``u``'s block that ``found`` accepts, else the
        kernel's end."""
        op = self.ops[u].next_op
        while op is not None:
            if found(op):
                return self.index[op]
            op = op.next_op
        return KERNEL_END


def _tile_users(value: SSAValue) -> list[Operation]:
    """Every op that uses the memdesc ``value``: through subviews, loops carrying it (scf
    results and block arguments) and, for a ``ttg.local_load``, the ops using its result (a dot
    reads the tile itself)."""
    users: list[Operation] = []
    seen: set[SSAValue] = set()
    work = [value]
    while work:
        v = work.pop()
        if v in seen:
            continue
        seen.add(v)
        for use in v.uses:
            op = use.operation
            users.append(op)
            if isinstance(op, LocalLoadOp):
                users += [u.operation for u in op.result.uses]
            elif isinstance(op, scf.ForOp) and use.index >= 3:
                work += [op.body.block.args[use.index - 2], op.results[use.index - 3]]
            elif isinstance(op, scf.YieldOp):
                parent = op.parent_op()
                if parent is not None and use.index < len(parent.results):
                    work.append(parent.results[use.index])
                if isinstance(parent, scf.ForOp):
                    work.append(parent.body.block.args[use.index + 1])
            else:
                work += [r for r in op.results if isinstance(r.type, MemDescType)]
    return users


def tile_range(alloc: LocalAllocOp, units: Units) -> tuple[int, int]:
    """The live range of ``alloc``'s tile over ``units`` (module doc)."""
    at = units.of(alloc)
    users = _tile_users(alloc.result)
    tops = [units.of(u) for u in users]
    first = at if alloc.src is not None or not tops else min(tops)
    last = max(tops, default=at)
    if any(isinstance(u, _TMA_OPS) for u in users):
        return 0, KERNEL_END
    end = last
    if any(isinstance(u, AsyncCopyGlobalToLocalOp) for u in users):
        end = units.next_in_block(last, lambda o: isinstance(o, AsyncWaitOp) and o.pending == 0)
    if any(isinstance(u, tt.DotOp) and is_async_dot(u) for u in users):
        end = max(end, units.next_in_block(last, _retires_all))
    return first, end


def _retires_all(op: Operation) -> bool:
    return isinstance(op, DotWaitOp) and op.pendings.value.data == 0


def overlap(a: SharedBuffer, b: SharedBuffer) -> bool:
    """Whether the live ranges of ``a`` and ``b`` overlap."""
    return a.first <= b.last and b.first <= a.last


def _round(x: int, alignment: int) -> int:
    return -(-x // alignment) * alignment


def allocate(buffers: Sequence[SharedBuffer]) -> tuple[list[int], int]:
    """Each buffer's byte offset and the bytes all take: first-fit, largest first, no two
    buffers live at once sharing a byte (module doc)."""
    offsets = [-1] * len(buffers)
    order = sorted(range(len(buffers)), key=lambda i: (-buffers[i].nbytes, i))
    placed: list[int] = []
    for i in order:
        b = buffers[i]
        size = _round(b.nbytes, SHARED_ALIGNMENT)
        taken = sorted(
            (offsets[j], offsets[j] + _round(buffers[j].nbytes, SHARED_ALIGNMENT))
            for j in placed
            if overlap(b, buffers[j])
        )
        at = 0
        for start, end in taken:
            if at + size <= start:
                break
            at = max(at, _round(end, b.alignment))
        offsets[i] = at
        placed.append(i)
    total = max(
        (o + _round(b.nbytes, SHARED_ALIGNMENT) for o, b in zip(offsets, buffers, strict=True)),
        default=0,
    )
    check_disjoint(buffers, offsets)
    return offsets, total


def shares_bytes(a: SharedBuffer, at_a: int, b: SharedBuffer, at_b: int) -> bool:
    return at_a < at_b + b.nbytes and at_b < at_a + a.nbytes


def check_disjoint(buffers: Sequence[SharedBuffer], offsets: Sequence[int]) -> None:
    """Assert that no two buffers live at once share a byte, and that each sits at its
    alignment."""
    for i, (a, at_a) in enumerate(zip(buffers, offsets, strict=True)):
        assert at_a % a.alignment == 0, (a.name, at_a, a.alignment)
        for j in range(i):
            b, at_b = buffers[j], offsets[j]
            if overlap(a, b):
                assert not shares_bytes(a, at_a, b, at_b), (a.name, at_a, b.name, at_b)


@dataclass
class Span:
    """Where the lowering of a unit went: the gpu block, the op before its first lowered op
    (None: the block's start) and its last lowered op (``before`` where it lowered to none)."""

    block: Block
    before: Operation | None
    last: Operation | None


def separate(
    units: Units, spans: dict[int, Span], buffers: Sequence[SharedBuffer], offsets: Sequence[int]
) -> int:
    """Make every reuse of bytes safe: where a buffer shares bytes with one whose range ended
    before it starts, a ``gpu.barrier`` must lie between the two in the innermost block holding
    both (``spans``: where each unit lowered to); insert one before the later buffer's first
    unit (its enclosing unit in that block) where none does. Units in two branches of one
    ``scf.if`` never both run: they need none. The barriers inserted."""
    needs: set[tuple[int, int]] = set()
    for a, at_a in zip(buffers, offsets, strict=True):
        for b, at_b in zip(buffers, offsets, strict=True):
            if a.last < b.first and shares_bytes(a, at_a, b, at_b):
                needs.add((a.last, b.first))
    inserted = 0
    for end, start in sorted(needs):
        pair = _in_one_block(units, end, start)
        if pair is None:
            continue
        earlier, later = spans[pair[0]], spans[pair[1]]
        assert earlier.block is later.block
        op = earlier.last if earlier.last is not None else earlier.block.first_op
        stop = later.before.next_op if later.before is not None else later.block.first_op
        while op is not None and op is not stop and not isinstance(op, gpu.BarrierOp):
            op = op.next_op
        if isinstance(op, gpu.BarrierOp):
            continue
        barrier = gpu.BarrierOp()
        if later.before is None:
            later.block.insert_op_before(barrier, later.block.first_op)  # type: ignore[arg-type]
        else:
            later.block.insert_op_after(barrier, later.before)
        later.before = barrier
        inserted += 1
    return inserted


def _in_one_block(units: Units, end: int, start: int) -> tuple[int, int] | None:
    """The units around ``end`` and ``start`` in the innermost block holding both, or None
    where that is one ``scf.if`` (their branches exclude each other)."""
    outer = units.chain(start)
    for u in units.chain(end):
        block = units.ops[u].parent_block()
        for v in outer:
            if units.ops[v].parent_block() is block:
                return None if u == v else (u, v)
    raise AssertionError((end, start))  # the function's body holds both
