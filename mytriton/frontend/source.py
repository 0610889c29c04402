"""A kernel's Python source: its AST, source positions, parameters, globals and closure."""

from __future__ import annotations

import ast
import inspect
import textwrap
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from mytriton.errors import (
    FunctionScope,
    SourceLocation,
    SourceUnavailableError,
    UnsupportedSyntaxError,
)
from mytriton.exec_sources import exec_source
from mytriton.language import core
from mytriton.language.function_keys import def_text

_CACHE: dict[Callable[..., Any], KernelSource] = {}
#: source text set in place of a function's own (``JITFunction._unsafe_update_src``): the
#: text, the file it is reported in, and the line of that file its first line stands for
_REPLACED: dict[Callable[..., Any], tuple[str, str, int]] = {}
#: the columns its text was dedented by (the original's indentation)
_REPLACED_INDENT: dict[Callable[..., Any], int] = {}
#: what ``_read`` found per function: tokenizing a kernel's block is the costliest step of
#: getting a kernel from the disk cache, and both the cache key and the parse need it
_READ: dict[Callable[..., Any], tuple[list[str], str, int]] = {}


def _read(fn: Callable[..., Any]) -> tuple[list[str], str, int]:
    """``fn``'s source lines, its file and the line number of the first one."""
    if fn in _READ:
        return _READ[fn]
    try:
        lines, first = inspect.getsourcelines(fn)
        file = inspect.getsourcefile(fn) or inspect.getfile(fn)
    except (OSError, TypeError) as e:
        found = exec_source(fn)  # a kernel made by ``exec`` of a string
        if found is not None:
            _READ[fn] = found
            return found
        name = getattr(fn, "__qualname__", repr(fn))
        raise SourceUnavailableError(
            f"cannot read the source of kernel `{name}` ({e}); kernels must be defined in a "
            "file or by exec of a string, not typed into an interactive session"
        ) from None
    _READ[fn] = lines, file, first
    return lines, file, first


@dataclass
class KernelSource:
    """The parsed source of one ``@jit`` function (cached per function object)."""

    fn: Callable[..., Any]
    file: str
    first_line: int  # line number of the source's first line in `file`
    indent: int  # columns removed by dedenting
    tree: ast.Module
    qualname: str
    _params: dict[str, str] = field(default_factory=dict)

    @staticmethod
    def of(fn: Callable[..., Any]) -> KernelSource:
        if fn not in _CACHE:
            _CACHE[fn] = KernelSource._parse(fn)
        return _CACHE[fn]

    @staticmethod
    def forget(fn: Callable[..., Any]) -> None:
        _CACHE.pop(fn, None)
        _READ.pop(fn, None)

    @staticmethod
    def replace(
        fn: Callable[..., Any], text: str, file: str, first_line: int, indent: int = 0
    ) -> None:
        """Compile ``fn`` from ``text`` (a ``def``, dedented) instead of its own source, its
        columns shifted by ``indent`` (the original's, so that the same text compiles to the
        same locations and the same cache key)."""
        _REPLACED[fn] = (text, file, first_line)
        _REPLACED_INDENT[fn] = indent
        _CACHE.pop(fn, None)

    @staticmethod
    def text_of(fn: Callable[..., Any]) -> tuple[str, str, int]:
        """``fn``'s source from its ``def`` line on, dedented (decorators dropped, as Triton's
        ``JITFunction.src``), with the file and line number where it starts."""
        if fn in _REPLACED:
            return _REPLACED[fn]
        return def_text(*_read(fn))

    @staticmethod
    def _parse(fn: Callable[..., Any]) -> KernelSource:
        name = getattr(fn, "__qualname__", repr(fn))
        if fn in _REPLACED:
            text, file, first = _REPLACED[fn]
            indent = _REPLACED_INDENT.get(fn, 0)
        else:
            lines, file, first = _read(fn)
            text = "".join(lines)
            first_code = next((ln for ln in lines if ln.strip()), "")
            indent = len(first_code) - len(first_code.lstrip())
        tree = ast.parse(textwrap.dedent(text))
        src = KernelSource(fn, file, first, indent, tree, name)
        src._check_shape()
        return src

    def _check_shape(self) -> None:
        if len(self.tree.body) != 1 or not isinstance(self.tree.body[0], ast.FunctionDef):
            raise UnsupportedSyntaxError(f"`{self.qualname}` must be a plain `def` function")
        args = self.function_def().args
        loc = self.location(self.function_def())
        if args.vararg or args.kwarg:
            raise UnsupportedSyntaxError("*args/**kwargs parameters in a kernel", loc)
        if args.posonlyargs or args.kwonlyargs:
            raise UnsupportedSyntaxError("positional-only or keyword-only kernel parameters", loc)

    def function_def(self) -> ast.FunctionDef:
        node = self.tree.body[0]
        assert isinstance(node, ast.FunctionDef)
        return node

    def location(self, node: ast.AST) -> SourceLocation | None:
        line = getattr(node, "lineno", None)
        if line is None:
            return None
        col = getattr(node, "col_offset", 0)
        return SourceLocation(
            self.file, self.first_line + line - 1, col + self.indent + 1, self.scope()
        )

    def scope(self) -> FunctionScope:
        """The function itself, for Triton's ``at L:C:`` positions in its errors."""
        fd = self.function_def()
        return FunctionScope(
            fd.name, self.first_line + fd.lineno - 1, fd.col_offset + self.indent + 1
        )

    def parameters(self) -> dict[str, str]:
        """Parameter name -> ``"constexpr"`` or ``"runtime"``, in declaration order."""
        if not self._params:
            annotations = getattr(self.fn, "__annotations__", {})
            for a in self.function_def().args.args:
                ann = annotations.get(a.arg)
                is_ce = ann is core.constexpr or isinstance(ann, core.constexpr)
                if isinstance(ann, str):
                    is_ce = ann.split(".")[-1] == "constexpr"
                self._params[a.arg] = "constexpr" if is_ce else "runtime"
        return self._params

    def const_parameters(self) -> set[str]:
        """The parameters annotated ``tl.const`` (or Triton's strings ``"const ..."``,
        ``"*k..."``): pointers to constant data."""
        annotations = getattr(self.fn, "__annotations__", {})
        names = set()
        for a in self.function_def().args.args:
            ann = annotations.get(a.arg)
            if ann is core.const or (
                isinstance(ann, str)
                and (ann.split(".")[-1] == "const" or ann.startswith(("const ", "*k")))
            ):
                names.add(a.arg)
        return names

    def resolve_global(self, name: str) -> tuple[bool, Any]:
        """Look ``name`` up in the function's closure, then its module globals."""
        code = getattr(self.fn, "__code__", None)
        closure = getattr(self.fn, "__closure__", None)
        if code is not None and closure:
            for var, cell in zip(code.co_freevars, closure, strict=True):
                if var == name:
                    try:
                        return True, cell.cell_contents
                    except ValueError:
                        return False, None
        g = getattr(self.fn, "__globals__", {})
        if name in g:
            return True, g[name]
        return False, None
