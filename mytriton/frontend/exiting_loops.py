"""Runtime loops that may ``break`` or ``return`` (early_exit.py's flags): an ``scf.while``
that carries the flags and the values the body may return, whose condition is false once a
flag is set; a runtime ``for`` becomes such a loop over its induction variable."""

from __future__ import annotations

import ast
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from xdsl.dialects import scf
from xdsl.dialects.builtin import i1
from xdsl.ir import Attribute, Block, Region, SSAValue

from mytriton.errors import KernelTypeError
from mytriton.frontend.ast_scans import RETURN, assigned_names, has_call, loop_exits
from mytriton.frontend.carried import Carried, flat, rebuild
from mytriton.frontend.dtypes import to_ir
from mytriton.frontend.early_exit import EarlyExitMixin
from mytriton.frontend.exit_values import ir_name, is_result_key, type_words
from mytriton.frontend.ir_names import value_name
from mytriton.frontend.range_loops import LoopPlan
from mytriton.frontend.values import CompositeValue, TensorValue
from mytriton.language import core


@dataclass
class _ExitingLoop:
    """What the parts of one exiting loop share: the loop, its counter (a ``for``'s variable
    and plan), the flags it carries, the variables it carries and their values before it."""

    node: ast.While | ast.For
    count: tuple[str, LoopPlan] | None
    exit_flags: list[str]
    carried: list[str]
    inits: list[Carried]
    outer: dict[str, Any]
    #: the block arguments before the carried values (the counter), and the carried values
    lead: list[Attribute] = field(init=False)
    n_carried: int = field(init=False)

    def __post_init__(self) -> None:
        self.lead = [to_ir(self.count[1].dtype)] if self.count else []
        self.n_carried = len(flat(self.inits))

    def types(self) -> list[Attribute]:
        """The loop's types: counter, carried values, flags (the returned values follow)."""
        return [*self.lead, *(v.type for v in flat(self.inits)), *(i1 for _ in self.exit_flags)]


# (`ast.NodeVisitor` is named again so that linters see the `visit_<Node>` methods as a visitor's.)
class ExitingLoopMixin(EarlyExitMixin, ast.NodeVisitor):
    """``while`` and ``for`` loops whose body may leave them (``break``) or the function
    (``return``)."""

    # ---- hooks that ControlFlowMixin provides

    def _carried_init(self, name: str, node: ast.While | ast.For) -> Carried:
        raise NotImplementedError

    def _loop_body(
        self, node: ast.While | ast.For, carried: list[str], inits: list[Carried]
    ) -> None:
        raise NotImplementedError

    def _while_flag(self, node: ast.While) -> TensorValue:
        raise NotImplementedError

    # ---- the loops

    def exiting_while(self, node: ast.While) -> None:
        """A runtime ``while`` whose body may ``break`` or ``return``: an ``scf.while``
        carrying those flags, whose condition is false once one is set (the loop's own
        condition is then not evaluated if it may load)."""
        self._exiting_loop(node, None)

    def exiting_for(self, node: ast.For, var: str, plan: LoopPlan) -> None:
        """A runtime ``for`` whose body may ``break`` or ``return``: an ``scf.while`` over the
        ``scf.for`` induction variable (``plan``), stopping once a flag is set."""
        self._exiting_loop(node, (var, plan))

    def _exiting_loop(self, node: ast.While | ast.For, count: tuple[str, LoopPlan] | None) -> None:
        """The body first (it decides which returned values are carried), then the condition,
        then the loop itself and the scope after it."""
        exit_flags = loop_exits(node.body)
        assigned = assigned_names(node.body)
        var = count[0] if count else None
        carried = [n for n in sorted(assigned) if n in self.scope and n != var]
        inits = [self._carried_init(n, node) for n in carried]
        loop = _ExitingLoop(node, count, exit_flags, carried, inits, dict(self.scope))
        after, changed, results = self._exiting_body(loop)
        types = [*loop.types(), *(v.type for v in results.values())]
        self.scope = dict(loop.outer)
        before = self._exiting_condition(loop, types, [*exit_flags, *results])
        self.scope = loop.outer
        op = self._exiting_while_op(loop, types, results, before, after)
        self._after_exiting_loop(loop, op, changed, results)
        self._not_defined_after_loop(node, assigned, loop.outer, var)

    def _bind_carried(self, loop: _ExitingLoop, values: Sequence[SSAValue]) -> None:
        """The carried variables as ``values`` holds them after the counter."""
        start = len(loop.lead)
        own = rebuild(loop.carried, loop.inits, values[start : start + loop.n_carried])
        self.scope.update(zip(loop.carried, own, strict=True))

    def _exiting_body(
        self, loop: _ExitingLoop
    ) -> tuple[Block, dict[str, Any], dict[str, TensorValue]]:
        """The ``after`` block: the body, then the next counter, the carried values, the flags
        and the values returned inside (each a block argument added here); the returned
        values the body changed, and those of them that are runtime values."""
        node, count = loop.node, loop.count
        after = Block(arg_types=loop.types())
        self._name_args(after, count, loop.n_carried, loop.exit_flags)
        self._bind_carried(loop, after.args)
        with self.b.at_end_of(after):
            if count:
                var, plan = count
                with self.b.located(self.loc(_target(node))):
                    induction = plan.loop_variable(TensorValue(after.args[0]))
                if plan.normalised:
                    induction.handle.name_hint = value_name(var)
                self.scope[var] = induction
            self._loop_body(node, loop.carried, loop.inits)
            done = after.last_op
            assert isinstance(done, scf.YieldOp)
            yields = list(done.operands)
            done.detach()
            done.erase()
            flags = [self._i1(self.scope.get(k, False)) for k in loop.exit_flags]
            changed = {
                k: v
                for k, v in self.scope.items()
                if is_result_key(k) and v is not loop.outer.get(k)
            }
            results = {k: v for k, v in changed.items() if isinstance(v, TensorValue)}
            if any(isinstance(v, CompositeValue) for v in changed.values()):
                self.unsupported(node, "returning a block pointer from inside a runtime loop")
            lead_next = []
            if count:
                with self.b.located(self.loc(_header(node))):
                    step = self.sem.arith("+", TensorValue(after.args[0]), count[1].step)
                lead_next = [step.handle]
            for k, v in results.items():
                after.insert_arg(v.type, len(after.args)).name_hint = ir_name(k)
            self.b.insert(
                scf.YieldOp(
                    *lead_next,
                    *yields,
                    *(f.handle for f in flags),
                    *(v.handle for v in results.values()),
                )
            )
        return after, changed, results

    def _exiting_condition(
        self, loop: _ExitingLoop, types: list[Attribute], names: list[str]
    ) -> Block:
        """The ``before`` block: the loop's own condition, false once a flag is set."""
        before = Block(arg_types=types)
        self._name_args(before, loop.count, loop.n_carried, names)
        args = before.args
        self._bind_carried(loop, args)
        start = len(loop.lead) + loop.n_carried
        flag_args = [TensorValue(a) for a in args[start:][: len(loop.exit_flags)]]
        with self.b.at_end_of(before):
            iv = TensorValue(args[0]) if loop.count else None
            go = self._loop_condition(loop.node, loop.count, iv, flag_args)
            with self.b.located(self.loc(loop.node)):
                self.b.insert(scf.ConditionOp(go.handle, *args))
        return before

    def _exiting_while_op(
        self,
        loop: _ExitingLoop,
        types: list[Attribute],
        results: dict[str, TensorValue],
        before: Block,
        after: Block,
    ) -> scf.WhileOp:
        """The loop itself, with placeholders for the values it may return."""
        with self.b.located(self.loc(loop.node)):
            false = [self.sem.constant(False, core.int1) for _ in loop.exit_flags]
            starts = [
                self._loop_result_init(k, v, loop.outer, loop.node) for k, v in results.items()
            ]
            first = [loop.count[1].lb] if loop.count else []
            return self.b.insert(
                scf.WhileOp(
                    [v.handle for v in [*first, *flat(loop.inits), *false, *starts]],
                    types,
                    Region(before),
                    Region(after),
                )
            )

    def _after_exiting_loop(
        self,
        loop: _ExitingLoop,
        op: scf.WhileOp,
        changed: dict[str, Any],
        results: dict[str, TensorValue],
    ) -> None:
        """The scope after the loop: its carried variables, flags and returned values."""
        self._bind_carried(loop, op.results)
        res = op.results[len(loop.lead) + loop.n_carried :]
        for k, r in zip(loop.exit_flags, res, strict=False):
            r.name_hint = ir_name(k)
            if k == RETURN:
                self.scope[RETURN] = TensorValue(r)
        for k, r in zip(results, res[len(loop.exit_flags) :], strict=True):
            r.name_hint = ir_name(k)
            self.scope[k] = TensorValue(r)
        self.scope.update({k: v for k, v in changed.items() if k not in results})

    def _name_args(
        self, block: Block, count: tuple[str, LoopPlan] | None, n_carried: int, names: list[str]
    ) -> None:
        """Name a loop block's counter and the flags and results after its carried values."""
        if count:
            var, plan = count
            block.args[0].name_hint = value_name(f"{var}_count" if plan.normalised else var)
        start = (1 if count else 0) + n_carried
        for k, a in zip(names, block.args[start:], strict=True):
            a.name_hint = ir_name(k)

    def _loop_condition(
        self,
        node: ast.While | ast.For,
        count: tuple[str, LoopPlan] | None,
        iv: TensorValue | None,
        flags: list[TensorValue],
    ) -> TensorValue:
        """Whether to run another iteration: no flag set, and the loop's own condition."""
        with self.b.located(self.loc(node)):
            stop = flags[0]
            for f in flags[1:]:
                stop = self.sem.bitwise("|", stop, f)
            go = self.sem.logical_not(stop)
        if count is not None and iv is not None:
            with self.b.located(self.loc(_header(node))):
                return self.sem.bitwise("&", go, self.sem.compare("<", iv, count[1].ub))
        assert isinstance(node, ast.While)
        if not has_call(node.test):
            return self.sem.bitwise("&", go, self._while_flag(node))
        then_block, else_block = Block(), Block()
        with self.b.at_end_of(then_block):
            cond = self._while_flag(node)
            self.b.insert(scf.YieldOp(cond.handle))
        with self.b.at_end_of(else_block):
            self.b.insert(scf.YieldOp(self.sem.constant(False, core.int1).handle))
        op = self.b.insert(scf.IfOp(go.handle, [i1], [then_block], [else_block]))
        return TensorValue(op.results[0])

    def _loop_result_init(
        self, name: str, value: TensorValue, outer: dict[str, Any], node: ast.AST
    ) -> TensorValue:
        """What a loop carries in for a value it may return: the one returned before, if of
        that type, else a placeholder (read only once the loop returned it)."""
        v = outer.get(name)
        if isinstance(v, TensorValue) and v.type == value.type:
            return v
        found = self.placeholder(value, outer)
        if found is None:
            raise KernelTypeError(
                f"`{self.src.qualname}` returns {type_words(value.type)} from inside this "
                "runtime loop, which needs a pointer of that type defined before the loop (to "
                "stand for it before it is returned); return it after the loop instead",
                self.loc(node),
            )
        return found

    def _not_defined_after_loop(
        self, node: ast.While | ast.For, assigned: set[str], outer: dict[str, Any], var: str | None
    ) -> None:
        where = self.loc(node)
        line = where.line if where is not None else "?"
        if var is not None and var not in outer:
            self.not_defined_after[var] = (
                f"`{var}` is not defined after the runtime loop at line {line}: it is the "
                "loop's variable"
            )
        for n in assigned - set(outer) - {var}:
            self.not_defined_after[n] = (
                f"`{n}` is first assigned inside the runtime `while` at line {line}, so it is "
                "not defined after the loop; assign it before the loop to use it after"
                if isinstance(node, ast.While)
                else f"`{n}` is not defined after the runtime loop at line {line}: it is first "
                "assigned inside it; assign it before the loop to use it after"
            )


def _target(node: ast.While | ast.For) -> ast.AST:
    return node.target if isinstance(node, ast.For) else node


def _header(node: ast.While | ast.For) -> ast.AST:
    return node.iter if isinstance(node, ast.For) else node.test
