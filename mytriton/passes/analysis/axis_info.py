"""What is known about the integer and pointer values of a block, per dimension (Triton's
AxisInfo): how long the runs of consecutive values are (*contiguity*), what power of two the
first value of each run is a multiple of (*divisibility*; bytes for pointers), and how long the
runs of equal values are (*constancy*).

It decides which loads and stores may move 16 bytes at a time: pointers contiguous over a
thread's elements, aligned, under a mask that is constant over them. The facts come from
``tl.arange``, constants, and the specialization of the kernel's arguments
(``tt.divisibility = 16`` on integers divisible by 16 and on 16-byte aligned arrays).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from math import gcd

from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, IntegerType, ModuleOp
from xdsl.ir import Attribute, Block, Operation, SSAValue

from mytriton.dialects.tt import core as tt
from mytriton.dialects.tt import elementwise as ew
from mytriton.dialects.tt.constants import UnsignedConstantOp
from mytriton.dialects.tt.types import (
    PointerType,
    byte_size,
    element_type,
    is_bool,
    is_int,
    shape_of,
)
from mytriton.dialects.ttg.layouts import ConvertLayoutOp

MAX_DIVISIBILITY = 1 << 30
MAX_VECTOR_BYTES = 16
_LOOP_ROUNDS = 6


def pow2_dividing(n: int) -> int:
    """The largest power of two dividing ``n`` (``MAX_DIVISIBILITY`` for 0)."""
    n = abs(int(n))
    if n == 0:
        return MAX_DIVISIBILITY
    return min(n & -n, MAX_DIVISIBILITY)


@dataclass(frozen=True)
class AxisInfo:
    """Per dimension of a block (a scalar has ``rank == 0`` and only ``scalar_divisibility``)."""

    contiguity: tuple[int, ...]
    divisibility: tuple[int, ...]
    constancy: tuple[int, ...]
    scalar_divisibility: int = 1

    @property
    def rank(self) -> int:
        return len(self.contiguity)

    def element_divisibility(self, d: int) -> int:
        """A power of two *every* element is a multiple of, judged along dimension ``d``."""
        if self.rank == 0:
            return self.scalar_divisibility
        return self.divisibility[d] if self.contiguity[d] == 1 else 1

    def meet(self, other: AxisInfo) -> AxisInfo:
        """What holds for both (values that may come from either, e.g. loop iterations)."""
        return AxisInfo(
            tuple(map(min, self.contiguity, other.contiguity)),
            tuple(map(min, self.divisibility, other.divisibility)),
            tuple(map(min, self.constancy, other.constancy)),
            min(self.scalar_divisibility, other.scalar_divisibility),
        )


def unknown(shape: Sequence[int]) -> AxisInfo:
    r = len(shape)
    return AxisInfo((1,) * r, (1,) * r, (1,) * r, 1)


def scalar(divisibility: int) -> AxisInfo:
    return AxisInfo((), (), (), min(divisibility, MAX_DIVISIBILITY))


def uniform(shape: Sequence[int], divisibility: int) -> AxisInfo:
    """Every element the same value, a multiple of ``divisibility``."""
    r = len(shape)
    return AxisInfo((1,) * r, (divisibility,) * r, tuple(shape), divisibility)


def _hint(attrs: Mapping[str, Attribute], name: str) -> list[int] | None:
    found = attrs.get(name)
    if isinstance(found, DenseArrayBase):
        return [int(v) for v in found.iter_values()]
    if isinstance(found, IntegerAttr):
        return [found.value.data]
    return None


def with_hints(info: AxisInfo, attrs: Mapping[str, Attribute], suffix: str) -> AxisInfo:
    """``info`` with what ``tl.multiple_of``/``max_contiguous``/``max_constancy`` promise
    (``tt.divisibility``/``tt.contiguity``/``tt.constancy``, ``<name>_arg0`` on a loop for its
    induction variable) in place of what was derived, as Triton takes them."""
    div = _hint(attrs, "tt.divisibility" + suffix)
    contiguity = _hint(attrs, "tt.contiguity" + suffix)
    constancy = _hint(attrs, "tt.constancy" + suffix)
    if div is None and contiguity is None and constancy is None:
        return info
    if info.rank == 0:
        return scalar(div[0]) if div else info
    rank = info.rank

    def pick(hint: list[int] | None, old: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(hint) if hint is not None and len(hint) == rank else old

    return AxisInfo(
        pick(contiguity, info.contiguity),
        pick(div, info.divisibility),
        pick(constancy, info.constancy),
        info.scalar_divisibility,
    )


class AxisAnalysis:
    """Computes ``AxisInfo`` for every value of a kernel (a `tt` module, laid out or not)."""

    def __init__(self, module: ModuleOp):
        self.info: dict[SSAValue, AxisInfo] = {}
        for op in module.walk():
            if isinstance(op, func.FuncOp):
                self._function(op)

    def __getitem__(self, v: SSAValue) -> AxisInfo:
        found = self.info.get(v)
        return found if found is not None else unknown(shape_of(v.type))

    def access_order(self, ptr: SSAValue) -> list[int]:
        """The dimensions of the pointer block ``ptr``, most contiguous first (Triton's
        coalescing order): the last dimension first among equals, so a block with no
        contiguity known keeps the row-major order."""
        info = self[ptr]
        dims = list(range(info.rank - 1, -1, -1))
        return sorted(dims, key=lambda d: -info.contiguity[d])  # stable: ties keep the order

    def access_width(self, ptr: SSAValue, uniform: Sequence[SSAValue | None], dim: int) -> int:
        """How many consecutive elements along ``dim`` of an access through the pointer block
        ``ptr`` can move as one aligned vector of at most 16 bytes: a power of two, with the
        values in ``uniform`` (mask, ``other``) constant over them."""
        shape = shape_of(ptr.type)
        elem = element_type(ptr.type)
        if not shape or not isinstance(elem, PointerType) or is_bool(elem.pointee):
            return 1
        size = byte_size(elem.pointee)
        info = self[ptr]
        width = min(MAX_VECTOR_BYTES // size, info.contiguity[dim], info.divisibility[dim] // size)
        for v in uniform:
            if v is not None:
                width = min(width, self[v].constancy[dim])
        return 1 << (max(width, 1).bit_length() - 1)

    # ---- traversal ----

    def _function(self, fn: func.FuncOp) -> None:
        block = fn.body.block
        attrs = fn.arg_attrs.data if fn.arg_attrs is not None else ()
        for i, arg in enumerate(block.args):
            div = 1
            if i < len(attrs):
                found = attrs[i].data.get("tt.divisibility")
                if isinstance(found, IntegerAttr):
                    div = found.value.data
            self.info[arg] = scalar(div)
        self._block(block)

    def _block(self, block: Block) -> None:
        for op in block.ops:
            if isinstance(op, scf.ForOp):
                self._loop(op)
            elif isinstance(op, scf.IfOp):
                self._conditional(op)
            elif isinstance(op, scf.WhileOp):
                self._while(op)
            else:
                self._op(op)

    def _conditional(self, op: scf.IfOp) -> None:
        """A result holds what both branches' yielded values have in common."""
        yields = []
        for region in (op.true_region, op.false_region):
            self._block(region.block)
            y = region.block.last_op
            assert isinstance(y, scf.YieldOp)
            yields.append(y)
        for i, res in enumerate(op.results):
            self.info[res] = self[yields[0].operands[i]].meet(self[yields[1].operands[i]])

    def _loop(self, op: scf.ForOp) -> None:
        body = op.body.block
        iv_div = gcd(self[op.lb].scalar_divisibility, self[op.step].scalar_divisibility)
        self.info[body.args[0]] = with_hints(scalar(iv_div), op.attributes, "_arg0")
        carried = [self[v] for v in op.iter_args]
        yield_op = body.last_op
        assert isinstance(yield_op, scf.YieldOp)
        for _ in range(_LOOP_ROUNDS):
            for arg, info in zip(body.args[1:], carried, strict=True):
                self.info[arg] = info
            self._block(body)
            after = [c.meet(self[y]) for c, y in zip(carried, yield_op.operands, strict=True)]
            if after == carried:
                break
            carried = after
        else:  # did not settle: assume nothing about the carried values
            carried = [unknown(shape_of(v.type)) for v in op.iter_args]
            for arg, info in zip(body.args[1:], carried, strict=True):
                self.info[arg] = info
            self._block(body)
        for res, info in zip(op.results, carried, strict=True):
            self.info[res] = info

    def _while(self, op: scf.WhileOp) -> None:
        """Like ``scf.for``: a carried value holds what its initial and yielded values have
        in common (iterated until that settles); the body's arguments and the results hold
        what the condition forwards."""
        before, after = op.before_region.block, op.after_region.block
        condition, yield_op = before.last_op, after.last_op
        assert isinstance(condition, scf.ConditionOp) and isinstance(yield_op, scf.YieldOp)
        carried = [self[v] for v in op.arguments]
        for rounds in range(_LOOP_ROUNDS + 1):
            if rounds == _LOOP_ROUNDS:  # did not settle: assume nothing about the carried values
                carried = [unknown(shape_of(v.type)) for v in op.arguments]
            for arg, info in zip(before.args, carried, strict=True):
                self.info[arg] = info
            self._block(before)
            for arg, v in zip(after.args, condition.args, strict=True):
                self.info[arg] = self[v]
            self._block(after)
            after_round = [c.meet(self[y]) for c, y in zip(carried, yield_op.operands, strict=True)]
            if after_round == carried or rounds == _LOOP_ROUNDS:
                break
            carried = after_round
        for res, v in zip(op.results, condition.args, strict=True):
            self.info[res] = self[v]

    # ---- rules ----

    def _op(self, op: Operation) -> None:
        if not op.results:
            return
        result = op.results[0]
        shape = shape_of(result.type)
        self.info[result] = with_hints(self._rule(op, shape), op.attributes, "")

    def _rule(self, op: Operation, shape: tuple[int, ...]) -> AxisInfo:
        if isinstance(op, arith.ConstantOp | UnsignedConstantOp):
            value = op.value
            if isinstance(value, IntegerAttr):
                return scalar(pow2_dividing(value.value.data))
            return scalar(1)
        if isinstance(op, tt.MakeRangeOp):
            n = op.end.value.data - op.start.value.data
            return AxisInfo((n,), (pow2_dividing(op.start.value.data),), (1,), 1)
        if isinstance(op, (tt.SplatOp, tt.FullOp)):
            return uniform(shape, self[op.operands[0]].scalar_divisibility)
        if isinstance(op, tt.ZerosOp):
            return uniform(shape, MAX_DIVISIBILITY)
        if isinstance(op, tt.BroadcastOp):
            return self._broadcast(self[op.src], shape_of(op.src.type), shape)
        if isinstance(op, tt.ExpandDimsOp):
            return self._expand_dims(self[op.src], op.axis.value.data)
        if isinstance(op, ConvertLayoutOp):
            return self[op.src]
        if isinstance(op, tt.AddPtrOp):
            elem = element_type(op.ptr.type)
            size = byte_size(elem.pointee) if isinstance(elem, PointerType) else 1
            return self._add(self[op.ptr], self[op.offset], scale_b=size)
        if isinstance(op, tt.LoadOp):
            p = self[op.ptr]  # the same address gives the same value
            return AxisInfo((1,) * len(shape), (1,) * len(shape), p.constancy, 1)
        if isinstance(op, ew.ElementwiseOp):
            return self._elementwise(op, shape)
        return unknown(shape)

    def _broadcast(
        self, src: AxisInfo, src_shape: tuple[int, ...], shape: tuple[int, ...]
    ) -> AxisInfo:
        c, d, k = list(src.contiguity), list(src.divisibility), list(src.constancy)
        for i, (a, b) in enumerate(zip(src_shape, shape, strict=True)):
            if a == 1 and b != 1:
                c[i], k[i] = 1, b
        return AxisInfo(tuple(c), tuple(d), tuple(k), src.scalar_divisibility)

    def _expand_dims(self, src: AxisInfo, axis: int) -> AxisInfo:
        every = min([src.element_divisibility(d) for d in range(src.rank)] or [1])
        c, d, k = list(src.contiguity), list(src.divisibility), list(src.constancy)
        c.insert(axis, 1)
        d.insert(axis, every)
        k.insert(axis, 1)
        return AxisInfo(tuple(c), tuple(d), tuple(k), src.scalar_divisibility)

    def _add(self, a: AxisInfo, b: AxisInfo, scale_b: int = 1) -> AxisInfo:
        if a.rank == 0:
            return scalar(gcd(a.scalar_divisibility, _scaled(b.scalar_divisibility, scale_b)))
        contiguity = tuple(
            max(min(ca, kb), min(cb, ka))
            for ca, kb, cb, ka in zip(
                a.contiguity, b.constancy, b.contiguity, a.constancy, strict=True
            )
        )
        divisibility = tuple(
            gcd(da, _scaled(db, scale_b))
            for da, db in zip(a.divisibility, b.divisibility, strict=True)
        )
        constancy = tuple(map(gcd, a.constancy, b.constancy))
        return AxisInfo(contiguity, divisibility, constancy, 1)

    def _elementwise(self, op: ew.ElementwiseOp, shape: tuple[int, ...]) -> AxisInfo:
        operands = [self[v] for v in op.operands]
        r = len(shape)
        if isinstance(op, ew.CastOp) and _widening_int_cast(op):
            return operands[0]  # the same integers, wider (Triton's rule for extsi/extui)
        constancy = tuple(gcd(*(o.constancy[d] for o in operands)) for d in range(r))
        if not is_int(op.results[0].type):
            return AxisInfo((1,) * r, (1,) * r, constancy, 1)
        if isinstance(op, ew.AddOp):
            return self._add(operands[0], operands[1])
        if isinstance(op, ew.SubOp):
            a, b = operands
            if r == 0:
                return scalar(gcd(a.scalar_divisibility, b.scalar_divisibility))
            contiguity = tuple(map(min, a.contiguity, b.constancy))
            divisibility = tuple(map(gcd, a.divisibility, b.divisibility))
            return AxisInfo(contiguity, divisibility, constancy, 1)
        if isinstance(op, ew.MulOp):
            a, b = operands
            if r == 0:
                return scalar(a.scalar_divisibility * b.scalar_divisibility)
            divisibility = tuple(
                min(a.element_divisibility(d) * b.element_divisibility(d), MAX_DIVISIBILITY)
                for d in range(r)
            )
            return AxisInfo((1,) * r, divisibility, constancy, 1)
        if isinstance(op, ew.RemOp) and r > 0:
            a, b = operands
            # x % m keeps runs of x that do not cross a multiple of m
            contiguity = tuple(
                min(a.contiguity[d], b.element_divisibility(d)) if b.constancy[d] > 1 else 1
                for d in range(r)
            )
            divisibility = tuple(
                gcd(a.divisibility[d], b.element_divisibility(d)) for d in range(r)
            )
            return AxisInfo(contiguity, divisibility, constancy, 1)
        if isinstance(op, ew.CmpOp) and r > 0:
            return AxisInfo((1,) * r, (1,) * r, self._compare(op, operands, constancy), 1)
        if isinstance(op, ew.SelectOp) and r > 0:
            c, a, b = operands
            contiguity = tuple(
                min(a.contiguity[d], b.contiguity[d], c.constancy[d]) for d in range(r)
            )
            divisibility = tuple(map(gcd, a.divisibility, b.divisibility))
            return AxisInfo(contiguity, divisibility, constancy, 1)
        if r == 0:
            return scalar(1)
        return AxisInfo((1,) * r, (1,) * r, constancy, 1)

    def _compare(
        self, op: ew.CmpOp, operands: list[AxisInfo], constancy: tuple[int, ...]
    ) -> tuple[int, ...]:
        """``x < n`` with ``x`` contiguous from aligned starts and ``n`` a constant multiple of
        ``g`` only changes value at multiples of ``g``: the mask is constant over ``g``."""
        pred = op.predicate.data.value
        a, b = operands
        if pred in ("lt", "ge"):
            runs, bound = a, b
        elif pred in ("gt", "le"):
            runs, bound = b, a
        else:
            return constancy
        out = []
        for d, k in enumerate(constancy):
            if bound.constancy[d] >= runs.contiguity[d]:
                g = min(runs.contiguity[d], runs.divisibility[d], bound.element_divisibility(d))
                k = max(k, g)
            out.append(k)
        return tuple(out)


def _widening_int_cast(op: ew.CastOp) -> bool:
    src, dst = element_type(op.src.type), element_type(op.result.type)
    return (
        isinstance(src, IntegerType)
        and isinstance(dst, IntegerType)
        and 1 < src.width.data <= dst.width.data
    )


def _scaled(div: int, scale: int) -> int:
    return min(div * scale, MAX_DIVISIBILITY)
