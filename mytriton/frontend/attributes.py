"""Attributes in a kernel (``CodeGenerator.attribute``): a block's ``dtype``/``shape``/``T`` and
its methods (``x.sum(0)`` is ``tl.sum(x, 0)``: ``TENSOR_METHODS``), a block pointer's or
descriptor's fields, modules' and dtypes' names, a compile-time value's; and ``hasattr``/
``getattr``, which ask the same question while compiling."""

from __future__ import annotations

import ast
import builtins as py
import math
from types import ModuleType
from typing import TYPE_CHECKING, Any

from mytriton.errors import KernelNameError, KernelTypeError, UnsupportedSyntaxError
from mytriton.frontend.block_pointer_values import BlockPointer, TensorDescriptor
from mytriton.frontend.codegen_base import CodeGeneratorBase, core_fn
from mytriton.frontend.compile_time import check_global, is_jit_function
from mytriton.frontend.values import BlockShape, BoundMethod, TensorValue, unwrap_constexpr
from mytriton.language import core
from mytriton.language import math as tl_math
from mytriton.language.extra.cuda import libdevice

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


# (`ast.NodeVisitor` is named again so that linters see the `visit_<Node>` methods as a visitor's.)
class AttributeMixin(CodeGeneratorBase, ast.NodeVisitor):
    """``obj.name``, ``hasattr(obj, name)`` and ``getattr(obj, name[, default])``."""

    if TYPE_CHECKING:  # CallMixin's (``x.T`` is ``tl.trans(x)``)

        def call(self, fn: Any, args: list[Any], kwargs: dict[str, Any], node: ast.Call) -> Any: ...

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
