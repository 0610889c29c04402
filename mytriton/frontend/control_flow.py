"""Control flow in a kernel: ``if``, ``for`` and ``while``, resolved while compiling or as
``scf`` ops.

An ``if`` on a compile-time value compiles one branch, a ``range`` with compile-time bounds or a
``while`` on a compile-time condition is unrolled; on runtime values they become
``scf.if``/``scf.for``/``scf.while`` whose results are the variables the body assigns (Triton's
rules: one type on every path). Kept apart from expressions because this is where the scope
forks and merges. ``break``, ``continue`` and ``return`` on runtime paths: early_exit.py (and
exiting_loops.py for the loops they leave).
"""

from __future__ import annotations

import ast
import builtins as py
import itertools
import math
import warnings
from collections.abc import Callable
from typing import Any

from xdsl.dialects import scf
from xdsl.ir import Block, Region

from mytriton.errors import (
    ConstexprError,
    KernelTypeError,
    KernelValueError,
)
from mytriton.frontend.ast_scans import BREAK, CONTINUE, assigned_names, exits, loop_exits
from mytriton.frontend.carried import (
    Carried,
    describe_carried,
    drop_unchanged_leaves,
    flat,
    rebuild,
    with_unchanged_leaves,
)
from mytriton.frontend.codegen_base import core_fn, describe
from mytriton.frontend.dtypes import to_ir
from mytriton.frontend.exiting_loops import ExitingLoopMixin
from mytriton.frontend.ir_names import value_name
from mytriton.frontend.range_loops import (
    RangeArgs,
    is_constant_int,
    plan_loop,
    python_range_args,
    range_args,
)
from mytriton.frontend.tuple_values import align, carriable
from mytriton.frontend.values import CompositeValue, TensorValue, unwrap_constexpr

# Python `range` loops with compile-time bounds are unrolled up to this many iterations;
# longer ones become structured loops (`tl.static_range` always unrolls).
MAX_UNROLL = 64

# A `while` on a compile-time condition is unrolled; this many iterations means it never ends.
MAX_WHILE_UNROLL = 4096


# (`ast.NodeVisitor` is named again so that linters see the `visit_<Node>` methods as a visitor's.)
class ControlFlowMixin(ExitingLoopMixin, ast.NodeVisitor):
    """``if``/``for``/``while`` statements of ``CodeGenerator`` (and, from ``ExitingLoopMixin``
    and ``EarlyExitMixin``, ``break``/``continue``/``return``)."""

    def visit_If(self, node: ast.If) -> None:
        cond = self.visit(node.test)
        if isinstance(cond, TensorValue):
            self.runtime_if(node, cond)
            return
        self.visit_block(node.body if cond else node.orelse, self.at_tail)

    def _unsplat_condition(self, node: ast.If, cond: TensorValue) -> TensorValue:
        """A one-element block as an ``if``'s condition: its element, with Triton's warning;
        a bigger block is an error (Triton's: its truth is ambiguous)."""
        if math.prod(cond.shape) != 1:
            raise KernelTypeError(
                "the condition of an `if` must be a scalar; for blocks use tl.where or a mask "
                "(the boolean value of a block of more than one element is ambiguous)",
                self.loc(node.test),
            )
        warnings.warn(
            "If conditional called with multidimensional Tensor instead of scalar; please use "
            f'"if ({ast.unparse(node.test)}).item()" instead',
            stacklevel=2,
        )
        with self.b.located(self.loc(node.test)):
            return self.tl.item(cond)

    def runtime_if(self, node: ast.If, cond: TensorValue) -> None:
        """``if`` on a runtime scalar: an ``scf.if`` whose results are the variables either
        branch assigns (Triton's rule: a variable used after the ``if`` must exist on both
        paths, and keep one type)."""
        if cond.is_block:
            cond = self._unsplat_condition(node, cond)
        flag = self.sem.to_bool(cond)
        if exits([node]):
            self.exit_if(node, flag)
            return
        before = dict(self.scope)
        branches: list[tuple[Block, dict[str, Any]]] = []
        for stmts in (node.body, node.orelse):
            block = Block()
            self.scope = dict(before)
            with self.b.at_end_of(block):
                self.visit_block(stmts)
            branches.append((block, self.scope))
        self.scope = before
        (then_block, then_scope), (else_block, else_scope) = branches
        assigned = assigned_names(node.body) | assigned_names(node.orelse)
        names = [n for n in sorted(assigned) if n in then_scope and n in else_scope]
        results: list[tuple[str, Carried, Carried]] = []
        same: dict[str, Any] = {}
        for n in names:
            a, b = then_scope[n], else_scope[n]
            if a is b or _same_compile_time_value(a, b):
                same[n] = a  # one value on both paths: no `scf.if` result needed
                continue
            a, b = carriable(a), carriable(b)  # a tuple of runtime values: its leaves
            a, b = align(a, b, self._numbers_of(n, then_block, else_block, node))
            if isinstance(a, CompositeValue) and a.same_type(b):
                results.append((n, a, b))  # a block pointer: its scalars are the results
                continue
            results.append((n, *self._if_values(n, a, b, then_block, else_block, node)))
        like = [a for _, a, _ in results]
        thens, elses = flat(like), flat([b for _, _, b in results])
        # a block pointer's leaves that both paths share (its base...) need no result
        shared = {i for i, (a, b) in enumerate(zip(thens, elses, strict=True)) if a == b}
        thens = [v for i, v in enumerate(thens) if i not in shared]
        elses = [v for i, v in enumerate(elses) if i not in shared]
        with self.b.at_end_of(then_block):
            self.b.insert(scf.YieldOp(*(v.handle for v in thens)))
        with self.b.at_end_of(else_block):
            self.b.insert(scf.YieldOp(*(v.handle for v in elses)))
        op = self.b.insert(
            scf.IfOp(flag.handle, [v.type for v in thens], [then_block], [else_block])
        )
        self.scope.update(same)
        merged = [n for n, _, _ in results]
        values = with_unchanged_leaves(op.results, shared, like)
        self.scope.update(zip(merged, rebuild(merged, like, values), strict=True))
        where = self.loc(node)
        line = where.line if where is not None else "?"
        for n in assigned - set(names) - set(before):
            self.scope.pop(n, None)  # assigned on one path only: not defined after the `if`
            self.not_defined_after[n] = (
                f"`{n}` is not defined after the runtime `if` at line {line}: it is assigned "
                "on only one path; assign it on both paths or before the `if`"
            )

    def _numbers_of(
        self, name: str, then_block: Block, else_block: Block, node: ast.AST
    ) -> Callable[[Any, Any], tuple[TensorValue, TensorValue]]:
        """``_if_values`` for the elements of a tuple ``name`` (tuple_values.align)."""
        return lambda a, b: self._if_values(name, a, b, then_block, else_block, node)

    def _if_values(
        self, name: str, a: Any, b: Any, then_block: Block, else_block: Block, node: ast.AST
    ) -> tuple[TensorValue, TensorValue]:
        """The runtime values of ``name`` on both paths, Python numbers converted (weakly
        typed, like the other operand of an operator) inside their own branch."""
        if isinstance(a, CompositeValue) or isinstance(b, CompositeValue):
            sides = [describe_carried(v) for v in (a, b)]
            raise KernelTypeError(
                f"Mismatched type for {name}: `{name}` is {sides[0]} in the `if` branch but "
                f"{sides[1]} in the `else` branch; it must have one type after the `if`",
                self.loc(node),
            )
        for v in (a, b):
            if not isinstance(v, TensorValue) and not isinstance(
                unwrap_constexpr(v), (bool, int, float)
            ):
                raise KernelTypeError(
                    f"`{name}` holds a compile-time {type(v).__name__} and is reassigned under a "
                    "runtime `if`; only numbers and blocks can differ between its branches",
                    self.loc(node),
                )
        if not isinstance(a, TensorValue):
            like = b if isinstance(b, TensorValue) else None
            if like is None and isinstance(unwrap_constexpr(b), float):
                a = float(unwrap_constexpr(a))  # 1 on one path, 0.5 on the other: a float
            with self.b.at_end_of(then_block):
                a = self.sem.to_tensor(unwrap_constexpr(a), like)
        if not isinstance(b, TensorValue):
            with self.b.at_end_of(else_block):
                b = self.sem.to_tensor(unwrap_constexpr(b), a)
        if a.type != b.type:
            raise KernelTypeError(
                f"Mismatched type for {name}: `{name}` is {describe(a)} in the `if` branch but "
                f"{describe(b)} in the `else` branch; it must have one type after the `if`",
                self.loc(node),
            )
        return a, b

    def runtime_ifexp(self, node: ast.IfExp, cond: TensorValue) -> TensorValue | None:
        """``a if c else b`` on a runtime scalar ``c``: an ``scf.if`` yielding the side taken,
        each side compiled inside its own branch (Triton 3.6 does the same), so a load the
        condition guards runs only when it holds. Python numbers are weakly typed as in a
        runtime ``if``; two sides that are both ``None`` (calls like ``tl.store``) yield
        nothing."""
        if cond.is_block:
            raise KernelTypeError(
                "the condition of a conditional expression must be a scalar; for blocks use "
                "tl.where",
                self.loc(node.test),
            )
        flag = self.sem.to_bool(cond)
        then_block, else_block = Block(), Block()
        with self.b.at_end_of(then_block):
            a = self.visit(node.body)
        with self.b.at_end_of(else_block):
            b = self.visit(node.orelse)
        if a is None and b is None:
            results: list[TensorValue] = []
        else:
            for v, side in ((a, node.body), (b, node.orelse)):
                if not isinstance(v, TensorValue) and not isinstance(
                    unwrap_constexpr(v), (bool, int, float)
                ):
                    raise KernelTypeError(
                        "a conditional expression on a runtime value must give a number or a "
                        f"block on both sides, not {type(v).__name__}",
                        self.loc(side),
                    )
            if not isinstance(a, TensorValue):
                like = b if isinstance(b, TensorValue) else None
                if like is None and isinstance(unwrap_constexpr(b), float):
                    a = float(unwrap_constexpr(a))
                with self.b.at_end_of(then_block):
                    a = self.sem.to_tensor(unwrap_constexpr(a), like)
            if not isinstance(b, TensorValue):
                with self.b.at_end_of(else_block):
                    b = self.sem.to_tensor(unwrap_constexpr(b), a)
            if a.type != b.type:
                raise KernelTypeError(
                    "Ternary expression with dynamic condition has inconsistent type: the two "
                    "sides of a conditional expression on a runtime value must have one type: "
                    f"{describe(a)} if true, {describe(b)} if false",
                    self.loc(node),
                )
            results = [a, b]
        with self.b.at_end_of(then_block):
            self.b.insert(scf.YieldOp(*(v.handle for v in results[:1])))
        with self.b.at_end_of(else_block):
            self.b.insert(scf.YieldOp(*(v.handle for v in results[1:])))
        op = self.b.insert(
            scf.IfOp(flag.handle, [v.type for v in results[:1]], [then_block], [else_block])
        )
        return TensorValue(op.results[0]) if results else None

    def visit_While(self, node: ast.While) -> None:
        """A compile-time condition unrolls the loop like Python runs it; once the condition is
        a runtime value (from the start, or after unrolled iterations made it one) the rest of
        the loop is one ``scf.while``."""
        if node.orelse:
            self.unsupported(node, "`while ... else`")
        if loop_exits(node.body) and self._while_test(node) is True:
            self.runtime_while(node)  # `while True:` left by a `break` or `return`
            return
        self._unrolled_while(node, 0)
        self.scope.pop(BREAK, None)

    def _unrolled_while(self, node: ast.While, first_trip: int) -> None:
        """Iterations of a ``while`` on a compile-time condition from ``first_trip`` on; once
        one may have left the loop at run time, the rest is guarded."""
        for trips in itertools.count(first_trip):
            cond = self._while_test(node)
            if isinstance(cond, TensorValue):
                self.runtime_while(node)
                return
            if not cond:
                return
            if trips == MAX_WHILE_UNROLL:
                raise ConstexprError(
                    f"a `while` on a compile-time condition still runs after {MAX_WHILE_UNROLL} "
                    "unrolled iterations; make the condition a runtime value (e.g. a scalar "
                    "argument) to get a runtime loop",
                    self.loc(node.test),
                )
            self.loop_depth += 1
            try:
                self.visit_block(node.body)
            finally:
                self.loop_depth -= 1
            self.scope.pop(CONTINUE, None)
            flags = self.exit_flags()
            if any(v is True for v in flags.values()):
                return
            if flags:
                saved, self.at_tail = self.at_tail, False
                try:
                    more = self._more_trips(node, trips + 1)
                    self.guard(more, flags, assigned_names(node.body), node)
                finally:
                    self.at_tail = saved
                return

    def _more_trips(self, node: ast.While, first_trip: int) -> Callable[[], None]:
        return lambda: self._unrolled_while(node, first_trip)

    def _while_test(self, node: ast.While) -> Any:
        """The condition in the current scope, compiled into a scratch block: only whether it
        is a runtime value (and, if not, its truth) is kept."""
        with self.b.at_end_of(Block()):
            cond = self.visit(node.test)
        return cond if isinstance(cond, TensorValue) else bool(unwrap_constexpr(cond))

    def runtime_while(self, node: ast.While) -> None:
        """``while`` on a runtime scalar: an ``scf.while`` carrying the variables the body
        assigns (as Triton emits it: the *before* region computes the condition from the
        carried values, the *after* region is the body). Same rules as a runtime ``for``."""
        if loop_exits(node.body):
            self.exiting_while(node)
            return
        assigned = assigned_names(node.body)
        carried = [n for n in sorted(assigned) if n in self.scope]
        inits = [self._carried_init(n, node) for n in carried]
        types = [v.type for v in flat(inits)]
        outer = dict(self.scope)
        before, after = Block(arg_types=types), Block(arg_types=types)
        for block in (before, after):
            self.scope.update(zip(carried, rebuild(carried, inits, block.args), strict=True))
            with self.b.at_end_of(block):
                if block is before:
                    self._while_condition(node, before)
                else:
                    self._loop_body(node, carried, inits)
        self.scope = outer
        drop = drop_unchanged_leaves(inits, (before, after), 0, after)
        operands = [v.handle for i, v in enumerate(flat(inits)) if i not in drop]
        loop = self.b.insert(
            scf.WhileOp(operands, [v.type for v in operands], Region(before), Region(after))
        )
        results = with_unchanged_leaves(loop.results, drop, inits)
        self.scope.update(zip(carried, rebuild(carried, inits, results), strict=True))
        where = self.loc(node)
        line = where.line if where is not None else "?"
        for n in assigned - set(outer):
            self.not_defined_after[n] = (
                f"`{n}` is first assigned inside the runtime `while` at line {line}, so it is "
                "not defined after the loop; assign it before the loop to use it after"
            )

    def _carried_init(self, name: str, node: ast.While | ast.For) -> Carried:
        """The value a runtime loop carries in for ``name``: numbers become runtime values (a
        block pointer is carried as its runtime scalars: carried.py)."""
        v = carriable(self.scope[name])
        if isinstance(v, (TensorValue, CompositeValue)):
            return v
        if isinstance(unwrap_constexpr(v), (bool, int, float)):
            return self.sem.to_tensor(unwrap_constexpr(v))
        raise KernelTypeError(
            f"`{name}` holds a compile-time {type(v).__name__} and is reassigned inside a "
            "runtime loop; only numbers and blocks can be loop-carried (and block pointers, "
            "tensor descriptors)",
            self.loc(node),
        )

    def _while_condition(self, node: ast.While, before: Block) -> None:
        flag = self._while_flag(node)
        with self.b.located(self.loc(node.test)):
            self.b.insert(scf.ConditionOp(flag.handle, *before.args))

    def _while_flag(self, node: ast.While) -> TensorValue:
        """The condition of a runtime ``while``, an ``i1``."""
        cond = self.visit(node.test)
        if not isinstance(cond, TensorValue):  # constant once the carried values are runtime
            cond = self.sem.to_tensor(bool(unwrap_constexpr(cond)))
        if cond.is_block:
            raise KernelTypeError(
                f"the condition of a `while` must be a scalar, got {describe(cond)}; "
                "reduce it (e.g. tl.max) to a scalar",
                self.loc(node.test),
            )
        with self.b.located(self.loc(node.test)):
            return self.sem.to_bool(cond)

    def _loop_body(
        self, node: ast.While | ast.For, carried: list[str], inits: list[Carried]
    ) -> None:
        """A runtime loop's body, ended by the ``scf.yield`` of its carried variables (whose
        types must not change)."""
        self.loop_depth += 1
        try:
            self.visit_block(node.body)
        finally:
            self.loop_depth -= 1
        self.scope.pop(CONTINUE, None)  # the iteration ends
        yields: list[TensorValue] = []
        for n, init in zip(carried, inits, strict=True):
            v = carriable(self.scope[n])
            if isinstance(init, CompositeValue):
                if not init.same_type(v):
                    got = v.describe() if isinstance(v, CompositeValue) else repr(v)
                    raise KernelTypeError(
                        f"loop-carried variable `{n}` is {init.describe()} before the loop but "
                        f"{got} after an iteration; its type must not change",
                        self.loc(node),
                    )
                yields.extend(v.leaves())
                continue
            if isinstance(v, CompositeValue):
                raise KernelTypeError(
                    f"loop-carried variable `{n}` is {describe(init)} before the loop but "
                    f"{v.describe()} after an iteration; its type must not change",
                    self.loc(node),
                )
            v = self.sem.to_tensor(v, init) if not isinstance(v, TensorValue) else v
            if v.type != init.type:
                raise KernelTypeError(
                    f"loop-carried variable `{n}` is {describe(init)} before the loop but "
                    f"{describe(v)} after an iteration; its type must not change",
                    self.loc(node),
                )
            yields.append(v)
        self.b.insert(scf.YieldOp(*(v.handle for v in yields)))

    # ------------------------------------------------------------------ loops

    def visit_For(self, node: ast.For) -> None:
        if node.orelse:
            self.unsupported(node, "`for ... else`")
        if not isinstance(node.target, ast.Name):
            self.unsupported(node.target, "a loop target other than a plain name")
        it = node.iter
        if not isinstance(it, ast.Call):
            self.unsupported(it, "iterating over anything but range/tl.range/tl.static_range")
        fn = self.visit(it.func)
        if fn is py.range:
            kind = "range"
        elif fn is core_fn("static_range"):
            kind = "static"
        elif fn is core_fn("range"):
            kind = "runtime"
        else:
            self.unsupported(it, "iterating over anything but range/tl.range/tl.static_range")
        args = [self.visit(a) for a in it.args]
        kwargs = {k.arg: self.visit(k.value) for k in it.keywords if k.arg}
        if kind == "range" and kwargs:
            self.unsupported(it, "keyword arguments to range")
        r = (
            python_range_args(args, self.loc(it))
            if kind == "range"
            else range_args(fn, args, kwargs, self.loc(it))
        )
        bounds = (r.start, r.stop, r.step)
        constant = all(is_constant_int(x) for x in bounds)
        if kind == "static" and not constant:
            raise ConstexprError(
                "tl.static_range bounds and step must be compile-time integers (tl.constexpr)",
                self.loc(it),
            )
        if is_constant_int(r.step) and r.step == 0:
            raise KernelValueError("the step of a range must not be zero", self.loc(it))
        if constant and kind != "runtime":
            trips = len(py.range(*bounds))
            # a `range` that may be left early stays a loop (an `scf.while`): unrolled, every
            # iteration after the exit would be guarded
            if kind == "static" or (trips <= MAX_UNROLL and not loop_exits(node.body)):
                self.unrolled_loop(node, node.target.id, py.range(*bounds), kind)
                return
        self.runtime_loop(node, node.target.id, r)

    def unrolled_loop(self, node: ast.For, var: str, values: py.range, kind: str) -> None:
        """``tl.static_range`` binds a compile-time integer (a constexpr, as in Triton); an
        unrolled ``range`` binds an int32 value, so the body has the semantics of Triton's
        ``scf.for`` induction variable (C division, wrapping, ``.to()``) either way. An
        iteration after one that may have left the loop at run time is guarded."""

        def iteration(v: int) -> None:
            if kind == "static":
                self.scope[var] = v
            else:
                with self.b.located(self.loc(node.target)):
                    self.scope[var] = self.sem.to_tensor(v)
            self.visit_block(node.body)

        self.repeat(values, iteration, node.body, var)

    def runtime_loop(self, node: ast.For, var: str, r: RangeArgs) -> None:
        """An ``scf.for`` (range_loops.py: how a step that is not a positive constant is
        counted) carrying the variables the body reassigns. The loop variable is not carried:
        the body may rebind it (``i = tl.multiple_of(i, 16)``) without changing the iteration."""
        with self.b.located(self.loc(node.iter)):
            plan = plan_loop(self.sem, r.start, r.stop, r.step, self.loc(node.iter))
        if loop_exits(node.body):
            self.exiting_for(node, var, plan)  # an `scf.while` (tl.range's options dropped)
            return
        assigned = assigned_names(node.body)
        carried = [n for n in sorted(assigned) if n in self.scope and n != var]
        inits = [self._carried_init(n, node) for n in carried]
        body = Block(arg_types=[to_ir(plan.dtype), *(v.type for v in flat(inits))])
        body.args[0].name_hint = value_name(f"{var}_count" if plan.normalised else var)
        outer = dict(self.scope)
        self.scope.update(zip(carried, rebuild(carried, inits, body.args[1:]), strict=True))
        with self.b.at_end_of(body):
            with self.b.located(self.loc(node.target)):
                induction = plan.loop_variable(TensorValue(body.args[0]))
            if plan.normalised:
                induction.handle.name_hint = value_name(var)
            self.scope[var] = induction
            self._loop_body(node, carried, inits)
        drop = drop_unchanged_leaves(inits, (body,), 1, body)
        loop = self.b.insert(
            scf.ForOp(
                plan.lb.handle,
                plan.ub.handle,
                plan.step.handle,
                [v.handle for i, v in enumerate(flat(inits)) if i not in drop],
                body,
            )
        )
        loop.attributes.update(r.attributes)
        self.scope = outer
        results = with_unchanged_leaves(loop.results, drop, inits)
        self.scope.update(zip(carried, rebuild(carried, inits, results), strict=True))
        where = self.loc(node)
        line = where.line if where is not None else "?"
        if var not in outer:
            self.not_defined_after[var] = (
                f"`{var}` is not defined after the runtime loop at line {line}: it is the "
                "loop's variable"
            )
        for n in assigned - set(outer) - {var}:
            self.not_defined_after[n] = (
                f"`{n}` is not defined after the runtime loop at line {line}: it is first "
                "assigned inside it; assign it before the loop to use it after"
            )


def _same_compile_time_value(a: Any, b: Any) -> bool:
    """Whether two compile-time values are interchangeable: same type and same value, with
    ``-0.0`` and ``0.0`` distinct and NaN equal to itself (so ``1`` and ``1.0`` differ)."""
    if isinstance(a, TensorValue) or isinstance(b, TensorValue):
        return False
    a, b = unwrap_constexpr(a), unwrap_constexpr(b)
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return math.copysign(1.0, a) == math.copysign(1.0, b) and (
            a == b or (math.isnan(a) and math.isnan(b))
        )
    try:
        return bool(a == b)
    except Exception:
        return False
