"""The AST visitor that turns a kernel's Python source into `tt` IR, never executing it.

One ``visit_<Node>`` method per supported node; every other node is rejected in ``generic_visit``
with its location. Runtime values are ``TensorValue``s; ``tl.constexpr`` parameters, literals,
globals and closure values stay Python values and are computed with at compile time.

By concern: names, assignments, statements, expressions, calls and the inlining of ``@jit``
callees live here; ``if``/``for``/``while`` in control_flow.py (``ControlFlowMixin``),
``break``/``continue``/``return`` in early_exit.py (``EarlyExitMixin``; the runtime loops they
leave in exiting_loops.py); what is evaluated
at compile time (globals, Python builtins, operators on constants) in compile_time.py; the
shared state and error plumbing in codegen_base.py.
"""

from __future__ import annotations

import ast
import builtins as py
import inspect
import math
from collections.abc import Callable
from types import ModuleType
from typing import Any, NoReturn

from xdsl.ir import Operation

from mytriton import knobs, utils
from mytriton.errors import (
    ConstexprError,
    KernelNameError,
    KernelTypeError,
    KernelValueError,
    UnsupportedSyntaxError,
    UnusedResultError,
)
from mytriton.frontend.block_pointers import BlockPointer, TensorDescriptor
from mytriton.frontend.codegen_base import CodeGeneratorBase, core_fn
from mytriton.frontend.compile_time import (
    PURE_PY_FUNCTIONS,
    PY_BINOPS,
    PY_BUILTINS,
    call_at_compile_time,
    call_constexpr_function,
    check_global,
    global_readable,
    is_dtype_api,
    is_hashable,
    is_jit_function,
    refuse_global,
)
from mytriton.frontend.control_flow import ControlFlowMixin
from mytriton.frontend.ir_names import value_name
from mytriton.frontend.library_errors import reported_at_call
from mytriton.frontend.source import KernelSource
from mytriton.frontend.values import BlockShape, BoundMethod, TensorValue, unwrap_constexpr
from mytriton.language import core
from mytriton.language import math as tl_math
from mytriton.language.constexpr_functions import ConstexprFunction
from mytriton.language.extra.cuda import libdevice

# (`ast.NodeVisitor` is named again so that linters see the `visit_<Node>` methods as a visitor's.)
# Triton's `tl.tensor` methods (3.6): `x.sum(axis=0)` is `tl.sum(x, axis=0)`
TENSOR_METHODS = frozenset(
    {
        "abs",
        "advance",
        "argmax",
        "argmin",
        "associative_scan",
        "atomic_add",
        "atomic_and",
        "atomic_cas",
        "atomic_max",
        "atomic_min",
        "atomic_or",
        "atomic_xchg",
        "atomic_xor",
        "broadcast_to",
        "cast",
        "cdiv",
        "ceil",
        "cos",
        "cumprod",
        "cumsum",
        "erf",
        "exp",
        "exp2",
        "expand_dims",
        "flip",
        "floor",
        "gather",
        "histogram",
        "item",
        "log",
        "log2",
        "logical_and",
        "logical_or",
        "max",
        "min",
        "permute",
        "ravel",
        "reduce",
        "reduce_or",
        "reshape",
        "rsqrt",
        "sigmoid",
        "sin",
        "softmax",
        "sort",
        "split",
        "sqrt",
        "sqrt_rn",
        "store",
        "sum",
        "to",
        "trans",
        "view",
        "xor_sum",
    }
)


def _is_constexpr_value(obj: Any) -> bool:
    """A compile-time value that Triton would hold in a ``tl.constexpr`` (and that has no
    ``value`` attribute of its own)."""
    kinds = (bool, int, float, str, type(None), core.dtype)
    return (isinstance(obj, kinds) or is_jit_function(obj)) and not hasattr(obj, "value")


def _has_tl_function(name: str) -> bool:
    import mytriton.language as tl

    return hasattr(tl, name)


class CodeGenerator(ControlFlowMixin, CodeGeneratorBase, ast.NodeVisitor):
    """Compiles one function body (the kernel, or an inlined ``@jit`` callee); ``if``/``for``
    come from ``ControlFlowMixin``, the state and ``visit`` from ``CodeGeneratorBase``."""

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

    def visit_Attribute(self, node: ast.Attribute) -> Any:
        return self.attribute(self.visit(node.value), node.attr, node, ast.unparse(node.value))

    def attribute(self, obj: Any, name: str, node: ast.AST, what: str) -> Any:
        """``obj.name`` in a kernel (``what`` spells ``obj`` for errors); a name it lacks is a
        ``KernelNameError``, which ``hasattr``/``getattr`` turn into False or the default."""
        if isinstance(obj, TensorValue):
            if name == "dtype":
                return obj.dtype
            if name == "shape":  # a list, as Triton's (``x.shape[:-1] + [2]``, ``== [2]``)
                return BlockShape(obj.shape)
            if name == "type":  # Triton's ``x.type``: the dtype, or a block_type for blocks
                return core.block_type(obj.dtype, list(obj.shape)) if obj.shape else obj.dtype
            if name == "numel":  # Triton's ``x.numel``: the element count, a constexpr
                return math.prod(obj.shape)
            if name == "T":  # Triton's ``x.T``: ``tl.trans(x)``
                return self.call(core_fn("trans"), [obj], {}, node)  # type: ignore[arg-type]
            if name in ("logical_and", "logical_or"):  # methods only, no `tl` function
                return BoundMethod(obj, name, getattr(core, f"tensor_{name}"))
            if name in TENSOR_METHODS:
                if name != "to" and not _has_tl_function(name):
                    raise UnsupportedSyntaxError(
                        f"`x.{name}(...)` (tl.{name}) is not supported yet", self.loc(node)
                    )
                return BoundMethod(obj, name)
            raise KernelNameError(f"a block has no attribute `{name}` here", self.loc(node))
        if isinstance(obj, (BlockPointer, TensorDescriptor)):
            found = obj.attribute(name)
            if found is None:
                raise KernelNameError(
                    f"{obj.describe()} has no attribute `{name}` here", self.loc(node)
                )
            return found
        if name == "value" and _is_constexpr_value(obj):
            # Triton hands a helper its compile-time arguments (and a kernel its constexpr
            # parameters) as ``tl.constexpr``s: ``dtype.value.is_floating()``; ours are the
            # values themselves
            return obj
        if isinstance(obj, (ModuleType, core.dtype, type)):
            if not hasattr(obj, name):
                if obj is tl_math and hasattr(libdevice, name):
                    raise KernelNameError(
                        f"`tl.math` has no attribute `{name}` (as in Triton 3.6); it is "
                        f"`tl.extra.libdevice.{name}` (triton.language.extra.libdevice)",
                        self.loc(node),
                    )
                raise KernelNameError(f"`{what}` has no attribute `{name}`", self.loc(node))
            return check_global(name, getattr(obj, name), self.loc(node))
        if name == "type" and (
            obj is None or isinstance(obj, (core.constexpr, int, float, str, tuple))
        ):  # a compile-time value's type (Triton's ``constexpr(v).type``)
            return core.constexpr_type(obj)
        if isinstance(obj, core.constexpr):
            if not hasattr(obj.value, name):
                raise KernelNameError(f"`{what}` has no attribute `{name}`", self.loc(node))
            return getattr(obj.value, name)
        if isinstance(obj, tuple) and name in ("index", "count"):
            return getattr(obj, name)
        if isinstance(obj, tuple) and name in getattr(type(obj), "_fields", ()):
            return getattr(obj, name)  # a NamedTuple's field (Triton passes and builds them)
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
        if isinstance(fn, BoundMethod):  # `x.sum(0)` is `tl.sum(x, 0)`, `x.to(d)` `tl.cast(x, d)`
            target = fn.function or core_fn("cast" if fn.name == "to" else fn.name)
            return self.call(target, [fn.receiver, *args], kwargs, node)
        self.check_result_used(fn, node)
        name = core.BUILTINS.get(fn) if is_hashable(fn) else None
        if name is not None:
            return self.call_builtin(name, fn, args, kwargs, node)
        if is_jit_function(fn):
            self.check_noinline_arguments(fn, args, node)
            return self.inline(fn, args, kwargs, node)
        if fn is py.hasattr or fn is py.getattr:
            return self.python_getattr(fn, args, kwargs, node)
        if is_hashable(fn) and fn in PY_BUILTINS:
            return PY_BUILTINS[fn](self, args, kwargs, node)
        if isinstance(fn, ConstexprFunction):
            return call_constexpr_function(fn, args, kwargs, self.loc(node))
        if fn is core._unwrap_if_constexpr:  # Triton's helper: any value, constexprs unwrapped
            if len(args) != 1 or kwargs:
                raise KernelTypeError("_unwrap_if_constexpr takes one argument", self.loc(node))
            return core._unwrap_if_constexpr(args[0])
        if fn is utils.cdiv:
            return self.call_builtin("cdiv", core_fn("cdiv"), args, kwargs, node)
        if fn is utils.next_power_of_2 or (is_hashable(fn) and fn in PURE_PY_FUNCTIONS):
            if any(isinstance(a, TensorValue) for a in [*args, *kwargs.values()]):
                raise ConstexprError(
                    f"{getattr(fn, '__name__', fn)} needs compile-time arguments", self.loc(node)
                )
            return call_at_compile_time(fn, args, kwargs, self.loc(node))
        if is_dtype_api(fn) or fn is core.constexpr_type:
            return call_at_compile_time(fn, args, kwargs, self.loc(node))
        if isinstance(fn, type) and issubclass(fn, tuple) and hasattr(fn, "_fields"):
            try:  # a NamedTuple of the kernel's values (Triton builds them in kernels)
                return fn(*args, **kwargs)
            except TypeError as e:
                raise KernelTypeError(f"{fn.__name__}(...): {e}", self.loc(node)) from None
        if isinstance(fn, core.dtype):
            self.unsupported(node, f"calling dtype {fn}", "use x.to(dtype)")
        fname = getattr(fn, "__qualname__", None) or getattr(fn, "__name__", None) or repr(fn)
        raise KernelNameError(
            f"cannot call `{fname}` inside a kernel; only tl builtins, @jit functions and "
            "compile-time helpers are callable",
            self.loc(node),
        )

    def check_noinline_arguments(self, fn: Any, args: list[Any], node: ast.Call) -> None:
        """Triton's rule for ``@jit(noinline=True)`` functions, compiled as real calls there:
        no block argument (of more than one element) in a positional place. Its interpreter
        (``TRITON_INTERPRET=1``) has no such rule, and neither has ours then."""
        if not getattr(fn, "noinline", False) or knobs.runtime.interpret:
            return
        names = list(inspect.signature(fn.fn).parameters)
        for i, arg in enumerate(args):
            if isinstance(arg, TensorValue) and arg.is_block and math.prod(arg.shape) != 1:
                name = names[i] if i < len(names) else f"#{i}"
                raise UnsupportedSyntaxError(
                    f"Function {fn.fn.__name__} is marked noinline, but was called with "
                    f"non-scalar argument {name}:{arg.dtype}{list(arg.shape)} (pass blocks to "
                    "a function without noinline, which is inlined)",
                    self.loc(node),
                )

    def check_result_used(self, fn: Any, node: ast.Call) -> None:
        """Triton's rule: a ``must_use_result`` function called as a statement is an error."""
        words = getattr(fn, "_must_use_result", False)
        if not words or node is not self.unused_call:
            return
        message = f"The result of {ast.unparse(node.func)} is not being used."
        if isinstance(words, str):
            message += " " + words
        raise UnusedResultError(message, self.loc(node))

    def python_getattr(
        self, fn: Any, args: list[Any], kwargs: dict[str, Any], node: ast.Call
    ) -> Any:
        """``hasattr(x, "dtype")``, ``getattr(x, "dtype"[, default])``: what ``x.dtype`` would
        give in the kernel, decided while compiling (as in Triton, where they are the Python
        builtins on its values)."""
        most = 2 if fn is py.hasattr else 3
        if kwargs or not 2 <= len(args) <= most:
            raise KernelTypeError(
                f"{fn.__name__}() takes an object and an attribute name"
                + (", and an optional default" if most == 3 else ""),
                self.loc(node),
            )
        name = unwrap_constexpr(args[1])
        if not isinstance(name, str):
            raise KernelTypeError(
                f"{fn.__name__}(): the attribute name must be a compile-time string, got {name!r}",
                self.loc(node),
            )
        what = ast.unparse(node.args[0]) if node.args else "the object"
        try:
            found = self.attribute(args[0], name, node, what)
        except KernelNameError:
            if fn is py.hasattr:
                return False
            if len(args) == 3:
                return args[2]
            raise
        return True if fn is py.hasattr else found

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
            raise KernelTypeError(f"tl.{name}: {e}", self.loc(node)) from e.with_traceback(None)
        bound.apply_defaults()
        # tl.reduce & co. call their combine_fn (@jit, or a tl builtin) into the op's region
        self.tl.call_jit = lambda fn, fn_args: self.call(fn, fn_args, {}, node)  # type: ignore[arg-type]
        impl = getattr(self.tl, name)
        return impl(*bound.args, **bound.kwargs)

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
