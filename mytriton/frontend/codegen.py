"""The AST visitor that turns a kernel's Python source into `tt` IR, never executing it.

One ``visit_<Node>`` method per supported node; every other node is rejected in ``generic_visit``
with its location. Runtime values are ``TensorValue``s; ``tl.constexpr`` parameters, literals,
globals and closure values stay Python values and are computed with at compile time.
"""

from __future__ import annotations

import ast
import builtins as py
import inspect
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any, NoReturn

from xdsl.dialects import scf
from xdsl.dialects.builtin import i32
from xdsl.ir import Block, Operation

from mytriton import utils
from mytriton.errors import (
    CompilationError,
    ConstexprError,
    KernelNameError,
    KernelTypeError,
    KernelValueError,
    SourceLocation,
    UnsupportedSyntaxError,
)
from mytriton.frontend.builder import IRBuilder
from mytriton.frontend.builtins import Builtins
from mytriton.frontend.semantic import Semantic
from mytriton.frontend.source import KernelSource
from mytriton.frontend.values import BoundMethod, TensorValue, unwrap_constexpr
from mytriton.language import core

# Python `range` loops with compile-time bounds are unrolled up to this many iterations;
# longer ones become structured loops (`tl.static_range` always unrolls).
MAX_UNROLL = 64

_COMPILE_TIME_TYPES = (bool, int, float, str, type(None), core.dtype, core.constexpr)


def is_jit_function(obj: Any) -> bool:
    return getattr(obj, "is_mytriton_jit", False) is True


@dataclass
class _Return(Exception):
    """Raised by ``return`` to unwind the statements of an inlined function."""

    value: Any
    loc: SourceLocation | None = None  # of the `return` statement, for errors about it


class CodeGenerator(ast.NodeVisitor):
    """Compiles one function body (the kernel, or an inlined ``@jit`` callee)."""

    def __init__(
        self,
        source: KernelSource,
        builder: IRBuilder,
        scope: dict[str, Any],
        call_stack: tuple[str, ...] = (),
    ):
        self.src = source
        self.b = builder
        self.sem = Semantic(builder)
        self.tl = Builtins(self.sem)
        self.scope = scope
        self.call_stack = (*call_stack, source.qualname)

    # ------------------------------------------------------------------ infrastructure

    def loc(self, node: ast.AST) -> SourceLocation | None:
        return self.src.location(node)

    def visit(self, node: ast.AST) -> Any:
        with self.b.located(self.loc(node)):
            try:
                return super().visit(node)
            except (CompilationError, _Return):
                raise
            except RecursionError:
                raise
            except Exception as e:  # an xDSL verifier or a bug: report at the kernel line
                raise CompilationError(
                    f"internal error while compiling this line: {type(e).__name__}: {e}",
                    self.b.loc,
                ) from e

    def unsupported(self, node: ast.AST, what: str, hint: str = "") -> NoReturn:
        msg = f"{what} is not supported in a kernel"
        if hint:
            msg += f"; {hint}"
        raise UnsupportedSyntaxError(msg, self.loc(node))

    def generic_visit(self, node: ast.AST) -> NoReturn:
        self.unsupported(node, f"`{type(node).__name__}` syntax")

    def visit_block(self, stmts: Sequence[ast.stmt]) -> None:
        for s in stmts:
            self.visit(s)

    # ------------------------------------------------------------------ names

    def lookup(self, name: str, node: ast.AST) -> Any:
        if name in self.scope:
            return self.scope[name]
        found, value = self.src.resolve_global(name)
        if not found:
            if hasattr(py, name):
                return getattr(py, name)
            raise KernelNameError(f"name `{name}` is not defined", self.loc(node))
        return self._check_global(name, value, node)

    def _check_global(self, name: str, value: Any, node: ast.AST) -> Any:
        value = unwrap_constexpr(value)
        ok = (
            isinstance(value, (_COMPILE_TIME_TYPES, ModuleType))
            or is_jit_function(value)
            or callable(value)
            or (isinstance(value, tuple) and all(isinstance(v, _COMPILE_TIME_TYPES) for v in value))
        )
        if not ok:
            raise KernelNameError(
                f"global `{name}` of type {type(value).__name__} cannot be used inside a kernel "
                "(only numbers, strings, dtypes, tuples of those, modules and @jit functions)",
                self.loc(node),
            )
        return value

    def assign(self, target: ast.expr, value: Any) -> None:
        if isinstance(target, ast.Name):
            named = isinstance(value, TensorValue) and value.handle.name_hint is not None
            if (
                isinstance(value, TensorValue)
                and not named
                and isinstance(value.handle.owner, Operation)
            ):
                value.handle.name_hint = target.id  # readable IR: %offsets, %mask, ...
            self.scope[target.id] = value
        elif isinstance(target, (ast.Tuple, ast.List)):
            if not isinstance(value, (tuple, list)):
                raise KernelTypeError(
                    f"cannot unpack a {type(value).__name__} into {len(target.elts)} names",
                    self.loc(target),
                )
            if len(value) != len(target.elts):
                raise KernelValueError(
                    f"cannot unpack {len(value)} values into {len(target.elts)} names",
                    self.loc(target),
                )
            for t, v in zip(target.elts, value, strict=True):
                self.assign(t, v)
        else:
            self.unsupported(target, f"assignment to `{ast.unparse(target)}`", "assign to a name")

    # ------------------------------------------------------------------ statements

    def visit_Expr(self, node: ast.Expr) -> None:
        if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            return  # docstring
        self.visit(node.value)

    def visit_Pass(self, node: ast.Pass) -> None:
        return None

    def visit_Assign(self, node: ast.Assign) -> None:
        value = self.visit(node.value)
        for t in node.targets:
            self.assign(t, value)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is None:
            self.unsupported(node, "an annotation without a value")
        value = self.visit(node.value)
        ann = self.visit(node.annotation)
        if ann is core.constexpr and isinstance(value, TensorValue):
            raise ConstexprError(
                f"`{ast.unparse(node.target)}` is annotated tl.constexpr but its value is only "
                "known at run time",
                self.loc(node),
            )
        self.assign(node.target, value)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        if not isinstance(node.target, ast.Name):
            self.unsupported(node, f"augmented assignment to `{ast.unparse(node.target)}`")
        current = self.lookup(node.target.id, node.target)
        value = self.binary(node.op, current, self.visit(node.value), node)
        self.assign(node.target, value)

    def visit_Return(self, node: ast.Return) -> None:
        raise _Return(None if node.value is None else self.visit(node.value), self.loc(node))

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
        for n in names:
            a, b = then_scope[n], else_scope[n]
            same_constant = (
                not isinstance(a, TensorValue)
                and not isinstance(b, TensorValue)
                and unwrap_constexpr(a) == unwrap_constexpr(b)
            )
            if a is b or same_constant:
                continue  # the same on both paths (a compile-time value, or not reassigned)
            results.append((n, *self._if_values(n, a, b, then_block, else_block, node)))
        with self.b.at_end_of(then_block):
            self.b.insert(scf.YieldOp(*(a.handle for _, a, _ in results)))
        with self.b.at_end_of(else_block):
            self.b.insert(scf.YieldOp(*(b.handle for _, _, b in results)))
        op = self.b.insert(
            scf.IfOp(flag.handle, [a.type for _, a, _ in results], [then_block], [else_block])
        )
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

    def visit_Assert(self, node: ast.Assert) -> None:
        cond = self.visit(node.test)
        if isinstance(cond, TensorValue):
            self.unsupported(
                node, "`assert` on a runtime value", "use tl.static_assert on constexprs"
            )
        if not cond:
            msg = self.visit(node.msg) if node.msg is not None else ""
            raise KernelValueError(
                f"assertion failed: {msg}" if msg else "assertion failed", self.loc(node)
            )

    def visit_While(self, node: ast.While) -> NoReturn:
        self.unsupported(node, "`while`", "use `for ... in range(...)`")

    def visit_Break(self, node: ast.Break) -> NoReturn:
        self.unsupported(node, "`break`")

    def visit_Continue(self, node: ast.Continue) -> NoReturn:
        self.unsupported(node, "`continue`")

    def visit_FunctionDef(self, node: ast.FunctionDef) -> NoReturn:
        self.unsupported(
            node, "a nested function definition", "define it at module level with @jit"
        )

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
                self.unrolled_loop(node, node.target.id, py.range(*bounds))
                return
        self.runtime_loop(node, node.target.id, *bounds)

    def unrolled_loop(self, node: ast.For, var: str, values: py.range) -> None:
        for v in values:
            self.scope[var] = v
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

    # ------------------------------------------------------------------ expressions

    def visit_Constant(self, node: ast.Constant) -> Any:
        return node.value

    def visit_Name(self, node: ast.Name) -> Any:
        return self.lookup(node.id, node)

    def visit_Tuple(self, node: ast.Tuple) -> tuple[Any, ...]:
        return tuple(self.visit(e) for e in node.elts)

    def visit_List(self, node: ast.List) -> list[Any]:
        return [self.visit(e) for e in node.elts]

    def visit_Attribute(self, node: ast.Attribute) -> Any:
        obj = self.visit(node.value)
        name = node.attr
        if isinstance(obj, TensorValue):
            if name == "dtype":
                return obj.dtype
            if name == "shape":
                return obj.shape
            if name == "to":
                return BoundMethod(obj, "to")
            raise KernelNameError(f"a block has no attribute `{name}` here", self.loc(node))
        if isinstance(obj, (ModuleType, core.dtype, type)):
            if not hasattr(obj, name):
                raise KernelNameError(
                    f"`{ast.unparse(node.value)}` has no attribute `{name}`", self.loc(node)
                )
            return self._check_global(name, getattr(obj, name), node)
        if isinstance(obj, core.constexpr):
            return getattr(obj.value, name)
        if isinstance(obj, tuple) and name in ("index", "count"):
            return getattr(obj, name)
        raise KernelNameError(
            f"cannot take attribute `{name}` of {type(obj).__name__} inside a kernel",
            self.loc(node),
        )

    def visit_Subscript(self, node: ast.Subscript) -> Any:
        value = self.visit(node.value)
        if isinstance(value, TensorValue):
            return self.index_block(value, node)
        index = self.visit(node.slice)
        if isinstance(index, TensorValue):
            self.unsupported(node, "indexing a compile-time value with a runtime value")
        try:
            return value[index]
        except Exception as e:
            raise KernelValueError(f"cannot index: {e}", self.loc(node)) from None

    def index_block(self, value: TensorValue, node: ast.Subscript) -> TensorValue:
        """``x[:, None]``/``x[None, :]``: only full slices and None are supported."""
        items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        result = value
        dim = 0
        for item in items:
            if isinstance(item, ast.Constant) and item.value is None:
                result = self.sem.expand_dims(result, dim)
                dim += 1
            elif (
                isinstance(item, ast.Slice)
                and item.lower is None
                and item.upper is None
                and item.step is None
            ):
                dim += 1
            else:
                self.unsupported(
                    node, f"indexing a block with `{ast.unparse(item)}`", "only `:` and `None` work"
                )
        if dim - sum(1 for i in items if isinstance(i, ast.Constant)) > len(value.shape):
            raise KernelValueError(
                f"too many indices for a block of rank {len(value.shape)}", self.loc(node)
            )
        return result

    def visit_Slice(self, node: ast.Slice) -> slice:
        lo = self.visit(node.lower) if node.lower else None
        hi = self.visit(node.upper) if node.upper else None
        st = self.visit(node.step) if node.step else None
        return slice(lo, hi, st)

    def visit_IfExp(self, node: ast.IfExp) -> Any:
        cond = self.visit(node.test)
        if isinstance(cond, TensorValue):
            self.unsupported(node, "a conditional expression on a runtime value", "use tl.where")
        return self.visit(node.body if cond else node.orelse)

    def visit_JoinedStr(self, node: ast.JoinedStr) -> str:
        parts = []
        for v in node.values:
            if isinstance(v, ast.Constant):
                parts.append(str(v.value))
            elif isinstance(v, ast.FormattedValue):
                x = self.visit(v.value)
                if isinstance(x, TensorValue):
                    self.unsupported(v, "formatting a runtime value")
                parts.append(format(x, self.visit(v.format_spec) if v.format_spec else ""))
        return "".join(parts)

    # ---- operators ----

    _BINOPS: dict[type[ast.operator], str] = {
        ast.Add: "+",
        ast.Sub: "-",
        ast.Mult: "*",
        ast.Div: "/",
        ast.FloorDiv: "//",
        ast.Mod: "%",
        ast.BitAnd: "&",
        ast.BitOr: "|",
        ast.BitXor: "^",
        ast.Pow: "**",
        ast.LShift: "<<",
        ast.RShift: ">>",
        ast.MatMult: "@",
    }

    def binary(self, op: ast.operator, a: Any, b: Any, node: ast.AST) -> Any:
        sym = self._BINOPS.get(type(op), type(op).__name__)
        if not isinstance(a, TensorValue) and not isinstance(b, TensorValue):
            try:
                return _PY_BINOPS[sym](unwrap_constexpr(a), unwrap_constexpr(b))
            except KeyError:
                self.unsupported(node, f"operator `{sym}`")
            except Exception as e:
                raise KernelValueError(
                    f"cannot compute {a!r} {sym} {b!r}: {e}", self.loc(node)
                ) from None
        if sym in ("+", "-", "*"):
            return self.sem.arith(sym, a, b)
        if sym == "/":
            return self.sem.truediv(a, b)
        if sym == "//":
            return self.sem.floordiv(a, b)
        if sym == "%":
            return self.sem.mod(a, b)
        if sym in ("&", "|", "^"):
            return self.sem.bitwise(sym, a, b)
        self.unsupported(node, f"operator `{sym}` on runtime values")

    def visit_BinOp(self, node: ast.BinOp) -> Any:
        return self.binary(node.op, self.visit(node.left), self.visit(node.right), node)

    def visit_UnaryOp(self, node: ast.UnaryOp) -> Any:
        v = self.visit(node.operand)
        if not isinstance(v, TensorValue):
            v = unwrap_constexpr(v)
            fn = {
                ast.UAdd: lambda x: +x,
                ast.USub: lambda x: -x,
                ast.Not: lambda x: not x,
                ast.Invert: lambda x: ~x,
            }[type(node.op)]
            try:
                return fn(v)
            except Exception as e:
                raise KernelValueError(
                    f"cannot compute `{ast.unparse(node)}` on {v!r}: {e}", self.loc(node)
                ) from None
        if isinstance(node.op, ast.UAdd):
            return v
        if isinstance(node.op, ast.USub):
            return self.sem.neg(v)
        if isinstance(node.op, ast.Invert):
            return self.sem.invert(v)
        return self.sem.logical_not(v)

    def visit_Compare(self, node: ast.Compare) -> Any:
        if len(node.ops) != 1:
            self.unsupported(node, "chained comparisons", "write `(a < b) & (b < c)`")
        op = node.ops[0]
        a, b = self.visit(node.left), self.visit(node.comparators[0])
        if isinstance(op, (ast.Is, ast.IsNot)):
            if isinstance(a, TensorValue) or isinstance(b, TensorValue):
                res = a is b
            else:
                res = unwrap_constexpr(a) is unwrap_constexpr(b)
            return res if isinstance(op, ast.Is) else not res
        if isinstance(op, (ast.In, ast.NotIn)):
            if isinstance(a, TensorValue) or isinstance(b, TensorValue):
                self.unsupported(node, "`in` on runtime values")
            res = unwrap_constexpr(a) in unwrap_constexpr(b)
            return res if isinstance(op, ast.In) else not res
        sym = {
            ast.Lt: "<",
            ast.LtE: "<=",
            ast.Gt: ">",
            ast.GtE: ">=",
            ast.Eq: "==",
            ast.NotEq: "!=",
        }[type(op)]
        if not isinstance(a, TensorValue) and not isinstance(b, TensorValue):
            try:
                return _PY_BINOPS[sym](unwrap_constexpr(a), unwrap_constexpr(b))
            except Exception as e:
                raise KernelValueError(
                    f"cannot compute {a!r} {sym} {b!r}: {e}", self.loc(node)
                ) from None
        return self.sem.compare(sym, a, b)

    def visit_BoolOp(self, node: ast.BoolOp) -> Any:
        op = "and" if isinstance(node.op, ast.And) else "or"
        result = self.visit(node.values[0])
        for v_node in node.values[1:]:
            if not isinstance(result, TensorValue):
                r = unwrap_constexpr(result)
                if (op == "and" and not r) or (op == "or" and r):
                    return result  # Python short-circuit at compile time
                result = self.visit(v_node)
                continue
            result = self.sem.logical(op, result, self.visit(v_node))
        return result

    # ---- calls ----

    def visit_Call(self, node: ast.Call) -> Any:
        fn = self.visit(node.func)
        args: list[Any] = []
        for a in node.args:
            if isinstance(a, ast.Starred):
                v = self.visit(a.value)
                if not isinstance(v, (tuple, list)):
                    self.unsupported(a, "`*` on a runtime value")
                args.extend(v)
            else:
                args.append(self.visit(a))
        kwargs: dict[str, Any] = {}
        for k in node.keywords:
            if k.arg is None:
                self.unsupported(k, "`**` in a call")
            kwargs[k.arg] = self.visit(k.value)
        return self.call(fn, args, kwargs, node)

    def call(self, fn: Any, args: list[Any], kwargs: dict[str, Any], node: ast.Call) -> Any:
        if isinstance(fn, BoundMethod) and fn.name == "to":
            return self.call_builtin("cast", core_fn("cast"), [fn.receiver, *args], kwargs, node)
        name = core.BUILTINS.get(fn) if _hashable(fn) else None
        if name is not None:
            return self.call_builtin(name, fn, args, kwargs, node)
        if is_jit_function(fn):
            return self.inline(fn, args, kwargs, node)
        if _hashable(fn) and fn in _PY_BUILTINS:
            return _PY_BUILTINS[fn](self, args, kwargs, node)
        if fn is utils.cdiv:
            return self.call_builtin("cdiv", core_fn("cdiv"), args, kwargs, node)
        if fn is utils.next_power_of_2 or (_hashable(fn) and fn in _PURE_PY_FUNCTIONS):
            if any(isinstance(a, TensorValue) for a in [*args, *kwargs.values()]):
                raise ConstexprError(
                    f"{getattr(fn, '__name__', fn)} needs compile-time arguments", self.loc(node)
                )
            return call_at_compile_time(fn, args, kwargs, self.loc(node))
        if isinstance(fn, core.dtype):
            self.unsupported(node, f"calling dtype {fn}", "use x.to(dtype)")
        fname = getattr(fn, "__qualname__", None) or getattr(fn, "__name__", None) or repr(fn)
        raise KernelNameError(
            f"cannot call `{fname}` inside a kernel; only tl builtins, @jit functions and "
            "compile-time helpers are callable",
            self.loc(node),
        )

    def call_builtin(
        self,
        name: str,
        stub: Callable[..., Any],
        args: list[Any],
        kwargs: dict[str, Any],
        node: ast.AST,
    ) -> Any:
        sig = inspect.signature(stub.__wrapped__)  # type: ignore[attr-defined]
        try:
            bound = sig.bind(*args, **kwargs)
        except TypeError as e:
            raise KernelTypeError(f"tl.{name}: {e}", self.loc(node)) from None
        bound.apply_defaults()
        impl = getattr(self.tl, name)
        return impl(*bound.args, **bound.kwargs)

    def inline(self, fn: Any, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
        source = KernelSource.of(fn.fn)
        if source.qualname in self.call_stack:
            raise UnsupportedSyntaxError(
                f"recursive call of @jit function `{source.qualname}`", self.loc(node)
            )
        params = source.parameters()
        try:
            bound = inspect.signature(fn.fn).bind(*args, **kwargs)
        except TypeError as e:
            raise KernelTypeError(f"calling `{source.qualname}`: {e}", self.loc(node)) from None
        bound.apply_defaults()
        scope: dict[str, Any] = {}
        for pname, value in bound.arguments.items():
            if params.get(pname) == "constexpr" and isinstance(value, TensorValue):
                raise ConstexprError(
                    f"argument `{pname}` of `{source.qualname}` is tl.constexpr but gets a runtime "
                    "value",
                    self.loc(node),
                )
            scope[pname] = value
        callee = CodeGenerator(source, self.b, scope, self.call_stack)
        try:
            callee.visit_block(source.function_def().body)
        except _Return as r:
            return r.value
        return None


def core_fn(name: str) -> Any:
    import mytriton.language as tl

    return getattr(tl, name)


def _hashable(x: Any) -> bool:
    try:
        hash(x)
    except TypeError:
        return False
    return True


def describe(v: TensorValue) -> str:
    if v.is_block:
        return f"a {v.dtype} block of shape {list(v.shape)}"
    return f"a {v.dtype} scalar"


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


def call_at_compile_time(
    fn: Callable[..., Any], args: list[Any], kwargs: dict[str, Any], loc: SourceLocation | None
) -> Any:
    """Call a Python helper on compile-time values; its failure is the kernel's error."""
    try:
        return fn(*(unwrap_constexpr(a) for a in args), **kwargs)
    except Exception as e:
        name = getattr(fn, "__name__", repr(fn))
        raise KernelValueError(f"{name}() failed at compile time: {e}", loc) from None


_PY_BINOPS: dict[str, Callable[[Any, Any], Any]] = {
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "/": lambda a, b: a / b,
    "//": lambda a, b: a // b,
    "%": lambda a, b: a % b,
    "&": lambda a, b: a & b,
    "|": lambda a, b: a | b,
    "^": lambda a, b: a ^ b,
    "**": lambda a, b: a**b,
    "<<": lambda a, b: a << b,
    ">>": lambda a, b: a >> b,
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
}


def _py_minmax(which: str) -> Callable[..., Any]:
    def impl(gen: CodeGenerator, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
        if kwargs:
            gen.unsupported(node, f"keyword arguments to {which}()")
        if len(args) == 1 and isinstance(args[0], (tuple, list)):
            args = list(args[0])
        if not any(isinstance(a, TensorValue) for a in args):
            return getattr(py, which)(unwrap_constexpr(a) for a in args)
        acc = args[0]
        for a in args[1:]:
            acc = gen.sem.minmax("maximum" if which == "max" else "minimum", acc, a)
        return acc

    return impl


def _py_compile_time(fn: Callable[..., Any]) -> Callable[..., Any]:
    def impl(gen: CodeGenerator, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
        if any(isinstance(a, TensorValue) for a in [*args, *kwargs.values()]):
            if fn is float or fn is int or fn is bool:
                target = {float: core.float32, int: core.int32, bool: core.int1}[fn]  # type: ignore[index]
                if len(args) == 1 and not kwargs:
                    return gen.sem.cast(args[0], target)
            raise ConstexprError(
                f"{fn.__name__}() needs compile-time arguments inside a kernel", gen.loc(node)
            )
        return call_at_compile_time(fn, args, kwargs, gen.loc(node))

    return impl


def _py_abs(gen: CodeGenerator, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
    if len(args) == 1 and isinstance(args[0], TensorValue):
        return gen.sem.abs(args[0])
    return py.abs(unwrap_constexpr(args[0]))


def _py_print(
    gen: CodeGenerator, args: list[Any], kwargs: dict[str, Any], node: ast.AST
) -> NoReturn:
    gen.unsupported(node, "print()", "use tl.static_print for compile-time values")


_PY_BUILTINS: dict[Any, Callable[..., Any]] = {
    py.min: _py_minmax("min"),
    py.max: _py_minmax("max"),
    py.abs: _py_abs,
    py.print: _py_print,
    py.float: _py_compile_time(py.float),
    py.int: _py_compile_time(py.int),
    py.bool: _py_compile_time(py.bool),
    py.len: _py_compile_time(py.len),
    py.isinstance: _py_compile_time(py.isinstance),
    py.tuple: _py_compile_time(py.tuple),
    py.list: _py_compile_time(py.list),
    py.str: _py_compile_time(py.str),
    py.round: _py_compile_time(py.round),
    py.pow: _py_compile_time(py.pow),
    py.divmod: _py_compile_time(py.divmod),
    py.range: _py_compile_time(py.range),
    core.constexpr: _py_compile_time(core.constexpr),
}

_PURE_PY_FUNCTIONS = {
    math.log2,
    math.ceil,
    math.floor,
    math.sqrt,
    math.log,
    math.exp,
    math.gcd,
    math.isqrt,
}
