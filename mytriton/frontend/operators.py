"""The operators of ``CodeGenerator``: binary and unary operators, comparisons and ``and``/
``or``, computed while compiling on compile-time values (Python's rules) and as ``Semantic``'s
ops on runtime ones (Triton's)."""

from __future__ import annotations

import ast
from typing import Any

from mytriton.errors import KernelValueError
from mytriton.frontend.codegen_base import CodeGeneratorBase
from mytriton.frontend.compile_time import PY_BINOPS
from mytriton.frontend.values import TensorValue, unwrap_constexpr


# (`ast.NodeVisitor` is named again so that linters see the `visit_<Node>` methods as a visitor's.)
class OperatorMixin(CodeGeneratorBase, ast.NodeVisitor):
    """``a + b``, ``-a``, ``a < b``, ``a and b`` and the other operators."""

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
                return PY_BINOPS[sym](unwrap_constexpr(a), unwrap_constexpr(b))
            except KeyError:
                self.unsupported(node, f"operator `{sym}`")
            except Exception as e:
                raise KernelValueError(
                    f"cannot compute {a!r} {sym} {b!r}: {e}", self.loc(node)
                ) from e.with_traceback(None)
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
        if sym in ("<<", ">>"):
            return self.sem.shift(sym, a, b)
        self.unsupported(node, f"operator `{sym}` on runtime values")

    def visit_BinOp(self, node: ast.BinOp) -> Any:
        return self.binary(node.op, self.visit(node.left), self.visit(node.right), node)

    def visit_UnaryOp(self, node: ast.UnaryOp) -> Any:
        v = self.visit(node.operand)
        if isinstance(node.op, ast.Not) and self.is_kernel_tuple(node.operand, v):
            self.unsupported(node, "`not` of a tuple", "write `len(t) == 0`")
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
                ) from e.with_traceback(None)
        if isinstance(node.op, ast.UAdd):
            return v
        if isinstance(node.op, ast.USub):
            return self.sem.neg(v)
        if isinstance(node.op, ast.Invert):
            return self.sem.invert(v)
        return self.sem.logical_not(v)

    @staticmethod
    def is_kernel_tuple(node: ast.expr, value: Any) -> bool:
        """Whether ``value`` is a tuple the kernel built (a literal, or one holding runtime
        values): Triton's ``tl.tuple``, which has no truth value; a constexpr tuple (a
        parameter's) is plain Python to Triton and to us."""
        if isinstance(node, (ast.Tuple, ast.List)):
            return True
        return isinstance(value, (tuple, list)) and any(
            isinstance(unwrap_constexpr(e), TensorValue) for e in value
        )

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
                return PY_BINOPS[sym](unwrap_constexpr(a), unwrap_constexpr(b))
            except Exception as e:
                raise KernelValueError(
                    f"cannot compute {a!r} {sym} {b!r}: {e}", self.loc(node)
                ) from e.with_traceback(None)
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
