"""Canonicalization patterns of the `tt` ops (value folders live on the ops themselves).

The central rewrite is *splat hoisting*: an elementwise op whose operands are all splats of
scalars is computed once on the scalars and the result splatted, so constant folding of scalars
then applies to blocks too (``splat(2) * splat(3)`` becomes ``splat(6)``).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from xdsl.dialects.builtin import f32
from xdsl.ir import Block, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from mytriton.dialects.tt import core as tt
from mytriton.dialects.tt.constants import uniform_constant
from mytriton.dialects.tt.elementwise import AddOp, ElementwiseOp, MulOp
from mytriton.dialects.tt.types import block_type, element_type, is_block, shape_of
from mytriton.op_rules import OpRules

#: each op's pattern classes, in the order they were registered
CANONICALIZATION: OpRules[tuple[type[RewritePattern], ...]] = OpRules("canonicalization")


def canonicalizes(*ops: type[Operation]) -> Callable[[type[RewritePattern]], type[RewritePattern]]:
    """Class decorator, beside each pattern: an instance of it canonicalizes ``ops`` (and
    their subclasses); registering a pattern twice for an op is an error."""
    return CANONICALIZATION.append(*ops)


def _replace(rewriter: PatternRewriter, op: Operation, new_ops: list[Operation]) -> None:
    """Replace ``op`` by ``new_ops`` (last one's results), keeping the source location."""
    for new in new_ops:
        new.location = op.location
    rewriter.replace(op, new_ops)


def _splat_source(v: SSAValue) -> SSAValue | None:
    """The scalar a block is filled with (``tt.splat`` and ``tt.full`` alike)."""
    if isinstance(v.owner, tt.SplatOp):
        return v.owner.src
    if isinstance(v.owner, tt.FullOp):
        return v.owner.value
    return None


@canonicalizes(ElementwiseOp)
class HoistSplatOperands(RewritePattern):
    """``op(splat a, splat b) -> splat(op(a, b))`` for every elementwise op."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, ElementwiseOp) or not is_block(op.results[0].type):
            return
        sources = [_splat_source(v) for v in op.operands]
        if any(s is None for s in sources):
            return
        scalar = op.rebuild(sources)  # type: ignore[arg-type]
        _replace(rewriter, op, [scalar, tt.SplatOp(scalar.results[0], op.results[0].type)])


@canonicalizes(tt.AddPtrOp)
class HoistSplatAddPtr(RewritePattern):
    """``addptr(splat p, splat o) -> splat(addptr(p, o))``."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tt.AddPtrOp, rewriter: PatternRewriter) -> None:
        p, o = _splat_source(op.ptr), _splat_source(op.offset)
        if p is None or o is None:
            return
        scalar = tt.AddPtrOp(p, o)
        _replace(rewriter, op, [scalar, tt.SplatOp(scalar.result, op.result.type)])


@canonicalizes(tt.AddPtrOp)
class AddPtrZeroOffset(RewritePattern):
    """``addptr(p, 0) -> p``."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tt.AddPtrOp, rewriter: PatternRewriter) -> None:
        c = uniform_constant(op.offset)
        if c is not None and int(c) == 0:
            rewriter.replace_all_uses_with(op.result, op.ptr)
            rewriter.erase(op)


@canonicalizes(tt.BroadcastOp)
class BroadcastSimplify(RewritePattern):
    """``broadcast(x) : T -> T`` is ``x``; ``broadcast(splat a)`` and ``broadcast(broadcast x)``
    collapse to one op."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tt.BroadcastOp, rewriter: PatternRewriter) -> None:
        if op.src.type == op.result.type:
            rewriter.replace_all_uses_with(op.result, op.src)
            rewriter.erase(op)
            return
        if (a := _splat_source(op.src)) is not None:
            _replace(rewriter, op, [tt.SplatOp(a, op.result.type)])
        elif isinstance(inner := op.src.owner, tt.BroadcastOp):
            _replace(rewriter, op, [tt.BroadcastOp(inner.src, op.result.type)])


@canonicalizes(tt.ExpandDimsOp)
class ExpandDimsOfSplat(RewritePattern):
    """``expand_dims(splat a) -> splat a`` of the expanded shape."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tt.ExpandDimsOp, rewriter: PatternRewriter) -> None:
        if (a := _splat_source(op.src)) is not None:
            _replace(rewriter, op, [tt.SplatOp(a, op.result.type)])


@canonicalizes(tt.LoadOp)
class LoadConstantMask(RewritePattern):
    """An all-true mask is dropped; an all-false mask with ``other`` gives ``other``."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tt.LoadOp, rewriter: PatternRewriter) -> None:
        if op.mask is None:
            return
        c = uniform_constant(op.mask)
        if c is None:
            return
        if bool(c):
            new = tt.LoadOp(op.ptr)
            new.attributes |= op.attributes  # cache modifier, eviction policy, volatile, hints
            _replace(rewriter, op, [new])
        elif op.other is not None:
            rewriter.replace_all_uses_with(op.result, op.other)
            rewriter.erase(op)


@canonicalizes(tt.StoreOp)
class StoreConstantMask(RewritePattern):
    """An all-true mask is dropped; a store under an all-false mask is erased."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tt.StoreOp, rewriter: PatternRewriter) -> None:
        if op.mask is None:
            return
        c = uniform_constant(op.mask)
        if c is None:
            return
        if bool(c):
            new = tt.StoreOp(op.ptr, op.value, None, op.tensor_map, op.coords)
            new.attributes |= op.attributes  # cache modifier, eviction policy
            _replace(rewriter, op, [new])
        else:
            rewriter.erase(op)


@canonicalizes(AddOp)
class AddIntoDot(RewritePattern):
    """``dot(a, b, 0) + c -> dot(a, b, c)``: accumulate in the dot's registers (``acc +
    tl.dot(a, b)`` is the common way to write a K loop)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, AddOp):
            return
        for dot_side, other in ((op.lhs, op.rhs), (op.rhs, op.lhs)):
            dot = dot_side.owner
            if not isinstance(dot, tt.DotOp) or not dot_side.has_one_use():
                continue
            zero = uniform_constant(dot.acc)
            if zero is None or float(zero) != 0.0:
                continue
            if uniform_constant(other) is not None:
                continue  # `0 + dot`: nothing to accumulate into (and the rewrite would repeat)
            if dot.promotion_interval is not None:
                continue  # its partial sums go into a zero accumulator first (Triton's rule)
            _replace(rewriter, op, [tt.DotOp(dot.a, dot.b, other, dot.precision_setting)])
            return


@canonicalizes(tt.ReduceOp)
class SumOfBroadcastProductIsDot(RewritePattern):
    """``sum(x[:, :, None] * y[None, :, :], axis=1) -> dot(x, y)`` for f32 ``x [M, K]``, ``y
    [K, N]``, ``K >= 16`` (Triton's combine pattern): the product block, ``K`` times the result,
    would otherwise be built and reduced. The dot is ``ieee`` (each product and sum in f32, as
    written, in another order and with fused multiply-adds; Triton makes it a tf32 dot)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, tt.ReduceOp) or len(op.srcs) != 1 or op.axis.value.data != 1:
            return
        mul = op.srcs[0].owner
        if not isinstance(mul, MulOp) or element_type(mul.result.type) != f32:
            return
        if not _is_sum(op.combine_block):
            return
        for lhs, rhs in ((mul.lhs, mul.rhs), (mul.rhs, mul.lhs)):
            x, y = _expanded(lhs, 2), _expanded(rhs, 0)
            if x is None or y is None or shape_of(x.type)[1] < 16:
                continue
            (m, _), n = shape_of(x.type), shape_of(y.type)[1]
            zeros = tt.ZerosOp(block_type(f32, (m, n)))
            _replace(rewriter, op, [zeros, tt.DotOp(x, y, zeros.result, "ieee")])
            return


def _is_sum(block: Block) -> bool:
    """Whether a combine region is ``return a + b`` of its two arguments."""
    ops = list(block.ops)
    if len(block.args) != 2 or len(ops) != 2 or not isinstance(ops[0], AddOp):
        return False
    return set(ops[0].operands) == set(block.args) and tuple(ops[1].operands) == ops[0].results


def _expanded(v: SSAValue, axis: int) -> SSAValue | None:
    """``x`` where ``v`` is ``broadcast(expand_dims(x, axis))`` of a rank-2 ``x``."""
    broadcast = v.owner
    if not isinstance(broadcast, tt.BroadcastOp):
        return None
    expand = broadcast.src.owner
    if not isinstance(expand, tt.ExpandDimsOp) or expand.axis.value.data != axis:
        return None
    return expand.src if len(shape_of(expand.src.type)) == 2 else None


@cache
def patterns_for(op: type[Operation]) -> tuple[RewritePattern, ...]:
    """The canonicalization patterns of one `tt` op class: those registered for it and for its
    base classes (``ElementwiseOp``'s serve every elementwise op), base classes first."""
    return tuple(_pattern(cls) for cls in CANONICALIZATION.gather(op))


@cache
def _pattern(cls: type[RewritePattern]) -> RewritePattern:
    """The one instance of a pattern class (patterns hold no state)."""
    return cls()
