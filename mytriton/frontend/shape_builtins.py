"""The shape builtins of ``Builtins`` (declared in ``mytriton/language/shape.py``): Triton's
``trans``/``permute``, ``reshape``/``view``/``ravel``, ``join``/``split``/``interleave``,
``cat``, ``gather``, and the library functions Triton builds from them (``flip``, ``sort``,
``histogram``), here built from ``tt.gather`` and comparisons.

The argument rules are Triton 3.6's (``semantic.py``); each violation is a typed error at the
call's line.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mytriton.dialects.tt import core as tt
from mytriton.dialects.tt import shape as tt_shape
from mytriton.dialects.tt.types import block_shape_problem
from mytriton.errors import ConstexprError, KernelTypeError, KernelValueError
from mytriton.frontend.semantic import Semantic
from mytriton.frontend.values import TensorValue
from mytriton.language import core


def _numel(shape: Sequence[int]) -> int:
    n = 1
    for d in shape:
        n *= d
    return n


class ShapeBuiltins:
    """``tl.trans(...)`` and the other shape builtins; ``Builtins`` inherits them."""

    sem: Semantic

    # ---- argument helpers ----

    def _static(self, value: Any, what: str) -> Any:
        if isinstance(value, TensorValue):
            raise ConstexprError(
                f"{what} must be a compile-time constant (tl.constexpr)", self.sem.b.loc
            )
        if isinstance(value, core.constexpr):
            value = value.value
        if isinstance(value, (tuple, list)):
            return type(value)(self._static(v, what) for v in value)
        return value

    def _ints(self, values: Sequence[Any], what: str) -> tuple[int, ...]:
        """``values`` given as arguments or as one tuple/list: compile-time ints."""
        vals = self._static(list(values), what)
        if len(vals) == 1 and isinstance(vals[0], (tuple, list)):
            vals = list(vals[0])
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in vals):
            raise KernelTypeError(f"{what} must be integers, got {vals!r}", self.sem.b.loc)
        return tuple(vals)

    def _block(self, v: Any, what: str) -> TensorValue:
        if not isinstance(v, TensorValue):
            if isinstance(v, (bool, int, float, core.constexpr)):
                v = self.sem.to_tensor(v)
            else:
                raise KernelTypeError(f"{what} must be a value, got {v!r}", self.sem.b.loc)
        if not v.is_block:
            raise KernelTypeError(f"{what} must be a block, got a scalar {v.dtype}", self.sem.b.loc)
        return v

    def _insert(self, op: Any) -> TensorValue:
        return TensorValue(self.sem.b.insert(op).results[0])

    def _unsplat(self, x: TensorValue, what: str) -> TensorValue:
        """The scalar of a one-element block (Triton's ``unsplat``)."""
        if _numel(x.shape) != 1:
            raise KernelValueError(
                f"{what}: only a one-element block becomes a scalar, got shape {list(x.shape)}",
                self.sem.b.loc,
            )
        reduce_with = self._reduce_with  # type: ignore[attr-defined]
        (out,) = reduce_with([x], None, False, lambda args: args[0], what)
        return out  # type: ignore[no-any-return]

    # ---- permutations and reshapes ----

    def _permute(self, x: TensorValue, order: tuple[int, ...], what: str) -> TensorValue:
        if len(order) != len(x.shape):
            raise KernelValueError(
                f"{what}: dims {list(order)} must have as many entries as the block has "
                f"dimensions ({len(x.shape)})",
                self.sem.b.loc,
            )
        if sorted(order) != list(range(len(order))):
            raise KernelValueError(
                f"{what}: dims must be a permutation of 0, ..., {len(order) - 1}, got "
                f"{list(order)}",
                self.sem.b.loc,
            )
        if order == tuple(range(len(order))):
            return x
        return self._insert(tt_shape.TransOp(x.handle, order))

    def trans(self, input: Any, *dims: Any) -> TensorValue:
        x = self._block(input, "tl.trans's input")
        order = self._ints(dims, "tl.trans's dims")
        if not order:
            n = len(x.shape)
            if n < 2:
                raise KernelValueError("tl.trans of a rank-1 block needs dims", self.sem.b.loc)
            order = (*range(n - 2), n - 1, n - 2)
        return self._permute(x, order, "tl.trans")

    def permute(self, input: Any, *dims: Any) -> TensorValue:
        x = self._block(input, "tl.permute's input")
        return self._permute(x, self._ints(dims, "tl.permute's dims"), "tl.permute")

    def _reshape(self, x: TensorValue, shape: tuple[int, ...], what: str) -> TensorValue:
        if not shape:
            return self._unsplat(x, what)
        problem = block_shape_problem(shape)
        if problem:
            raise KernelValueError(f"{what}: invalid block shape: {problem}", self.sem.b.loc)
        if _numel(shape) != _numel(x.shape):
            raise KernelValueError(
                f"{what} cannot change the number of elements: {list(x.shape)} has "
                f"{_numel(x.shape)}, {list(shape)} has {_numel(shape)}",
                self.sem.b.loc,
            )
        if shape == x.shape:
            return x
        return self._insert(tt_shape.ReshapeOp(x.handle, shape))

    def reshape(self, input: Any, *shape: Any, can_reorder: Any = False) -> TensorValue:
        x = self._block(input, "tl.reshape's input")
        self._static(can_reorder, "tl.reshape's can_reorder")
        return self._reshape(x, self._ints(shape, "tl.reshape's shape"), "tl.reshape")

    def view(self, input: Any, *shape: Any) -> TensorValue:
        x = self._block(input, "tl.view's input")
        return self._reshape(x, self._ints(shape, "tl.view's shape"), "tl.view")

    def ravel(self, x: Any, can_reorder: Any = False) -> TensorValue:
        v = self._block(x, "tl.ravel's input")
        return self._reshape(v, (_numel(v.shape),), "tl.ravel")

    def item(self, input: Any) -> TensorValue:
        x = self.sem.to_tensor(input)
        return self._unsplat(x, "tl.item") if x.is_block else x

    # ---- join, split, interleave, cat ----

    def join(self, a: Any, b: Any) -> TensorValue:
        x, y = self.sem.operands(a, b)
        if x.dtype != y.dtype:
            raise KernelTypeError(
                f"tl.join: both operands must have one dtype, got {x.dtype} and {y.dtype}",
                self.sem.b.loc,
            )
        x, y = self.sem.broadcast_all(x, y)
        if not x.is_block:  # two scalars give a block of 2
            x, y = self.sem.splat_to(x, (1,)), self.sem.splat_to(y, (1,))
            joined = self._insert(tt_shape.JoinOp(x.handle, y.handle))
            return self._reshape(joined, (2,), "tl.join")
        return self._insert(tt_shape.JoinOp(x.handle, y.handle))

    def split(self, a: Any) -> tuple[TensorValue, TensorValue]:
        x = self._block(a, "tl.split's input")
        if x.shape[-1] != 2:
            raise KernelValueError(
                f"tl.split needs a last dimension of size 2, got shape {list(x.shape)}",
                self.sem.b.loc,
            )
        if len(x.shape) == 1:  # a block of 2 gives two scalars
            x = self.sem.expand_dims(x, 0)
            op = self.sem.b.insert(tt_shape.SplitOp(x.handle))
            lhs, rhs = (TensorValue(r) for r in op.results)
            return self._unsplat(lhs, "tl.split"), self._unsplat(rhs, "tl.split")
        op = self.sem.b.insert(tt_shape.SplitOp(x.handle))
        return TensorValue(op.results[0]), TensorValue(op.results[1])

    def interleave(self, a: Any, b: Any) -> TensorValue:
        c = self.join(a, b)
        if len(c.shape) == 1:
            return c
        return self._reshape(c, (*c.shape[:-2], 2 * c.shape[-2]), "tl.interleave")

    def cat(self, input: Any, other: Any, can_reorder: Any = False) -> TensorValue:
        x, y = self._block(input, "tl.cat's input"), self._block(other, "tl.cat's other")
        if not self._static(can_reorder, "tl.cat's can_reorder"):
            raise KernelValueError(
                "tl.cat needs can_reorder=True (as in Triton, the order of the result is not "
                "specified)",
                self.sem.b.loc,
            )
        if len(x.shape) != 1 or len(y.shape) != 1:
            raise KernelValueError(
                f"tl.cat concatenates rank-1 blocks, got shapes {list(x.shape)} and "
                f"{list(y.shape)}",
                self.sem.b.loc,
            )
        if x.dtype != y.dtype:
            raise KernelTypeError(
                f"tl.cat: both operands must have one dtype, got {x.dtype} and {y.dtype}",
                self.sem.b.loc,
            )
        problem = block_shape_problem((x.shape[0] + y.shape[0],))
        if problem:
            raise KernelValueError(f"tl.cat: invalid result shape: {problem}", self.sem.b.loc)
        return self._insert(tt_shape.CatOp(x.handle, y.handle))

    # ---- gather and what is built on it ----

    def gather(self, src: Any, index: Any, axis: Any) -> TensorValue:
        x, i = self._block(src, "tl.gather's src"), self._block(index, "tl.gather's index")
        if i.dtype.kind != "int":
            raise KernelTypeError(
                f"tl.gather's index must hold integers, got {i.dtype}", self.sem.b.loc
            )
        rank = len(x.shape)
        if len(i.shape) != rank:
            raise KernelValueError(
                f"tl.gather: src and index must have the same rank, got shapes {list(x.shape)} "
                f"and {list(i.shape)}",
                self.sem.b.loc,
            )
        a = self._shape_axis(axis, rank, "tl.gather")
        for d in range(rank):
            if d != a and x.shape[d] != i.shape[d]:
                raise KernelValueError(
                    f"tl.gather: index dimension {d} ({i.shape[d]}) must match the source's "
                    f"({x.shape[d]}) except along axis {a}",
                    self.sem.b.loc,
                )
        return self._insert(tt_shape.GatherOp(x.handle, i.handle, a))

    def _shape_axis(self, axis: Any, rank: int, what: str) -> int:
        a = self._static(axis, f"{what}'s axis")
        if not isinstance(a, int) or isinstance(a, bool):
            raise KernelTypeError(f"{what}: axis must be an integer, got {a!r}", self.sem.b.loc)
        if not -rank <= a < rank:
            raise KernelValueError(
                f"{what}: axis {a} out of range for a rank-{rank} block", self.sem.b.loc
            )
        return a + rank if a < 0 else a

    def _positions(self, shape: tuple[int, ...], dim: int) -> TensorValue:
        """The int32 block of ``shape`` holding each element's coordinate along ``dim``."""
        pos = TensorValue(self.sem.b.insert(tt.MakeRangeOp(0, shape[dim])).result)
        for d in range(len(shape)):
            if d != dim:
                pos = self.sem.expand_dims(pos, d)
        return self.sem.broadcast_to(pos, shape)

    def flip(self, x: Any, dim: Any = None) -> TensorValue:
        v = self._block(x, "tl.flip's input")
        d = len(v.shape) - 1 if self._static(dim, "tl.flip's dim") is None else dim
        a = self._shape_axis(d, len(v.shape), "tl.flip")
        reversed_pos = self.sem.arith("-", v.shape[a] - 1, self._positions(v.shape, a))
        return self.gather(v, reversed_pos, a)

    def sort(self, x: Any, dim: Any = None, descending: Any = False) -> TensorValue:
        """A bitonic sorting network along the last dimension: in each step every element is
        compared with the one whose position differs in one bit (fetched with ``tt.gather``)
        and keeps the smaller or the larger."""
        v = self._block(x, "tl.sort's input")
        rank = len(v.shape)
        d = self._static(dim, "tl.sort's dim")
        last = rank - 1 if d is None else self._shape_axis(d, rank, "tl.sort")
        if last != rank - 1:
            raise KernelValueError(
                "tl.sort: only the last dimension can be sorted (as in Triton)", self.sem.b.loc
            )
        desc = bool(self._static(descending, "tl.sort's descending"))
        n = v.shape[-1]
        pos = self._positions(v.shape, last)
        k = 2
        while k <= n:
            j = k // 2
            while j >= 1:
                partner = self.gather(v, self.sem.bitwise("^", pos, j), last)
                # the pair's lower position keeps the smaller value in an ascending run
                lower = self.sem.compare("==", self.sem.bitwise("&", pos, j), 0)
                ascending = self.sem.compare("==", self.sem.bitwise("&", pos, k), 0)
                if desc:
                    ascending = self.sem.logical_not(ascending)
                keep_small = self.sem.compare("==", lower, ascending)
                smaller = self.sem.where(self.sem.compare("<", partner, v), partner, v)
                larger = self.sem.where(self.sem.compare("<", v, partner), partner, v)
                v = self.sem.where(keep_small, smaller, larger)
                j //= 2
            k *= 2
        return v

    def topk(self, x: Any, k: Any, dim: Any = None) -> TensorValue:
        """Triton's ``tl.topk``: the block sorted in descending order, its first ``k`` columns
        (taken with ``tt.gather``)."""
        v = self._block(x, "tl.topk's input")
        n = v.shape[-1]
        count = self._static(k, "tl.topk's k")
        if not isinstance(count, int) or isinstance(count, bool) or count < 1 or count > n:
            raise KernelValueError(
                f"tl.topk: k must be an int from 1 to {n} (the last dimension), got {count!r}",
                self.sem.b.loc,
            )
        if count & (count - 1):
            raise KernelValueError(
                f"tl.topk: k must be a power of two, got {count}", self.sem.b.loc
            )
        ordered = self.sort(v, dim, True)
        if count == n:
            return ordered
        last = len(v.shape) - 1
        return self.gather(ordered, self._positions((*v.shape[:-1], count), last), last)

    def histogram(self, input: Any, num_bins: Any, mask: Any = None) -> TensorValue:
        """``tt.histogram`` of the values widened to a signed type (i32, or i64 for 64-bit
        ones), masked-off elements replaced by -1 (not counted, as values out of range)."""
        x = self._block(input, "tl.histogram's input")
        if len(x.shape) != 1:
            raise KernelValueError(
                f"tl.histogram needs a rank-1 block, got shape {list(x.shape)}", self.sem.b.loc
            )
        if x.dtype.kind != "int":
            raise KernelTypeError(f"tl.histogram needs integers, got {x.dtype}", self.sem.b.loc)
        bins = self._static(num_bins, "tl.histogram's num_bins")
        problem = block_shape_problem((bins,)) if isinstance(bins, int) else "not an int"
        if problem:
            raise KernelValueError(
                f"tl.histogram: bad num_bins {bins!r}: {problem}", self.sem.b.loc
            )
        wide = core.int64 if x.dtype.primitive_bitwidth == 64 else core.int32
        values = self.sem.cast(x, wide)
        if mask is not None:
            m = self.sem.broadcast_to(self.sem.to_bool(self.sem.to_tensor(mask)), x.shape)
            values = self.sem.where(m, values, self.sem.constant(-1, wide))
        return self._insert(tt_shape.HistogramOp(values.handle, bins))
