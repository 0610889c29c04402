"""``tt-pipeline``: issue the loads that feed a ``tt.dot`` one loop iteration early.

In a K loop (``for k: a = load(a_ptrs, mask(k)); acc = dot(a, b, acc); a_ptrs += ...``) the
GPU waits for every iteration's operand tiles before its dot can start. This pass rotates such
a load: the loop carries the next iteration's tile, the first one is loaded before the loop,
and each iteration loads the following one *before* its dot, so the memory latency overlaps the
dot's math (software pipelining with two stages, the tiles held in registers).

The next iteration's pointer, mask and ``other`` are recomputed at the top of the body by
cloning the pure ops they come from, with the induction variable advanced by the step and each
carried value replaced by the (cloned, pure) computation of what the iteration yields for it.
The prefetch is masked off past the loop's end, so the rotated loop reads exactly the elements
the original read, and nothing else.

It only rotates what it can prove equivalent: loops whose body writes no memory (no store,
atomic, print or assert, nested ones included: a load issued earlier could otherwise miss a
value the iteration before writes), loads directly in the body that are not volatile and feed a
``tt.dot``, whose operands (and the carried values those depend on) come from pure ops of the
body other than dots, the induction variable, carried values and values defined outside. A
loop with ``tt.num_stages`` <= 1 (``tl.range(..., num_stages=1)``), or in a module whose
``tt.num_stages`` (the launch's ``num_stages``; absent: ``DEFAULT_NUM_STAGES``) is <= 1 and
that does not set its own, stays (``loop_attrs`` reads both).

Not in the default pipeline (``MYTRITON_PIPELINE=tt-simplify,licm,tt-pipeline,tt-simplify``
turns it on): on the H200 the tutorial matmul (f16 4096^3) measured +15% on the cuda backend
and -5% on mlir with it, tf32 slower on both, before shared-memory pipelining existed. The
pipelining that runs by default is ``ttg-pipeline`` (``async_copies``): after layout
assignment, the next tiles go into ``num_stages`` shared buffers with ``cp.async``. Its helpers
for loop slices (``reads_only``, ``pure_slice``, ``block_args``, ``clone_ops``) are these.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from xdsl.context import Context
from xdsl.dialects import builtin, scf
from xdsl.dialects.builtin import IntegerType, TensorType, i1
from xdsl.ir import Block, BlockArgument, Operation, OpResult, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.traits import MemoryEffectKind, get_effects
from xdsl.utils.exceptions import VerifyException

from mytriton.dialects.tt import core as tt
from mytriton.dialects.tt.debug import VOLATILE_ATTR
from mytriton.dialects.tt.elementwise import AddOp, AndOp, CmpOp
from mytriton.dialects.tt.loop_attrs import loop_num_stages, module_num_stages
from mytriton.dialects.tt.types import shape_of
from mytriton.errors import CompilationError


class PipelineLoadsPass(ModulePass):
    """Prefetch the dot operands of ``scf.for`` loops one iteration ahead (module doc)."""

    name = "tt-pipeline"

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        module_stages = module_stages_of(op)
        for loop in [o for o in op.walk() if isinstance(o, scf.ForOp)]:
            if loop_num_stages(loop, module_stages) > 1:
                pipeline_loop(loop)


def module_stages_of(module: builtin.ModuleOp) -> int:
    """The module's ``num_stages`` (``loop_attrs.module_num_stages``); one that is not an
    integer is a ``CompilationError`` naming the attribute."""
    try:
        return module_num_stages(module)
    except VerifyException as e:
        raise CompilationError(str(e)) from None


def pipeline_loop(loop: scf.ForOp) -> bool:
    """Rotate ``loop``'s dot-operand loads that qualify; whether there was one."""
    body = loop.body.block
    if not isinstance(body.args[0].type, IntegerType) or not reads_only(body):
        return False
    yielded = body.last_op
    assert isinstance(yielded, scf.YieldOp)
    iv = body.args[0]
    next_slices: dict[int, list[Operation]] = {}  # carried index -> ops computing its next value
    loads: list[tuple[tt.LoadOp, list[Operation]]] = []
    for op in body.ops:
        if not _candidate(op):
            continue
        assert isinstance(op, tt.LoadOp)
        ops = pure_slice(op.operands, body)
        if ops is None:
            continue
        needed = {a.index - 1 for a in block_args(ops, op.operands, body) if a is not iv}
        found = {j: next_slices.get(j) or pure_slice([yielded.operands[j]], body) for j in needed}
        if any(s is None for s in found.values()):
            continue
        next_slices.update({j: s for j, s in found.items() if s is not None})
        loads.append((op, ops))
    if not loads:
        return False
    _rotate(loop, loads, next_slices)
    return True


def reads_only(block: Block) -> bool:
    """Whether nothing in ``block`` (nested regions included) writes, allocates or frees."""
    for op in block.walk():
        if isinstance(op, scf.YieldOp):
            continue
        effects = get_effects(op)
        if effects is None or any(e.kind != MemoryEffectKind.READ for e in effects):
            return False
    return True


def _candidate(op: Operation) -> bool:
    return (
        isinstance(op, tt.LoadOp)
        and VOLATILE_ATTR not in op.attributes
        and isinstance(op.result.type, TensorType)
        and any(isinstance(u.operation, tt.DotOp) and u.index < 2 for u in op.result.uses)
    )


def pure_slice(
    roots: Sequence[SSAValue], body: Block, stops: Collection[SSAValue] = ()
) -> list[Operation] | None:
    """The ops of ``body`` that ``roots`` depend on, in body order; None when one of them has
    effects (a load), is a dot (not worth computing twice) or sits in a nested region. The
    values in ``stops`` are taken as given (their ops are not followed)."""
    seen: set[Operation] = set()
    stack = list(roots)
    while stack:
        v = stack.pop()
        if v in stops:
            continue
        if not isinstance(v, OpResult):
            if isinstance(v, BlockArgument) and v.block is not body and _within(v.block, body):
                return None
            continue
        op = v.op
        if op.parent_block() is not body:
            if _within(op.parent_block(), body):
                return None
            continue
        if op in seen:
            continue
        effects = get_effects(op)
        if effects is None or effects or isinstance(op, tt.DotOp) or op.regions:
            return None
        seen.add(op)
        stack.extend(op.operands)
    return [op for op in body.ops if op in seen]


def _within(block: Block | None, body: Block) -> bool:
    """Whether ``block`` is nested inside an op of ``body``."""
    while block is not None:
        owner = block.parent_op()
        if owner is None:
            return False
        if owner.parent_block() is body:
            return True
        block = owner.parent_block()
    return False


def block_args(
    ops: Sequence[Operation], roots: Sequence[SSAValue], body: Block
) -> set[BlockArgument]:
    """The arguments of ``body`` (induction variable, carried values) that ``roots`` and the
    operands of ``ops`` read."""
    values = [*roots, *(o for op in ops for o in op.operands)]
    return {v for v in values if isinstance(v, BlockArgument) and v.block is body}


def clone_ops(ops: Sequence[Operation], mapping: dict[SSAValue, SSAValue]) -> list[Operation]:
    """Clones of ``ops`` reading ``mapping``'s values (which records their results)."""
    return [op.clone(value_mapper=mapping) for op in ops]


def _prefetch(
    load: tt.LoadOp,
    ops: Sequence[Operation],
    mapping: dict[SSAValue, SSAValue],
    iteration: SSAValue,
    upper: SSAValue,
) -> list[Operation]:
    """``ops`` and ``load`` cloned under ``mapping``, the load masked off unless ``iteration``
    is below ``upper``: the ops to insert, the load last."""
    out = clone_ops(ops, mapping)
    ptr = mapping.get(load.ptr, load.ptr)
    shape = shape_of(load.result.type)
    in_range = CmpOp("lt", iteration, upper)
    lanes = tt.SplatOp(in_range.result, TensorType(i1, shape))
    out += [in_range, lanes]
    mask: SSAValue = lanes.result
    if load.mask is not None:
        both = AndOp(mapping.get(load.mask, load.mask), lanes.result)
        out.append(both)
        mask = both.result
    other = mapping.get(load.other, load.other) if load.other is not None else None
    prefetched = tt.LoadOp(ptr, mask, other)
    prefetched.attributes.update(load.attributes)
    prefetched.result.name_hint = f"{load.result.name_hint or 'tile'}_next"
    out.append(prefetched)
    for op in (in_range, lanes, *out[len(ops) :]):
        op.location = load.location  # the kernel line of the load they stand for
    return out


def _rotate(
    loop: scf.ForOp,
    loads: Sequence[tuple[tt.LoadOp, list[Operation]]],
    next_slices: dict[int, list[Operation]],
) -> None:
    old = loop.body.block
    parent = loop.parent_block()
    assert parent is not None
    # before the loop: the first iteration's tiles
    first: list[SSAValue] = []
    for load, ops in loads:
        mapping: dict[SSAValue, SSAValue] = {old.args[0]: loop.lb}
        mapping.update(zip(old.args[1:], loop.iter_args, strict=True))
        pre = _prefetch(load, ops, mapping, loop.lb, loop.ub)
        parent.insert_ops_before(pre, loop)
        first.append(pre[-1].results[0])
    # the new body: the old one's ops, each rotated load's result a carried value
    body = Block(arg_types=[a.type for a in old.args] + [v.type for v in first])
    for a, b in zip(old.args, body.args[: len(old.args)], strict=True):
        b.name_hint = a.name_hint
        a.replace_all_uses_with(b)
    for op in list(old.ops):
        op.detach()
        body.add_op(op)
    iv, carried = body.args[0], list(body.args[1 : len(old.args)])
    current = body.args[len(old.args) :]
    # at its top: the next iteration's induction variable, carried values and tiles
    top: list[Operation] = []
    step = AddOp(iv, loop.step)
    step.location = loop.location
    top.append(step)
    ahead: dict[SSAValue, SSAValue] = {iv: step.result}
    for j, ops in sorted(next_slices.items()):
        mapping = {}
        top += clone_ops(ops, mapping)
        yielded = body.last_op
        assert isinstance(yielded, scf.YieldOp)
        ahead[carried[j]] = mapping.get(yielded.operands[j], yielded.operands[j])
    nexts: list[SSAValue] = []
    for load, ops in loads:
        made = _prefetch(load, ops, dict(ahead), step.result, loop.ub)
        top += made
        nexts.append(made[-1].results[0])
    first_op = body.first_op
    assert first_op is not None
    body.insert_ops_before(top, first_op)
    for (load, _), value in zip(loads, current, strict=True):
        value.name_hint = load.result.name_hint
        load.result.replace_all_uses_with(value)
        load.detach()
        load.erase()
    yielded = body.last_op
    assert isinstance(yielded, scf.YieldOp)
    new_yield = scf.YieldOp(*yielded.operands, *nexts)
    new_yield.location = yielded.location
    body.insert_op_before(new_yield, yielded)
    yielded.detach()
    yielded.erase()
    new_loop = scf.ForOp(loop.lb, loop.ub, loop.step, [*loop.iter_args, *first], Region(body))
    new_loop.attributes.update(loop.attributes)
    new_loop.location = loop.location
    parent.insert_op_before(new_loop, loop)
    for result, replacement in zip(loop.results, new_loop.results, strict=False):
        replacement.name_hint = result.name_hint
        result.replace_all_uses_with(replacement)
    loop.detach()
    loop.erase()
