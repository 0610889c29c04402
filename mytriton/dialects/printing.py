"""Printing modules as text that re-parses to the same module, locations included: each
stage's text (``asm[stage]``), and a module's identity where a pass reuses earlier work."""

from __future__ import annotations

import functools
import io
from collections.abc import Callable, Hashable, Iterable, Mapping

from xdsl.dialects.builtin import FileLineColLoc, ModuleOp, UnregisteredOp
from xdsl.ir import Attribute, Operation, SSAValue, TypeAttribute
from xdsl.printer import Printer
from xdsl.traits import IsolatedFromAbove


class LocatedPrinter(Printer):
    """xDSL's printer with locations that always re-parse: its ``print_operation_type`` adds the
    op's location, right for the generic form, but a custom form that calls it (``scf.while``)
    then gets the location where the parser cannot read it, and again after the op.

    Faster on the same text: a lowered kernel repeats a few types, locations, op types and
    attribute dictionaries thousands of times, which xDSL prints again each time (a location's
    file name byte by byte), each piece through ``print()``; here each is printed once and its
    text reused, and text without a newline goes straight to the stream. A reused text is
    found first by the identity of its objects (the lowering shares one type or location
    object among many ops), and only then by equality, whose hash walks a nested type (a
    tensor's layout) whole at every op; a string literal is escaped in one piece; in the
    generic form (the ``gpu`` and ``mlir`` texts) an op without regions is written in a few
    strings (``print_op``)."""

    def print_string(self, text: str, *, indent: int | None = None) -> None:
        if self.stream is None or "\n" in text:
            super().print_string(text, indent=indent)
            return
        self._current_column += len(text)
        self.stream.write(text)

    def print_attribute(self, attribute: Attribute) -> None:
        if isinstance(attribute, TypeAttribute | FileLineColLoc):
            self._reuse(
                attribute,
                id(attribute),
                attribute,
                lambda: super(LocatedPrinter, self).print_attribute(attribute),
            )
        else:
            super().print_attribute(attribute)

    def print_function_type(
        self, input_types: Iterable[Attribute], output_types: Iterable[Attribute]
    ) -> None:
        inputs, outputs = tuple(input_types), tuple(output_types)
        self._reuse(
            ("->", inputs, outputs),
            ("->", *map(id, inputs), "->", *map(id, outputs)),
            (inputs, outputs),
            lambda: super(LocatedPrinter, self).print_function_type(inputs, outputs),
        )

    def print_attr_dict(self, attr_dict: Mapping[str, Attribute]) -> None:
        items = tuple(attr_dict.items())
        self._reuse(
            ("{}", items),
            ("{}", *(x for name, value in items for x in (name, id(value)))),
            items,
            lambda: super(LocatedPrinter, self).print_attr_dict(attr_dict),
        )

    def print_bytes_literal(self, bytestring: bytes) -> None:
        self.print_string(_bytes_literal(bytestring))

    def _reuse(
        self, key: Hashable, ident: Hashable, keep: object, print_it: Callable[[], None]
    ) -> None:
        """``print_it()``, whose text depends on ``key`` alone: printed once, then reused
        (directly where it spans lines, or where ``key`` does not hash). ``ident`` names
        ``key`` by the identity of the objects ``keep`` holds (kept alive with the text, so
        that no other object takes their ids while this printer lives)."""
        printed: dict[Hashable, str] = self.__dict__.setdefault("_printed", {})
        by_ident: dict[Hashable, tuple[object, str]] = self.__dict__.setdefault("_by_ident", {})
        if not self.printing_location and (hit := by_ident.get(ident)) is not None:
            self.print_string(hit[1])
            return
        try:
            text = None if self.printing_location else printed.get(key)
        except TypeError:  # an attribute holding a dict, say
            print_it()
            return
        if text is None:
            text = self._printed_alone(print_it)
            if text is None:
                print_it()
                return
            if not self.printing_location:
                printed[key] = text
        if not self.printing_location:
            by_ident[ident] = (keep, text)
        self.print_string(text)

    def _printed_alone(self, print_it: Callable[[], None]) -> str | None:
        """What ``print_it`` prints when on one line, else None; the printer's state is left
        as it was."""
        stream, line, column = self.stream, self._current_line, self._current_column
        self.stream = io.StringIO()
        try:
            print_it()
            text = self.stream.getvalue()
        finally:
            self.stream, self._current_line, self._current_column = stream, line, column
        return None if "\n" in text else text

    def print_op(self, op: Operation) -> None:
        """xDSL's ``print_op``; in the generic form, an op without regions or successors (a
        lowered kernel's ops but its loops and branches) is written in a few strings, names
        given as ``print_ssa_value`` gives them, instead of a call per name and delimiter
        under xDSL's context managers: the same text."""
        if (
            not self.print_generic_format
            or op.regions
            or op.successors
            or self.diagnostic.op_messages
            or _scoped(type(op))
        ):
            super().print_op(op)
            return
        name = self._ssa_name
        if op.results:
            self.print_string(", ".join(["%" + name(r) for r in op.results]) + " = ")
        operands = ", ".join(["%" + name(v) for v in op.operands])
        self.print_string(f'"{op.name}"({operands})')
        if op.properties:
            self.print_string(" <")
            self.print_attr_dict(op.properties)
            self.print_string(">")
        if op.attributes:
            self.print_string(" ")
            self.print_attr_dict(op.attributes)
        self.print_string(" : ")
        self.print_operation_type(op)

    def _ssa_name(self, value: SSAValue) -> str:
        """The name ``print_ssa_value`` prints ``value`` by (given on its first print)."""
        name = self._ssa_values.get(value)
        if name is None:
            hint = value.name_hint
            if hint:
                names = self._ssa_names[-1]
                index = names.get(hint, 0)
                name = f"{hint}_{index}" if index else hint
                names[hint] = index + 1
            else:
                name = self._get_new_valid_name_id()
            self._ssa_values[value] = name
        return name

    def print_operation_type(self, op: Operation) -> None:
        custom = not (self.print_generic_format or Operation.print is type(op).print)
        if custom and not isinstance(op, UnregisteredOp):
            self.print_function_type(op.operand_types, op.result_types)
        else:
            super().print_operation_type(op)


@functools.cache
def _scoped(op_type: type[Operation]) -> bool:
    """Whether ops of ``op_type`` open a naming scope (``IsolatedFromAbove``), or may not be
    registered ops (printed by their ``op_name__``): xDSL's ``print_op`` prints them."""
    return issubclass(op_type, UnregisteredOp) or bool(
        op_type.get_traits_of_type(IsolatedFromAbove)
    )


@functools.lru_cache(maxsize=1024)
def _bytes_literal(bytestring: bytes) -> str:
    """xDSL's quoted string literal (``Printer.print_bytes_literal``), made at once rather
    than written byte by byte: a location's file name is one at every distinct location."""
    return '"' + "".join(_BYTE_TEXT[b] for b in bytestring) + '"'


#: each byte as xDSL's string literal writes it: a backslash doubled, a control character, a
#: non-ASCII byte or a double quote as two hex digits after a backslash, the rest as itself
_BYTE_TEXT = tuple(
    "\\\\" if b == 0x5C else f"\\{b:02X}" if b < 0x20 or b > 0x7E or b == 0x22 else chr(b)
    for b in range(256)
)


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
