"""What makes running several programs at once (a *batch*) safe, and how to undo it when not.

The GPU runs programs in any order and guarantees only each program's own order of loads and
stores. A batch runs its programs in lockstep, op by op, which keeps every program's own order, so
it computes what *some* GPU schedule computes. We go further and promise the result of running
the programs one after another in grid order (as Triton's interpreter does): that holds unless
two programs of one batch touch the same element and at least one of them stores it. The batch
log records every access and saves what each store overwrote; after the batch, a conflict (or a
loop whose trip count differs between programs, or an error) rolls the batch back so it can be
rerun one program at a time.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.dialects import func, scf
from xdsl.ir import BlockArgument, SSAValue

from mytriton.backends.interpreter.memory import Buffer, Memory
from mytriton.dialects.tt import core as tt
from mytriton.dialects.tt.atomic import AtomicCASOp, AtomicRMWOp
from mytriton.dialects.tt.elementwise import SelectOp

Array = np.ndarray


class BatchDiverged(Exception):
    """The programs of a batch would take different paths (a loop's trip count differs)."""


@dataclass(frozen=True)
class Access:
    """Lanes ``offsets[active]`` of ``buffer`` were read or written; axis 0 is the program."""

    buffer: Buffer
    offsets: Array
    active: Array | None
    is_store: bool


class BatchLog:
    """Undo log and access record of one batch of ``programs`` programs.

    Loads are recorded only from ``watched_regions`` (None: all), the regions the kernel may
    store to: a load from memory no program writes cannot conflict, and not keeping its
    offsets saves memory in long loops (a matmul's K loop loads far more than it stores).
    """

    def __init__(self, memory: Memory, programs: int, watched_regions: set[int] | None):
        self.memory = memory
        self.programs = programs
        self.watched_regions = watched_regions
        self.accesses: list[Access] = []
        self.undo: list[tuple[Buffer, Array, Array]] = []
        #: lines ``tt.print`` printed, per program of the batch: shown only if it commits
        self.output: list[tuple[int, list[str]]] = []

    def record_load(self, buffer: Buffer, offsets: Array, active: Array | None) -> None:
        if self.watched_regions is None or buffer.region in self.watched_regions:
            self.accesses.append(Access(buffer, offsets, active, is_store=False))

    def record_store(
        self, buffer: Buffer, offsets: Array, active: Array | None, indices: Array
    ) -> None:
        """Call before the store writes ``buffer.flat[indices]``."""
        self.accesses.append(Access(buffer, offsets, active, is_store=True))
        self.undo.append((buffer, indices, buffer.flat[indices]))  # fancy indexing copies

    def rollback(self) -> None:
        """Restore every element the batch stored to."""
        for buffer, indices, old in reversed(self.undo):
            buffer.flat[indices] = old
        self.undo.clear()
        self.output.clear()

    def flush_output(self) -> None:
        """Print the batch's lines program by program, as running them in order would."""
        for _, lines in sorted(self.output, key=lambda entry: entry[0]):
            for line in lines:
                print(line)
        self.output.clear()

    def has_conflict(self) -> bool:
        """Did two programs touch one element that at least one of them stored?"""
        stored_regions = {a.buffer.region for a in self.accesses if a.is_store}
        for region in stored_regions:
            accesses = [a for a in self.accesses if a.buffer.region == region]
            owner = np.full(self.memory.region_spans[region], -1, dtype=np.int64)
            for a in accesses:
                if a.is_store:
                    addresses, programs = self._lanes(a)
                    if programs is None:
                        if addresses.size:
                            return True  # every program of the batch stores the same elements
                        continue
                    owner[addresses] = programs
            for a in accesses:
                addresses, programs = self._lanes(a)
                seen = owner[addresses]
                if programs is None:
                    if np.any(seen >= 0):
                        return True  # all programs read an element some program stores
                elif np.any((seen >= 0) & (seen != programs)):
                    return True
        return False

    def _lanes(self, a: Access) -> tuple[Array, Array | None]:
        """Region addresses of the active lanes and their programs (None: all programs)."""
        offsets = a.offsets + a.buffer.start
        shared = offsets.shape[0] == 1 and self.programs > 1
        programs = None if shared else _program_index(offsets.shape)
        if a.active is None:
            flat = None if programs is None else programs.reshape(-1)
            return offsets.reshape(-1), flat
        return offsets[a.active], None if programs is None else programs[a.active]


def _program_index(shape: tuple[int, ...]) -> Array:
    index = np.arange(shape[0], dtype=np.int64).reshape((shape[0],) + (1,) * (len(shape) - 1))
    return np.broadcast_to(index, shape)


def stored_arguments(kernel: func.FuncOp) -> set[SSAValue] | None:
    """The pointer parameters a kernel may store through; None when a stored pointer's origin
    cannot be traced (then every region is watched)."""
    stored: set[SSAValue] = set()
    for op in kernel.walk():
        if isinstance(op, tt.StoreOp | AtomicRMWOp | AtomicCASOp):
            roots = _pointer_roots(op.ptr)
            if roots is None:
                return None
            stored |= roots
    return stored


def _pointer_roots(value: SSAValue) -> set[SSAValue] | None:
    """The kernel parameters a pointer value is derived from, following pointer arithmetic,
    shape ops, selects, loop-carried values and the branches of conditionals."""
    roots: set[SSAValue] = set()
    pending, seen = [value], set()
    while pending:
        v = pending.pop()
        if v in seen:
            continue
        seen.add(v)
        if isinstance(v, BlockArgument):
            parent = v.block.parent_op()
            if isinstance(parent, func.FuncOp):
                roots.add(v)
            elif isinstance(parent, scf.ForOp) and v.index > 0 and parent.body.block.last_op:
                pending += [
                    parent.iter_args[v.index - 1],
                    parent.body.block.last_op.operands[v.index - 1],
                ]
            elif isinstance(parent, scf.WhileOp) and (found := _while_sources(parent, v)):
                pending += found
            else:
                return None
            continue
        owner = v.owner
        if isinstance(owner, scf.ForOp) and owner.body.block.last_op is not None:
            index = owner.results.index(v)
            pending += [owner.iter_args[index], owner.body.block.last_op.operands[index]]
        elif isinstance(owner, scf.WhileOp) and isinstance(
            c := owner.before_region.block.last_op, scf.ConditionOp
        ):
            pending.append(c.args[owner.results.index(v)])
        elif isinstance(owner, scf.IfOp):
            index = owner.results.index(v)
            for region in (owner.true_region, owner.false_region):
                y = region.block.last_op
                if y is None:
                    return None
                pending.append(y.operands[index])
        elif isinstance(owner, tt.AddPtrOp | tt.SplatOp | tt.BroadcastOp | tt.ExpandDimsOp):
            pending.append(owner.operands[0])
        elif isinstance(owner, SelectOp):
            pending += [owner.lhs, owner.rhs]
        else:
            return None
    return roots


def _while_sources(loop: scf.WhileOp, arg: BlockArgument) -> list[SSAValue]:
    """The values an ``scf.while`` region argument takes: the initial and the yielded value
    (*before* region), or the value the condition forwards (*after* region)."""
    before, after = loop.before_region.block, loop.after_region.block
    if arg.block is before and isinstance(y := after.last_op, scf.YieldOp):
        return [loop.arguments[arg.index], y.operands[arg.index]]
    if arg.block is after and isinstance(c := before.last_op, scf.ConditionOp):
        return [c.args[arg.index]]
    return []
