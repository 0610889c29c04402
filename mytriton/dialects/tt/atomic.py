"""Atomic read-modify-writes of the `tt` dialect: ``tt.atomic_rmw`` and ``tt.atomic_cas``.

Both return the value memory held before (per element); ``sem`` orders them against the
program's other memory accesses and ``scope`` says which threads they synchronize with, as
Triton's ``tl.atomic_*`` do. Signedness and floatness come from the pointee type, so one
``max`` kind covers Triton's ``max``/``umax``; a float ``max``/``min`` (f32, f64) is Triton's
sign split: a value with the sign bit clear takes the signed integer max (min) of the bit
patterns, one with it set the unsigned min (max). The NumPy semantics of each kind sit here
beside the ops (``combine``, ``swap_if_equal``), shared by the interpreter.

Syntax: ``tt.atomic_rmw add, acq_rel, gpu, %ptr, %val[, %mask] : <pointer type>`` and
``tt.atomic_cas acq_rel, gpu, %ptr, %cmp, %val : <pointer type>``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Self

import numpy as np
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerType,
    i1,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, SpacedOpaqueSyntaxAttribute, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import MemoryReadEffect, MemoryWriteEffect
from xdsl.utils.str_enum import StrEnum

from mytriton.dialects.tt.traits import verify_error
from mytriton.dialects.tt.types import (
    GLOBAL_ADDRESS_SPACE,
    PointerType,
    element_type,
    is_float,
    is_pointer,
    type_str,
    with_element_type,
)

Array = np.ndarray

# --------------------------------------------------------------------------------------------
# Attributes
# --------------------------------------------------------------------------------------------


class AtomicKind(StrEnum):
    ADD = "add"
    MAX = "max"
    MIN = "min"
    AND = "and"
    OR = "or"
    XOR = "xor"
    XCHG = "xchg"


@irdl_attr_definition
class AtomicKindAttr(EnumAttribute[AtomicKind], SpacedOpaqueSyntaxAttribute):
    """What ``tt.atomic_rmw`` combines memory with: ``#tt<atomic_kind add>``."""

    name = "tt.atomic_kind"


class MemSemantic(StrEnum):
    RELAXED = "relaxed"
    ACQUIRE = "acquire"
    RELEASE = "release"
    ACQ_REL = "acq_rel"


@irdl_attr_definition
class MemSemanticAttr(EnumAttribute[MemSemantic], SpacedOpaqueSyntaxAttribute):
    """The memory ordering of an atomic (``sem=``; Triton's default is ``acq_rel``)."""

    name = "tt.mem_semantic"


class MemScope(StrEnum):
    CTA = "cta"
    GPU = "gpu"
    SYS = "sys"


@irdl_attr_definition
class MemScopeAttr(EnumAttribute[MemScope], SpacedOpaqueSyntaxAttribute):
    """The threads an atomic synchronizes with (``scope=``; Triton's default is ``gpu``)."""

    name = "tt.mem_scope"


DEFAULT_SEM = MemSemantic.ACQ_REL
DEFAULT_SCOPE = MemScope.GPU

# --------------------------------------------------------------------------------------------
# Element types each kind takes (Triton 3.6's ``semantic.py`` rules)
# --------------------------------------------------------------------------------------------


def _is_int_of(t: Attribute, widths: Sequence[int]) -> bool:
    return isinstance(t, IntegerType) and t.width.data in widths


def kind_accepts(kind: AtomicKind, t: Attribute) -> bool:
    """Whether ``tt.atomic_rmw`` of ``kind`` works on elements of type ``t``: 32/64-bit
    integers for every kind; f32/f64 for add, max, min and xchg; f16/bf16 for add only."""
    if _is_int_of(t, (32, 64)):
        return True
    if isinstance(t, Float32Type | Float64Type):
        return kind in (AtomicKind.ADD, AtomicKind.MAX, AtomicKind.MIN, AtomicKind.XCHG)
    if isinstance(t, Float16Type | BFloat16Type):
        return kind is AtomicKind.ADD
    return False


def cas_accepts(t: Attribute) -> bool:
    """``tt.atomic_cas`` compares 16-, 32- or 64-bit elements (their bits, floats included)."""
    if isinstance(t, IntegerType):
        return t.width.data in (16, 32, 64)
    return isinstance(t, Float16Type | BFloat16Type | Float32Type | Float64Type)


# --------------------------------------------------------------------------------------------
# Ops
# --------------------------------------------------------------------------------------------


def _pointee_block(ptr_type: Attribute) -> Attribute:
    elem = element_type(ptr_type)
    assert isinstance(elem, PointerType)
    return with_element_type(ptr_type, elem.pointee)


def _check_pointer(op: IRDLOperation, ptr: SSAValue) -> Attribute:
    """The pointee type of a global pointer (block) operand."""
    if not is_pointer(ptr.type):
        raise verify_error(op, f"expected pointer(s), got {type_str(ptr.type)}")
    elem = element_type(ptr.type)
    assert isinstance(elem, PointerType)
    if elem.address_space.data != GLOBAL_ADDRESS_SPACE:
        raise verify_error(op, "atomics need pointers to global memory")
    return elem.pointee


def _check_operand(op: IRDLOperation, what: str, v: SSAValue, expected: Attribute) -> None:
    if v.type != expected:
        raise verify_error(op, f"{what} must be {type_str(expected)}, got {type_str(v.type)}")


def _print_operands(
    printer: Printer, words: list[str], operands: list[SSAValue], op: IRDLOperation
) -> None:
    printer.print_string(" " + ", ".join(words) + ", ")
    printer.print_list(operands, printer.print_ssa_value)
    printer.print_op_attributes(op.attributes)
    printer.print_string(" : ")
    printer.print_attribute(operands[0].type)


def _parse_words(parser: Parser, count: int) -> list[str]:
    words = []
    for _ in range(count):
        words.append(parser.parse_identifier())
        parser.parse_punctuation(",")
    return words


def _parse_operands(parser: Parser) -> list[UnresolvedOperand]:
    ops = [parser.parse_unresolved_operand()]
    while parser.parse_optional_punctuation(","):
        ops.append(parser.parse_unresolved_operand())
    return ops


def _enum(parser: Parser, cls: type[StrEnum], word: str, pos: int) -> StrEnum:
    try:
        return cls(word)
    except ValueError:
        parser.raise_error(f"expected one of {', '.join(e.value for e in cls)}, got '{word}'", pos)


@irdl_op_definition
class AtomicRMWOp(IRDLOperation):
    """``tl.atomic_<kind>(ptr, val, mask, sem, scope)``: per active element, atomically
    ``*ptr = kind(*ptr, val)``; the result is the old value (masked-off lanes: unspecified)."""

    name = "tt.atomic_rmw"
    ptr = operand_def()
    val = operand_def()
    mask = opt_operand_def()
    kind = prop_def(AtomicKindAttr)
    sem = prop_def(MemSemanticAttr)
    scope = prop_def(MemScopeAttr)
    result = result_def()
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())

    def __init__(
        self,
        kind: AtomicKind,
        ptr: SSAValue,
        val: SSAValue,
        mask: SSAValue | None = None,
        sem: MemSemantic = DEFAULT_SEM,
        scope: MemScope = DEFAULT_SCOPE,
    ):
        super().__init__(
            operands=[ptr, val, [mask] if mask else []],
            properties={
                "kind": AtomicKindAttr(kind),
                "sem": MemSemanticAttr(sem),
                "scope": MemScopeAttr(scope),
            },
            result_types=[_pointee_block(ptr.type)] if is_pointer(ptr.type) else [val.type],
        )

    def verify_(self) -> None:
        pointee = _check_pointer(self, self.ptr)
        kind = self.kind.data
        if not kind_accepts(kind, pointee):
            raise verify_error(self, f"atomic {kind} does not support {type_str(pointee)}")
        expected = _pointee_block(self.ptr.type)
        _check_operand(self, "the value", self.val, expected)
        _check_operand(self, "the result", self.result, expected)
        if self.mask is not None:
            _check_operand(self, "the mask", self.mask, with_element_type(self.ptr.type, i1))

    def print(self, printer: Printer) -> None:
        words = [self.kind.data.value, self.sem.data.value, self.scope.data.value]
        operands = [v for v in (self.ptr, self.val, self.mask) if v is not None]
        _print_operands(printer, words, operands, self)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        pos = parser.pos
        kind, sem, scope = _parse_words(parser, 3)
        names = _parse_operands(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        ptr_type = parser.parse_type()
        if len(names) not in (2, 3) or not is_pointer(ptr_type):
            parser.raise_error(
                "expected 'tt.atomic_rmw KIND, SEM, SCOPE, %ptr, %val[, %mask] : <pointer type>'",
                pos,
            )
        types = [ptr_type, _pointee_block(ptr_type), with_element_type(ptr_type, i1)]
        vals = [parser.resolve_operand(n, t) for n, t in zip(names, types, strict=False)]
        op = cls(
            AtomicKind(_enum(parser, AtomicKind, kind, pos)),
            vals[0],
            vals[1],
            vals[2] if len(vals) == 3 else None,
            MemSemantic(_enum(parser, MemSemantic, sem, pos)),
            MemScope(_enum(parser, MemScope, scope, pos)),
        )
        op.attributes |= attrs
        return op


@irdl_op_definition
class AtomicCASOp(IRDLOperation):
    """``tl.atomic_cas(ptr, cmp, val, sem, scope)``: per element, atomically
    ``old = *ptr; if old == cmp: *ptr = val``, comparing bit patterns; the result is ``old``."""

    name = "tt.atomic_cas"
    ptr = operand_def()
    cmp = operand_def()
    val = operand_def()
    sem = prop_def(MemSemanticAttr)
    scope = prop_def(MemScopeAttr)
    result = result_def()
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())

    def __init__(
        self,
        ptr: SSAValue,
        cmp: SSAValue,
        val: SSAValue,
        sem: MemSemantic = DEFAULT_SEM,
        scope: MemScope = DEFAULT_SCOPE,
    ):
        super().__init__(
            operands=[ptr, cmp, val],
            properties={"sem": MemSemanticAttr(sem), "scope": MemScopeAttr(scope)},
            result_types=[_pointee_block(ptr.type)] if is_pointer(ptr.type) else [val.type],
        )

    def verify_(self) -> None:
        pointee = _check_pointer(self, self.ptr)
        if not cas_accepts(pointee):
            raise verify_error(
                self, f"atomic_cas needs 16-, 32- or 64-bit elements, got {type_str(pointee)}"
            )
        expected = _pointee_block(self.ptr.type)
        _check_operand(self, "the compared value", self.cmp, expected)
        _check_operand(self, "the new value", self.val, expected)
        _check_operand(self, "the result", self.result, expected)

    def print(self, printer: Printer) -> None:
        words = [self.sem.data.value, self.scope.data.value]
        _print_operands(printer, words, [self.ptr, self.cmp, self.val], self)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        pos = parser.pos
        sem, scope = _parse_words(parser, 2)
        names = _parse_operands(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        ptr_type = parser.parse_type()
        if len(names) != 3 or not is_pointer(ptr_type):
            parser.raise_error(
                "expected 'tt.atomic_cas SEM, SCOPE, %ptr, %cmp, %val : <pointer type>'", pos
            )
        value_type = _pointee_block(ptr_type)
        ptr, cmp, val = (
            parser.resolve_operand(n, t)
            for n, t in zip(names, [ptr_type, value_type, value_type], strict=True)
        )
        op = cls(
            ptr,
            cmp,
            val,
            MemSemantic(_enum(parser, MemSemantic, sem, pos)),
            MemScope(_enum(parser, MemScope, scope, pos)),
        )
        op.attributes |= attrs
        return op


TT_ATOMIC_OPS: Sequence[type[IRDLOperation]] = (AtomicRMWOp, AtomicCASOp)
TT_ATOMIC_ATTRS: Sequence[type[Attribute]] = (AtomicKindAttr, MemSemanticAttr, MemScopeAttr)

# --------------------------------------------------------------------------------------------
# NumPy semantics (one element at a time, or many distinct elements at once)
# --------------------------------------------------------------------------------------------


def _bits(x: Array, signed: bool) -> Array:
    return x.view(np.dtype(f"{'i' if signed else 'u'}{x.dtype.itemsize}"))


def _float_extremum(old: Array, val: Array, larger: bool) -> Array:
    """Triton's float max/min on the bit patterns: a value with its sign bit clear takes the
    signed integer max (min), one with it set the unsigned integer min (max)."""
    negative = _bits(val, signed=True) < 0
    so, sv = _bits(old, signed=True), _bits(val, signed=True)
    uo, uv = _bits(old, signed=False), _bits(val, signed=False)
    take = np.where(negative, uv < uo, sv > so) if larger else np.where(negative, uv > uo, sv < so)
    return np.where(take, val, old)


def combine(kind: AtomicKind, old: Array, val: Array, element: Attribute) -> Array:
    """What ``tt.atomic_rmw`` of ``kind`` leaves in memory holding ``old`` (``element`` the
    pointee type; NumPy's integer dtypes carry the signedness)."""
    floating = is_float(element)
    with np.errstate(all="ignore"):
        if kind is AtomicKind.ADD:
            return (old + val).astype(old.dtype)
        if kind is AtomicKind.XCHG:
            return val.astype(old.dtype)
        if kind in (AtomicKind.MAX, AtomicKind.MIN):
            larger = kind is AtomicKind.MAX
            if floating:
                return _float_extremum(old, val, larger)
            return np.maximum(old, val) if larger else np.minimum(old, val)
        if kind is AtomicKind.AND:
            return old & val
        if kind is AtomicKind.OR:
            return old | val
        assert kind is AtomicKind.XOR
        return old ^ val


def swap_if_equal(old: Array, cmp: Array, val: Array) -> Array:
    """What ``tt.atomic_cas`` leaves in memory holding ``old``: ``val`` where the bits of
    ``old`` equal those of ``cmp``."""
    return np.where(_bits(old, False) == _bits(cmp.astype(old.dtype), False), val, old)
