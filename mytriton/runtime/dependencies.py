"""What a kernel's compiled code depends on besides its arguments, found WITHOUT compiling it.

The frontend inlines every ``@jit`` function a kernel calls and reads globals (``BLOCK = 128``,
``tl.constexpr`` values, ``helpers.add``) while it compiles. The disk cache must know all of
them before compiling, to look an entry up, so, like Triton's dependency finder, we scan the
AST: every name the function reads that is not one of its parameters or locals is resolved as
the frontend resolves it (closure, then module globals; attributes of modules and classes are
followed: ``cfg.BLOCK``). A ``@jit`` function counts by its file, line, source and, recursively,
its own dependencies; a compile-time value by a stable text (never an address).

Anything that cannot be described stably (an object printed with its address, a kernel whose
source cannot be read) raises ``Unstable``: such a kernel is simply not cached on disk.
"""

from __future__ import annotations

import ast
import builtins
import dataclasses
import enum
import hashlib
import inspect
import types
from collections.abc import Callable
from typing import Any

from mytriton.errors import MyTritonError, UnsupportedReferenceError
from mytriton.frontend.source import KernelSource
from mytriton.language import core
from mytriton.language.constexpr_functions import ConstexprFunction


class Unstable(Exception):
    """A dependency or key part whose text would not be the same in another process."""


def is_jit(value: Any) -> bool:
    """A ``@jit`` function (the class itself is not one)."""
    return getattr(value, "is_mytriton_jit", False) is True and not isinstance(value, type)


def fingerprint(fn: Callable[..., Any]) -> str:
    """A sha256 of ``fn``'s source, location and everything it reads (helpers recursively)."""
    return _fingerprint(fn, set())


def _fingerprint(fn: Callable[..., Any], active: set[int]) -> str:
    try:
        text, file, first = KernelSource.text_of(fn)
        src = KernelSource.of(fn)
    except (MyTritonError, SyntaxError, OSError) as e:  # the compile reports it properly
        raise Unstable(f"cannot read the source of {fn!r}: {e}") from None
    active.add(id(fn))
    try:
        deps = sorted(set(_dependencies(src, active)))
    finally:
        active.discard(id(fn))
    # default values were evaluated when the `def` ran (a helper's `FLAG: tl.constexpr = X`)
    deps.append(f"defaults={stable_text(getattr(fn, '__defaults__', None))}")
    # the `def` line and the text place every location; decorators above it do not count
    return fingerprint_text(file, first, src.indent, text, *deps)


def fingerprint_text(*parts: object) -> str:
    """The sha256 of these parts' texts, each ended by a NUL."""
    h = hashlib.sha256()
    for part in parts:
        h.update(str(part).encode())
        h.update(b"\0")
    return h.hexdigest()


def _dependencies(src: KernelSource, active: set[int]) -> list[str]:
    fdef = src.function_def()
    # the body only: decorators and annotations are not compiled (constexpr values are part
    # of the specialization key)
    nodes = [n for stmt in fdef.body for n in ast.walk(stmt)]
    local = {a.arg for a in fdef.args.args}
    local |= {n.arg for n in nodes if isinstance(n, ast.arg)}  # lambda parameters
    local |= {n.id for n in nodes if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    out: list[str] = []
    chains: set[int] = set()  # Name nodes already described as the base of an attribute chain
    for node in nodes:
        if isinstance(node, ast.Attribute) and id(node) not in chains:
            path: list[str] = []
            base: ast.expr = node
            while isinstance(base, ast.Attribute):
                path.append(base.attr)
                chains.add(id(base))
                base = base.value
            if isinstance(base, ast.Name):
                chains.add(id(base))
                if base.id not in local:
                    out.append(_global_chain(src, base.id, path[::-1], active))
        elif (
            isinstance(node, ast.Name)
            and id(node) not in chains
            and isinstance(node.ctx, ast.Load)
            and node.id not in local
        ):
            out.append(_global_chain(src, node.id, [], active))
    return out


def _global_chain(src: KernelSource, name: str, attrs: list[str], active: set[int]) -> str:
    """``name.attr...`` as the frontend sees it: attributes followed through modules/classes."""
    found, value = src.resolve_global(name)
    if not found:
        return f"{name}=<builtin>" if hasattr(builtins, name) else f"{name}=<undefined>"
    dotted = name
    for attr in attrs:
        if not isinstance(value, (types.ModuleType, type)):
            break
        if not hasattr(value, attr):
            return f"{dotted}.{attr}=<undefined>"
        value = getattr(value, attr)
        dotted += f".{attr}"
    if is_jit(value):
        fn = value.fn
        if id(fn) in active:  # recursion: the frontend reports it
            return f"{dotted}=jit-cycle:{fn.__qualname__}"
        return f"{dotted}=jit:{_fingerprint(fn, active)}"
    return f"{dotted}={stable_text(value)}"


def stable_text(value: Any) -> str:
    """A text that names ``value`` the same way in every process, or ``Unstable``."""
    t = type(value)
    if value is None or t in (bool, int, float, str, bytes, complex):
        return f"{t.__name__}:{value!r}"
    describe = getattr(t, "__stable_text__", None)
    if describe is not None:  # a key part that says how it is described
        return str(describe(value))
    if isinstance(value, core.constexpr):
        return f"constexpr({stable_text(value.value)})"
    if is_jit(value):
        return f"jit:{fingerprint(value.fn)}"
    if isinstance(value, (tuple, list)):
        return f"{t.__name__}({', '.join(stable_text(v) for v in value)})"
    if isinstance(value, (set, frozenset)):
        return f"{t.__name__}({', '.join(sorted(stable_text(v) for v in value))})"
    if isinstance(value, dict):
        items = sorted(f"{stable_text(k)}: {stable_text(v)}" for k, v in value.items())
        return f"dict({', '.join(items)})"
    if isinstance(value, enum.Enum):
        return f"{_qualified(t)}.{value.name}"
    if isinstance(value, types.ModuleType):
        return f"module:{value.__name__}"
    if isinstance(value, ConstexprFunction):
        return f"constexpr_function:{_qualified(value.fn)}:{_constexpr_function_key(value)}"
    if isinstance(value, types.FunctionType):  # run while compiling (``@tl.constexpr`` ones)
        return f"callable:{_function_text(value)}"
    if isinstance(value, (type, types.BuiltinFunctionType, types.MethodType)):
        return f"callable:{_qualified(value)}"
    if dataclasses.is_dataclass(value):
        fields = ", ".join(
            f"{f.name}={stable_text(getattr(value, f.name))}" for f in dataclasses.fields(value)
        )
        return f"{_qualified(t)}({fields})"
    text = repr(value)
    if " at 0x" in text or text.startswith("<"):
        raise Unstable(f"{text} has no stable description")
    return f"{_qualified(t)}:{text}"


def _constexpr_function_key(fn: ConstexprFunction) -> str:
    """Its ``cache_key`` (source, first line, the functions it reads); where it reads a Python
    function the key cannot follow (Triton refuses such a key), its source alone, as a
    ``@tl.constexpr`` function is keyed."""
    try:
        return fn.cache_key
    except UnsupportedReferenceError:
        return hashlib.sha256(fn.src.encode()).hexdigest()
    except MyTritonError as e:  # its source cannot be read
        raise Unstable(str(e)) from None


def _function_text(fn: Callable[..., Any]) -> str:
    """A Python function by name and source: the kernel's result depends on what it computes."""
    try:
        source = inspect.getsource(fn)
    except (OSError, TypeError):
        raise Unstable(f"cannot read the source of {fn!r}") from None
    return f"{_qualified(fn)}:{hashlib.sha256(source.encode()).hexdigest()}"


def _qualified(obj: Any) -> str:
    module = getattr(obj, "__module__", None) or "?"
    name = getattr(obj, "__qualname__", None) or getattr(obj, "__name__", None)
    if name is None or "<locals>" in name or "<lambda>" in name:
        raise Unstable(f"{obj!r} has no importable name")
    return f"{module}.{name}"
