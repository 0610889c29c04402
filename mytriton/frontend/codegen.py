"""The AST visitor that turns a kernel's Python source into `tt` IR, never executing it.

One ``visit_<Node>`` method per supported node; every other node is rejected in ``generic_visit``
with its location. Runtime values are ``TensorValue``s; ``tl.constexpr`` parameters, literals,
globals and closure values stay Python values and are computed with at compile time.

By concern: names, assignments, statements and the inlining of ``@jit`` callees live here;
expressions in expressions.py (``ExpressionMixin``), operators in operators.py
(``OperatorMixin``), attributes in attributes.py (``AttributeMixin``), calls in calls.py
(``CallMixin``); ``if``/``for``/``while`` in control_flow.py (``ControlFlowMixin``),
``break``/``continue``/``return`` in early_exit.py (``EarlyExitMixin``; the runtime loops they
leave in exiting_loops.py); what is evaluated
at compile time (globals, Python builtins, operators on constants) in compile_time.py; the
shared state and error plumbing in codegen_base.py.
"""

from __future__ import annotations

import ast
import builtins as py
import inspect
from typing import Any, NoReturn

from xdsl.ir import Operation

from mytriton.errors import (
    ConstexprError,
    KernelNameError,
    KernelTypeError,
    KernelValueError,
    UnsupportedSyntaxError,
)
from mytriton.frontend.attributes import AttributeMixin
from mytriton.frontend.calls import CallMixin
from mytriton.frontend.codegen_base import CodeGeneratorBase
from mytriton.frontend.compile_time import check_global, global_readable, refuse_global
from mytriton.frontend.control_flow import ControlFlowMixin
from mytriton.frontend.expressions import ExpressionMixin
from mytriton.frontend.ir_names import value_name
from mytriton.frontend.library_errors import reported_at_call
from mytriton.frontend.operators import OperatorMixin
from mytriton.frontend.source import KernelSource
from mytriton.frontend.values import TensorValue
from mytriton.language import core


# (`ast.NodeVisitor` is named again so that linters see the `visit_<Node>` methods as a visitor's.)
class CodeGenerator(
    ControlFlowMixin,
    CallMixin,
    AttributeMixin,
    OperatorMixin,
    ExpressionMixin,
    CodeGeneratorBase,
    ast.NodeVisitor,
):
    """Compiles one function body (the kernel, or an inlined ``@jit`` callee): names,
    assignments, statements and the inlining of ``@jit`` callees here; ``if``/``for`` come from
    ``ControlFlowMixin``, calls from ``CallMixin``, attributes from ``AttributeMixin``,
    operators from ``OperatorMixin``, the other expressions from ``ExpressionMixin``, the state
    and ``visit`` from ``CodeGeneratorBase``."""

    # ------------------------------------------------------------------ names

    def lookup(self, name: str, node: ast.AST) -> Any:
        if name in self.scope:
            return self.scope[name]
        if name in self.not_defined_after:  # a local of the kernel, unbound here
            raise KernelNameError(self.not_defined_after[name], self.loc(node))
        found, value = self.src.resolve_global(name)
        if not found:
            if hasattr(py, name):
                return getattr(py, name)
            raise KernelNameError(f"name `{name}` is not defined", self.loc(node))
        if not global_readable(name, value):
            raise refuse_global(name, self.loc(node))
        return check_global(name, value, self.loc(node))

    def assign(self, target: ast.expr, value: Any, source: Any = None) -> None:
        """Bind ``target``; a fresh tensor takes the name as its IR name, unless it is a
        number of ``source`` (the value before ``assigned``) made a tensor: that constant stays
        unnamed, as when a number is used in an expression."""
        name = source is None or value is source
        if isinstance(target, ast.Name):
            named = isinstance(value, TensorValue) and value.handle.name_hint is not None
            if (
                name
                and isinstance(value, TensorValue)
                and not named
                and isinstance(value.handle.owner, Operation)
            ):
                value.handle.name_hint = value_name(target.id)  # readable: %offsets, %mask...
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
            sources = source if isinstance(source, tuple) else (None,) * len(value)
            for t, v, src in zip(target.elts, value, sources, strict=True):
                self.assign(t, v, src)
        else:
            self.unsupported(target, f"assignment to `{ast.unparse(target)}`", "assign to a name")

    # ------------------------------------------------------------------ statements

    def visit_Expr(self, node: ast.Expr) -> None:
        if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            return  # docstring
        if isinstance(node.value, ast.Call):
            self.unused_call = node.value
        self.visit(node.value)

    def visit_Pass(self, node: ast.Pass) -> None:
        return None

    def visit_Assign(self, node: ast.Assign) -> None:
        value = self.visit(node.value)
        assigned = self.assigned(value)
        for t in node.targets:
            self.assign(t, assigned, value)

    def assigned(self, value: Any) -> Any:
        """Triton's rule for a value assigned to a name not annotated ``tl.constexpr``: a
        Python number (or a constexpr holding one) becomes a scalar tensor; tuples are taken
        element by element; anything else (tensors, dtypes, ``None``, functions) is kept."""
        if isinstance(value, tuple):
            converted = [self.assigned(v) for v in value]
            if all(a is b for a, b in zip(converted, value, strict=True)):
                return value
            # a NamedTuple stays one (its fields are read by name)
            return type(value)(*converted) if hasattr(value, "_fields") else tuple(converted)
        v = value.value if isinstance(value, core.constexpr) else value
        if isinstance(v, (bool, int, float)):
            return self.sem.to_tensor(v)
        return value

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
        assigned = value if ann is core.constexpr else self.assigned(value)
        self.assign(node.target, assigned, value)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        if not isinstance(node.target, ast.Name):
            self.unsupported(node, f"augmented assignment to `{ast.unparse(node.target)}`")
        current = self.lookup(node.target.id, node.target)
        value = self.binary(node.op, current, self.visit(node.value), node)
        self.assign(node.target, self.assigned(value), value)

    def visit_Assert(self, node: ast.Assert) -> None:
        cond = self.visit(node.test)
        if isinstance(cond, TensorValue):  # Triton's rule: a runtime `assert` is device_assert
            msg = self.visit(node.msg) if node.msg is not None else ""
            self.tl.device_assert(cond, msg)
            return
        if not cond:
            msg = self.visit(node.msg) if node.msg is not None else ""
            raise KernelValueError(
                f"assertion failed: {msg}" if msg else "assertion failed", self.loc(node)
            )

    def visit_FunctionDef(self, node: ast.FunctionDef) -> NoReturn:
        self.unsupported(
            node, "a nested function definition", "define it at module level with @jit"
        )

    # ------------------------------------------------------------------ expressions

    # ---- operators ----

    # ---- calls ----

    def inline(self, fn: Any, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
        """Compile a call of a ``@jit`` function into the caller, returning what its body
        returns. ``@jit(noinline=True)`` functions are inlined too: Triton keeps them as a
        ``tt.call`` for code size only, the result is the same, and inlining spares every
        backend (and gpusim, the interpreter) calls, stacks and ABI questions."""
        source = KernelSource.of(fn.fn)
        if source.qualname in self.call_stack:
            raise UnsupportedSyntaxError(
                f"recursive call of @jit function `{source.qualname}`", self.loc(node)
            )
        try:
            bound = inspect.signature(fn.fn).bind(*args, **kwargs)
        except TypeError as e:
            raise KernelTypeError(
                f"calling `{source.qualname}`: {e}", self.loc(node)
            ) from e.with_traceback(None)
        bound.apply_defaults()
        scope: dict[str, Any] = {}
        # A parameter annotated tl.constexpr that gets a block or runtime scalar takes it as an
        # ordinary argument, as in Triton 3.6 (its fused-attention tutorial passes `offs_m`)
        for pname, value in bound.arguments.items():
            scope[pname] = value
        callee = CodeGenerator(source, self.b, scope, self.call_stack)
        with reported_at_call(self.src.file, self.loc(node), source.file, source.qualname):
            return callee.compile_body(source.function_def().body)
