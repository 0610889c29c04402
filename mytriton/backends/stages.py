"""Compilation stages as data: what each step makes, how it prints, and how its text re-parses.

A stage turns the artifact of the stage before it into its own (a module, a source text, a
binary). The runtime owns the order (``tt``, ``tt-opt``, then a backend's stages); backends
contribute their stages as ``Stage`` values, so the runtime can print every stage once, dump it,
replace it with an edited file, or start compiling from any stage's text.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser

from mytriton.dialects.printing import (  # noqa: F401 (the stages' printers, used from here)
    LocatedPrinter,
    print_generic,
    print_module,
)
from mytriton.errors import MyTritonError

Artifact = Any
Text = str | bytes


class StageUnavailable(MyTritonError):
    """A stage cannot run on this machine (no GPU, no NVRTC, no MLIR provider): compilation
    stops before it, and the kernel keeps the stages made so far (compile-only)."""


class StageParseError(MyTritonError):
    """The text given for a stage (an override file, or a file to compile) does not parse."""


@dataclass(frozen=True)
class Stage:
    """One compilation step. ``run(previous artifact, options)`` makes this stage's artifact;
    ``text`` prints it (``asm[name]``, dumps); ``parse`` reads such a text back.
    ``run_made``, where given, replaces ``run`` when the previous artifact is the one the
    compiler made (and verified) rather than one parsed from a text (a file to compile, an
    override): a module stage then does not verify its input again."""

    name: str
    suffix: str  # of dump and override files: ``add_kernel`` + ``.ttg.mlir``
    run: Callable[[Artifact, Any], Artifact]
    text: Callable[[Artifact], Text]
    parse: Callable[[Text], Artifact]
    run_made: Callable[[Artifact, Any], Artifact] | None = None

    def runner(self, made: bool) -> Callable[[Artifact, Any], Artifact]:
        """What runs this stage on an artifact the compiler ``made``, or else parsed."""
        return self.run_made if made and self.run_made is not None else self.run

    @property
    def binary(self) -> bool:
        return not self.suffix.endswith((".mlir", ".cu", ".ptx"))


_LOCATION = re.compile(r' loc\((?:"(?:[^"\\]|\\.)*"|[^()"])*\)')


def strip_locations(text: str) -> str:
    """A stage's text without its ``loc(...)`` annotations: the ops alone, for reading and
    for FileCheck tests that pin the IR's shape."""
    return _LOCATION.sub("", text)


def parse_module(text: Text) -> ModuleOp:
    """A module of any mytriton stage from its text (custom or generic form, layout aliases)."""
    from mytriton.dialects import make_context

    if isinstance(text, bytes):
        text = text.decode()
    try:
        module = Parser(make_context(), text).parse_module()
    except Exception as e:  # xDSL raises ParseError and, on odd input, other exceptions
        raise StageParseError(f"cannot parse the IR text: {e}") from None
    return module


def same_text(text: Text) -> Text:
    """The artifact of a text stage is its text."""
    return text
