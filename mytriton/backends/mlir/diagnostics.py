"""MLIR's diagnostics, re-reported at the kernel's Python line.

Every op we print carries ``loc("file.py":line:col)``, so MLIR's messages read
``file.py:12:5: error: ...``; we show them the way the frontend shows its own errors (file, line,
the source line and a caret). A diagnostic at ``<stdin>:L:C`` concerns the MLIR text itself (a
parse error): we quote that line of the emitted text instead. Any ``error:`` fails the build,
even when MLIR exits 0 (it does for a missing toolkit directory or a misspelled format).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from mytriton.errors import SourceLocation, format_at

# ``file:line:col: error: message`` (mlir-opt), or without a position (``error: message``)
_DIAG_RE = re.compile(
    r"^(?:(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): )?(?P<severity>error|warning|note|remark): "
    r"(?P<message>.*)$"
)
# ``loc("file":line:col)`` as the Python bindings print a diagnostic's location
_LOC_RE = re.compile(r'loc\("((?:[^"\\]|\\.)*)":(\d+):(\d+)\)')
MLIR_TEXT_FILES = ("<stdin>", "-")
MAX_LOG_CHARS = 4000


@dataclass(frozen=True)
class Diagnostic:
    severity: str
    message: str
    loc: SourceLocation | None = None


def parse_diagnostics(log: str) -> list[Diagnostic]:
    """The diagnostics in an MLIR log (lines that are not diagnostics are skipped)."""
    out = []
    for line in log.splitlines():
        m = _DIAG_RE.match(line.strip())
        if m is None:
            continue
        loc = None
        if m["file"] is not None:
            loc = SourceLocation(m["file"], int(m["line"]), int(m["col"]))
        out.append(Diagnostic(m["severity"], m["message"], loc))
    return out


def has_error(log: str) -> bool:
    """Whether MLIR reported an error, whatever its exit code."""
    return any(d.severity == "error" for d in parse_diagnostics(log)) or "LLVM ERROR" in log


def location_text(loc: str) -> str:
    """``file:line:col`` of a bindings location string (``loc("f":1:2)``), else ``""``."""
    m = _LOC_RE.search(loc)
    if m is None:
        return ""
    file = re.sub(r"\\([0-9A-Fa-f]{2})", lambda h: chr(int(h[1], 16)), m[1]).replace('\\"', '"')
    return f"{file}:{m[2]}:{m[3]}"


def format_diagnostic(diag: Diagnostic, mlir_text: str | None = None) -> str:
    """One diagnostic, at its Python line when it has one."""
    message = f"MLIR {diag.severity}: {diag.message}"
    loc = diag.loc
    if loc is None:
        return message
    if loc.file in MLIR_TEXT_FILES:
        lines = (mlir_text or "").splitlines()
        where = f"line {loc.line} of the emitted MLIR"
        if diag.severity == "error" and 1 <= loc.line <= len(lines):
            return f"{where}: {message}\n    {lines[loc.line - 1].strip()}"
        return f"{where}: {message}"
    if diag.severity != "error":
        return f"{loc}: {message}"
    return format_at(loc, f"MLIR: {diag.message}")


def report(log: str, mlir_text: str | None = None) -> str:
    """The errors of ``log`` at their Python lines, then their notes (empty when none)."""
    diags = parse_diagnostics(log)
    errors = [format_diagnostic(d, mlir_text) for d in diags if d.severity == "error"]
    notes = [format_diagnostic(d, mlir_text) for d in diags if d.severity == "note"]
    return "\n".join(errors + notes[:3])


def log_tail(log: str, limit: int = MAX_LOG_CHARS) -> str:
    """The end of a long compiler log (where the error is)."""
    log = log.strip()
    return log if len(log) <= limit else "...\n" + log[-limit:]
