"""``break``, ``continue`` and ``return`` on runtime paths, compiled into structured control flow
(``scf.if``/``scf.while``) so that every backend gets them through the ops it already has.

Triton rejects ``break``/``continue`` and a ``return`` inside a loop; we go past it. Each exit
is a *flag* the scope carries like a variable, under a name no Python variable can have
(``$break``, ``$continue``, ``$return``: ast_scans.py); the value returned is ``$result`` (the
items of a returned tuple are ``$result.0``, ``$result.1``...). A flag is absent (no path
reaching here exited), ``True`` (every path did: the rest of the block is not compiled, as
Python would not run it) or a runtime ``i1`` (some paths did). Then:

* the rest of the block runs under ``scf.if not flags`` (``guard``), whose other branch is known
  to have exited;
* an ``scf.if`` whose branches may exit merges the flags like variables (absent is false); the
  variables of a branch that returned are dead, and one that only the branch that did not
  exit defines gets a placeholder value on the other (never read there), so it stays defined
  after the ``if``, as in Python (``exit_fork``);
* a loop whose body may ``break`` or ``return`` carries those flags, and its ``scf.while`` stops
  once one is set (a runtime ``for`` becomes an ``scf.while`` over its induction variable);
  ``continue`` only guards the rest of its iteration;
* an inlined function's result is ``$result`` once ``$return`` holds on every path.

``if c: <always exits>`` followed by more statements compiles as ``if c: ... else: <the rest>``
(``absorb_rest``): guard clauses need no flag, and nothing is merged after them at the end of a
function (``at_tail``).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, NoReturn, TypeVar

from xdsl.dialects import scf
from xdsl.dialects.builtin import i1
from xdsl.ir import Attribute, Block, Region

from mytriton.dialects.tt import core as tt
from mytriton.dialects.tt.types import is_block, shape_of
from mytriton.errors import (
    KernelTypeError,
    KernelValueError,
    SourceLocation,
    UnsupportedSyntaxError,
)
from mytriton.frontend.ast_scans import (
    BREAK,
    CONTINUE,
    RETURN,
    absorb_rest,
    always_exits,
    assigned_names,
    has_call,
    loop_exits,
)
from mytriton.frontend.carried import Carried, describe_carried, flat, rebuild
from mytriton.frontend.codegen_base import CodeGeneratorBase
from mytriton.frontend.dtypes import from_ir, to_ir
from mytriton.frontend.ir_names import value_name
from mytriton.frontend.range_loops import LoopPlan
from mytriton.frontend.tuple_values import TupleValue, align, carriable
from mytriton.frontend.values import CompositeValue, TensorValue, unwrap_constexpr
from mytriton.language import core

RESULT = "$result"
FLAGS = (BREAK, CONTINUE, RETURN)
_IR_NAMES = {BREAK: "broke", CONTINUE: "continued", RETURN: "returned", RESULT: "result"}

T = TypeVar("T")


def is_result_key(name: str) -> bool:
    return name == RESULT or name.startswith(RESULT + ".")


def ir_name(name: str) -> str | None:
    """The IR name of the value holding variable ``name`` (``returned`` for ``$return``...);
    None where the variable's name makes none (``value_name``)."""
    return _IR_NAMES.get(name) or value_name(name.replace("$", "").replace(".", "_"))


@dataclass(frozen=True)
class _Items:
    """``$result`` of a function returning a tuple (or list) of ``count`` items; ``kind``
    rebuilds it: ``tuple``, ``list`` or the ``NamedTuple`` class returned (whose fields the
    caller reads by name, as in Triton)."""

    count: int
    kind: type

    @staticmethod
    def kind_of(value: tuple | list) -> type:
        if hasattr(type(value), "_fields"):
            return type(value)
        return list if isinstance(value, list) else tuple

    def build(self, items: list[Any]) -> Any:
        return self.kind(*items) if hasattr(self.kind, "_fields") else self.kind(items)


@dataclass(frozen=True)
class _Returned:
    """What a ``return`` gives: nothing (``types`` None), one value or items; the types of its
    runtime values (None for a compile-time one), to check that all ``return``s agree."""

    loc: SourceLocation | None
    types: tuple[Attribute | None, ...] | None
    items: bool

    @staticmethod
    def of(value: Any, loc: SourceLocation | None) -> _Returned:
        def t(v: Any) -> Attribute | None:
            return v.type if isinstance(v, TensorValue) else None

        if value is None:
            return _Returned(loc, None, False)
        if isinstance(value, (tuple, list)):
            return _Returned(loc, tuple(t(v) for v in value), True)
        return _Returned(loc, (t(value),), False)

    def agrees(self, other: _Returned) -> bool:
        if self.items != other.items or (self.types is None) != (other.types is None):
            return False
        if self.types is None or other.types is None:
            return True
        return len(self.types) == len(other.types) and all(
            a is None or b is None or a == b for a, b in zip(self.types, other.types, strict=True)
        )

    def describe(self) -> str:
        if self.types is None:
            return "nothing"
        words = ["a compile-time value" if t is None else _type_words(t) for t in self.types]
        return f"({', '.join(words)})" if self.items else words[0]


def _type_words(t: Attribute) -> str:
    if is_block(t):
        return f"a {from_ir(t)} block of shape {list(shape_of(t))}"
    return f"a {from_ir(t)} scalar"


# (`ast.NodeVisitor` is named again so that linters see the `visit_<Node>` methods as a visitor's.)
class EarlyExitMixin(CodeGeneratorBase, ast.NodeVisitor):
    """``break``/``continue``/``return`` as flags, the statements after them guarded, the ``if``s
    and loops they may leave, and a function's result."""

    loop_depth = 0  # loops (runtime or unrolled) around the statement being compiled
    at_tail = False  # nothing is compiled after the current statement in this function
    in_kernel = False  # compiling a kernel's body (not an inlined function's)
    first_return: _Returned | None = None
    value_return: SourceLocation | None = None  # the first `return` giving a value

    # ---- hooks that ControlFlowMixin provides

    def _carried_init(self, name: str, node: ast.While | ast.For) -> Carried:
        raise NotImplementedError

    def _numbers_of(
        self, name: str, then_block: Block, else_block: Block, node: ast.AST
    ) -> Callable[[Any, Any], tuple[TensorValue, TensorValue]]:
        raise NotImplementedError

    def _loop_body(
        self, node: ast.While | ast.For, carried: list[str], inits: list[Carried]
    ) -> None:
        raise NotImplementedError

    def _while_flag(self, node: ast.While) -> TensorValue:
        raise NotImplementedError

    def _if_values(
        self, name: str, a: Any, b: Any, then_block: Block, else_block: Block, node: ast.AST
    ) -> tuple[TensorValue, TensorValue]:
        raise NotImplementedError

    # ---- the exits

    def visit_Break(self, node: ast.Break) -> None:
        self._in_loop(node, "break")
        self.scope[BREAK] = True

    def visit_Continue(self, node: ast.Continue) -> None:
        self._in_loop(node, "continue")
        self.scope[CONTINUE] = True

    def _in_loop(self, node: ast.stmt, word: str) -> None:
        if self.loop_depth == 0:
            raise UnsupportedSyntaxError(f"`{word}` outside a loop", self.loc(node))

    def visit_Return(self, node: ast.Return) -> None:
        value = None if node.value is None else self.visit(node.value)
        value = None if unwrap_constexpr(value) is None else value
        self._check_returned(_Returned.of(value, self.loc(node)), node)
        for k in [k for k in self.scope if is_result_key(k)]:
            del self.scope[k]
        self.scope[RETURN] = True
        if isinstance(value, (tuple, list)):
            self.scope[RESULT] = _Items(len(value), _Items.kind_of(value))
            for i, v in enumerate(value):
                self.scope[f"{RESULT}.{i}"] = v
        elif value is not None:
            self.scope[RESULT] = value

    def _check_returned(self, r: _Returned, node: ast.Return) -> None:
        """Every ``return`` of a function gives the same kind of thing (nothing, a value, so
        many items) of the same types (Python numbers adapt, as in a runtime ``if``)."""
        if r.types is not None and self.value_return is None:
            self.value_return = r.loc
        first = self.first_return
        if first is None:
            self.first_return = r
        elif not first.agrees(r):
            line = first.loc.line if first.loc is not None else "?"
            raise KernelTypeError(
                f"Inconsistent return types: this `return` gives {r.describe()} but the "
                f"`return` at line {line} gives "
                f"{first.describe()}; every `return` of `{self.src.qualname}` must give one type",
                self.loc(node),
            )

    def exit_flags(self) -> dict[str, Any]:
        """The exits some path reaching here took: flag -> ``True`` or a runtime ``i1``."""
        return {k: self.scope[k] for k in FLAGS if k in self.scope}

    # ---- function bodies

    def compile_body(self, stmts: Sequence[ast.stmt], kernel: bool = False) -> Any:
        """Compile a function's body; what it returns (None if nothing), the same on every
        path. A ``kernel`` returns nothing."""
        self.in_kernel = kernel
        self.visit_block(stmts, tail=True)
        if kernel and self.value_return is not None:
            raise KernelValueError("a kernel cannot return a value", self.value_return)
        returned = self.scope.get(RETURN)
        if returned is None:
            return None
        if returned is not True:
            if self.value_return is not None:
                self._falls_off_the_end()
            return None
        value = self.scope.get(RESULT)
        if isinstance(value, _Items):
            items = [self.scope[f"{RESULT}.{i}"] for i in range(value.count)]
            return value.build(items)
        return value

    def _falls_off_the_end(self) -> NoReturn:
        raise KernelTypeError(
            f"`{self.src.qualname}` returns a value here but may also reach its end without a "
            "`return` (giving None); return a value on every path",
            self.value_return,
        )

    # ---- blocks

    def visit_block(self, stmts: Sequence[ast.stmt], tail: bool = False) -> None:
        """Compile statements in order until one exits: on every path (the rest is not
        compiled) or on some (the rest is guarded). ``tail``: nothing follows the block in its
        function."""
        saved = self.at_tail
        try:
            todo = list(stmts)
            while todo:
                s, rest = todo[0], todo[1:]
                if rest and isinstance(s, ast.If):
                    body_exits, else_exits = always_exits(s.body), always_exits(s.orelse)
                    if body_exits and else_exits:
                        rest = []  # never reached
                    elif body_exits or else_exits:
                        s, rest = absorb_rest(s, rest, body_exits), []
                self.at_tail = tail and not rest
                self.visit(s)
                flags = self.exit_flags()
                if not rest or any(v is True for v in flags.values()):
                    return
                if flags:
                    self.at_tail = tail
                    rest_of_block = self._rest_of_block(rest, tail)
                    self.guard(rest_of_block, flags, assigned_names(rest), rest[0])
                    return
                todo = rest
        finally:
            self.at_tail = saved

    def _rest_of_block(self, rest: list[ast.stmt], tail: bool) -> Callable[[], None]:
        return lambda: self.visit_block(rest, tail)

    def guard(
        self,
        compile_rest: Callable[[], None],
        flags: dict[str, Any],
        assigned: set[str],
        node: ast.AST,
    ) -> None:
        """``scf.if not flags { compile_rest() }`` (which may assign ``assigned``): the other
        branch is the one that exited."""
        with self.b.located(self.loc(node)):
            values = list(flags.values())
            stop = values[0]
            for v in values[1:]:
                stop = self.sem.bitwise("|", stop, v)
            go = self.sem.logical_not(stop)

        def rest() -> None:
            for k in flags:
                self.scope.pop(k, None)
            compile_rest()

        def exited() -> None:
            if len(flags) == 1:  # the one flag that can be set here
                self.scope[next(iter(flags))] = True

        self.exit_fork(go, (rest, exited), assigned, node, exited=(False, True))

    def repeat(
        self,
        items: Iterable[T],
        iteration: Callable[[T], None],
        body: Sequence[ast.stmt],
        variable: str,
    ) -> None:
        """An unrolled loop: ``iteration`` per item (binding ``variable``, then compiling
        ``body``), guarded once an iteration may have left the loop, stopped once every path
        did."""
        assigned = assigned_names(body) | {variable}
        self.loop_depth += 1
        saved, self.at_tail = self.at_tail, False  # more iterations follow each guard
        try:
            for item in items:
                flags = {k: v for k, v in self.exit_flags().items() if k != CONTINUE}
                if any(v is True for v in flags.values()):
                    break

                def one(item: T = item) -> None:
                    iteration(item)
                    self.scope.pop(CONTINUE, None)

                if flags:
                    self.guard(one, flags, assigned, body[0])
                else:
                    one()
        finally:
            self.loop_depth -= 1
            self.at_tail = saved
        self.scope.pop(BREAK, None)

    # ---- runtime `if`s that may exit

    def exit_if(self, node: ast.If, flag: TensorValue) -> None:
        """A runtime ``if`` one of whose branches may exit (see ``exit_fork``)."""
        tail = self.at_tail
        self.exit_fork(
            flag,
            (
                lambda: self.visit_block(node.body, tail),
                lambda: self.visit_block(node.orelse, tail),
            ),
            assigned_names(node.body) | assigned_names(node.orelse),
            node,
        )

    def exit_fork(
        self,
        flag: TensorValue,
        branches: tuple[Callable[[], None], Callable[[], None]],
        assigned: set[str],
        node: ast.AST,
        exited: tuple[bool, bool] = (False, False),
    ) -> None:
        """An ``scf.if`` on ``flag`` compiling the two ``branches``, whose results are the exit
        flags, the value returned and the ``assigned`` variables, merged as Python would see
        them: the variables of a branch that returned on every path are dead, so those of the
        other pass (the dead one yields placeholders); a variable that only one branch assigns
        gets a placeholder on the other if that one left the loop or iteration (``exited``, or a
        flag it set on every path). At a function's tail no variable is merged (nor a flag at a
        kernel's)."""
        tail = self.at_tail
        before = dict(self.scope)
        outs: list[tuple[Block, dict[str, Any]]] = []
        for compile_branch in branches:
            block = Block()
            self.scope = dict(before)
            with self.b.at_end_of(block):
                compile_branch()
            outs.append((block, self.scope))
        self.scope = before
        (tb, ts), (eb, es) = outs
        t_dead, e_dead = ts.get(RETURN) is True, es.get(RETURN) is True
        t_exit = exited[0] or any(ts.get(k) is True for k in FLAGS)
        e_exit = exited[1] or any(es.get(k) is True for k in FLAGS)
        m = _Merge(self, tb, eb, before, node)
        for k in [] if tail and self.in_kernel else FLAGS:  # a kernel's end needs no flag
            m.flag(k, ts.get(k, False), es.get(k, False))
        for k in sorted(k for k in {*ts, *es} if is_result_key(k)):
            if k in ts and k in es:
                m.both(k, ts[k], es[k])
            elif k in ts:
                m.one_sided(k, ts[k], None, eb, then_live=True)
            else:
                m.one_sided(k, es[k], None, tb, then_live=False)
        for n in [] if tail else sorted(assigned):
            if e_dead and not t_dead:
                m.one_sided(n, ts.get(n), es.get(n), eb, then_live=True)
            elif t_dead and not e_dead:
                m.one_sided(n, es.get(n), ts.get(n), tb, then_live=False)
            elif n in ts and n in es:
                m.both(n, ts[n], es[n])
            elif n in ts and e_exit:
                m.one_sided(n, ts[n], None, eb, then_live=True)
            elif n in es and t_exit:
                m.one_sided(n, es[n], None, tb, then_live=False)
            elif n in ts or n in es:
                m.dropped[n] = (
                    "it is assigned on only one path; assign it on both paths or before the `if`"
                )
        m.emit(flag)

    # ---- runtime loops that may exit

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
        exit_flags = loop_exits(node.body)
        assigned = assigned_names(node.body)
        var = count[0] if count else None
        carried = [n for n in sorted(assigned) if n in self.scope and n != var]
        inits = [self._carried_init(n, node) for n in carried]
        outer = dict(self.scope)
        lead = [to_ir(count[1].dtype)] if count else []
        n_carried = len(flat(inits))
        types = [*lead, *(v.type for v in flat(inits)), *(i1 for _ in exit_flags)]

        # the body (`after`), first: it decides which returned values are carried
        after = Block(arg_types=types)
        self._name_args(after, count, n_carried, exit_flags)
        self.scope.update(
            zip(
                carried,
                rebuild(carried, inits, after.args[len(lead) : len(lead) + n_carried]),
                strict=True,
            )
        )
        with self.b.at_end_of(after):
            if count:
                var, plan = count
                with self.b.located(self.loc(_target(node))):
                    induction = plan.loop_variable(TensorValue(after.args[0]))
                if plan.normalised:
                    induction.handle.name_hint = value_name(var)
                self.scope[var] = induction
            self._loop_body(node, carried, inits)
            done = after.last_op
            assert isinstance(done, scf.YieldOp)
            yields = list(done.operands)
            done.detach()
            done.erase()
            flags = [self._i1(self.scope.get(k, False)) for k in exit_flags]
            changed = {
                k: v for k, v in self.scope.items() if is_result_key(k) and v is not outer.get(k)
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
        types += [v.type for v in results.values()]
        self.scope = dict(outer)

        # the condition (`before`): the loop's own, false once a flag is set
        before = Block(arg_types=types)
        self._name_args(before, count, n_carried, [*exit_flags, *results])
        args = before.args
        self.scope.update(
            zip(
                carried,
                rebuild(carried, inits, args[len(lead) : len(lead) + n_carried]),
                strict=True,
            )
        )
        flag_args = [TensorValue(a) for a in args[len(lead) + n_carried :][: len(exit_flags)]]
        with self.b.at_end_of(before):
            go = self._loop_condition(
                node, count, TensorValue(args[0]) if count else None, flag_args
            )
            with self.b.located(self.loc(node)):
                self.b.insert(scf.ConditionOp(go.handle, *args))
        self.scope = outer

        # the loop itself, with placeholders for the values it may return
        with self.b.located(self.loc(node)):
            false = [self.sem.constant(False, core.int1) for _ in exit_flags]
            starts = [self._loop_result_init(k, v, outer, node) for k, v in results.items()]
            first = [count[1].lb] if count else []
            loop = self.b.insert(
                scf.WhileOp(
                    [v.handle for v in [*first, *flat(inits), *false, *starts]],
                    types,
                    Region(before),
                    Region(after),
                )
            )
        res = loop.results[len(lead) :]
        self.scope.update(zip(carried, rebuild(carried, inits, res[:n_carried]), strict=True))
        res = res[n_carried:]
        for k, r in zip(exit_flags, res, strict=False):
            r.name_hint = ir_name(k)
            if k == RETURN:
                self.scope[RETURN] = TensorValue(r)
        for k, r in zip(results, res[len(exit_flags) :], strict=True):
            r.name_hint = ir_name(k)
            self.scope[k] = TensorValue(r)
        self.scope.update({k: v for k, v in changed.items() if k not in results})
        self._not_defined_after_loop(node, assigned, outer, var)

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
                f"`{self.src.qualname}` returns {_type_words(value.type)} from inside this "
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

    # ---- values

    def _i1(self, v: Any) -> TensorValue:
        return v if isinstance(v, TensorValue) else self.sem.constant(bool(v), core.int1)

    def placeholder(self, like: TensorValue, scope: dict[str, Any]) -> TensorValue | None:
        """A value of ``like``'s type for a path where it is never read: a zero, or for
        pointers a pointer of that type from ``scope`` (splat if needed); None if none."""
        if not like.is_pointer:
            if like.is_block:
                return TensorValue(self.b.insert(tt.ZerosOp(like.type)).result)
            return self.sem.constant(0, like.dtype)
        scalar: TensorValue | None = None
        for v in scope.values():
            if isinstance(v, TensorValue) and v.type == like.type:
                return v
            if isinstance(v, TensorValue) and not v.is_block and v.dtype == like.dtype:
                scalar = scalar or v
        if scalar is not None and like.is_block:
            return self.sem.splat_to(scalar, like.shape)
        return None


class _Merge:
    """The results of one ``exit_fork``: what each branch yields for each name, and what the
    scope holds after it."""

    def __init__(
        self, gen: EarlyExitMixin, tb: Block, eb: Block, before: dict[str, Any], node: ast.AST
    ):
        self.gen, self.tb, self.eb, self.before, self.node = gen, tb, eb, before, node
        self.pairs: list[tuple[str, Carried, Carried]] = []
        self.same: dict[str, Any] = {}
        self.dropped: dict[str, str] = {}

    def flag(self, k: str, a: Any, b: Any) -> None:
        if a is b:  # both True, both False (absent) or one runtime value
            if a is not False:
                self.same[k] = a
            return
        with self.gen.b.at_end_of(self.tb):
            a = self.gen._i1(a)
        with self.gen.b.at_end_of(self.eb):
            b = self.gen._i1(b)
        self.pairs.append((k, a, b))

    def both(self, n: str, a: Any, b: Any) -> None:
        from mytriton.frontend.control_flow import _same_compile_time_value

        if a is b or _same_compile_time_value(a, b):
            self.same[n] = a
            return
        a, b = carriable(a), carriable(b)  # a tuple of runtime values: its leaves
        a, b = align(a, b, self.gen._numbers_of(n, self.tb, self.eb, self.node))
        if isinstance(a, CompositeValue) or isinstance(b, CompositeValue):
            if not (isinstance(a, CompositeValue) and a.same_type(b)):
                if is_result_key(n):
                    raise KernelTypeError(
                        f"`{self.gen.src.qualname}` returns {describe_carried(a)} on one path "
                        f"but {describe_carried(b)} on another; every `return` must give one "
                        "type",
                        self.gen.loc(self.node),
                    )
                raise KernelTypeError(
                    f"`{n}` is {describe_carried(a)} on one path but {describe_carried(b)} on "
                    "the other; it must have one type after the runtime `if`",
                    self.gen.loc(self.node),
                )
            self.pairs.append((n, a, b))
        elif is_result_key(n):
            try:
                self.pairs.append((n, *self.gen._if_values(n, a, b, self.tb, self.eb, self.node)))
            except KernelTypeError as e:
                raise KernelTypeError(
                    f"`{self.gen.src.qualname}` returns {_words(a)} on one path but {_words(b)} "
                    "on another; every `return` must give one type",
                    self.gen.loc(self.node),
                ) from e.__cause__
        else:
            self.pairs.append((n, *self.gen._if_values(n, a, b, self.tb, self.eb, self.node)))

    def one_sided(self, n: str, live: Any, other: Any, other_block: Block, then_live: bool) -> None:
        """``n`` after the ``if`` is ``live``, the value of one branch; ``other`` (of the other
        branch, which returned or lacks ``n``) is never read, a placeholder may stand for it."""
        live, other = carriable(live), carriable(other)
        if live is None:
            if other is not None or n in self.before:
                self.dropped[n] = "it is not assigned on the path that gets past the `if`"
            return
        if not isinstance(live, (TensorValue, CompositeValue)):
            self.same[n] = live
            return
        if isinstance(live, TupleValue) and not live.same_type(other):
            with self.gen.b.at_end_of(other_block):  # a placeholder for each runtime element
                leaves = [self.gen.placeholder(v, self.before) for v in live.leaves()]
            if any(v is None for v in leaves):
                self.dropped[n] = (
                    "it holds a pointer assigned on only one path; assign it before the `if`"
                )
                return
            other = live.with_leaves([v for v in leaves if v is not None])
        if isinstance(live, CompositeValue):
            if not (isinstance(other, CompositeValue) and live.same_type(other)):
                self.dropped[n] = "it is assigned on only one path; assign it before the `if`"
                return
            stand_in: Carried = other
        elif isinstance(other, TensorValue) and other.type == live.type:
            stand_in = other
        else:
            with self.gen.b.at_end_of(other_block):
                found = self.gen.placeholder(live, self.before)
            if found is None:
                self.dropped[n] = (
                    "it holds a pointer assigned on only one path; assign it before the `if`"
                )
                return
            stand_in = found
        self.pairs.append((n, live, stand_in) if then_live else (n, stand_in, live))

    def emit(self, flag: TensorValue) -> None:
        gen = self.gen
        with gen.b.located(gen.loc(self.node)):
            self._emit(flag)

    def _emit(self, flag: TensorValue) -> None:
        gen = self.gen
        with gen.b.at_end_of(self.tb):
            gen.b.insert(scf.YieldOp(*(v.handle for v in flat([a for _, a, _ in self.pairs]))))
        with gen.b.at_end_of(self.eb):
            gen.b.insert(scf.YieldOp(*(v.handle for v in flat([b for _, _, b in self.pairs]))))
        like = [a for _, a, _ in self.pairs]
        op = gen.b.insert(scf.IfOp(flag.handle, [v.type for v in flat(like)], [self.tb], [self.eb]))
        names = [n for n, _, _ in self.pairs]
        gen.scope.update(self.same)
        gen.scope.update(
            zip(names, rebuild([ir_name(n) for n in names], like, op.results), strict=True)
        )
        for k in FLAGS:
            if k not in self.same and k not in names:
                gen.scope.pop(k, None)
        where = gen.loc(self.node)
        line = where.line if where is not None else "?"
        for n, why in self.dropped.items():
            gen.scope.pop(n, None)
            gen.not_defined_after[n] = (
                f"`{n}` is not defined after the runtime `if` at line {line}: {why}"
            )


def _target(node: ast.While | ast.For) -> ast.AST:
    return node.target if isinstance(node, ast.For) else node


def _header(node: ast.While | ast.For) -> ast.AST:
    return node.iter if isinstance(node, ast.For) else node.test


def _words(v: Any) -> str:
    if isinstance(v, TensorValue):
        return _type_words(v.type)
    if isinstance(v, _Items):
        return f"a {v.kind.__name__} of {v.count} items"
    return f"the compile-time {type(unwrap_constexpr(v)).__name__} {unwrap_constexpr(v)!r}"
