"""Shared-memory allocation by liveness: buffers whose live ranges do not overlap share bytes.

As Triton's allocation analysis does, each shared buffer of a kernel (``SharedBuffer``: the
ring tiles of a pipelined loop, attention's Q tile, the scratch of a layout conversion, a
reduction, a scan or an atomic, the dots' staging buffer) is live over a range of the kernel's
*top-level* ops, by index: a buffer accessed inside a loop (or any op with regions) is live over
the whole of that top-level op. Ranges are conservative:

* an op-local buffer (``LoweringContext.shared_buffer(local=True)``, the scratch buffers) is
  live over the top-level op holding the ops that request it;
* a ``ttg.local_alloc`` tile (``tile_range``) from the first top-level op using its memdesc (its
  subviews, the loops carrying them, the dots reading its ``ttg.local_load``s), or its alloc
  where that stores a value into it, to the last;
  one that ``cp.async`` copies write is live on to the next top-level ``ttg.async_wait {num =
  0}`` (copies past a loop's end still write zeros, landing only there), one that an
  asynchronous warpgroup MMA reads on to the next top-level ``ttg.dot_wait {pendings = 0}``
  (the MMA reads it until retired), and one a TMA op touches, to the kernel's end;
* any other buffer (tensor maps), to the kernel's end.

``allocate`` places the buffers first-fit, largest first, each at its alignment (1024 bytes for
wgmma's swizzled tiles), at the lowest offset where it overlaps no buffer that is live at the
same time; ``check_disjoint`` asserts the result (gpusim checks each reuse as it runs it:
``backends/gpusim/shared_aliases.py``).

Reusing bytes needs the last access to one buffer to be over, in every thread, before the first
write to the next: ``separate`` finds a top-level ``gpu.barrier`` between the two buffers'
top-level ops, and inserts one before the later buffer's first op where there is none. A
top-level barrier is reached by every thread, after every access of the ops before it (the
asynchronous ones have completed by the waits that end the ranges).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import func, gpu, scf
from xdsl.ir import Block, Operation, SSAValue

from mytriton.dialects.tt import core as tt
from mytriton.dialects.ttg import tma as ttg_tma
from mytriton.dialects.ttg.async_dot import DotWaitOp, is_async_dot
from mytriton.dialects.ttg.shared import (
    AsyncCopyGlobalToLocalOp,
    AsyncWaitOp,
    LocalAllocOp,
    LocalLoadOp,
    MemDescType,
)
from mytriton.passes.gpu_lowering.context import KERNEL_END, SHARED_ALIGNMENT, SharedBuffer

_TMA_OPS = tuple(ttg_tma.OPS)


def top_index(op: Operation, body: Block) -> int:
    """The index in ``body`` of the top-level op holding ``op``."""
    while op.parent_block() is not body:
        parent = op.parent_op()
        assert parent is not None, op
        op = parent
    return body.get_operation_index(op)


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


def _next_top(body: Block, after: int, found: Callable[[Operation], bool]) -> int:
    """The index of the first top-level op past ``after`` that ``found`` accepts, else the
    kernel's end."""
    for i, op in enumerate(body.ops):
        if i > after and found(op):
            return i
    return KERNEL_END


def tile_range(alloc: LocalAllocOp, body: Block) -> tuple[int, int]:
    """The live range of ``alloc``'s tile over ``body``'s top-level ops (module doc)."""
    at = top_index(alloc, body)
    users = _tile_users(alloc.result)
    tops = [top_index(u, body) for u in users]
    first = at if alloc.src is not None or not tops else min(tops)
    last = max(tops, default=at)
    if any(isinstance(u, _TMA_OPS) for u in users):
        return first, KERNEL_END
    end = last
    if any(isinstance(u, AsyncCopyGlobalToLocalOp) for u in users):
        end = _next_top(body, last, lambda o: isinstance(o, AsyncWaitOp) and o.pending == 0)
    if any(isinstance(u, tt.DotOp) and is_async_dot(u) for u in users):
        end = max(end, _next_top(body, last, _retires_all))
    return first, end


def _retires_all(op: Operation) -> bool:
    return isinstance(op, DotWaitOp) and op.pendings.value.data == 0


def has_async_dots(fn: func.FuncOp) -> bool:
    return any(isinstance(o, tt.DotOp) and is_async_dot(o) for o in fn.walk())


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


def separate(
    body: Block,
    spans: Sequence[tuple[Operation, Operation] | None],
    buffers: Sequence[SharedBuffer],
    offsets: Sequence[int],
) -> int:
    """Make every reuse of bytes safe: where a buffer shares bytes with one whose range ended
    before it starts, a top-level ``gpu.barrier`` of ``body`` must lie between the earlier one's
    last op and the later one's first (``spans``: per top-level op of the source kernel, its
    first and last lowered op at the top level of ``body``, None for none); insert one where
    none does. The barriers inserted."""
    inserted = 0
    needs: dict[int, int] = {}  # the later buffer's first op -> the latest end before it
    for a, at_a in zip(buffers, offsets, strict=True):
        for b, at_b in zip(buffers, offsets, strict=True):
            if a.last < b.first and shares_bytes(a, at_a, b, at_b):
                needs[b.first] = max(needs.get(b.first, -1), a.last)
    for first, last in sorted(needs.items()):
        start = spans[first]
        assert start is not None, first  # the op that requests a buffer emits code
        end = next((spans[i] for i in range(last, -1, -1) if spans[i] is not None), None)
        op: Operation | None = end[1] if end is not None else body.first_op
        while op is not None and op is not start[0]:
            if isinstance(op, gpu.BarrierOp):
                break
            op = op.next_op
        if not isinstance(op, gpu.BarrierOp):
            barrier = gpu.BarrierOp()
            barrier.location = start[0].location
            body.insert_op_before(barrier, start[0])
            inserted += 1
    return inserted
