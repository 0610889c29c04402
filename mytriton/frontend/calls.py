"""Calls in a kernel (``CodeGenerator.call``): a ``tl`` builtin (its arguments bound against the
signature ``mytriton.language`` declares, then ``Builtins``' method), a ``@jit`` function
(inlined: ``CodeGenerator.inline``), a method of a block, a compile-time helper or Python
builtin, a ``NamedTuple``; and Triton's rules on them (``must_use_result``, ``noinline``)."""

from __future__ import annotations

import ast
import builtins as py
import inspect
import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from mytriton import knobs, utils
from mytriton.errors import (
    ConstexprError,
    KernelNameError,
    KernelTypeError,
    UnsupportedSyntaxError,
    UnusedResultError,
)
from mytriton.frontend.codegen_base import CodeGeneratorBase, core_fn
from mytriton.frontend.compile_time import (
    PURE_PY_FUNCTIONS,
    PY_BUILTINS,
    call_at_compile_time,
    call_constexpr_function,
    call_triton_builtin,
    is_dtype_api,
    is_hashable,
    is_jit_function,
)
from mytriton.frontend.values import BoundMethod, TensorValue
from mytriton.language import core
from mytriton.language.constexpr_functions import ConstexprFunction


# (`ast.NodeVisitor` is named again so that linters see the `visit_<Node>` methods as a visitor's.)
class CallMixin(CodeGeneratorBase, ast.NodeVisitor):
    """``f(...)`` in a kernel, dispatched on what ``f`` is."""

    if TYPE_CHECKING:  # CodeGenerator's inlining, AttributeMixin's hasattr/getattr

        def inline(
            self, fn: Any, args: list[Any], kwargs: dict[str, Any], node: ast.AST
        ) -> Any: ...

        def python_getattr(
            self, fn: Any, args: list[Any], kwargs: dict[str, Any], node: ast.Call
        ) -> Any: ...

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
        if getattr(fn, "__triton_builtin__", False) is True:
            return call_triton_builtin(fn, args, kwargs, self.loc(node))
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
