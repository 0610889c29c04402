"""The `tt` dialect: Triton's block-level programming model as xDSL operations.

Blocks are builtin tensors (see ``tt_types``). This file holds the structural ops: program ids,
ranges, splats and broadcasts, pointer arithmetic, masked memory access, reductions, factories
and ``dot``; elementwise arithmetic, comparisons, ``select``, math and casts are in
``tt_elementwise`` (xDSL's ``arith`` only handles scalars, and our ops carry exact GPU
semantics). Each op's verifier states the seed's rules; canonicalization patterns live in
``tt_canonicalize`` and are attached lazily (xDSL needs the op classes first).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar, Self

from xdsl.dialects.builtin import (
    I32,
    Float8E4M3FNType,
    Float8E5M2Type,
    IntegerAttr,
    StringAttr,
    TensorType,
    UnitAttr,
    bf16,
    f16,
    f32,
    f64,
    i1,
    i8,
    i32,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import (
    Attribute,
    Operation,
    SpacedOpaqueSyntaxAttribute,
    SSAValue,
)
from xdsl.irdl import (
    AnyAttr,
    AttrSizedOperandSegments,
    IRDLOperation,
    ParsePropInAttrDict,
    VarConstraint,
    base,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_attr_def,
    opt_operand_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import (
    MemoryReadEffect,
    MemoryWriteEffect,
    Pure,
)
from xdsl.utils.str_enum import StrEnum

from mytriton.dialects.tt.constants import UnsignedConstantOp
from mytriton.dialects.tt.reduce import (
    ReduceOp,
    ReduceReturnOp,
    ScanOp,
    ScanReturnOp,
)
from mytriton.dialects.tt.traits import LazyPatterns, check_new_block, verify_error
from mytriton.dialects.tt.types import (
    PointerType,
    element_type,
    is_block,
    is_bool,
    is_float,
    is_int,
    is_pointer,
    is_power_of_two,
    shape_of,
    type_str,
    with_element_type,
)

#: a host tensor descriptor's tensor map (what a TMA copy reads): bytes in global memory
TENSOR_MAP_TYPE = PointerType(i8)

# --------------------------------------------------------------------------------------------
# Attributes
# --------------------------------------------------------------------------------------------


class ProgramAxis(StrEnum):
    X = "x"
    Y = "y"
    Z = "z"


@irdl_attr_definition
class ProgramAxisAttr(EnumAttribute[ProgramAxis], SpacedOpaqueSyntaxAttribute):
    """Grid axis of ``program_id``/``num_programs``: ``x``, ``y`` or ``z`` (axis 0, 1, 2)."""

    name = "tt.axis"

    @staticmethod
    def from_index(axis: int) -> ProgramAxisAttr:
        return ProgramAxisAttr(list(ProgramAxis)[axis])

    @property
    def index(self) -> int:
        return list(ProgramAxis).index(self.data)


# --------------------------------------------------------------------------------------------
# Program model
# --------------------------------------------------------------------------------------------


@irdl_op_definition
class GetProgramIdOp(IRDLOperation):
    """``tl.program_id(axis)``: index of this program along a grid axis."""

    name = "tt.get_program_id"
    axis = prop_def(ProgramAxisAttr)
    result = result_def(I32)
    traits = traits_def(Pure())
    assembly_format = "$axis attr-dict `:` type($result)"

    def __init__(self, axis: int):
        super().__init__(properties={"axis": ProgramAxisAttr.from_index(axis)}, result_types=[i32])


@irdl_op_definition
class GetNumProgramsOp(IRDLOperation):
    """``tl.num_programs(axis)``: size of the launch grid along an axis."""

    name = "tt.get_num_programs"
    axis = prop_def(ProgramAxisAttr)
    result = result_def(I32)
    traits = traits_def(Pure())
    assembly_format = "$axis attr-dict `:` type($result)"

    def __init__(self, axis: int):
        super().__init__(properties={"axis": ProgramAxisAttr.from_index(axis)}, result_types=[i32])


@irdl_op_definition
class MakeRangeOp(IRDLOperation):
    """``tl.arange(start, end)``: the block ``[start, start+1, ..., end-1]`` of i32."""

    name = "tt.make_range"
    start = prop_def(IntegerAttr[I32])
    end = prop_def(IntegerAttr[I32])
    result = result_def(TensorType)
    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "attr-dict `:` type($result)"

    def __init__(self, start: int, end: int):
        super().__init__(
            properties={"start": IntegerAttr(start, i32), "end": IntegerAttr(end, i32)},
            result_types=[TensorType(i32, [end - start])],
        )

    def verify_(self) -> None:
        start, end = self.start.value.data, self.end.value.data
        if start < 0:
            raise verify_error(self, f"start must be non-negative, got {start}")
        if end <= start:
            raise verify_error(self, f"end ({end}) must be greater than start ({start})")
        if not is_power_of_two(end - start):
            raise verify_error(
                self, f"range size end - start = {end - start} must be a power of two"
            )
        if shape_of(self.result.type) != (end - start,) or element_type(self.result.type) != i32:
            expected = TensorType(i32, [end - start])
            raise verify_error(self, f"result type must be {type_str(expected)}")


# --------------------------------------------------------------------------------------------
# Shape manipulation
# --------------------------------------------------------------------------------------------


@irdl_op_definition
class SplatOp(IRDLOperation):
    """Broadcast a scalar to every element of a block (implicit scalar-block broadcasting)."""

    name = "tt.splat"
    src = operand_def()
    result = result_def(TensorType)
    traits = traits_def(Pure(), LazyPatterns())
    assembly_format = "$src attr-dict `:` type($src) `->` type($result)"

    def __init__(self, src: SSAValue, result_type: Attribute):
        super().__init__(operands=[src], result_types=[result_type])

    def verify_(self) -> None:
        if is_block(self.src.type):
            raise verify_error(self, f"operand must be a scalar, got {type_str(self.src.type)}")
        check_new_block(self, self.result.type)
        if element_type(self.result.type) != self.src.type:
            raise verify_error(
                self,
                f"result element type {type_str(element_type(self.result.type))} "
                f"differs from operand type {type_str(self.src.type)}",
            )


@irdl_op_definition
class BroadcastOp(IRDLOperation):
    """Stretch the size-1 dimensions of a block to a larger shape of the same rank."""

    name = "tt.broadcast"
    src = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure(), LazyPatterns())
    assembly_format = "$src attr-dict `:` type($src) `->` type($result)"

    def __init__(self, src: SSAValue, result_type: Attribute):
        super().__init__(operands=[src], result_types=[result_type])

    def verify_(self) -> None:
        src, dst = shape_of(self.src.type), shape_of(self.result.type)
        if element_type(self.src.type) != element_type(self.result.type):
            raise verify_error(self, "operand and result element types differ")
        if len(src) != len(dst):
            raise verify_error(
                self, f"rank changes from {len(src)} to {len(dst)}; use expand_dims first"
            )
        for i, (a, b) in enumerate(zip(src, dst, strict=True)):
            if a != b and a != 1:
                raise verify_error(self, f"dimension {i} of size {a} cannot broadcast to {b}")
        check_new_block(self, self.result.type)


@irdl_op_definition
class ExpandDimsOp(IRDLOperation):
    """Insert a size-1 dimension at ``axis`` (``x[:, None]`` is axis 1, ``x[None, :]`` axis 0)."""

    name = "tt.expand_dims"
    src = operand_def(TensorType)
    axis = prop_def(IntegerAttr[I32])
    result = result_def(TensorType)
    traits = traits_def(Pure(), LazyPatterns())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$src attr-dict `:` type($src) `->` type($result)"

    def __init__(self, src: SSAValue, axis: int):
        shape = list(shape_of(src.type))
        shape.insert(axis, 1)
        super().__init__(
            operands=[src],
            properties={"axis": IntegerAttr(axis, i32)},
            result_types=[TensorType(element_type(src.type), shape)],
        )

    def verify_(self) -> None:
        src = list(shape_of(self.src.type))
        axis = self.axis.value.data
        if not 0 <= axis <= len(src):
            raise verify_error(self, f"axis {axis} out of range for a rank-{len(src)} block")
        expected = [*src[:axis], 1, *src[axis:]]
        if list(shape_of(self.result.type)) != expected:
            raise verify_error(self, f"result shape must be {expected}")
        if element_type(self.src.type) != element_type(self.result.type):
            raise verify_error(self, "operand and result element types differ")


# --------------------------------------------------------------------------------------------
# Pointers and memory
# --------------------------------------------------------------------------------------------


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

    Syntax (Triton's): ``tt.store %ptr, %value[, %mask] : <pointer type>``.
    """

    name = "tt.store"
    ptr = operand_def()
    value = operand_def()
    mask = opt_operand_def()
    traits = traits_def(MemoryWriteEffect(), LazyPatterns())

    def __init__(self, ptr: SSAValue, value: SSAValue, mask: SSAValue | None = None):
        super().__init__(operands=[ptr, value, [mask] if mask else []])

    def verify_(self) -> None:
        if not is_pointer(self.ptr.type):
            raise verify_error(self, f"expected pointer(s), got {type_str(self.ptr.type)}")
        expected = _pointee_block(self.ptr.type)
        if self.value.type != expected:
            raise verify_error(
                self, f"stored value must be {type_str(expected)}, got {type_str(self.value.type)}"
            )
        _check_mask(self, self.mask, self.ptr.type)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(
            [v for v in (self.ptr, self.value, self.mask) if v is not None],
            printer.print_ssa_value,
        )
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.ptr.type)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        pos = parser.pos
        names = _parse_operand_list(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        ptr_type = parser.parse_type()
        if len(names) not in (2, 3) or not is_pointer(ptr_type):
            parser.raise_error("expected 'tt.store %ptr, %value[, %mask] : <pointer type>'", pos)
        types = [ptr_type, _pointee_block(ptr_type), _mask_type(ptr_type)][: len(names)]
        vals = [parser.resolve_operand(n, t) for n, t in zip(names, types, strict=True)]
        op = cls(*vals)
        op.attributes |= attrs
        return op


# --------------------------------------------------------------------------------------------
# Reductions
# --------------------------------------------------------------------------------------------


# ``tt.reduce`` and ``tt.scan`` (region ops) live in tt_reduce.py; re-exported here.


# --------------------------------------------------------------------------------------------
# Block factories
# --------------------------------------------------------------------------------------------


def _check_factory_dtype(op: Operation) -> None:
    e = element_type(op.results[0].type)
    if not (is_int(e) or is_float(e)):
        raise verify_error(op, f"element type must be an integer or a float, got {type_str(e)}")


@irdl_op_definition
class ZerosOp(IRDLOperation):
    """``tl.zeros(shape, dtype)``: a block of zeros."""

    name = "tt.zeros"
    result = result_def(TensorType)
    traits = traits_def(Pure())
    assembly_format = "attr-dict `:` type($result)"

    def __init__(self, result_type: Attribute):
        super().__init__(result_types=[result_type])

    def verify_(self) -> None:
        check_new_block(self, self.result.type)
        _check_factory_dtype(self)


@irdl_op_definition
class FullOp(IRDLOperation):
    """``tl.full(shape, value, dtype)``: a block filled with a scalar (already of ``dtype``)."""

    name = "tt.full"
    value = operand_def()
    result = result_def(TensorType)
    traits = traits_def(Pure())
    assembly_format = "$value attr-dict `:` type($value) `->` type($result)"

    def __init__(self, value: SSAValue, result_type: Attribute):
        super().__init__(operands=[value], result_types=[result_type])

    def verify_(self) -> None:
        check_new_block(self, self.result.type)
        _check_factory_dtype(self)
        if is_block(self.value.type):
            raise verify_error(self, "the fill value must be a scalar, not a block")
        if self.value.type != element_type(self.result.type):
            raise verify_error(
                self,
                f"fill value type {type_str(self.value.type)} differs from element type "
                f"{type_str(element_type(self.result.type))}",
            )


@irdl_op_definition
class EmptyOp(IRDLOperation):
    """``tl.empty(shape, dtype)``: a block whose contents are undefined (poison)."""

    name = "tt.empty"
    result = result_def(TensorType)
    traits = traits_def(Pure())
    assembly_format = "attr-dict `:` type($result)"

    def __init__(self, result_type: Attribute):
        super().__init__(result_types=[result_type])

    def verify_(self) -> None:
        check_new_block(self, self.result.type)
        _check_factory_dtype(self)


# --------------------------------------------------------------------------------------------
# Linear algebra
# --------------------------------------------------------------------------------------------


# The accumulator element types each ``tt.dot`` operand element type allows (Triton's rules).
DOT_INPUT_PRECISIONS = ("tf32", "tf32x3", "bf16x3", "bf16x6", "ieee")
DOT_ACCUMULATORS: dict[Attribute, tuple[Attribute, ...]] = {
    i8: (i32,),
    f16: (f16, f32),
    Float8E4M3FNType(): (f16, f32),  # fp8e4nv and fp8e5: Hopper's fp8 warpgroup MMAs take them
    Float8E5M2Type(): (f16, f32),
    bf16: (f32,),
    f32: (f32,),
    f64: (f64,),
}
FP8_MMA_TYPES = {Float8E4M3FNType(), Float8E5M2Type()}  # a dot may take one of each
#: the checks of the dialects that put attributes on ``tt.dot`` (``ttg``'s: ``ttg/mma.py``),
#: run by its verifier: the attributes' types belong to those dialects, above this one
DOT_ATTRIBUTE_CHECKS: list[Callable[[DotOp], None]] = []


@irdl_op_definition
class DotOp(IRDLOperation):
    """``tl.dot(a, b, acc)``: ``a [M,K] @ b [K,N] + acc [M,N]``, accumulated in the accumulator's
    type: i8 operands into i32, f16 into f16 or f32, bf16 and f32 into f32, f64 into f64, fp8e4nv
    or fp8e5 (``f8E4M3FN``, ``f8E5M2``: either for each operand) into f16 or f32, each element as
    its float value (``tt-legalize-fp8-dots`` makes them f16 where no fp8 MMA runs the dot).

    ``input_precision`` (f32 operands; Triton's ``inputPrecision``): ``"tf32"`` lets tensor cores
    read the operands as TF32; the others ask for (about) f32 accuracy, which the CUDA-core dot
    gives (``tt-legalize-tf32x3-dots`` makes a ``"tf32x3"`` one three tf32 dots where those
    run on tensor cores). Absent: ieee.

    ``max_num_imprecise_acc`` (fp8 operands into f32; Triton's ``maxNumImpreciseAcc``): at most
    that many products of a row and column, rounded up to whole instructions, are summed in
    the tensor cores' accumulator (on Hopper, fewer bits than f32) before the partial sum is
    added into the f32 accumulator. Absent: all of K, the accumulator included."""

    name = "tt.dot"
    a = operand_def(TensorType)
    b = operand_def(TensorType)
    R: ClassVar = VarConstraint("R", base(TensorType))
    acc = operand_def(R)
    result = result_def(R)
    input_precision = opt_attr_def(StringAttr)
    max_num_imprecise_acc = opt_attr_def(IntegerAttr)
    # the `ttg` decisions about the dot (the instruction, its operands' shared-memory staging,
    # whether it runs asynchronously): their types belong to `ttg`, which checks them
    # (``DOT_ATTRIBUTE_CHECKS``: ``dialects/ttg/mma.py``)
    mma = opt_attr_def(Attribute, attr_name="ttg.mma")
    lhs_shared = opt_attr_def(Attribute, attr_name="ttg.lhs_shared")
    rhs_shared = opt_attr_def(Attribute, attr_name="ttg.rhs_shared")
    is_async = opt_attr_def(UnitAttr, attr_name="ttg.async")
    traits = traits_def(Pure())
    assembly_format = "$a `,` $b `,` $acc attr-dict `:` type($a) `*` type($b) `->` type($result)"

    def __init__(
        self,
        a: SSAValue,
        b: SSAValue,
        acc: SSAValue,
        input_precision: str | None = None,
        max_num_imprecise_acc: int | None = None,
    ):
        attributes: dict[str, Attribute] = {}
        if input_precision is not None:
            attributes["input_precision"] = StringAttr(input_precision)
        if max_num_imprecise_acc is not None:
            attributes["max_num_imprecise_acc"] = IntegerAttr(max_num_imprecise_acc, i32)
        super().__init__(operands=[a, b, acc], result_types=[acc.type], attributes=attributes)

    def verify_(self) -> None:
        self._verify_types()
        for check in DOT_ATTRIBUTE_CHECKS:
            check(self)

    def _verify_types(self) -> None:
        a, b, c = (shape_of(v.type) for v in (self.a, self.b, self.acc))
        if len(a) not in (2, 3) or len(b) != len(a):
            raise verify_error(
                self,
                f"operands must be rank-2 blocks (rank-3 for a batched dot), got ranks {len(a)} "
                f"and {len(b)}",
            )
        batch = a[:-2]
        if b[:-2] != batch:
            raise verify_error(self, f"batch dimensions differ: {list(a)} x {list(b)}")
        a, b = a[-2:], b[-2:]
        if a[1] != b[0]:
            raise verify_error(
                self, f"inner dimensions differ: [{a[0]}, {a[1]}] x [{b[0]}, {b[1]}]"
            )
        operand, accumulator = element_type(self.a.type), element_type(self.acc.type)
        fp8_pair = {operand, element_type(self.b.type)} <= FP8_MMA_TYPES
        if element_type(self.b.type) != operand and not fp8_pair:
            raise verify_error(
                self,
                f"operands must have one element type, got {type_str(self.a.type)} and "
                f"{type_str(self.b.type)}",
            )
        allowed = DOT_ACCUMULATORS.get(operand)
        if allowed is None:
            raise verify_error(self, f"unsupported operand type {type_str(self.a.type)}")
        if accumulator not in allowed:
            raise verify_error(
                self,
                f"accumulator of {operand} operands must hold "
                f"{' or '.join(str(t) for t in allowed)}, got {type_str(self.acc.type)}",
            )
        if c != (*batch, a[0], b[1]):
            raise verify_error(self, f"accumulator must be {[*batch, a[0], b[1]]}, got {list(c)}")
        if self.result.type != self.acc.type:
            raise verify_error(self, "result type must equal the accumulator type")
        precision = self.precision
        if precision not in DOT_INPUT_PRECISIONS:
            raise verify_error(
                self,
                f"input_precision must be one of {', '.join(DOT_INPUT_PRECISIONS)}, got "
                f"{precision!r}",
            )
        interval = self.promotion_interval
        if interval is not None:
            if not fp8_pair or accumulator != f32:
                raise verify_error(
                    self, "max_num_imprecise_acc is for fp8 operands into an f32 accumulator"
                )
            if not 1 <= interval <= a[1]:
                raise verify_error(
                    self, f"max_num_imprecise_acc must be 1 to K ({a[1]}), got {interval}"
                )

    @property
    def precision(self) -> str:
        """``input_precision``, ``"ieee"`` when absent."""
        return self.precision_setting or "ieee"

    @property
    def promotion_interval(self) -> int | None:
        """``max_num_imprecise_acc`` (None when absent: the tensor cores sum all of K)."""
        attr = self.max_num_imprecise_acc
        return attr.value.data if attr is not None else None

    @property
    def precision_setting(self) -> str | None:
        """``input_precision`` as set (None when absent)."""
        attr = self.input_precision
        return attr.data if attr is not None else None


TT_CORE_OPS: Sequence[type[IRDLOperation]] = (
    UnsignedConstantOp,
    GetProgramIdOp,
    GetNumProgramsOp,
    MakeRangeOp,
    SplatOp,
    BroadcastOp,
    ExpandDimsOp,
    AddPtrOp,
    LoadOp,
    StoreOp,
    ReduceOp,
    ReduceReturnOp,
    ScanOp,
    ScanReturnOp,
    ZerosOp,
    FullOp,
    EmptyOp,
    DotOp,
)
