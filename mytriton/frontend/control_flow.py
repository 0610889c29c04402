"""Control flow in a kernel: ``if`` and ``for``, resolved while compiling or as ``scf`` ops.

An ``if`` on a compile-time value compiles one branch, a ``range`` with compile-time bounds is
unrolled; on runtime values they become ``scf.if``/``scf.for`` whose results are the variables
the body assigns (Triton's rules: one type on every path, nothing returned from inside). Kept
apart from expressions because this is where the scope forks and merges. ``while``, ``break``
and ``continue`` are rejected at their line.
"""

from __future__ import annotations

import ast
import builtins as py
import math
from collections.abc import Iterator, Sequence
from typing import Any, NoReturn

from xdsl.dialects import scf
from xdsl.dialects.builtin import i32
from xdsl.ir import Block

from mytriton.errors import (
    ConstexprError,
    KernelTypeError,
    KernelValueError,
    UnsupportedSyntaxError,
)
from mytriton.frontend.codegen_base import CodeGeneratorBase, _Return, core_fn, describe
from mytriton.frontend.values import TensorValue, unwrap_constexpr
from mytriton.language import core

# Python `range` loops with compile-time bounds are unrolled up to this many iterations;
# longer ones become structured loops (`tl.static_range` always unrolls).
MAX_UNROLL = 64


# (`ast.NodeVisitor` is named again so that linters see the `visit_<Node>` methods as a visitor's.)
class ControlFlowMixin(CodeGeneratorBase, ast.NodeVisitor):
    """``if``/``for`` statements of ``CodeGenerator``, and the rejected ``while``/``break``."""

    def visit_If(self, node: ast.If) -> None:
        cond = self.visit(node.test)
        if isinstance(cond, TensorValue):
            self.runtime_if(node, cond)
            return
        self.visit_block(node.body if cond else node.orelse)

    def runtime_if(self, node: ast.If, cond: TensorValue) -> None:
        """``if`` on a runtime scalar: an ``scf.if`` whose results are the variables either
        branch assigns (Triton's rule: a variable used after the ``if`` must exist on both
        paths, and keep one type)."""
        if cond.is_block:
            raise KernelTypeError(
                "the condition of an `if` must be a scalar; for blocks use tl.where or a mask",
                self.loc(node.test),
            )
        flag = self.sem.to_bool(cond)
        before = dict(self.scope)
        branches: list[tuple[Block, dict[str, Any]]] = []
        for stmts in (node.body, node.orelse):
            block = Block()
            self.scope = dict(before)
            with self.b.at_end_of(block):
                try:
                    self.visit_block(stmts)
                except _Return as r:
                    raise UnsupportedSyntaxError(
                        "`return` inside an `if` on a runtime value", r.loc or self.loc(node)
                    ) from None
            branches.append((block, self.scope))
        self.scope = before
        (then_block, then_scope), (else_block, else_scope) = branches
        assigned = assigned_names(node.body) | assigned_names(node.orelse)
        names = [n for n in sorted(assigned) if n in then_scope and n in else_scope]
        results: list[tuple[str, TensorValue, TensorValue]] = []
        same: dict[str, Any] = {}
        for n in names:
            a, b = then_scope[n], else_scope[n]
            if a is b or _same_compile_time_value(a, b):
                same[n] = a  # one value on both paths: no `scf.if` result needed
                continue
            results.append((n, *self._if_values(n, a, b, then_block, else_block, node)))
        with self.b.at_end_of(then_block):
            self.b.insert(scf.YieldOp(*(a.handle for _, a, _ in results)))
        with self.b.at_end_of(else_block):
            self.b.insert(scf.YieldOp(*(b.handle for _, _, b in results)))
        op = self.b.insert(
            scf.IfOp(flag.handle, [a.type for _, a, _ in results], [then_block], [else_block])
        )
        self.scope.update(same)
        for (n, _, _), res in zip(results, op.results, strict=True):
            res.name_hint = n
            self.scope[n] = TensorValue(res)
        for n in assigned - set(names) - set(before):
            self.scope.pop(n, None)  # assigned on one path only: not defined after the `if`

    def _if_values(
        self, name: str, a: Any, b: Any, then_block: Block, else_block: Block, node: ast.If
    ) -> tuple[TensorValue, TensorValue]:
        """The runtime values of ``name`` on both paths, Python numbers converted (weakly
        typed, like the other operand of an operator) inside their own branch."""
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
                f"`{name}` is {describe(a)} in the `if` branch but {describe(b)} in the `else` "
                "branch; it must have one type after the `if`",
                self.loc(node),
            )
        return a, b

    def visit_While(self, node: ast.While) -> NoReturn:
        self.unsupported(node, "`while`", "use `for ... in range(...)`")

    def visit_Break(self, node: ast.Break) -> NoReturn:
        self.unsupported(node, "`break`")

    def visit_Continue(self, node: ast.Continue) -> NoReturn:
        self.unsupported(node, "`continue`")

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
        if kind != "runtime" and kwargs:
            self.unsupported(it, "keyword arguments to range")
        step_kw = kwargs.pop("step", None)
        kwargs.pop("num_stages", None)
        kwargs.pop("loop_unroll_factor", None)
        if kwargs:
            self.unsupported(it, f"tl.range options {sorted(kwargs)}")
        if not 1 <= len(args) <= 3:
            raise KernelTypeError(f"range expects 1 to 3 arguments, got {len(args)}", self.loc(it))
        start, stop, step = (0, args[0], 1) if len(args) == 1 else (args[0], args[1], 1)
        if len(args) == 3:
            step = args[2]
        if step_kw is not None:
            step = step_kw
        bounds = [unwrap_constexpr(x) for x in (start, stop, step)]
        constant = all(isinstance(x, int) and not isinstance(x, bool) for x in bounds)
        if kind == "static" and not constant:
            raise ConstexprError(
                "tl.static_range bounds must be compile-time integers (tl.constexpr)", self.loc(it)
            )
        if constant and kind != "runtime":
            trips = len(py.range(*bounds))
            if kind == "static" or trips <= MAX_UNROLL:
                self.unrolled_loop(node, node.target.id, py.range(*bounds), kind)
                return
        self.runtime_loop(node, node.target.id, *bounds)

    def unrolled_loop(self, node: ast.For, var: str, values: py.range, kind: str) -> None:
        """``tl.static_range`` binds a compile-time integer (a constexpr, as in Triton); an
        unrolled ``range`` binds an int32 value, so the body has the semantics of Triton's
        ``scf.for`` induction variable (C division, wrapping, ``.to()``) either way."""
        for v in values:
            if kind == "static":
                self.scope[var] = v
            else:
                with self.b.located(self.loc(node.target)):
                    self.scope[var] = self.sem.to_tensor(v)
            self.visit_block(node.body)

    def runtime_loop(self, node: ast.For, var: str, start: Any, stop: Any, step: Any) -> None:
        if isinstance(step, TensorValue) or not isinstance(step, int) or step <= 0:
            raise KernelValueError(
                "the step of a runtime loop must be a positive compile-time integer",
                self.loc(node.iter),
            )
        lb, ub = (self._loop_bound(x, node) for x in (start, stop))
        stp = self.sem.constant(step, core.int32)
        assigned = assigned_names(node.body)
        if var in assigned:
            where = assignment_to(node.body, var) or node
            raise UnsupportedSyntaxError(
                f"assigning to the loop variable `{var}` inside the loop", self.loc(where)
            )
        carried = [n for n in sorted(assigned) if n in self.scope and n != var]
        inits: list[TensorValue] = []
        for n in carried:
            v = self.scope[n]
            if isinstance(v, TensorValue):
                inits.append(v)
            elif isinstance(unwrap_constexpr(v), (bool, int, float)):
                inits.append(self.sem.to_tensor(unwrap_constexpr(v)))
            else:
                raise KernelTypeError(
                    f"`{n}` holds a compile-time {type(v).__name__} and is reassigned inside a "
                    "runtime loop; only numbers and blocks can be loop-carried",
                    self.loc(node),
                )
        body = Block(arg_types=[i32, *(v.type for v in inits)])
        body.args[0].name_hint = var
        for n, arg in zip(carried, body.args[1:], strict=True):
            arg.name_hint = n
        outer = dict(self.scope)
        self.scope[var] = TensorValue(body.args[0])
        for n, arg in zip(carried, body.args[1:], strict=True):
            self.scope[n] = TensorValue(arg)
        with self.b.at_end_of(body):
            try:
                self.visit_block(node.body)
            except _Return as r:
                raise UnsupportedSyntaxError(
                    "`return` inside a runtime loop", r.loc or self.loc(node)
                ) from None
            yields: list[TensorValue] = []
            for n, init in zip(carried, inits, strict=True):
                v = self.scope[n]
                v = self.sem.to_tensor(v, init) if not isinstance(v, TensorValue) else v
                if v.type != init.type:
                    raise KernelTypeError(
                        f"loop-carried variable `{n}` is {describe(init)} before the loop but "
                        f"{describe(v)} after an iteration; its type must not change",
                        self.loc(node),
                    )
                yields.append(v)
            self.b.insert(scf.YieldOp(*(v.handle for v in yields)))
        loop = self.b.insert(
            scf.ForOp(lb.handle, ub.handle, stp.handle, [v.handle for v in inits], body)
        )
        self.scope = outer
        for n, res in zip(carried, loop.results, strict=True):
            res.name_hint = n
            self.scope[n] = TensorValue(res)

    def _loop_bound(self, x: Any, node: ast.For) -> TensorValue:
        v = self.sem.to_tensor(unwrap_constexpr(x)) if not isinstance(x, TensorValue) else x
        if v.is_block or v.dtype != core.int32:
            raise KernelTypeError(
                f"range bounds must be int32 scalars, got {describe(v)}", self.loc(node.iter)
            )
        return v


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


def assigned_names(stmts: Sequence[ast.stmt]) -> set[str]:
    """Names a statement list assigns (loop targets included), for loop-carried analysis."""
    names: set[str] = set()

    def targets(t: ast.expr) -> Iterator[str]:
        if isinstance(t, ast.Name):
            yield t.id
        elif isinstance(t, (ast.Tuple, ast.List)):
            for e in t.elts:
                yield from targets(e)

    for stmt in stmts:
        for n in ast.walk(stmt):
            if isinstance(n, ast.Assign):
                for t in n.targets:
                    names.update(targets(t))
            elif isinstance(n, (ast.AugAssign, ast.AnnAssign, ast.For)):
                names.update(targets(n.target))
    return names


def assignment_to(stmts: Sequence[ast.stmt], name: str) -> ast.AST | None:
    """The first statement of ``stmts`` (nested ones included) that assigns ``name``."""
    for stmt in stmts:
        for n in ast.walk(stmt):
            if isinstance(n, ast.Assign):
                targets = n.targets
            elif isinstance(n, (ast.AugAssign, ast.AnnAssign, ast.For)):
                targets = [n.target]
            else:
                continue
            for t in targets:
                if any(isinstance(e, ast.Name) and e.id == name for e in ast.walk(t)):
                    return n
    return None
