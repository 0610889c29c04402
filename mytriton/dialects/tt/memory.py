"""`tt` pointer arithmetic and memory access: ``tt.addptr``, and the masked ``tt.load`` (through
a tensor map too: a TMA copy's source) and ``tt.store``, with Triton's syntax.

``TENSOR_MAP_TYPE`` is the type of a host tensor descriptor's tensor map."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Self

from xdsl.dialects.builtin import i1, i8, i32
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    AnyAttr,
    AttrSizedOperandSegments,
    IRDLOperation,
    VarConstraint,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import MemoryReadEffect, MemoryWriteEffect, Pure

from mytriton.dialects.tt.traits import LazyPatterns, verify_error
from mytriton.dialects.tt.types import (
    PointerType,
    element_type,
    is_bool,
    is_int,
    is_pointer,
    shape_of,
    type_str,
    with_element_type,
)

#: a host tensor descriptor's tensor map (what a TMA copy reads): bytes in global memory
TENSOR_MAP_TYPE = PointerType(i8)


@irdl_op_definition
class AddPtrOp(IRDLOperation):
    """``ptr + offset``: advance pointer(s) by an integer number of elements."""

    name = "tt.addptr"
    T: ClassVar = VarConstraint("T", AnyAttr())
    ptr = operand_def(T)
    offset = operand_def()
    result = result_def(T)
    traits = traits_def(Pure(), LazyPatterns())
    assembly_format = "$ptr `,` $offset attr-dict `:` type($result) `,` type($offset)"

    def __init__(self, ptr: SSAValue, offset: SSAValue):
        super().__init__(operands=[ptr, offset], result_types=[ptr.type])

    def verify_(self) -> None:
        if not is_pointer(self.ptr.type):
            raise verify_error(self, f"expected pointer(s), got {type_str(self.ptr.type)}")
        if not is_int(self.offset.type) or is_bool(self.offset.type):
            raise verify_error(self, f"offset must be an integer, got {type_str(self.offset.type)}")
        if shape_of(self.ptr.type) != shape_of(self.offset.type):
            raise verify_error(
                self,
                f"offset shape {list(shape_of(self.offset.type))} differs from pointer shape "
                f"{list(shape_of(self.ptr.type))}",
            )


def _pointee_block(ptr_type: Attribute) -> Attribute:
    """What loading through ``ptr_type`` gives: the pointee, same shape and layout."""
    elem = element_type(ptr_type)
    assert isinstance(elem, PointerType)
    return with_element_type(ptr_type, elem.pointee)


def _mask_type(ptr_type: Attribute) -> Attribute:
    return with_element_type(ptr_type, i1)


def _check_mask(op: Operation, mask: SSAValue | None, ptr_type: Attribute) -> None:
    if mask is None:
        return
    if mask.type != _mask_type(ptr_type):
        raise verify_error(
            op,
            f"mask must be {type_str(_mask_type(ptr_type))} to match the pointers, "
            f"got {type_str(mask.type)}",
        )


def _parse_operand_list(parser: Parser) -> list[UnresolvedOperand]:
    ops = [parser.parse_unresolved_operand()]
    while parser.parse_optional_punctuation(","):
        ops.append(parser.parse_unresolved_operand())
    return ops


@irdl_op_definition
class LoadOp(IRDLOperation):
    """``tl.load(ptr, mask, other)``: masked-off lanes are never read and take ``other``.

    A load of a host tensor descriptor's block also names the descriptor's tensor map and the
    block's coordinates (i32, outermost first): the same load, which software pipelining may
    turn into one copy by the tensor memory accelerator (TMA) on sm_90; everything else ignores
    them.

    Syntax (Triton's): ``tt.load %ptr[, %mask[, %other]] [tensor_map %map[%c0, ...]] : <pointer
    type>``.
    """

    name = "tt.load"
    ptr = operand_def()
    mask = opt_operand_def()
    other = opt_operand_def()
    tensor_map = opt_operand_def(TENSOR_MAP_TYPE)
    coords = var_operand_def(i32)
    result = result_def()
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(MemoryReadEffect(), LazyPatterns())

    def __init__(
        self,
        ptr: SSAValue,
        mask: SSAValue | None = None,
        other: SSAValue | None = None,
        tensor_map: SSAValue | None = None,
        coords: Sequence[SSAValue] = (),
    ):
        super().__init__(
            operands=[
                ptr,
                [mask] if mask else [],
                [other] if other else [],
                [tensor_map] if tensor_map else [],
                list(coords),
            ],
            result_types=[_pointee_block(ptr.type)],
        )

    def verify_(self) -> None:
        if not is_pointer(self.ptr.type):
            raise verify_error(self, f"expected pointer(s), got {type_str(self.ptr.type)}")
        expected = _pointee_block(self.ptr.type)
        if self.result.type != expected:
            raise verify_error(self, f"result type must be {type_str(expected)}")
        _check_mask(self, self.mask, self.ptr.type)
        if self.other is not None:
            if self.mask is None:
                raise verify_error(self, "'other' requires a mask")
            if self.other.type != expected:
                raise verify_error(
                    self, f"'other' must be {type_str(expected)}, got {type_str(self.other.type)}"
                )
        if self.tensor_map is None:
            if self.coords:
                raise verify_error(self, "coordinates need a tensor map")
        elif len(self.coords) != len(shape_of(expected)):
            raise verify_error(
                self, f"a {len(shape_of(expected))}-d block needs as many coordinates"
            )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(
            [v for v in (self.ptr, self.mask, self.other) if v is not None],
            printer.print_ssa_value,
        )
        if self.tensor_map is not None:
            printer.print_string(" tensor_map ")
            printer.print_ssa_value(self.tensor_map)
            printer.print_string("[")
            printer.print_list(self.coords, printer.print_ssa_value)
            printer.print_string("]")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.ptr.type)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        pos = parser.pos
        names = _parse_operand_list(parser)
        map_name: UnresolvedOperand | None = None
        coord_names: list[UnresolvedOperand] = []
        if parser.parse_optional_keyword("tensor_map"):
            map_name = parser.parse_unresolved_operand()
            coord_names = parser.parse_comma_separated_list(
                parser.Delimiter.SQUARE, parser.parse_unresolved_operand
            )
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        ptr_type = parser.parse_type()
        if len(names) > 3 or not is_pointer(ptr_type):
            parser.raise_error("expected 'tt.load %ptr[, %mask[, %other]] : <pointer type>'", pos)
        types = [ptr_type, _mask_type(ptr_type), _pointee_block(ptr_type)][: len(names)]
        vals = [parser.resolve_operand(n, t) for n, t in zip(names, types, strict=True)]
        tensor_map = None if map_name is None else parser.resolve_operand(map_name, TENSOR_MAP_TYPE)
        coords = [parser.resolve_operand(n, i32) for n in coord_names]
        mask, other = (*vals[1:], None, None)[:2]
        op = cls(vals[0], mask, other, tensor_map, coords)
        op.attributes |= attrs
        return op


@irdl_op_definition
class StoreOp(IRDLOperation):
    """``tl.store(ptr, value, mask)``: masked-off lanes are not written.

    A store of a tensor descriptor's block (host or in-kernel, 2-d) also names the descriptor's
    tensor map and the block's coordinates (i32, outermost first), as ``tt.load`` does: the same
    store, whose mask is exactly the descriptor's bounds, which ``ttg-tma-stores`` may turn into
    a TMA store on sm_90; everything else ignores them.

    Syntax (Triton's): ``tt.store %ptr, %value[, %mask] [tensor_map %map[%c0, ...]] :
    <pointer type>``.
    """

    name = "tt.store"
    ptr = operand_def()
    value = operand_def()
    mask = opt_operand_def()
    tensor_map = opt_operand_def(TENSOR_MAP_TYPE)
    coords = var_operand_def(i32)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(MemoryWriteEffect(), LazyPatterns())

    def __init__(
        self,
        ptr: SSAValue,
        value: SSAValue,
        mask: SSAValue | None = None,
        tensor_map: SSAValue | None = None,
        coords: Sequence[SSAValue] = (),
    ):
        super().__init__(
            operands=[
                ptr,
                value,
                [mask] if mask else [],
                [tensor_map] if tensor_map else [],
                list(coords),
            ]
        )

    def verify_(self) -> None:
        if not is_pointer(self.ptr.type):
            raise verify_error(self, f"expected pointer(s), got {type_str(self.ptr.type)}")
        expected = _pointee_block(self.ptr.type)
        if self.value.type != expected:
            raise verify_error(
                self, f"stored value must be {type_str(expected)}, got {type_str(self.value.type)}"
            )
        _check_mask(self, self.mask, self.ptr.type)
        if self.tensor_map is None:
            if self.coords:
                raise verify_error(self, "coordinates need a tensor map")
        elif len(self.coords) != len(shape_of(expected)):
            raise verify_error(
                self, f"a {len(shape_of(expected))}-d block needs as many coordinates"
            )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(
            [v for v in (self.ptr, self.value, self.mask) if v is not None],
            printer.print_ssa_value,
        )
        if self.tensor_map is not None:
            printer.print_string(" tensor_map ")
            printer.print_ssa_value(self.tensor_map)
            printer.print_string("[")
            printer.print_list(self.coords, printer.print_ssa_value)
            printer.print_string("]")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.ptr.type)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        pos = parser.pos
        names = _parse_operand_list(parser)
        map_name: UnresolvedOperand | None = None
        coord_names: list[UnresolvedOperand] = []
        if parser.parse_optional_keyword("tensor_map"):
            map_name = parser.parse_unresolved_operand()
            coord_names = parser.parse_comma_separated_list(
                parser.Delimiter.SQUARE, parser.parse_unresolved_operand
            )
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        ptr_type = parser.parse_type()
        if len(names) not in (2, 3) or not is_pointer(ptr_type):
            parser.raise_error("expected 'tt.store %ptr, %value[, %mask] : <pointer type>'", pos)
        types = [ptr_type, _pointee_block(ptr_type), _mask_type(ptr_type)][: len(names)]
        vals = [parser.resolve_operand(n, t) for n, t in zip(names, types, strict=True)]
        tensor_map = None if map_name is None else parser.resolve_operand(map_name, TENSOR_MAP_TYPE)
        coords = [parser.resolve_operand(n, i32) for n in coord_names]
        op = cls(vals[0], vals[1], vals[2] if len(vals) > 2 else None, tensor_map, coords)
        op.attributes |= attrs
        return op
