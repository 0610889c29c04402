"""``tt.reduce`` and ``tt.scan``: combine blocks along one axis with a combine *region*.

As in Triton, both take N blocks of one shape and a single-block region with 2N scalar
arguments (the accumulated values, then the new ones) that returns N scalars through its
terminator (``tt.reduce.return`` / ``tt.scan.return``). ``tl.sum`` is a region holding one
``tt.add``; ``tl.argmax`` a region over (value, index) pairs. A reduction removes the axis (a
rank-1 block gives scalars); a scan keeps the shape, each element the combination of the
elements up to it (from the end with ``reverse``).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import I32, BoolAttr, IntegerAttr, TensorType, i1, i32
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    opt_prop_def,
    prop_def,
    region_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.traits import HasParent, IsolatedFromAbove, IsTerminator, Pure

from mytriton.dialects.tt.traits import LazyPatterns, verify_error
from mytriton.dialects.tt.types import (
    block_type,
    element_type,
    is_float,
    is_int,
    shape_of,
    type_str,
)


def reduced_type(src: Attribute, axis: int) -> Attribute:
    """``src``'s type without dimension ``axis`` (the element type for a rank-1 block)."""
    shape = list(shape_of(src))
    del shape[axis]
    return block_type(element_type(src), shape)


def combine_block(operand_types: Sequence[Attribute]) -> Block:
    """An empty combine block: 2N scalar arguments, the element types of the N operands twice."""
    scalars = [element_type(t) for t in operand_types]
    return Block(arg_types=[*scalars, *scalars])


def _verify_combined(op: Operation, operands: Sequence[SSAValue], axis: int) -> None:
    """What ``tt.reduce`` and ``tt.scan`` share: N same-shape blocks of numbers, an axis in
    range, and a region with 2N scalar arguments returning N scalars of the operands' types."""
    if not operands:
        raise verify_error(op, "needs at least one operand")
    shape = shape_of(operands[0].type)
    for v in operands:
        if not isinstance(v.type, TensorType):
            raise verify_error(op, f"operands must be blocks, got {type_str(v.type)}")
        if shape_of(v.type) != shape:
            raise verify_error(
                op, f"operands must have one shape, got {list(shape)} and {list(shape_of(v.type))}"
            )
        if not (is_int(v.type) or is_float(v.type)):
            raise verify_error(op, f"operands must hold integers or floats, got {type_str(v.type)}")
    if not 0 <= axis < len(shape):
        raise verify_error(op, f"axis {axis} out of range for a rank-{len(shape)} block")
    scalars = [element_type(v.type) for v in operands]
    block = op.regions[0].blocks.first
    if block is None or op.regions[0].blocks.last is not block:
        raise verify_error(op, "the combine region must have exactly one block")
    arg_types = [a.type for a in block.args]
    if arg_types != [*scalars, *scalars]:
        raise verify_error(
            op,
            f"the combine region must take ({', '.join(type_str(t) for t in scalars * 2)}), "
            f"got ({', '.join(type_str(t) for t in arg_types)})",
        )
    ret = block.last_op
    if ret is None or not isinstance(ret, ReduceReturnOp | ScanReturnOp):
        raise verify_error(op, "the combine region must end with its return op")
    got = [v.type for v in ret.operands]
    if got != scalars:
        raise verify_error(
            op,
            f"the combine region must return ({', '.join(type_str(t) for t in scalars)}), "
            f"got ({', '.join(type_str(t) for t in got)})",
        )


@irdl_op_definition
class ReduceOp(IRDLOperation):
    """``tl.reduce(inputs, axis, combine_fn)``: N blocks reduced along ``axis`` by the region
    (applied in an unspecified but fixed order: the combine function should be associative)."""

    name = "tt.reduce"
    srcs = var_operand_def(TensorType)
    axis = prop_def(IntegerAttr[I32])
    results_ = var_result_def()
    combine_op = region_def("single_block")
    # the combine function sees only its arguments: passes that rebuild or merge values
    # (layout assignment, CSE) must not reach into it from outside, nor it out; a sum of a
    # broadcast product is a dot (tt_canonicalize.py)
    traits = traits_def(Pure(), IsolatedFromAbove(), LazyPatterns())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$srcs attr-dict `:` type($srcs) `->` type($results_) $combine_op"

    def __init__(self, srcs: Sequence[SSAValue], axis: int, combine: Block):
        super().__init__(
            operands=[list(srcs)],
            properties={"axis": IntegerAttr(axis, i32)},
            result_types=[[reduced_type(s.type, axis) for s in srcs]],
            regions=[Region(combine)],
        )

    @property
    def combine_block(self) -> Block:
        return self.combine_op.block

    def verify_(self) -> None:
        axis = self.axis.value.data
        _verify_combined(self, self.srcs, axis)
        for i, (s, r) in enumerate(zip(self.srcs, self.results, strict=True)):
            expected = reduced_type(s.type, axis)
            if shape_of(r.type) != shape_of(expected) or element_type(r.type) != element_type(
                expected
            ):
                raise verify_error(self, f"result {i} must be {type_str(expected)}")


@irdl_op_definition
class ReduceReturnOp(IRDLOperation):
    """The combined values of one step of ``tt.reduce``'s region."""

    name = "tt.reduce.return"
    results_ = var_operand_def()
    traits = traits_def(IsTerminator(), HasParent(ReduceOp), Pure())
    assembly_format = "attr-dict ($results_^ `:` type($results_))?"

    def __init__(self, *values: SSAValue):
        super().__init__(operands=[list(values)])


@irdl_op_definition
class ScanOp(IRDLOperation):
    """``tl.associative_scan(inputs, axis, combine_fn, reverse)``: N blocks, each element the
    combination (by the region) of the elements up to it along ``axis``; from the last element
    backwards when ``reverse``. The combine function must be associative."""

    name = "tt.scan"
    srcs = var_operand_def(TensorType)
    axis = prop_def(IntegerAttr[I32])
    reverse = opt_prop_def(BoolAttr)
    results_ = var_result_def(TensorType)
    combine_op = region_def("single_block")
    # the combine function sees only its arguments: passes that rebuild or merge values
    # (layout assignment, CSE) must not reach into it from outside, nor it out
    traits = traits_def(Pure(), IsolatedFromAbove())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$srcs attr-dict `:` type($srcs) `->` type($results_) $combine_op"

    def __init__(self, srcs: Sequence[SSAValue], axis: int, reverse: bool, combine: Block):
        super().__init__(
            operands=[list(srcs)],
            properties={
                "axis": IntegerAttr(axis, i32),
                "reverse": IntegerAttr(int(reverse), i1),
            },
            result_types=[[s.type for s in srcs]],
            regions=[Region(combine)],
        )

    @property
    def combine_block(self) -> Block:
        return self.combine_op.block

    @property
    def is_reverse(self) -> bool:
        return self.reverse is not None and bool(self.reverse.value.data)

    def verify_(self) -> None:
        _verify_combined(self, self.srcs, self.axis.value.data)
        for i, (s, r) in enumerate(zip(self.srcs, self.results, strict=True)):
            if shape_of(r.type) != shape_of(s.type) or element_type(r.type) != element_type(s.type):
                raise verify_error(self, f"result {i} must be {type_str(s.type)}")


@irdl_op_definition
class ScanReturnOp(IRDLOperation):
    """The combined values of one step of ``tt.scan``'s region."""

    name = "tt.scan.return"
    results_ = var_operand_def()
    traits = traits_def(IsTerminator(), HasParent(ScanOp), Pure())
    assembly_format = "attr-dict ($results_^ `:` type($results_))?"

    def __init__(self, *values: SSAValue):
        super().__init__(operands=[list(values)])


def combine_results(op: ReduceOp | ScanOp) -> Sequence[SSAValue]:
    """The values the combine region returns."""
    ret = op.combine_block.last_op
    assert isinstance(ret, ReduceReturnOp | ScanReturnOp)
    return ret.operands


TT_REDUCE_OPS: Sequence[type[IRDLOperation]] = (ReduceOp, ReduceReturnOp, ScanOp, ScanReturnOp)
