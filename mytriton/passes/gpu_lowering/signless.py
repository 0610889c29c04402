"""The last step of the lowering: unsigned integer types (``ui32``) become signless (``i32``).

`tt` keeps an integer's signedness in its type, so each pattern can pick the unsigned arith op
(``divui``, ``cmpi ult``, ``extui``, ``uitofp``, ``shrui``); upstream's dialects take signless
integers only. Patterns build their ops on the `tt` types, and this sweep erases the signedness
everywhere at once: results, block arguments, constants, buffers and the kernel's signature.
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    Signedness,
)
from xdsl.ir import Attribute, Operation, ParametrizedAttribute
from xdsl.rewriter import Rewriter


def signless(a: Attribute) -> Attribute:
    """``a`` with every integer type inside it signless (an unsigned constant's value written
    as the signless type's signed value)."""
    if isinstance(a, IntegerType):
        return IntegerType(a.width.data) if a.signedness.data != Signedness.SIGNLESS else a
    if isinstance(a, IntegerAttr) and isinstance(a.type, IntegerType):
        if a.type.signedness.data == Signedness.SIGNLESS:
            return a
        width, value = a.type.width.data, a.value.data
        if width > 1 and value >= 1 << (width - 1):
            value -= 1 << width
        return IntegerAttr(value, IntegerType(width))
    if isinstance(a, ArrayAttr):
        items = tuple(signless(x) for x in a.data)
        return a if items == a.data else ArrayAttr(items)
    if isinstance(a, DictionaryAttr):
        entries = {k: signless(v) for k, v in a.data.items()}
        return a if entries == a.data else DictionaryAttr(entries)
    if isinstance(a, ParametrizedAttribute) and a.parameters:
        params = tuple(signless(p) for p in a.parameters)
        return a if params == a.parameters else type(a).new(params)
    return a


class _Signless(dict[Attribute, Attribute]):
    """``signless`` of each attribute, computed once: a kernel's ops repeat a few types."""

    def __missing__(self, a: Attribute) -> Attribute:
        self[a] = out = signless(a)
        return out


def _rebuilt(op: Operation, erased: _Signless) -> Operation | None:
    """``op`` recreated with signless types, or None when it has no signedness to erase."""
    results = [erased[r.type] for r in op.results]
    props = {k: erased[v] for k, v in op.properties.items()}
    attrs = {k: erased[v] for k, v in op.attributes.items()}
    if (
        results == [r.type for r in op.results]
        and props == op.properties
        and attrs == op.attributes
    ):
        return None
    return type(op).create(
        operands=op.operands,
        result_types=results,
        properties=props,
        attributes=attrs,
        successors=op.successors,
        regions=[op.detach_region(r) for r in op.regions],
    )


def erase_signedness(module: ModuleOp) -> None:
    """Erase every signedness in place; the bitcasts that only changed it (``ui32`` to ``i32``)
    become no-ops and are dropped."""
    erased = _Signless()
    for op in list(module.walk()):
        for region in op.regions:
            for block in region.blocks:
                for arg in block.args:
                    t = erased[arg.type]
                    if t != arg.type:
                        Rewriter.replace_value_with_new_type(arg, t)
        new = _rebuilt(op, erased)
        if new is not None:
            new.location = op.location
            for old_result, new_result in zip(op.results, new.results, strict=True):
                new_result.name_hint = old_result.name_hint
            Rewriter.replace_op(op, new)
    for op in list(module.walk()):
        if isinstance(op, arith.BitcastOp) and op.input.type == op.result.type:
            op.result.replace_all_uses_with(op.input)
            Rewriter.erase_op(op)
