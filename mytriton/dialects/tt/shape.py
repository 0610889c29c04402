"""`tt` ops that move elements between positions of a block: ``trans``, ``reshape``, ``join``,
``split``, ``cat`` and ``gather`` (Triton's ops of the same names).

Unlike ``broadcast``/``expand_dims`` (``tt``), a result element of these ops may live in another
thread than the operand element it comes from, so the lowering moves them through shared memory
(``gpu_lowering/redistribute.py``). Element orders are row-major, as NumPy's: ``reshape`` keeps
the row-major sequence of elements, ``join`` stacks along a new minor dimension of size 2,
``split`` is its inverse, ``cat`` concatenates two rank-1 blocks. ``histogram`` counts values,
a result element depending on every operand element.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import I32, DenseArrayBase, IntegerAttr, TensorType, i32
from xdsl.ir import Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure

from mytriton.dialects.tt.traits import check_new_block, verify_error
from mytriton.dialects.tt.types import element_type, is_bool, is_int, shape_of, type_str


def numel(shape: Sequence[int]) -> int:
    n = 1
    for d in shape:
        n *= d
    return n


def _same_elements(op: Operation, *values: SSAValue) -> None:
    """Every operand and result of ``op`` holds the element type of ``values[0]``."""
    e = element_type(values[0].type)
    for v in (*values[1:], *op.results):
        if element_type(v.type) != e:
            raise verify_error(
                op, f"element types differ: {type_str(values[0].type)} and {type_str(v.type)}"
            )


def _expect_shape(op: Operation, v: SSAValue, shape: Sequence[int], what: str) -> None:
    if list(shape_of(v.type)) != list(shape):
        raise verify_error(op, f"{what} must have shape {list(shape)}, got {type_str(v.type)}")


@irdl_op_definition
class TransOp(IRDLOperation):
    """``tl.trans/permute(x, order)``: result dimension ``i`` is operand dimension
    ``order[i]``."""

    name = "tt.trans"
    src = operand_def(TensorType)
    order = prop_def(DenseArrayBase)
    result = result_def(TensorType)
    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$src attr-dict `:` type($src) `->` type($result)"

    def __init__(self, src: SSAValue, order: Sequence[int]):
        shape = shape_of(src.type)
        super().__init__(
            operands=[src],
            properties={"order": DenseArrayBase.from_list(i32, list(order))},
            result_types=[TensorType(element_type(src.type), [shape[d] for d in order])],
        )

    @property
    def permutation(self) -> tuple[int, ...]:
        return tuple(int(v) for v in self.order.get_values())

    def verify_(self) -> None:
        shape, order = shape_of(self.src.type), self.permutation
        if sorted(order) != list(range(len(shape))):
            raise verify_error(
                self, f"order {list(order)} is not a permutation of the {len(shape)} dimensions"
            )
        _expect_shape(self, self.result, [shape[d] for d in order], "the result")
        _same_elements(self, self.src)


@irdl_op_definition
class ReshapeOp(IRDLOperation):
    """``tl.reshape(x, shape)``: the same elements in row-major order, in a new shape."""

    name = "tt.reshape"
    src = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())
    assembly_format = "$src attr-dict `:` type($src) `->` type($result)"

    def __init__(self, src: SSAValue, shape: Sequence[int]):
        super().__init__(
            operands=[src], result_types=[TensorType(element_type(src.type), list(shape))]
        )

    def verify_(self) -> None:
        check_new_block(self, self.result.type)
        a, b = numel(shape_of(self.src.type)), numel(shape_of(self.result.type))
        if a != b:
            raise verify_error(self, f"the number of elements changes from {a} to {b}")
        _same_elements(self, self.src)


@irdl_op_definition
class JoinOp(IRDLOperation):
    """``tl.join(a, b)``: ``a`` and ``b`` (one shape) stacked along a new minor dimension."""

    name = "tt.join"
    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())
    assembly_format = "$lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)"

    def __init__(self, lhs: SSAValue, rhs: SSAValue):
        shape = [*shape_of(lhs.type), 2]
        super().__init__(
            operands=[lhs, rhs], result_types=[TensorType(element_type(lhs.type), shape)]
        )

    def verify_(self) -> None:
        shape = shape_of(self.lhs.type)
        _expect_shape(self, self.rhs, shape, "both operands")
        _expect_shape(self, self.result, [*shape, 2], "the result")
        _same_elements(self, self.lhs, self.rhs)


@irdl_op_definition
class SplitOp(IRDLOperation):
    """``tl.split(x)``: the two halves of the minor dimension (of size 2) of ``x``."""

    name = "tt.split"
    src = operand_def(TensorType)
    out_lhs = result_def(TensorType)
    out_rhs = result_def(TensorType)
    traits = traits_def(Pure())
    assembly_format = "$src attr-dict `:` type($src) `->` type($out_lhs) `,` type($out_rhs)"

    def __init__(self, src: SSAValue):
        t = TensorType(element_type(src.type), list(shape_of(src.type)[:-1]))
        super().__init__(operands=[src], result_types=[t, t])

    def verify_(self) -> None:
        shape = shape_of(self.src.type)
        if len(shape) < 2 or shape[-1] != 2:
            raise verify_error(
                self,
                f"the operand's minor dimension must have size 2 (and rank >= 2), got "
                f"{type_str(self.src.type)}",
            )
        for r in self.results:
            _expect_shape(self, r, shape[:-1], "both results")
        _same_elements(self, self.src)


@irdl_op_definition
class CatOp(IRDLOperation):
    """``tl.cat(a, b, can_reorder=True)``: the elements of rank-1 ``a`` then those of ``b``."""

    name = "tt.cat"
    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())
    assembly_format = "$lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)"

    def __init__(self, lhs: SSAValue, rhs: SSAValue):
        n = shape_of(lhs.type)[0] + shape_of(rhs.type)[0]
        super().__init__(
            operands=[lhs, rhs], result_types=[TensorType(element_type(lhs.type), [n])]
        )

    def verify_(self) -> None:
        a, b = shape_of(self.lhs.type), shape_of(self.rhs.type)
        if len(a) != 1 or len(b) != 1:
            raise verify_error(
                self, f"operands must be rank-1 blocks, got ranks {len(a)}, {len(b)}"
            )
        check_new_block(self, self.result.type)
        _expect_shape(self, self.result, [a[0] + b[0]], "the result")
        _same_elements(self, self.lhs, self.rhs)


@irdl_op_definition
class GatherOp(IRDLOperation):
    """``tl.gather(src, indices, axis)``: ``result[i] = src[i with i[axis] := indices[i]]``;
    ``indices`` has ``src``'s shape except along ``axis``; the result has ``indices``' shape."""

    name = "tt.gather"
    src = operand_def(TensorType)
    indices = operand_def(TensorType)
    axis = prop_def(IntegerAttr[I32])
    result = result_def(TensorType)
    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$src `[` $indices `]` attr-dict `:` type($src) `,` type($indices) `->` type($result)"
    )

    def __init__(self, src: SSAValue, indices: SSAValue, axis: int):
        t = TensorType(element_type(src.type), list(shape_of(indices.type)))
        super().__init__(
            operands=[src, indices],
            properties={"axis": IntegerAttr(axis, i32)},
            result_types=[t],
        )

    @property
    def dim(self) -> int:
        return self.axis.value.data

    def verify_(self) -> None:
        src, idx = shape_of(self.src.type), shape_of(self.indices.type)
        axis = self.dim
        if len(src) != len(idx):
            raise verify_error(self, f"source rank {len(src)} differs from index rank {len(idx)}")
        if not 0 <= axis < len(src):
            raise verify_error(self, f"axis {axis} out of range for a rank-{len(src)} block")
        t = element_type(self.indices.type)
        if not is_int(t) or is_bool(t):
            raise verify_error(self, f"indices must be integers, got {type_str(self.indices.type)}")
        for d, (a, b) in enumerate(zip(src, idx, strict=True)):
            if d != axis and a != b:
                raise verify_error(
                    self, f"index dimension {d} ({b}) differs from the source's ({a})"
                )
        _expect_shape(self, self.result, idx, "the result")
        _same_elements(self, self.src)


@irdl_op_definition
class HistogramOp(IRDLOperation):
    """``tl.histogram(x, num_bins)``: ``result[b]`` counts the elements of rank-1 ``x`` equal to
    ``b``, for ``b`` in ``0 .. num_bins - 1`` (the result's size); other values are not counted
    (the frontend maps masked-off elements to -1)."""

    name = "tt.histogram"
    src = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())
    assembly_format = "$src attr-dict `:` type($src) `->` type($result)"

    def __init__(self, src: SSAValue, num_bins: int):
        super().__init__(operands=[src], result_types=[TensorType(i32, [num_bins])])

    def verify_(self) -> None:
        t = self.src.type
        if len(shape_of(t)) != 1 or not is_int(t) or is_bool(t):
            raise verify_error(
                self, f"the operand must be a rank-1 integer block, got {type_str(t)}"
            )
        r = self.result.type
        if len(shape_of(r)) != 1 or element_type(r) != i32:
            raise verify_error(self, f"the result must be a rank-1 i32 block, got {type_str(r)}")
        check_new_block(self, r)


SHAPE_OPS: tuple[type[IRDLOperation], ...] = (
    TransOp,
    ReshapeOp,
    JoinOp,
    SplitOp,
    CatOp,
    GatherOp,
    HistogramOp,
)
"""The ops whose result elements may come from other threads (lowered through shared memory)."""
