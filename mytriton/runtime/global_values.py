"""The globals a compiled kernel has compiled in, and the check that they have not changed.

The frontend reads globals (``BLOCK = tl.constexpr(128)``, ``helpers.add``; plain ones such
as ``SCALE = 2.0`` only with ``TRITON_ALLOW_NON_CONSTEXPR_GLOBALS=1``, Triton's rule) while it
compiles, so a compiled kernel holds their values. Like Triton, a launch after one of
them changed raises instead of running the old value: ``Global variable X has changed since we
compiled this kernel``. The reads are found by scanning the kernel's body and, recursively, the
``@jit`` helpers it reads (each in its own scope), the way ``dependencies.py`` scans for the
disk-cache key, and resolved as the frontend resolves them (closure cell, then module globals;
attributes of user modules followed). Modules, classes, plain functions and mytriton's own
modules are not tracked, as in Triton (they are code, not values); ``@jit`` helpers are tracked
by identity (Triton misses a rebound helper and runs the old one).

A read whose value's identity implies its content (numbers, strings, dtypes, ``@jit``
functions, tuples of those; a ``tl.constexpr`` together with its ``.value``, as constexprs are
mutable) is checked by identity, cheap enough for the launch fast paths (``fast_guards``);
anything else (a list, an object) is compared with a deep copy on the general path, and its
kernel gets no fast path.
"""

from __future__ import annotations

import ast
import copy
import enum
import types
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from mytriton.errors import GlobalChangedError, MyTritonError
from mytriton.frontend.source import KernelSource
from mytriton.language import core
from mytriton.runtime.dependencies import is_jit
from mytriton.runtime.specialization import constexpr_key

#: a global missing from its scope (deleted since the compile)
MISSING: Any = type("Missing", (), {"__repr__": lambda self: "<deleted>"})()
#: ``GlobalRead.inner`` of a value that is not a constexpr
NO_INNER: Any = type("NoInner", (), {"__repr__": lambda self: "<no inner>"})()
#: module name prefixes whose attributes are the language itself, never tracked
_LANGUAGE_MODULES = ("mytriton", "triton", "math", "copy", "numpy", "builtins")


@dataclass
class GlobalRead:
    """One global a kernel (or a helper it inlines) reads, as it was when it compiled."""

    #: as the kernel writes it (``BLOCK``, ``cfg.BLOCK``)
    name: str
    #: where it is looked up: a module's globals dict, or a closure cell
    scope: dict[str, Any] | types.CellType
    #: its key in ``scope`` (a dict); None for a cell
    key: str | None
    #: the object compiled in
    value: Any
    #: a constexpr's ``.value`` when compiled (constexprs are mutable), else ``NO_INNER``
    inner: Any
    #: a deep copy of the value, compared where identity does not settle it
    snapshot: Any
    #: identity of ``value`` (and ``inner``) implies its content: a fast path may guard it
    by_identity: bool
    #: ``file:line`` of the kernel line reading it
    where: str

    def current(self) -> Any:
        """The value the name has now (``MISSING`` where it was deleted)."""
        if isinstance(self.scope, dict):
            return self.scope.get(self.key, MISSING)  # type: ignore[arg-type]
        try:
            return self.scope.cell_contents
        except ValueError:
            return MISSING

    def unchanged_identity(self, now: Any) -> bool:
        if now is not self.value:
            return False
        return self.inner is NO_INNER or getattr(now, "value", MISSING) is self.inner

    def same_value(self, now: Any) -> bool:
        """``now`` equals the value compiled in (types, ``-0.0`` and NaNs told apart as the
        specialization key tells them)."""
        if self.snapshot is MISSING:  # could not be copied: identity only
            return self.unchanged_identity(now)
        try:
            return bool(constexpr_key(self.snapshot) == constexpr_key(now))
        except Exception:
            return False

    def refresh(self, now: Any) -> None:
        """Keep ``now`` (equal to the value compiled in) as the object identity guards see."""
        self.value = now
        self.inner = now.value if isinstance(now, core.constexpr) else NO_INNER


def global_reads(fn: Callable[..., Any]) -> list[GlobalRead]:
    """The globals ``fn`` and the ``@jit`` helpers it reads (recursively) read, now."""
    reads: list[GlobalRead] = []
    _scan(fn, reads, set())
    return reads


def check_unchanged(reads: list[GlobalRead], kernel: str) -> bool:
    """Raise ``GlobalChangedError`` for the first read whose value changed; return whether some
    read was rebound to an equal object (the fast paths' identity guards must be remade)."""
    rebound = False
    for read in reads:
        now = read.current()
        if read.unchanged_identity(now) and read.by_identity:
            continue
        if not read.same_value(now):
            old = read.snapshot if read.snapshot is not MISSING else read.value
            raise GlobalChangedError(
                f"Global variable {read.name} has changed since we compiled this kernel, from "
                f"{old} to {now}. `{kernel}` reads it at {read.where}; call "
                f"{kernel}.clear_cache() to compile it again with the new value"
            )
        if not read.unchanged_identity(now):
            read.refresh(now)
            rebound = True
    return rebound


def check_inner_values(reads: list[GlobalRead], kernel: str) -> None:
    """Triton's rule across kernels, checked when ``kernel`` first compiles with ``reads``: a
    ``@jit`` helper keeps the values of the globals it read when the first kernel calling it
    compiled (``JITFunction.inner_reads``); a later kernel that reads one of them with another
    value raises ``GlobalChangedError`` (a ``RuntimeError``), as it would run the helper's
    code with a value the helper was not compiled with in the other kernel."""
    for read in reads:
        helper = read.value
        if not is_jit(helper):
            continue
        if helper.inner_reads is None:
            helper.inner_reads = global_reads(helper.fn)
            continue
        for old in helper.inner_reads:
            mine = next((r for r in reads if r.scope is old.scope and r.key == old.key), None)
            if mine is None or is_jit(old.value) or old.same_value(mine.value):
                continue
            was = old.snapshot if old.snapshot is not MISSING else old.value
            raise GlobalChangedError(
                f"Global variable {old.name} has value {mine.value} when compiling {kernel}, "
                f"but inner kernel {helper.__name__} has conflicting value {was} from when it "
                "was first compiled.  This is not allowed. (Call clear_cache() on the kernels "
                f"that read {helper.__name__} to compile them all with the new value.)"
            )


def fast_guards(reads: list[GlobalRead]) -> tuple[tuple[Any, ...], ...] | None:
    """``(scope, key, value, inner, has_inner)`` per read, the identity checks a fast path
    makes; None where some read needs a value comparison (no fast path then)."""
    if not all(r.by_identity for r in reads):
        return None
    return tuple(
        (r.scope, r.key, r.value, None if r.inner is NO_INNER else r.inner, r.inner is not NO_INNER)
        for r in reads
    )


# ---- finding the reads


def _scan(fn: Callable[..., Any], reads: list[GlobalRead], seen: set[int]) -> None:
    if id(fn) in seen:
        return
    seen.add(id(fn))
    try:
        src = KernelSource.of(fn)
    except (MyTritonError, SyntaxError, OSError):
        return  # the compile reports it
    visitor = _Reads({a.arg for a in src.function_def().args.args})
    for stmt in src.function_def().body:
        visitor.visit(stmt)
    for node, name, attrs in visitor.reads:
        loc = src.location(node)
        where = f"{loc.file}:{loc.line}" if loc is not None else src.qualname
        _resolve(fn, src, name, attrs, where, reads, seen)


def _resolve(
    fn: Callable[..., Any],
    src: KernelSource,
    name: str,
    attrs: list[str],
    where: str,
    reads: list[GlobalRead],
    seen: set[int],
) -> None:
    """Record the read of ``name.attrs...`` (resolved as the frontend does) if it is a value."""
    scope, key = _scope_of(fn, name)
    if scope is None:
        return  # a builtin or undefined: the frontend says
    found, value = src.resolve_global(name)
    if not found:
        return
    dotted = name
    for attr in attrs:  # follow user modules: `cfg.BLOCK` is read from cfg's globals
        if not isinstance(value, types.ModuleType):
            break
        if value.__name__.split(".")[0] in _LANGUAGE_MODULES or not hasattr(value, attr):
            return
        scope, key = vars(value), attr
        value = getattr(value, attr)
        dotted += f".{attr}"
    if is_jit(value):
        _record(reads, dotted, scope, key, value, where)
        _scan(value.fn, reads, seen)
        return
    if isinstance(value, (core.constexpr, core.dtype)) or not (
        isinstance(value, (types.ModuleType, type)) or callable(value)
    ):
        _record(reads, dotted, scope, key, value, where)


def _scope_of(fn: Callable[..., Any], name: str) -> tuple[Any, str | None]:
    """Where ``KernelSource.resolve_global`` finds ``name``: a closure cell, else the globals."""
    code = getattr(fn, "__code__", None)
    closure = getattr(fn, "__closure__", None)
    if code is not None and closure:
        for var, cell in zip(code.co_freevars, closure, strict=True):
            if var == name:
                return cell, None
    g = getattr(fn, "__globals__", None)
    if isinstance(g, dict) and name in g:
        return g, name
    return None, None


def _record(
    reads: list[GlobalRead], name: str, scope: Any, key: str | None, value: Any, where: str
) -> None:
    if any(r.scope is scope and r.key == key for r in reads):
        return
    inner = value.value if isinstance(value, core.constexpr) else NO_INNER
    by_identity = _immutable(inner) if inner is not NO_INNER else _immutable(value)
    if by_identity and inner is NO_INNER:
        snapshot = value
    else:
        try:
            snapshot = copy.deepcopy(value)
        except Exception:
            snapshot = MISSING
    reads.append(GlobalRead(name, scope, key, value, inner, snapshot, by_identity, where))


def _immutable(value: Any) -> bool:
    """Whether ``value``'s identity implies its content (what identity guards may rely on)."""
    if value is None or type(value) in (bool, int, float, complex, str, bytes):
        return True
    if isinstance(value, (enum.Enum, core.dtype)) or is_jit(value):
        return True
    if type(value) in (tuple, frozenset):
        return all(_immutable(v) for v in value)
    return False


class _Reads(ast.NodeVisitor):
    """The global names a function body reads, in source order: a name assigned earlier in the
    body is a local from there on (an assignment's value is read before its target is)."""

    def __init__(self, params: set[str]):
        self.local = set(params)
        self.reads: list[tuple[ast.AST, str, list[str]]] = []

    def visit_Assign(self, node: ast.Assign) -> None:
        self.visit(node.value)
        for target in node.targets:
            self.visit(target)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self.visit(node.value)
        self.visit(node.target)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        self.visit(node.value)
        self.visit(node.target)

    def visit_For(self, node: ast.For) -> None:
        self.visit(node.iter)
        self.visit(node.target)
        for stmt in [*node.body, *node.orelse]:
            self.visit(stmt)

    def visit_arg(self, node: ast.arg) -> None:
        self.local.add(node.arg)

    def visit_Name(self, node: ast.Name) -> None:
        if not isinstance(node.ctx, ast.Load):
            self.local.add(node.id)
        elif node.id not in self.local:
            self.reads.append((node, node.id, []))

    def visit_Attribute(self, node: ast.Attribute) -> None:
        path: list[str] = []
        base: ast.expr = node
        while isinstance(base, ast.Attribute):
            path.append(base.attr)
            base = base.value
        if isinstance(base, ast.Name) and isinstance(base.ctx, ast.Load):
            if base.id not in self.local:
                self.reads.append((node, base.id, path[::-1]))
            return
        self.generic_visit(node)
