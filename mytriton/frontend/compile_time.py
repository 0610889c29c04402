"""Compile-time evaluation: the Python values a kernel computes with while it is compiled.

``tl.constexpr`` parameters, literals, globals and closure values stay Python values. This module
says which globals qualify, evaluates operators and helper functions on them, and holds the
Python builtins a kernel may call (``range``, ``len``, ``min`` ...), the few that also take
runtime values (``min``/``max``, ``abs``, ``float``/``int``/``bool``) emitting `tt` ops instead.
One place for the rule "known while compiling" that ``CodeGenerator`` applies everywhere.
"""

from __future__ import annotations

import ast
import builtins as py
import math
import types
from collections.abc import Callable
from types import ModuleType
from typing import Any

from mytriton.errors import (
    ConstexprError,
    KernelNameError,
    KernelTypeError,
    KernelValueError,
    SourceLocation,
)
from mytriton.frontend.codegen_base import CodeGeneratorBase
from mytriton.frontend.values import CompositeValue, TensorValue, unwrap_constexpr
from mytriton.language import core
from mytriton.language.constexpr_functions import ConstexprFunction
from mytriton.language.tuple_type import tuple as tl_tuple

_COMPILE_TIME_TYPES = (
    bool,
    int,
    float,
    str,
    type(None),
    core.dtype,
    core.constexpr,
    core.PropagateNan,
    core.dtype.KIND,
    core.dtype.SIGNEDNESS,
)


def is_jit_function(obj: Any) -> bool:
    """Whether ``obj`` is a ``@jit`` function (inlined when a kernel calls it)."""
    return getattr(obj, "is_mytriton_jit", False) is True


_LANGUAGE_MODULES = ("mytriton.language", "triton.language")


def global_readable(name: str, value: Any) -> bool:
    """Triton 3.6's rule for a global or closure variable a kernel reads by name: only
    compile-time objects by construction (``tl.constexpr(...)`` values, modules, ``@jit`` and
    constexpr functions, functions marked ``__triton_builtin__``, dtypes, the language's own
    objects, NamedTuple classes, Python's builtin names); a plain global (``N = 42``, even
    annotated ``N: tl.constexpr = 42``) is refused, as it could change between launches unseen,
    unless
    ``TRITON_ALLOW_NON_CONSTEXPR_GLOBALS=1`` (``knobs.compilation.allow_non_constexpr_globals``).
    """
    from mytriton import knobs, utils

    module = getattr(value, "__module__", None)
    return (
        hasattr(py, name)
        or isinstance(value, (ModuleType, core.constexpr, core.dtype, ConstexprFunction))
        or is_jit_function(value)
        or getattr(value, "__triton_builtin__", False) is True  # call_triton_builtin's
        or value is utils.cdiv  # constexpr functions in Triton
        or value is utils.next_power_of_2
        or (isinstance(module, str) and module.startswith(_LANGUAGE_MODULES))
        or (isinstance(value, type) and issubclass(value, tuple) and hasattr(value, "_fields"))
        or bool(knobs.compilation.allow_non_constexpr_globals)
    )


def refuse_global(name: str, loc: SourceLocation | None) -> KernelNameError:
    """The error for a global that ``global_readable`` refuses (Triton's first words, which
    code written for Triton looks for)."""
    return KernelNameError(
        f"Cannot access global variable {name} from within @jit'ed function: kernels read "
        f"only globals made with tl.constexpr(...) (`{name} = tl.constexpr(value)`; an "
        f"annotation `{name}: tl.constexpr = value` is not enough), modules, @jit functions "
        "and dtypes. TRITON_ALLOW_NON_CONSTEXPR_GLOBALS=1 lifts the rule (Triton may drop it).",
        loc,
    )


def check_global(name: str, value: Any, loc: SourceLocation | None) -> Any:
    """A global (or module attribute) the kernel uses, if it is a compile-time value; a
    function decorated ``@tl.constexpr`` is a constexpr function (Triton calls it at compile
    time)."""
    if isinstance(value, core.constexpr) and isinstance(value.value, types.FunctionType):
        return ConstexprFunction(value.value)
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
            loc,
        )
    return value


_DTYPE_CLASSES = (core.dtype, core.pointer_type, core.block_type)


def is_dtype_api(fn: Any) -> bool:
    """Whether ``fn`` is a dtype constructor (``tl.pointer_type``) or a dtype's method
    (``x.dtype.is_floating``, ``x.dtype.kind``): kernels call these while compiling, as Triton's
    do."""
    if any(fn is c for c in _DTYPE_CLASSES):
        return True
    if isinstance(fn, core.DtypeKind) or isinstance(getattr(fn, "__self__", None), core.dtype):
        return True
    name = getattr(fn, "__name__", None)  # a static method, or a method taken from the class
    return isinstance(name, str) and any(getattr(c, name, None) is fn for c in _DTYPE_CLASSES)


def is_hashable(x: Any) -> bool:
    """Whether ``x`` can be looked up in a table of known callables (a callee may be any object)."""
    try:
        hash(x)
    except TypeError:
        return False
    return True


def call_at_compile_time(
    fn: Callable[..., Any], args: list[Any], kwargs: dict[str, Any], loc: SourceLocation | None
) -> Any:
    """Call a Python helper on compile-time values; its failure is the kernel's error."""
    try:
        return fn(*(unwrap_constexpr(a) for a in args), **kwargs)
    except Exception as e:
        name = getattr(fn, "__name__", repr(fn))
        raise KernelValueError(f"{name}() failed at compile time: {e}", loc) from e


def call_constexpr_function(
    fn: ConstexprFunction, args: list[Any], kwargs: dict[str, Any], loc: SourceLocation | None
) -> Any:
    """Run a constexpr function while compiling: every argument must be a compile-time value
    (``x.dtype``, ``ptr.type.element_ty`` are; a block is not)."""
    name = getattr(fn, "__name__", repr(fn))
    for what, a in [*((f"argument {i + 1}", a) for i, a in enumerate(args)), *kwargs.items()]:
        if not _compile_time_argument(a):
            got = "a runtime value" if isinstance(a, TensorValue) else type(a).__name__
            raise ConstexprError(
                f"constexpr function `{name}` needs compile-time arguments; {what} is {got}",
                loc,
            )
    return call_at_compile_time(fn, args, kwargs, loc)


def call_triton_builtin(
    fn: Callable[..., Any], args: list[Any], kwargs: dict[str, Any], loc: SourceLocation | None
) -> Any:
    """Call a function marked ``__triton_builtin__`` (TorchInductor's ``triton_helpers``:
    ``constexpr_next_power_of_2``, ``if_mask``) as Triton calls its builtins while compiling:
    compile-time arguments as ``constexpr``, blocks as they are; a ``constexpr`` result is its
    value. Such a function may only compute with them: mytriton has no IR builder to pass it
    (Triton's ``_builder``/``_semantic`` stays None)."""

    def wrap(a: Any) -> Any:
        if isinstance(a, (TensorValue, CompositeValue, core.constexpr)):
            return a
        return core.constexpr(a)

    try:
        result = fn(*(wrap(a) for a in args), **{k: wrap(v) for k, v in kwargs.items()})
    except Exception as e:
        name = getattr(fn, "__name__", repr(fn))
        raise KernelValueError(f"{name}() failed at compile time: {e}", loc) from e
    return unwrap_constexpr(result)


def _compile_time_argument(a: Any) -> bool:
    if isinstance(a, (tuple, list)):
        return all(_compile_time_argument(x) for x in a)
    return not isinstance(a, (TensorValue, CompositeValue))


PY_BINOPS: dict[str, Callable[[Any, Any], Any]] = {
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
    def impl(gen: CodeGeneratorBase, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
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
    def impl(gen: CodeGeneratorBase, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
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


def _py_isinstance(
    gen: CodeGeneratorBase, args: list[Any], kwargs: dict[str, Any], node: ast.AST
) -> bool:
    """The type of a runtime value is known while compiling: ``isinstance(x, tl.tensor)``."""
    return bool(call_at_compile_time(py.isinstance, args, kwargs, gen.loc(node)))


def _py_abs(gen: CodeGeneratorBase, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
    if len(args) == 1 and isinstance(args[0], TensorValue):
        return gen.sem.abs(args[0])
    return py.abs(unwrap_constexpr(args[0]))


def _py_print(
    gen: CodeGeneratorBase, args: list[Any], kwargs: dict[str, Any], node: ast.AST
) -> None:
    """Triton's rule: ``print`` in a kernel is ``tl.device_print`` (prefix first)."""
    if not args:
        gen.unsupported(node, "print() without arguments", "give a prefix string")
    as_hex = kwargs.pop("hex", False)
    if kwargs:
        gen.unsupported(node, f"print() with {', '.join(kwargs)}=", "use tl.device_print")
    gen.tl.device_print(args[0], *args[1:], hex=as_hex)


def _tl_tuple(
    gen: CodeGeneratorBase, args: list[Any], kwargs: dict[str, Any], node: ast.AST
) -> tuple[Any, ...]:
    """``tl.tuple(iterable)``: the frontend's tuple of its elements (runtime values too)."""
    if kwargs or len(args) > 1:
        gen.unsupported(node, "tl.tuple with more than one argument", "pass one iterable")
    items = unwrap_constexpr(args[0]) if args else ()
    if not isinstance(items, (py.tuple, py.list)):
        raise KernelTypeError(
            f"tl.tuple takes a tuple or list, got {type(items).__name__}", gen.loc(node)
        )
    return py.tuple(items)


PY_BUILTINS: dict[Any, Callable[..., Any]] = {
    py.min: _py_minmax("min"),
    py.max: _py_minmax("max"),
    py.abs: _py_abs,
    py.print: _py_print,
    py.float: _py_compile_time(py.float),
    py.int: _py_compile_time(py.int),
    py.bool: _py_compile_time(py.bool),
    py.len: _py_compile_time(py.len),
    py.isinstance: _py_isinstance,
    py.tuple: _py_compile_time(py.tuple),
    py.list: _py_compile_time(py.list),
    py.str: _py_compile_time(py.str),
    py.round: _py_compile_time(py.round),
    py.pow: _py_compile_time(py.pow),
    py.divmod: _py_compile_time(py.divmod),
    py.range: _py_compile_time(py.range),
    core.constexpr: _py_compile_time(core.constexpr),
    tl_tuple: _tl_tuple,
}

PURE_PY_FUNCTIONS = {
    core.get_int_dtype,
    math.log2,
    math.ceil,
    math.floor,
    math.sqrt,
    math.log,
    math.exp,
    math.gcd,
    math.isqrt,
}
