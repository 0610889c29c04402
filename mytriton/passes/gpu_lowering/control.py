"""Lowering of program ids, scalar constants and structured control flow.

A runtime loop (``scf.for``, ``scf.while``) keeps its structure: the loop-carried blocks become
one carried value per register, so a ``tt.dot`` accumulator stays in registers across the K loop
(one that a warpgroup MMA leaves in flight into the next iteration: its result structs,
``dot_wgmma.in_flight_init``).
"""

from __future__ import annotations

from xdsl.dialects import arith, func, gpu, scf
from xdsl.dialects.builtin import i32
from xdsl.ir import Attribute, Block, Operation, SSAValue

from mytriton.dialects.tt import core as tt
from mytriton.dialects.tt.constants import UnsignedConstantOp
from mytriton.dialects.ttg.async_dot import is_async_dot
from mytriton.passes.gpu_lowering.context import LoweringContext
from mytriton.passes.gpu_lowering.dot_wgmma import in_flight_init
from mytriton.passes.gpu_lowering.rules import lowers

_DIMS = (gpu.DimensionEnum.X, gpu.DimensionEnum.Y, gpu.DimensionEnum.Z)


@lowers(tt.GetProgramIdOp, tt.GetNumProgramsOp)
class LowerProgramId:
    """``tt.get_program_id`` -> ``gpu.block_id``; ``tt.get_num_programs`` -> ``gpu.grid_dim``."""

    def lower(self, ctx: LoweringContext, op: Operation) -> None:
        assert isinstance(op, (tt.GetProgramIdOp, tt.GetNumProgramsOp))
        dim = gpu.DimensionAttr(_DIMS[op.axis.index])
        idx_op = gpu.BlockIdOp(dim) if isinstance(op, tt.GetProgramIdOp) else gpu.GridDimOp(dim)
        ctx.set(op.results[0], [ctx.value(arith.IndexCastOp(ctx.value(idx_op), i32))])


@lowers(arith.ConstantOp, UnsignedConstantOp)
class LowerConstant:
    def lower(self, ctx: LoweringContext, op: Operation) -> None:
        assert isinstance(op, arith.ConstantOp | UnsignedConstantOp)
        value = op.value
        ctx.set(op.result, [ctx.const(value.value.data, op.result.type)])  # type: ignore[union-attr]


@lowers(scf.ForOp)
class LowerFor:
    """``scf.for`` over blocks -> ``scf.for`` over their registers."""

    def lower(self, ctx: LoweringContext, op: Operation) -> None:
        assert isinstance(op, scf.ForOp)
        old_body = op.body.block
        end = old_body.last_op
        assert isinstance(end, scf.YieldOp)
        carried: list[list[SSAValue]] = []
        fragments: dict[int, tuple[list[list[int]], list[SSAValue]]] = {}
        for j, v in enumerate(op.iter_args):
            dot = end.operands[j].owner
            if is_async_dot(dot):  # carried in flight: as the dot's result structs
                assert isinstance(dot, tt.DotOp)
                structs, fragments[j] = in_flight_init(ctx, dot, ctx.get(v))
                carried.append(structs)
            else:
                carried.append(list(ctx.get(v)))
        counts = [len(c) for c in carried]
        inits = [r for c in carried for r in c]
        types = [r.type for r in inits]
        body = Block(arg_types=[old_body.args[0].type, *types])  # an i32 or i64 counter
        ctx.set(old_body.args[0], [body.args[0]])
        pos = 1
        for j, (arg, n) in enumerate(zip(old_body.args[1:], counts, strict=True)):
            ctx.set(arg, list(body.args[pos : pos + n]))
            if j in fragments:
                ctx.async_dots[arg] = fragments[j]
            pos += n
        with ctx.inside(body):
            for inner in old_body.ops:
                if isinstance(inner, scf.YieldOp):
                    ctx.emit(scf.YieldOp(*(r for v in inner.operands for r in ctx.get(v))))
                else:
                    ctx.lower_op(inner)
        loop = scf.ForOp(ctx.scalar(op.lb), ctx.scalar(op.ub), ctx.scalar(op.step), inits, body)
        loop.attributes.update(op.attributes)  # tl.range's options (tt.num_stages, ...)
        ctx.emit(loop)
        pos = 0
        for j, (res, n) in enumerate(zip(op.results, counts, strict=True)):
            ctx.set(res, list(loop.results[pos : pos + n]))
            if j in fragments:
                ctx.async_dots[res] = fragments[j]
            pos += n


@lowers(scf.WhileOp)
class LowerWhile:
    """``scf.while`` over blocks -> ``scf.while`` over their registers: the *before* region
    computes the (scalar, so uniform) condition and forwards every register of the values it
    passes on, the *after* region yields every register of the carried values."""

    def lower(self, ctx: LoweringContext, op: Operation) -> None:
        assert isinstance(op, scf.WhileOp)
        old_before, old_after = op.before_region.block, op.after_region.block
        inits = [r for v in op.arguments for r in ctx.get(v)]
        before = self._region(ctx, old_before, [len(ctx.get(v)) for v in op.arguments], inits)
        condition = before.last_op
        assert isinstance(condition, scf.ConditionOp)
        forwarded = list(condition.args)
        old_condition = old_before.last_op
        assert isinstance(old_condition, scf.ConditionOp)
        counts = [len(ctx.get(v)) for v in old_condition.args]
        after = self._region(ctx, old_after, counts, forwarded)
        ctx.location = op.location  # not that of the last op of the body
        loop = ctx.emit(scf.WhileOp(inits, [r.type for r in forwarded], [before], [after]))
        pos = 0
        for res, n in zip(op.results, counts, strict=True):
            ctx.set(res, list(loop.results[pos : pos + n]))
            pos += n

    @staticmethod
    def _region(ctx: LoweringContext, old: Block, counts: list[int], like: list[SSAValue]) -> Block:
        """A region's block with one argument per register (typed like ``like``), its ops
        lowered and its terminator passing on registers."""
        block = Block(arg_types=[r.type for r in like])
        pos = 0
        for arg, n in zip(old.args, counts, strict=True):
            registers = block.args[pos : pos + n]
            for i, r in enumerate(registers):  # readable names in the IR and the C++
                if arg.name_hint:
                    r.name_hint = arg.name_hint if n == 1 else f"{arg.name_hint}_{i}"
            ctx.set(arg, list(registers))
            pos += n
        with ctx.inside(block):
            for inner in old.ops:
                if isinstance(inner, scf.ConditionOp | scf.YieldOp):
                    ctx.location = inner.location
                if isinstance(inner, scf.ConditionOp):
                    forwarded = [r for v in inner.args for r in ctx.get(v)]
                    ctx.emit(scf.ConditionOp(ctx.scalar(inner.condition), *forwarded))
                elif isinstance(inner, scf.YieldOp):
                    ctx.emit(scf.YieldOp(*(r for v in inner.operands for r in ctx.get(v))))
                else:
                    ctx.lower_op(inner)
        return block


@lowers(func.ReturnOp)
class LowerReturn:
    def lower(self, ctx: LoweringContext, op: Operation) -> None:
        ctx.emit(gpu.ReturnOp([]))


@lowers(scf.IfOp)
class LowerIf:
    """``scf.if`` on a scalar condition -> ``scf.if`` yielding every register of its results."""

    def lower(self, ctx: LoweringContext, op: Operation) -> None:
        assert isinstance(op, scf.IfOp)
        blocks = []
        counts: list[int] = []
        types: list[Attribute] = []
        for region in (op.true_region, op.false_region):
            block = Block()
            with ctx.inside(block):
                for inner in region.block.ops:
                    if isinstance(inner, scf.YieldOp):
                        values = [ctx.get(v) for v in inner.operands]
                        counts = [len(v) for v in values]
                        types = [r.type for v in values for r in v]
                        ctx.emit(scf.YieldOp(*(r for v in values for r in v)))
                    else:
                        ctx.lower_op(inner)
            blocks.append(block)
        new = ctx.emit(scf.IfOp(ctx.scalar(op.cond), types, [blocks[0]], [blocks[1]]))
        pos = 0
        for res, n in zip(op.results, counts, strict=True):
            ctx.set(res, list(new.results[pos : pos + n]))
            pos += n
