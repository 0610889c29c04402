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

Beside this module: exit_values.py (the keys, IR names and records of the exits), exit_merge.py
(the merge after an ``scf.if`` that may exit), exiting_loops.py (``ExitingLoopMixin``, built on
``EarlyExitMixin``: the loops that may exit).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable, Sequence
from typing import Any, NoReturn, TypeVar

from xdsl.ir import Block

from mytriton.dialects.tt import core as tt
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
)
from mytriton.frontend.codegen_base import CodeGeneratorBase
from mytriton.frontend.exit_merge import ExitMerge
from mytriton.frontend.exit_values import (
    FLAGS,
    RESULT,
    ResultItems,
    Returned,
    is_result_key,
)
from mytriton.frontend.values import TensorValue, unwrap_constexpr
from mytriton.language import core

T = TypeVar("T")


# (`ast.NodeVisitor` is named again so that linters see the `visit_<Node>` methods as a visitor's.)
class EarlyExitMixin(CodeGeneratorBase, ast.NodeVisitor):
    """``break``/``continue``/``return`` as flags, the statements after them guarded, the ``if``s
    they may leave, unrolled loops, and a function's result (runtime loops that may exit:
    ``ExitingLoopMixin``)."""

    loop_depth = 0  # loops (runtime or unrolled) around the statement being compiled
    at_tail = False  # nothing is compiled after the current statement in this function
    in_kernel = False  # compiling a kernel's body (not an inlined function's)
    first_return: Returned | None = None
    value_return: SourceLocation | None = None  # the first `return` giving a value

    # ---- hooks that ControlFlowMixin provides

    def _numbers_of(
        self, name: str, then_block: Block, else_block: Block, node: ast.AST
    ) -> Callable[[Any, Any], tuple[TensorValue, TensorValue]]:
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
        self._check_returned(Returned.of(value, self.loc(node)), node)
        for k in [k for k in self.scope if is_result_key(k)]:
            del self.scope[k]
        self.scope[RETURN] = True
        if isinstance(value, (tuple, list)):
            self.scope[RESULT] = ResultItems(len(value), ResultItems.kind_of(value))
            for i, v in enumerate(value):
                self.scope[f"{RESULT}.{i}"] = v
        elif value is not None:
            self.scope[RESULT] = value

    def _check_returned(self, r: Returned, node: ast.Return) -> None:
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
        if isinstance(value, ResultItems):
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
        m = ExitMerge(self, tb, eb, before, node)
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
