"""The source and cache key of a Python function a kernel runs while compiling
(``constexpr_function``), with Triton 3.6's rule on what such a function may read.

Triton keys a ``constexpr_function`` like a ``@jit`` function: a sha256 of its source (from its
``def`` line), its first line and the keys of the ``@jit``/``constexpr_function`` functions it
reads. Any other Python function it reads (``torch.cuda.get_device_capability``, ``np.log2``)
is refused with a ``RuntimeError`` when the key is asked for: the key could not follow what that
function computes (a builtin imported by name, ``from math import log2``, included). Builtins
(``len``, ``min``), classes, ``constexpr`` values, the ``math`` and
``copy`` modules and the language itself (``tl.*``, mytriton's own helpers such as
``triton.cdiv``, which Triton writes as ``constexpr_function``\\ s) are read freely. Locals are
the function's parameters and the names it assigns.
"""

from __future__ import annotations

import ast
import hashlib
import inspect
import textwrap
import types
from collections.abc import Callable
from typing import Any

from mytriton.errors import SourceUnavailableError, UnsupportedReferenceError

#: modules whose attributes are not followed (Triton's ``supported_modules``)
_FREE_MODULES = frozenset(
    {"mytriton.language", "triton.language", "triton.experimental.gluon.language", "math", "copy"}
)
#: module prefixes of the language itself: their functions are builtins
_LANGUAGE_PREFIXES = ("mytriton.", "triton.")


def function_source(fn: Callable[..., Any]) -> tuple[str, str, int]:
    """``fn``'s source from its ``def`` line on, dedented, with its file and first line."""
    try:
        lines, first = inspect.getsourcelines(fn)
        file = inspect.getsourcefile(fn) or "<unknown>"
    except (OSError, TypeError) as e:
        raise SourceUnavailableError(f"cannot read the source of {fn!r}: {e}") from None
    return def_text(lines, file, first)


def def_text(lines: list[str], file: str, first: int) -> tuple[str, str, int]:
    """A function's source ``lines`` from its ``def`` line on (decorators dropped, as Triton's
    ``src``), dedented, with ``file`` and the line number where that text starts (all of it
    where no line starts a plain ``def``: the shape checks say why)."""
    skipped = 0
    while skipped < len(lines) and not lines[skipped].lstrip().startswith(("def ", "async ")):
        skipped += 1
    if skipped == len(lines):
        skipped = 0
    return textwrap.dedent("".join(lines[skipped:])), file, first + skipped


def compile_source(fn: types.FunctionType, text: str, file: str, first: int) -> types.FunctionType:
    """A copy of ``fn`` whose code is ``text`` (a ``def`` of the same name), compiled with the
    lines of ``file`` from ``first`` on, in ``fn``'s globals and with its closure cells."""
    tree = ast.parse(text)
    if len(tree.body) != 1 or not isinstance(tree.body[0], ast.FunctionDef):
        raise SourceUnavailableError(f"the new source of {fn.__qualname__} is not one `def`")
    ast.increment_lineno(tree, first - 1)
    cells = dict(zip(fn.__code__.co_freevars, fn.__closure__ or (), strict=True))
    # compiled inside a function taking the closure's names, so they stay free variables
    outer = ast.parse(f"def _outer({', '.join(cells)}):\n    pass")
    wrapper = outer.body[0]
    assert isinstance(wrapper, ast.FunctionDef)
    wrapper.body = [tree.body[0], ast.Return(ast.Name(tree.body[0].name, ast.Load()))]
    ast.fix_missing_locations(outer)
    namespace: dict[str, Any] = {}
    exec(compile(outer, file, "exec"), fn.__globals__, namespace)  # the user's own code
    made = namespace["_outer"](*(None for _ in cells))
    code = made.__code__  # its free variables are among the closure's names
    closure = tuple(cells[v] for v in code.co_freevars) or None
    new = types.FunctionType(code, fn.__globals__, fn.__name__, fn.__defaults__, closure)
    new.__qualname__, new.__module__ = fn.__qualname__, fn.__module__
    new.__kwdefaults__ = fn.__kwdefaults__
    return new


def function_key(fn: Callable[..., Any], src: str, first: int) -> str:
    """Triton's ``cache_key`` of a function compiled at run time from ``src``."""
    h = hashlib.sha256(src.encode())
    h.update(f"\0{first}".encode())
    tree = ast.parse(src)
    fdef = tree.body[0]
    nodes = list(ast.walk(fdef))
    local = {a.arg for a in nodes if isinstance(a, ast.arg)}
    local |= {n.id for n in nodes if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    scope = _scope(fn)
    for node in nodes:
        if isinstance(node, ast.Attribute):
            value = _attribute(node, scope, local)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            value = None if node.id in local else scope.get(node.id)
        else:
            continue
        part = _reference(value)
        if part:
            h.update(f"\0{part}".encode())
    return h.hexdigest()


def _scope(fn: Callable[..., Any]) -> dict[str, Any]:
    """What ``fn``'s names resolve to: its closure's cells over its module's globals."""
    scope = dict(getattr(fn, "__globals__", {}))
    code = getattr(fn, "__code__", None)
    for name, cell in zip(getattr(code, "co_freevars", ()), fn.__closure__ or (), strict=False):  # type: ignore[attr-defined]
        try:
            scope[name] = cell.cell_contents
        except ValueError:  # an unset cell
            continue
    return scope


def _attribute(node: ast.Attribute, scope: dict[str, Any], local: set[str]) -> Any:
    """The value of ``a.b.c`` where ``a`` is a global, followed as Triton does (None: not
    followed: a local, the language's modules, a missing attribute)."""
    base = node.value
    if isinstance(base, ast.Name):
        lhs = None if base.id in local else scope.get(base.id)
    elif isinstance(base, ast.Attribute):
        lhs = _attribute(base, scope, local)
    else:
        return None
    if lhs is None or getattr(lhs, "__name__", "") in _FREE_MODULES:
        return None
    return getattr(lhs, node.attr, None)


def _reference(value: Any) -> str:
    """What a read of ``value`` adds to the key ('' for nothing); raises for a function that
    the key cannot follow."""
    if value is None or isinstance(value, (types.ModuleType, type)):
        return ""
    key = getattr(value, "cache_key", None) if _is_function_object(value) else None
    if key is not None:
        return str(key)
    from mytriton.language.core import constexpr

    if isinstance(value, constexpr):
        return f"constexpr:{value.value!r}"
    if not callable(value):
        return ""
    module = getattr(value, "__module__", None) or ""
    if module.startswith(_LANGUAGE_PREFIXES):
        return ""
    raise UnsupportedReferenceError(f"Unsupported function referenced: {value}")


def _is_function_object(value: Any) -> bool:
    """A ``@jit`` or ``constexpr_function`` function (each has a ``cache_key``)."""
    from mytriton.language.constexpr_functions import ConstexprFunction

    return isinstance(value, ConstexprFunction) or getattr(value, "is_mytriton_jit", False) is True
