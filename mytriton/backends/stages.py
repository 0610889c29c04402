"""Compilation stages as data: what each step makes, how it prints, and how its text re-parses.

A stage turns the artifact of the stage before it into its own (a module, a source text, a
binary). The runtime owns the order (``tt``, ``tt-opt``, then a backend's stages); backends
contribute their stages as ``Stage`` values, so the runtime can print every stage once, dump it,
replace it with an edited file, or start compiling from any stage's text.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from xdsl.dialects.builtin import ModuleOp, UnregisteredOp
from xdsl.ir import Operation
from xdsl.parser import Parser
from xdsl.printer import Printer

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
    ``text`` prints it (``asm[name]``, dumps); ``parse`` reads such a text back."""

    name: str
    suffix: str  # of dump and override files: ``add_kernel`` + ``.ttg.mlir``
    run: Callable[[Artifact, Any], Artifact]
    text: Callable[[Artifact], Text]
    parse: Callable[[Text], Artifact]

    @property
    def binary(self) -> bool:
        return not self.suffix.endswith((".mlir", ".cu", ".ptx"))


class LocatedPrinter(Printer):
    """xDSL's printer with locations that always re-parse: its ``print_operation_type`` adds the
    op's location, right for the generic form, but a custom form that calls it (``scf.while``)
    then gets the location where the parser cannot read it, and again after the op."""

    def print_operation_type(self, op: Operation) -> None:
        custom = not (self.print_generic_format or Operation.print is type(op).print)
        if custom and not isinstance(op, UnregisteredOp):
            self.print_function_type(op.operand_types, op.result_types)
        else:
            super().print_operation_type(op)


def print_module(module: ModuleOp) -> str:
    """Custom-form MLIR with locations, so a stage's text re-parses to the same module (an
    edited dump still reports errors at the kernel's Python lines)."""
    out = io.StringIO()
    LocatedPrinter(stream=out, print_debuginfo=True).print_op(module)
    return out.getvalue()


def print_generic(module: ModuleOp) -> str:
    """Generic-form MLIR with locations: what ``mlir-opt`` parses and FileCheck tests read."""
    out = io.StringIO()
    LocatedPrinter(stream=out, print_generic_format=True, print_debuginfo=True).print_op(module)
    return out.getvalue() + "\n"


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
