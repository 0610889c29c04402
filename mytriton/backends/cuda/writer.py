"""Indented C++ lines with ``#line`` directives that map each statement to its Python line.

Modes: ``"exact"`` writes a directive whenever the line the C++ compiler would attribute to the
next statement differs from the statement's Python line, so every NVRTC diagnostic (and every
``-lineinfo`` source line in a profiler) names the right kernel line; ``"changes"`` writes one
only when the Python line changes (shorter, but the statements after the first of a Python line
are attributed to the lines below it); ``"off"`` writes none. The short form ``#line N`` is used
while the file stays the same.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Literal

#: (file, line) of the Python source a statement comes from
PyLine = tuple[str, int]
LineDirectives = Literal["exact", "changes", "off"]


def _quote(path: str) -> str:
    return '"' + path.replace("\\", "\\\\").replace('"', '\\"') + '"'


class SourceWriter:
    def __init__(self, line_directives: LineDirectives = "exact", indent: str = "    "):
        self._lines: list[str] = []
        self._depth = 0
        self._indent = indent
        self._line_directives = line_directives
        self._file: str | None = None
        self._next_line: int | None = None  # what the compiler believes the next line is
        self._last: PyLine | None = None  # the Python line of the last statement

    def line(self, text: str, at: PyLine | None = None) -> None:
        if at is not None and self._needs_directive(at):
            file, num = at
            if file != self._file:
                self._lines.append(f"#line {num} {_quote(file)}")
            else:
                self._lines.append(f"#line {num}")
            self._file, self._next_line = file, num
        if at is not None:
            self._last = at
        self._lines.append(self._indent * self._depth + text if text else "")
        if self._next_line is not None:
            self._next_line += 1

    def _needs_directive(self, at: PyLine) -> bool:
        if self._line_directives == "exact":
            return at != (self._file, self._next_line)
        if self._line_directives == "changes":
            return at != self._last
        return False

    @contextmanager
    def indented(self) -> Iterator[None]:
        self._depth += 1
        try:
            yield
        finally:
            self._depth -= 1

    def text(self) -> str:
        return "\n".join(self._lines) + "\n"
