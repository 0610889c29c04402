"""Pieces shared by the `tt` op definitions: verifier helpers, the block-size trait and lazy
canonicalization hooks."""

from __future__ import annotations

from collections.abc import Iterable

from xdsl.dialect_interfaces.constant_materialization import ConstantMaterializationInterface
from xdsl.dialects.builtin import FloatAttr, IntegerAttr, TensorType
from xdsl.ir import Attribute, Operation
from xdsl.pattern_rewriter import RewritePattern
from xdsl.traits import HasCanonicalizationPatternsTrait, OpTrait
from xdsl.utils.exceptions import VerifyException

from mytriton.dialects.tt.types import block_shape_problem, numel_problem, shape_of, type_str


class LazyPatterns(HasCanonicalizationPatternsTrait):
    """Canonicalization patterns of an op, registered beside each pattern (``canonicalizes``).

    xDSL resolves a pattern's ``op:`` annotation when the pattern class is created, so the
    patterns must be defined after the op classes; this trait defers the lookup to first use.
    """

    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        return ()

    def get_patterns(self, op: type[Operation]) -> tuple[RewritePattern, ...]:
        from mytriton.dialects.tt.canonicalize import patterns_for

        return patterns_for(op)


class TTConstantMaterialization(ConstantMaterializationInterface):
    """Folded scalar values of `tt` ops become ``arith.constant`` (unsigned: ``tt.constant``)."""

    def materialize_constant(self, value: Attribute, type: Attribute) -> Operation | None:
        if isinstance(value, (IntegerAttr, FloatAttr)) and value.type == type:
            from mytriton.dialects.tt.constants import constant_op

            return constant_op(value)
        return None


def verify_error(op: Operation, msg: str) -> VerifyException:
    """A verification failure whose message starts with the op name."""
    return VerifyException(f"{op.name}: {msg}")


def check_new_block(op: Operation, t: Attribute) -> None:
    """A block created from scratch must have a valid (power-of-two) shape."""
    if not isinstance(t, TensorType):
        raise verify_error(op, f"result must be a block (tensor), got {type_str(t)}")
    problem = block_shape_problem(shape_of(t))
    if problem:
        raise verify_error(op, problem)


class BoundedBlocks(OpTrait):
    """Every block the op makes holds at most ``MAX_BLOCK_NUMEL`` elements (Triton's
    ``TRITON_MAX_TENSOR_NUMEL``): whatever op makes a block (a range, a load, a dot...), a
    larger one would pass through every pass and backend unchecked."""

    def verify(self, op: Operation) -> None:
        for result in op.results:
            if isinstance(result.type, TensorType):
                problem = numel_problem(shape_of(result.type))
                if problem:
                    raise verify_error(op, problem)


def bound_blocks(ops: Iterable[type[Operation]]) -> None:
    """Give every op of ``ops`` (the whole ``tt`` dialect) the ``BoundedBlocks`` trait: the
    limit is a rule of the dialect, not of some of its ops."""
    for op in ops:
        if not op.has_trait(BoundedBlocks):
            op.traits.add_trait(BoundedBlocks())
