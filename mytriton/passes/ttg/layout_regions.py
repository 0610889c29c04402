"""Control flow in ``tt-assign-layouts`` (``assign_layouts``): a block carried by ``scf.for``
or ``scf.while``, or a result of ``scf.if``, keeps the layout its yielded value will have
(``predict``), or, for a pointer block advanced by itself (from a free or a gathered start), the
coalesced layout of the accesses made through it (``carried``; chosen first, so that the other
carried values' predictions see it); each region is rebuilt in its own scope of values.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import scf
from xdsl.ir import Block, Operation, OpResult, SSAValue

from mytriton.dialects.tt import core as tt
from mytriton.dialects.tt.types import PointerType, element_type
from mytriton.dialects.ttg.layouts import Layout, with_layout
from mytriton.passes.ttg.layout_rules import RESULT_LAYOUT
from mytriton.passes.ttg.layout_values import LayoutValues, Scope, is_block_value


class RegionLayouts(LayoutValues):
    """``LayoutValues`` with the rebuilding of ``scf`` regions; ``emit`` rebuilds one op."""

    def emit(self, op: Operation) -> None:
        """Rebuild ``op`` laid out, into ``self.block`` (``LayoutAssigner.emit``)."""
        raise NotImplementedError

    # ---------------------------------------------------------------- conditionals

    def emit_if(self, op: scf.IfOp) -> None:
        """A block result keeps the layout its yielded values will have (converted if the two
        branches disagree)."""
        branches = [op.true_region.block, op.false_region.block]
        yields = [b.last_op for b in branches]
        assert all(isinstance(y, scf.YieldOp) for y in yields)
        layouts: list[Layout | None] = []
        for i, r in enumerate(op.results):
            if not is_block_value(r):
                layouts.append(None)
                continue
            found = None
            for y in yields:
                assert y is not None
                found = found or self.predict(y.operands[i], set())
            layouts.append(found or self.default(r))
        new_blocks = []
        outer_block = self.block
        for branch, y in zip(branches, yields, strict=True):
            assert isinstance(y, scf.YieldOp)
            block = Block()
            self.block = block
            self.scopes.append(Scope({}))
            for inner in list(branch.ops):
                if inner is y:
                    break
                self.emit(inner)
            new_yield = scf.YieldOp(
                *(self.operand(v, lay) for v, lay in zip(y.operands, layouts, strict=True))
            )
            new_yield.location = y.location
            self.insert(new_yield)
            self.scopes.pop()
            new_blocks.append(block)
        self.block = outer_block
        new_if = scf.IfOp(
            self.scalar(op.cond),
            [with_layout(r.type, lay) for r, lay in zip(op.results, layouts, strict=True)],
            [new_blocks[0]],
            [new_blocks[1]],
        )
        new_if.location = op.location
        self.insert(new_if)
        for old_res, new_res, lay in zip(op.results, new_if.results, layouts, strict=True):
            if lay is None:
                self.scalars[old_res] = new_res
                new_res.name_hint = old_res.name_hint
            else:
                self.bind(old_res, new_res, lay)

    # ---------------------------------------------------------------- loops

    def emit_for(self, op: scf.ForOp) -> None:
        body = op.body.block
        yield_op = body.last_op
        assert isinstance(yield_op, scf.YieldOp)
        layouts = self._carried_layouts(op.iter_args, yield_op.operands, body.args[1:])
        inits = [self._init(v, lay) for v, lay in zip(op.iter_args, layouts, strict=True)]
        new_body = Block(
            arg_types=[
                body.args[0].type,
                *(with_layout(a.type, lay) for a, lay in zip(body.args[1:], layouts, strict=True)),
            ]
        )
        outer_block = self.block
        self.block = new_body
        self.scopes.append(Scope({}))
        self.scalars[body.args[0]] = new_body.args[0]
        new_body.args[0].name_hint = body.args[0].name_hint
        for old_arg, new_arg, lay in zip(body.args[1:], new_body.args[1:], layouts, strict=True):
            if lay is None:
                self.scalars[old_arg] = new_arg
                new_arg.name_hint = old_arg.name_hint
            else:
                self.bind(old_arg, new_arg, lay)
        for inner in list(body.ops):
            if inner is yield_op:
                break
            self.emit(inner)
        yields = [self.operand(v, lay) for v, lay in zip(yield_op.operands, layouts, strict=True)]
        y = scf.YieldOp(*yields)
        y.location = yield_op.location
        self.insert(y)
        self.scopes.pop()
        self.block = outer_block
        new_for = scf.ForOp(
            self.scalar(op.lb), self.scalar(op.ub), self.scalar(op.step), inits, new_body
        )
        new_for.location = op.location
        new_for.attributes.update(op.attributes)  # tl.range's options (tt.num_stages, ...)
        self.insert(new_for)
        for old_res, new_res, lay in zip(op.results, new_for.results, layouts, strict=True):
            if lay is None:
                self.scalars[old_res] = new_res
                new_res.name_hint = old_res.name_hint
            else:
                self.bind(old_res, new_res, lay)

    def emit_while(self, op: scf.WhileOp) -> None:
        """Like ``scf.for``'s: a carried block keeps the layout its value yielded by the body
        will have, in both regions and after the loop; the values ``scf.condition`` forwards
        (the results) get the layouts they will have too."""
        before, after = op.before_region.block, op.after_region.block
        condition, yield_op = before.last_op, after.last_op
        assert isinstance(condition, scf.ConditionOp) and isinstance(yield_op, scf.YieldOp)
        carried = self._carried_layouts(op.arguments, yield_op.operands, before.args)
        forwarded: list[Layout | None] = []
        for v in condition.args:
            if not is_block_value(v):
                forwarded.append(None)
            elif v in before.args:  # the usual case: the carried value itself
                forwarded.append(carried[before.args.index(v)])
            else:
                forwarded.append(self.predict(v, set()) or self.default(v))
        inits = [self._init(v, lay) for v, lay in zip(op.arguments, carried, strict=True)]
        new_before = self._region_block(before, carried, condition, forwarded)
        new_after = self._region_block(after, forwarded, yield_op, carried)
        new_while = scf.WhileOp(
            inits,
            [with_layout(r.type, lay) for r, lay in zip(op.results, forwarded, strict=True)],
            [new_before],
            [new_after],
        )
        new_while.location = op.location
        self.insert(new_while)
        self._bind_results(op.results, new_while.results, forwarded)

    def _region_block(
        self,
        old: Block,
        arg_layouts: Sequence[Layout | None],
        terminator: scf.ConditionOp | scf.YieldOp,
        out_layouts: Sequence[Layout | None],
    ) -> Block:
        """One region of an ``scf.while`` laid out: its arguments bound in ``arg_layouts``,
        the values its terminator passes on converted to ``out_layouts``."""
        new = Block(
            arg_types=[
                with_layout(a.type, lay) if lay is not None else a.type
                for a, lay in zip(old.args, arg_layouts, strict=True)
            ]
        )
        outer_block = self.block
        self.block = new
        self.scopes.append(Scope({}))
        self._bind_results(old.args, new.args, arg_layouts)
        for inner in list(old.ops):
            if inner is terminator:
                break
            self.emit(inner)
        values = terminator.args if isinstance(terminator, scf.ConditionOp) else terminator.operands
        passed = [self.operand(v, lay) for v, lay in zip(values, out_layouts, strict=True)]
        if isinstance(terminator, scf.ConditionOp):
            end: Operation = scf.ConditionOp(self.scalar(terminator.condition), *passed)
        else:
            end = scf.YieldOp(*passed)
        end.location = terminator.location
        self.insert(end)
        self.scopes.pop()
        self.block = outer_block
        return new

    def _bind_results(
        self,
        old: Sequence[SSAValue],
        new: Sequence[SSAValue],
        layouts: Sequence[Layout | None],
    ) -> None:
        for old_v, new_v, lay in zip(old, new, layouts, strict=True):
            if lay is None:
                self.scalars[old_v] = new_v
                new_v.name_hint = old_v.name_hint
            else:
                self.bind(old_v, new_v, lay)

    def _carried_layouts(
        self, inits: Sequence[SSAValue], yields: Sequence[SSAValue], args: Sequence[SSAValue]
    ) -> list[Layout | None]:
        """``carried`` of each carried block (None: a scalar), pointer blocks first: the
        others' predictions see the layouts those will have (a value loaded through a pointer
        block whose initial value's layout it does not keep)."""
        layouts: list[Layout | None] = [None] * len(inits)
        blocks = [i for i, v in enumerate(inits) if is_block_value(v)]
        blocks.sort(key=lambda i: not isinstance(element_type(inits[i].type), PointerType))
        for i in blocks:
            layout = self.carried(inits[i], yields[i], args[i])
            layouts[i] = layout
            if isinstance(element_type(inits[i].type), PointerType):
                self.pending[args[i]] = layout
        for arg in args:
            self.pending.pop(arg, None)
        return layouts

    def carried(self, init: SSAValue, yielded: SSAValue, arg: SSAValue) -> Layout:
        """The layout of a loop-carried block: the one its yielded value will have, else its
        initial value's. A pointer block advanced by ``addptr`` of itself (``a_ptrs += BK``)
        predicts nothing from its yield: it takes the layout of the accesses made through it
        in the loop (``arg``: the carried value, whose contiguity the axis analysis found
        over every iteration), so that those loads and stores are coalesced and vectorized;
        so does one whose initial value is bound, where the accesses would regather it
        (``regathers``: a fused MoE's rows of A, gathered through its token ids)."""
        found = self.predict(yielded, set())
        if found is not None:
            return found
        bound = self.home.get(init)
        if isinstance(element_type(arg.type), PointerType):
            masks = [
                use.operation.mask
                for use in arg.uses
                if isinstance(use.operation, tt.LoadOp | tt.StoreOp) and use.index == 0
            ]
            coalesced = self._coalesced(arg, masks)
            if bound is None or (
                self.axis[arg].contiguity[coalesced.dim_order[0]] > 1
                and self.regathers(init, (), bound, coalesced)
            ):
                return coalesced
        return bound or self.default(init)

    def _init(self, v: SSAValue, layout: Layout | None) -> SSAValue:
        """The initial value of a carried value: a pointer block, which cannot be converted,
        recomputed in a layout it was not bound in (``carried``)."""
        if layout is not None and isinstance(element_type(v.type), PointerType):
            return self.access_value(v, layout, v)
        return self.operand(v, layout)

    def predict(self, v: SSAValue, seen: set[SSAValue]) -> Layout | None:
        """The layout ``v`` will get (for choosing loop-carried layouts before the body)."""
        if v in self.home:
            return self.home[v]
        if v in self.pending:
            return self.pending[v]
        if v in seen or v in self.free or not isinstance(v, OpResult):
            return None
        seen.add(v)
        op = v.owner
        if isinstance(op, scf.ForOp):
            y = op.body.block.last_op
            assert isinstance(y, scf.YieldOp)
            return self.predict(y.operands[v.index], seen)
        if isinstance(op, scf.WhileOp):
            c = op.before_region.block.last_op
            assert isinstance(c, scf.ConditionOp)
            return self.predict(c.args[v.index], seen)
        if isinstance(op, scf.IfOp):
            for region in (op.true_region, op.false_region):
                y = region.block.last_op
                assert isinstance(y, scf.YieldOp)
                found = self.predict(y.operands[v.index], seen)
                if found is not None:
                    return found
            return None
        rule = RESULT_LAYOUT.get(op)
        return None if rule is None else rule(op, lambda o: self.predict(o, seen), self)
