"""The state and error plumbing that every part of the code generator shares.

``CodeGenerator`` (codegen.py) is put together from one class per concern (``ControlFlowMixin``
in control_flow.py, ``CallMixin`` in calls.py, ``ExpressionMixin`` in expressions.py, ...: see
codegen.py); all derive from ``CodeGeneratorBase`` so that each module sees the same typed
attributes (source ``src``, builder ``b``, semantics ``sem``, builtins ``tl``, ``scope``) and
the same ``visit``/``loc``/``unsupported``, and stays small on its own.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from typing import Any, NoReturn

from mytriton.errors import CompilationError, SourceLocation, UnsupportedSyntaxError
from mytriton.frontend.builder import IRBuilder
from mytriton.frontend.builtins import Builtins
from mytriton.frontend.semantic import Semantic
from mytriton.frontend.source import KernelSource
from mytriton.frontend.values import TensorValue


class CodeGeneratorBase(ast.NodeVisitor):
    """One function body's compilation state, and the visit that reports any failure at the
    kernel's line (the kernel, or an inlined ``@jit`` callee: see ``CodeGenerator``)."""

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
        # why a name the kernel assigned is not defined here (one path of a runtime `if`...)
        self.not_defined_after: dict[str, str] = {}
        # the call that is a statement of its own, its result dropped (Triton's `_is_unused`)
        self.unused_call: ast.Call | None = None

    # ------------------------------------------------------------------ infrastructure

    def loc(self, node: ast.AST) -> SourceLocation | None:
        return self.src.location(node)

    def visit(self, node: ast.AST) -> Any:
        with self.b.located(self.loc(node)):
            try:
                return super().visit(node)
            except CompilationError:
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


def core_fn(name: str) -> Any:
    """The ``tl`` function ``name``: the object a kernel's ``tl.<name>(...)`` call resolves to."""
    import mytriton.language as tl

    return getattr(tl, name)


def describe(v: TensorValue) -> str:
    """A runtime value's type in words, for error messages."""
    if v.is_block:
        return f"a {v.dtype} block of shape {list(v.shape)}"
    return f"a {v.dtype} scalar"
