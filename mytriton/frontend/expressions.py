"""The expressions of ``CodeGenerator`` that are neither operators, attributes nor calls:
constants, names, tuples and lists, comprehensions over tuples, subscripts (a block's ``None``
and ``:`` indices; a compile-time value's any), slices, conditional expressions and f-strings."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from mytriton.errors import KernelValueError, UnsupportedSyntaxError
from mytriton.frontend.codegen_base import CodeGeneratorBase
from mytriton.frontend.values import TensorValue, unwrap_constexpr


# (`ast.NodeVisitor` is named again so that linters see the `visit_<Node>` methods as a visitor's.)
class ExpressionMixin(CodeGeneratorBase, ast.NodeVisitor):
    """Literals, names, containers, subscripts and the other plain expressions."""

    if TYPE_CHECKING:  # CodeGenerator's names, ControlFlowMixin's runtime `x if c else y`

        def lookup(self, name: str, node: ast.AST) -> Any: ...

        def assign(self, target: ast.expr, value: Any, source: Any = None) -> None: ...

        def runtime_ifexp(self, node: ast.IfExp, cond: TensorValue) -> TensorValue | None: ...

    def visit_Constant(self, node: ast.Constant) -> Any:
        return node.value

    def visit_Name(self, node: ast.Name) -> Any:
        return self.lookup(node.id, node)

    def visit_Tuple(self, node: ast.Tuple) -> tuple[Any, ...]:
        return tuple(self.visit(e) for e in node.elts)

    def visit_List(self, node: ast.List) -> list[Any]:
        return [self.visit(e) for e in node.elts]

    def visit_ListComp(self, node: ast.ListComp) -> tuple[Any, ...]:
        """``[f(v) for v in t]`` over a tuple: the tuple of ``f`` of each element, unrolled
        while compiling (Triton's rule: one ``for``, over a tuple). ``v`` is local to the
        comprehension, as in Python."""
        if len(node.generators) != 1:
            self.unsupported(node, "a comprehension with several `for`s")
        comp = node.generators[0]
        if comp.ifs or comp.is_async:
            self.unsupported(node, "`if` or `async` in a comprehension")
        items = unwrap_constexpr(self.visit(comp.iter))
        if not isinstance(items, (tuple, list)):
            what = "a block" if isinstance(items, TensorValue) else type(items).__name__
            self.unsupported(
                comp.iter,
                f"a comprehension over {what}",
                "only tuples can be iterated in a comprehension (tl.static_range in a loop "
                "otherwise)",
            )
        names = [n.id for n in ast.walk(comp.target) if isinstance(n, ast.Name)]
        saved = {n: self.scope[n] for n in names if n in self.scope}
        results = []
        try:
            for item in items:
                self.assign(comp.target, item)
                results.append(self.visit(node.elt))
        finally:
            for n in names:
                self.scope.pop(n, None)
            self.scope.update(saved)
        return tuple(results)

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
            raise KernelValueError(f"cannot index: {e}", self.loc(node)) from e.with_traceback(None)

    def index_block(self, value: TensorValue, node: ast.Subscript) -> TensorValue:
        """``x[None, :]``, as in Triton: the i-th index, if None (or a compile-time value
        holding None), inserts a dimension of size 1 at position i; a slice whose bounds and
        step are all None (``:``, ``None:``, ``::None``...) keeps one; anything else is an
        error. A scalar's first None makes it a one-element block whatever its position."""
        items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        result = value
        for dim, item in enumerate(items):
            if isinstance(item, ast.Slice):
                bounds = (item.lower, item.upper, item.step)
                if all(b is None or self._is_none(self.visit(b)) for b in bounds):
                    continue
            elif self._is_none(self.visit(item)):
                result = self.sem.expand_dims(result, dim if result.is_block else 0)
                continue
            raise UnsupportedSyntaxError(
                f"unsupported tensor index: `{ast.unparse(item)}` (a block's indices are `None` "
                "and `:`, as in Triton)",
                self.loc(node),
            )
        # Triton counts no dimensions here: a `:` past the last one is accepted and does
        # nothing (`z_ptr[None, None, :]` on a scalar pointer is a [1, 1] block).
        return result

    @staticmethod
    def _is_none(v: Any) -> bool:
        return not isinstance(v, TensorValue) and unwrap_constexpr(v) is None

    def visit_Slice(self, node: ast.Slice) -> slice:
        lo = self.visit(node.lower) if node.lower else None
        hi = self.visit(node.upper) if node.upper else None
        st = self.visit(node.step) if node.step else None
        return slice(lo, hi, st)

    def visit_IfExp(self, node: ast.IfExp) -> Any:
        cond = self.visit(node.test)
        if isinstance(cond, TensorValue):
            return self.runtime_ifexp(node, cond)
        return self.visit(node.body if cond else node.orelse)

    def visit_JoinedStr(self, node: ast.JoinedStr) -> str:
        parts = []
        for v in node.values:
            if isinstance(v, ast.Constant):
                parts.append(str(v.value))
            elif isinstance(v, ast.FormattedValue):
                x = self.visit(v.value)
                if isinstance(x, TensorValue):
                    # at the f-string: Python 3.12 locates its parts, 3.11 does not
                    self.unsupported(node, "formatting a runtime value")
                parts.append(format(x, self.visit(v.format_spec) if v.format_spec else ""))
        return "".join(parts)
