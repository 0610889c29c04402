"""Blocks in shared memory: ``!ttg.memdesc`` and the ops that fill and read it.

These are what software pipelining (``ttg-pipeline``) writes: a K loop's dot operands copied
asynchronously into ``num_stages`` shared buffers, several iterations ahead. Names and meaning
follow Triton's TTGIR:

* ``!ttg.memdesc<3x64x32xf16, #ttg.shared<{order = [1, 0], pad = 8}>>``: a block in shared memory
  (no registers). The ``#ttg.shared`` layout orders its last dimensions (one tile); a leading
  extra dimension stacks whole tiles, each starting 16-byte aligned (``tile_stride``).
* ``ttg.local_alloc [%block]``: a fresh shared buffer, live for the whole kernel (holding
  ``%block`` when given: a loop-invariant dot operand stored once before its loop).
* ``ttg.memdesc_index %buf, %i``: tile ``i`` of a stacked buffer (a view, no data moves).
* ``ttg.async_copy_global_to_local %ptrs, %dst [mask %m]``: every element of the pointer block
  starts moving into ``dst``; masked-off elements become zero. Nothing is visible yet.
* ``ttg.async_commit_group``: the copies this thread issued since the last commit form a group.
* ``ttg.async_wait {num = N}``: wait until at most ``N`` of this thread's groups are pending,
  then a barrier of the whole program, so every thread's completed copies are visible to all.
* ``ttg.local_load %view``: the tile as a register block of the result's layout.

There is no interpreter rule for them: like ``ttg.convert_layout`` they exist only after layout
assignment, on the way to the GPU; the interpreter runs the `tt` program they were made from.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    ArrayAttr,
    IntAttr,
    IntegerAttr,
    IntegerType,
    TensorType,
    i1,
    i32,
)
from xdsl.ir import Attribute, ParametrizedAttribute, SSAValue, TypeAttribute
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.traits import MemoryAllocEffect, MemoryReadEffect, MemoryWriteEffect, Pure
from xdsl.utils.exceptions import VerifyException

from mytriton.dialects.tt.types import PointerType, byte_size, element_type, shape_of
from mytriton.dialects.ttg.layouts import SharedLayoutAttr, layout_of, layout_rank
from mytriton.dialects.ttg.nvmma import ATOM_BYTES, NvmmaSharedLayoutAttr

#: the shared-memory encodings of a tile: padded rows, or the wgmma swizzle
SharedEncoding = SharedLayoutAttr | NvmmaSharedLayoutAttr

SHARED_ALIGNMENT_BYTES = 16  # every tile of a stacked buffer starts this aligned


def tile_alignment(layout: SharedEncoding) -> int:
    """The bytes a tile of ``layout`` starts aligned to: 16 (vector accesses, ``ldmatrix``
    rows, 16-byte ``cp.async``), a whole swizzle atom for wgmma's tiles."""
    return ATOM_BYTES if isinstance(layout, NvmmaSharedLayoutAttr) else SHARED_ALIGNMENT_BYTES


@irdl_attr_definition
class MemDescType(ParametrizedAttribute, TypeAttribute):
    """``!ttg.memdesc<SHAPE x ELEMENT, #ttg.shared<...>>``: a block held in shared memory; the
    layout orders the last ``rank(layout)`` dimensions, a leading one stacks tiles."""

    name = "ttg.memdesc"

    shape_: ArrayAttr[IntAttr]
    element: Attribute
    layout: SharedEncoding

    def __init__(self, shape: Sequence[int], element: Attribute, layout: SharedEncoding):
        super().__init__(ArrayAttr([IntAttr(d) for d in shape]), element, layout)

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(d.data for d in self.shape_.data)

    @property
    def tile_shape(self) -> tuple[int, ...]:
        return self.shape[-len(self.layout.dim_order) :]

    @property
    def stacked(self) -> int:
        """Tiles stacked along the leading dimension (1 for a single tile)."""
        return self.shape[0] if len(self.shape) > len(self.layout.dim_order) else 1

    @property
    def tile_stride(self) -> int:
        """Elements from one stacked tile to the next (a tile, padded to 16-byte alignment, or
        1024 for a swizzled one)."""
        align = max(1, self.alignment // byte_size(self.element))
        return -(-self.layout.size(self.tile_shape) // align) * align

    @property
    def alignment(self) -> int:
        """The bytes every tile (and so the buffer) must be aligned to."""
        return tile_alignment(self.layout)

    @property
    def numel(self) -> int:
        """Elements of the buffer behind this descriptor (padding included)."""
        return self.stacked * self.tile_stride

    def verify(self) -> None:
        tile = len(self.layout.dim_order)
        if len(self.shape) not in (tile, tile + 1):
            raise VerifyException(
                f"!ttg.memdesc: a {tile}-d shared layout needs a {tile}-d tile, "
                f"optionally stacked: got shape {list(self.shape)}"
            )
        if any(d <= 0 for d in self.shape):
            raise VerifyException("!ttg.memdesc: dimensions must be positive")
        if sorted(self.layout.dim_order) != list(range(tile)):
            raise VerifyException("!ttg.memdesc: the layout's order must permute its dimensions")
        if isinstance(self.layout, NvmmaSharedLayoutAttr):
            why = self.layout.check_shape(self.tile_shape, byte_size(self.element))
            if why is not None:
                raise VerifyException(f"!ttg.memdesc: {why}")

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        printer.print_string("".join(f"{d}x" for d in self.shape))
        printer.print_attribute(self.element)
        printer.print_string(", ")
        printer.print_attribute(self.layout)
        printer.print_string(">")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        parser.parse_punctuation("<")
        shape, element = parser.parse_ranked_shape()
        parser.parse_punctuation(",")
        layout = parser.parse_attribute()
        parser.parse_punctuation(">")
        if not isinstance(layout, SharedLayoutAttr | NvmmaSharedLayoutAttr):
            parser.raise_error("!ttg.memdesc: expected a #ttg.shared or #ttg.nvmma_shared layout")
        return (ArrayAttr([IntAttr(d) for d in shape]), element, layout)


def _memdesc(v: SSAValue, op: str) -> MemDescType:
    if not isinstance(v.type, MemDescType):
        raise VerifyException(f"{op}: expected a !ttg.memdesc, got {v.type}")
    return v.type


@irdl_op_definition
class LocalAllocOp(IRDLOperation):
    """A fresh shared buffer of the result's type, for the whole kernel; with ``src``, one tile
    holding that register block (visible to every thread once the op is done)."""

    name = "ttg.local_alloc"
    src = opt_operand_def(TensorType)
    result = result_def(MemDescType)
    traits = traits_def(MemoryAllocEffect(), MemoryWriteEffect())
    assembly_format = "($src^)? attr-dict `:` functional-type($src, $result)"

    def __init__(self, t: MemDescType, src: SSAValue | None = None):
        super().__init__(operands=[[] if src is None else [src]], result_types=[t])

    def verify_(self) -> None:
        if self.src is None:
            return
        t = _memdesc(self.result, self.name)
        if t.stacked != 1 or len(t.shape) != len(t.layout.dim_order):
            raise VerifyException(f"{self.name}: a buffer made from a block must be one tile")
        _check_block(self, self.src, t, "source")
        if element_type(self.src.type) != t.element:
            raise VerifyException(f"{self.name}: the source must hold the tile's {t.element}")


@irdl_op_definition
class MemDescIndexOp(IRDLOperation):
    """Tile ``index`` of a stacked buffer (a view)."""

    name = "ttg.memdesc_index"
    src = operand_def(MemDescType)
    index = operand_def(i32)
    result = result_def(MemDescType)
    traits = traits_def(Pure())
    assembly_format = "$src `,` $index attr-dict `:` type($src) `->` type($result)"

    def __init__(self, src: SSAValue, index: SSAValue):
        t = _memdesc(src, self.name)
        super().__init__(
            operands=[src, index],
            result_types=[MemDescType(t.shape[1:], t.element, t.layout)],
        )

    def verify_(self) -> None:
        src, out = _memdesc(self.src, self.name), _memdesc(self.result, self.name)
        if len(src.shape) != len(out.shape) + 1 or len(out.shape) != len(out.layout.dim_order):
            raise VerifyException(f"{self.name}: the source must stack tiles of the result")
        if (src.shape[1:], src.element, src.layout) != (out.shape, out.element, out.layout):
            raise VerifyException(f"{self.name}: the result must be one tile of the source")
        if self.index.type != i32:
            raise VerifyException(f"{self.name}: the index must be an i32")


def _check_block(op: IRDLOperation, block: SSAValue, dst: MemDescType, what: str) -> None:
    if not isinstance(block.type, TensorType) or shape_of(block.type) != dst.shape:
        raise VerifyException(f"{op.name}: the {what} must be a block of shape {list(dst.shape)}")
    lay = layout_of(block.type)
    if lay is None or layout_rank(lay) != len(dst.shape):
        raise VerifyException(f"{op.name}: the {what} needs a layout of the block's rank")


@irdl_op_definition
class AsyncCopyGlobalToLocalOp(IRDLOperation):
    """Start copying the elements behind a pointer block into a shared tile (zeros where the
    mask is off); they land at the ``ttg.async_wait`` that retires their group."""

    name = "ttg.async_copy_global_to_local"
    ptr = operand_def(TensorType)
    dst = operand_def(MemDescType)
    mask = opt_operand_def(TensorType)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    assembly_format = (
        "$ptr `,` $dst (`mask` $mask^)? attr-dict `:` type($ptr) `,` type($dst) (`,` type($mask)^)?"
    )

    def __init__(self, ptr: SSAValue, dst: SSAValue, mask: SSAValue | None = None):
        super().__init__(operands=[ptr, dst, [] if mask is None else [mask]])

    def verify_(self) -> None:
        dst = _memdesc(self.dst, self.name)
        if dst.stacked != 1 or len(dst.shape) != len(dst.layout.dim_order):
            raise VerifyException(f"{self.name}: the destination must be one tile")
        _check_block(self, self.ptr, dst, "pointer block")
        pointee = element_type(self.ptr.type)
        if not isinstance(pointee, PointerType) or pointee.pointee != dst.element:
            raise VerifyException(
                f"{self.name}: the pointers must point to {dst.element}, the tile's elements"
            )
        if self.mask is not None:
            _check_block(self, self.mask, dst, "mask")
            if element_type(self.mask.type) != i1:
                raise VerifyException(f"{self.name}: the mask must be a block of i1")


@irdl_op_definition
class AsyncCommitGroupOp(IRDLOperation):
    """Close this thread's current group of asynchronous copies."""

    name = "ttg.async_commit_group"
    traits = traits_def(MemoryWriteEffect())
    assembly_format = "attr-dict"

    def __init__(self) -> None:
        super().__init__()


@irdl_op_definition
class AsyncWaitOp(IRDLOperation):
    """Wait until at most ``num`` groups are pending, then synchronize the program's threads."""

    name = "ttg.async_wait"
    num = prop_def(IntegerAttr[IntegerType])
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "attr-dict"

    def __init__(self, num: int):
        super().__init__(properties={"num": IntegerAttr(num, i32)})

    @property
    def pending(self) -> int:
        return self.num.value.data

    def verify_(self) -> None:
        if self.pending < 0:
            raise VerifyException(f"{self.name}: num must be >= 0")


@irdl_op_definition
class LocalLoadOp(IRDLOperation):
    """A shared tile as a register block of the result's layout."""

    name = "ttg.local_load"
    src = operand_def(MemDescType)
    result = result_def(TensorType)
    traits = traits_def(MemoryReadEffect())
    assembly_format = "$src attr-dict `:` type($src) `->` type($result)"

    def __init__(self, src: SSAValue, result_type: Attribute):
        super().__init__(operands=[src], result_types=[result_type])

    def verify_(self) -> None:
        src = _memdesc(self.src, self.name)
        if src.stacked != 1 or len(src.shape) != len(src.layout.dim_order):
            raise VerifyException(f"{self.name}: the source must be one tile")
        _check_block(self, self.result, src, "result")
        if element_type(self.result.type) != src.element:
            raise VerifyException(f"{self.name}: the result must hold the tile's {src.element}")


OPS: list[type[IRDLOperation]] = [
    LocalAllocOp,
    MemDescIndexOp,
    AsyncCopyGlobalToLocalOp,
    AsyncCommitGroupOp,
    AsyncWaitOp,
    LocalLoadOp,
]
ATTRIBUTES: list[type[ParametrizedAttribute]] = [MemDescType]
