"""Helpers shared by the frontend, runtime and seed-example tests."""

from __future__ import annotations

import inspect
import linecache
import re
from typing import Any

import numpy as np
import pytest

from mytriton.backends.stages import strip_locations as without_locations
from mytriton.errors import CompilationError

# Arrays passed to kernels under test: compile-only under the default backend.
X = np.zeros(64, dtype=np.float32)
Y = np.zeros(64, dtype=np.float32)
XI = np.zeros(64, dtype=np.int32)

MARKER = "# <-"


def tt(kernel: Any, *args: Any, stage: str = "tt", **kwargs: Any) -> str:
    """The text of one IR stage of ``kernel`` compiled for these arguments (no launch),
    without locations."""
    return without_locations(kernel.warmup(*args, grid=(1,), **kwargs).asm[stage])


def ops(ir: str) -> list[str]:
    """The op names of printed IR, in order (``tt.add``, ``arith.constant``, ``scf.for``...)."""
    names = []
    for line in ir.splitlines():
        m = re.match(r"\s*(?:%[\w.]+(?:, %[\w.]+)* = )?([a-z_]+\.[a-z_.]+)\b", line)
        if m:
            names.append(m.group(1))
    return names


def op_lines(ir: str, name: str) -> list[str]:
    """The printed lines of every ``name`` op (``tt.dot``...)."""
    return [ln.strip() for ln in ir.splitlines() if re.search(rf"(= |^\s*){re.escape(name)}\b", ln)]


def marked_line(kernel: Any) -> tuple[str, int, str]:
    """File, line number and text of the one kernel source line carrying ``# <-``."""
    fn = getattr(kernel, "fn", kernel)
    lines, first = inspect.getsourcelines(fn)
    hits = [i for i, ln in enumerate(lines) if MARKER in ln]
    assert len(hits) == 1, f"{fn.__name__} must mark exactly one line with {MARKER!r}"
    return inspect.getsourcefile(fn) or "", first + hits[0], lines[hits[0]].rstrip("\n")


def expect_error(
    kernel: Any,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    cls: type[CompilationError],
    words: tuple[str, ...],
    at: str | None,
) -> CompilationError:
    """Compiling ``kernel`` raises ``cls`` whose message holds ``words``.

    An error inside a called ``@jit`` function is raised at the call, same class and message,
    caused by the callee's error; the checks below are on the innermost one, where it arose.
    With ``at``, that error is located at the kernel line marked ``# <-``: the report starts
    with ``file:line:col: error: in FUNCTION at L:C:`` (Triton's position: line from the
    ``def``, 0-based column), repeats that source line, its caret points at the text ``at``,
    and the message comes last.
    """
    with pytest.raises(CompilationError) as info:
        kernel.warmup(*args, grid=(1,), **kwargs)
    err = info.value
    while isinstance(err.__cause__, CompilationError):
        outer, err = err, err.__cause__
        assert type(outer) is type(err) and outer.message == err.message, repr(outer)
    assert type(err) is cls, f"expected {cls.__name__}, got {type(err).__name__}: {err}"
    for w in words:
        assert w in err.message, f"{w!r} not in {err.message!r}"
    if cls.cause_type is not None:
        # as in Triton, caused by a plain exception holding the message: the one a failed
        # Python operation raised, else the error's own kind and message
        cause = err.__cause__
        assert cause is not None and not isinstance(cause, CompilationError), repr(cause)
        if err.tritons_words is None:
            assert str(cause) in err.message, f"{cause!r} is not in {err.message!r}"
        else:  # Triton's own words for the same error
            assert str(cause) == err.tritons_words, f"{cause!r} is not {err.tritons_words!r}"
    if at is None:
        return err
    file, line, text = marked_line(kernel)
    assert err.loc is not None and err.loc.scope is not None, f"no location in {err}"
    assert (err.loc.file, err.loc.line) == (file, line), f"{err.loc} is not {file}:{line}"
    report = str(err).splitlines()
    scope = err.loc.scope
    position = f"{line - scope.def_line + 1}:{err.loc.col - scope.def_col}"
    assert report[0] == f"{file}:{line}:{err.loc.col}: error: in {scope.name} at {position}:"
    assert report[1].strip() == text.strip()
    caret = report[2].index("^") - 4
    assert caret == err.loc.col - 1
    assert text[caret:].startswith(at), f"caret at {text[caret:]!r}, expected {at!r}"
    assert "\n".join(report[3:]) == err.message
    def_text = linecache.getline(file, scope.def_line)
    assert def_text[scope.def_col - 1 :].startswith("def "), def_text
    return err


def loop_bodies(ir: str) -> list[str]:
    """The printed body of every ``scf.for`` (outermost first), nested loops included."""
    lines = ir.splitlines()
    bodies = []
    for i, ln in enumerate(lines):
        if " scf.for " in ln or ln.lstrip().startswith("scf.for "):
            indent = len(ln) - len(ln.lstrip())
            end = next(
                j
                for j in range(i + 1, len(lines))
                if lines[j].strip() == "}" and len(lines[j]) - len(lines[j].lstrip()) == indent
            )
            bodies.append("\n".join(lines[i + 1 : end]))
    return bodies


def outside_loops(ir: str) -> str:
    """The printed IR with every ``scf.for`` body removed (its header line kept)."""
    out, depth = [], 0
    for ln in ir.splitlines():
        if depth:
            if ln.rstrip().endswith("{") and "scf.for" in ln:
                depth += 1
            elif ln.strip() == "}":
                depth -= 1
            continue
        out.append(ln)
        if "scf.for" in ln and ln.rstrip().endswith("{"):
            depth = 1
    return "\n".join(out)
