"""The source of a kernel defined by ``exec`` of a string, which ``inspect`` cannot read (its
code says it came from ``<string>``, and no file holds it).

Triton's own tests build kernels so (``test_core.patch_kernel`` edits a template's source and
``exec``s it under ``TRITON_INTERPRET=1``); Triton's interpreter runs them as Python, but
mytriton compiles a kernel from its source. Python announces the compilation of a string
(the ``compile`` audit event: its text and file name) and then the execution of the code
(``exec``: the code object), so an audit hook pairs the two: each ``<string>`` module code
with its text. A kernel's function code is one of the objects nested in the module code that
defined it: found by identity, the text is the kernel's own, never another edit's. The hook is
added once, on ``import mytriton`` (audit hooks cannot be removed), and keeps the newest
``KEPT`` pairs.
"""

from __future__ import annotations

import inspect
import sys
import threading
from collections import deque
from collections.abc import Callable, Iterator
from types import CodeType
from typing import Any

#: how many ``exec``'d sources are kept (a test module's kernels are made one at a time)
KEPT = 256
#: the file name Python gives code compiled from a string
STRING_FILE = "<string>"

_sources: deque[tuple[CodeType, str]] = deque(maxlen=KEPT)
#: per thread, the text of the string compiled last, until its code is executed
_compiled = threading.local()


def _hook(event: str, args: tuple[Any, ...]) -> None:
    if event == "compile" and len(args) >= 2 and args[1] == STRING_FILE:
        source = args[0]
        if isinstance(source, bytes):
            source = source.decode("utf-8", errors="replace")
        _compiled.text = source if isinstance(source, str) else None
    elif event == "exec" and args and isinstance(args[0], CodeType):
        code, text = args[0], getattr(_compiled, "text", None)
        _compiled.text = None
        if text is not None and code.co_filename == STRING_FILE:
            _sources.append((code, text))


sys.addaudithook(_hook)


def _functions(code: CodeType) -> Iterator[CodeType]:
    """Every code object nested in ``code``, itself included."""
    yield code
    for const in code.co_consts:
        if isinstance(const, CodeType):
            yield from _functions(const)


def exec_source(fn: Callable[..., Any]) -> tuple[list[str], str, int] | None:
    """``fn``'s source lines (from its first line, decorators included, as
    ``inspect.getsourcelines`` gives them), ``<string>`` and the number of its first line,
    where ``fn`` was defined by executing a string this process kept; else None."""
    code = getattr(fn, "__code__", None)
    if not isinstance(code, CodeType) or code.co_filename != STRING_FILE:
        return None
    for module, text in list(reversed(_sources)):
        if any(c is code for c in _functions(module)):
            lines = text.splitlines(keepends=True)
            first = code.co_firstlineno
            return inspect.getblock(lines[first - 1 :]), STRING_FILE, first
    return None
