"""What is known about the integer and pointer values of a block, per dimension (Triton's
AxisInfo): how long the runs of consecutive values are (*contiguity*), what power of two the
first value of each run is a multiple of (*divisibility*; bytes for pointers), and how long the
runs of equal values are (*constancy*).

It decides which loads and stores may move 16 bytes at a time: pointers contiguous over a
thread's elements, aligned, under a mask that is constant over them. The facts come from
``tl.arange``, constants, and the specialization of the kernel's arguments
(``tt.divisibility = 16`` on integers divisible by 16 and on 16-byte aligned arrays).

What an op's result holds is the op's rule in ``AXIS_RULES`` (an ``OpRules``), registered
beside it with ``@AXIS_RULES.register(Op)``; an op without one gives a result of which nothing
is known.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from math import gcd
from typing import Any

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
from mytriton.op_rules import OpRules

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


Shape = tuple[int, ...]
#: ``rule(analysis, op, shape)``: what the result of ``op`` (of that shape) holds, reading its
#: operands' facts as ``analysis[v]``
AxisRule = Callable[["AxisAnalysis", Any, Shape], AxisInfo]

AXIS_RULES: OpRules[AxisRule] = OpRules("axis-info")


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

    def _op(self, op: Operation) -> None:
        if not op.results:
            return
        result = op.results[0]
        shape = shape_of(result.type)
        rule = AXIS_RULES.get(op)
        info = rule(self, op, shape) if rule is not None else unknown(shape)
        self.info[result] = with_hints(info, op.attributes, "")


# ---- rules: what an op's (first) result holds, from what its operands hold ----


@AXIS_RULES.register(arith.ConstantOp, UnsignedConstantOp)
def _constant(a: AxisAnalysis, op: arith.ConstantOp | UnsignedConstantOp, shape: Shape) -> AxisInfo:
    value = op.value
    if isinstance(value, IntegerAttr):
        return scalar(pow2_dividing(value.value.data))
    return scalar(1)


@AXIS_RULES.register(tt.MakeRangeOp)
def _make_range(a: AxisAnalysis, op: tt.MakeRangeOp, shape: Shape) -> AxisInfo:
    n = op.end.value.data - op.start.value.data
    return AxisInfo((n,), (pow2_dividing(op.start.value.data),), (1,), 1)


@AXIS_RULES.register(tt.SplatOp, tt.FullOp)
def _splat(a: AxisAnalysis, op: tt.SplatOp | tt.FullOp, shape: Shape) -> AxisInfo:
    return uniform(shape, a[op.operands[0]].scalar_divisibility)


@AXIS_RULES.register(tt.ZerosOp)
def _zeros(a: AxisAnalysis, op: tt.ZerosOp, shape: Shape) -> AxisInfo:
    return uniform(shape, MAX_DIVISIBILITY)


@AXIS_RULES.register(tt.BroadcastOp)
def _broadcast(a: AxisAnalysis, op: tt.BroadcastOp, shape: Shape) -> AxisInfo:
    src = a[op.src]
    c, d, k = list(src.contiguity), list(src.divisibility), list(src.constancy)
    for i, (m, n) in enumerate(zip(shape_of(op.src.type), shape, strict=True)):
        if m == 1 and n != 1:
            c[i], k[i] = 1, n
    return AxisInfo(tuple(c), tuple(d), tuple(k), src.scalar_divisibility)


@AXIS_RULES.register(tt.ExpandDimsOp)
def _expand_dims(a: AxisAnalysis, op: tt.ExpandDimsOp, shape: Shape) -> AxisInfo:
    src, axis = a[op.src], op.axis.value.data
    every = min([src.element_divisibility(d) for d in range(src.rank)] or [1])
    c, d, k = list(src.contiguity), list(src.divisibility), list(src.constancy)
    c.insert(axis, 1)
    d.insert(axis, every)
    k.insert(axis, 1)
    return AxisInfo(tuple(c), tuple(d), tuple(k), src.scalar_divisibility)


@AXIS_RULES.register(ConvertLayoutOp)
def _convert_layout(a: AxisAnalysis, op: ConvertLayoutOp, shape: Shape) -> AxisInfo:
    return a[op.src]


@AXIS_RULES.register(tt.AddPtrOp)
def _add_ptr(a: AxisAnalysis, op: tt.AddPtrOp, shape: Shape) -> AxisInfo:
    elem = element_type(op.ptr.type)
    size = byte_size(elem.pointee) if isinstance(elem, PointerType) else 1
    return _add(a[op.ptr], a[op.offset], scale_b=size)


@AXIS_RULES.register(tt.LoadOp)
def _load(a: AxisAnalysis, op: tt.LoadOp, shape: Shape) -> AxisInfo:
    p = a[op.ptr]  # the same address gives the same value
    return AxisInfo((1,) * len(shape), (1,) * len(shape), p.constancy, 1)


def _add(a: AxisInfo, b: AxisInfo, scale_b: int = 1) -> AxisInfo:
    if a.rank == 0:
        return scalar(gcd(a.scalar_divisibility, _scaled(b.scalar_divisibility, scale_b)))
    contiguity = tuple(
        max(min(ca, kb), min(cb, ka))
        for ca, kb, cb, ka in zip(a.contiguity, b.constancy, b.contiguity, a.constancy, strict=True)
    )
    divisibility = tuple(
        gcd(da, _scaled(db, scale_b)) for da, db in zip(a.divisibility, b.divisibility, strict=True)
    )
    constancy = tuple(map(gcd, a.constancy, b.constancy))
    return AxisInfo(contiguity, divisibility, constancy, 1)


# ---- elementwise ops: on integers, a rule per op family; on anything else, only constancy ----

#: an elementwise op's rule on integers: (op, its operands' facts, the constancy they share)
IntegerRule = Callable[[Any, list[AxisInfo], tuple[int, ...]], AxisInfo]


def _elementwise(integer: IntegerRule) -> AxisRule:
    """The rule of an elementwise op: a run of equal operands gives equal results (constancy);
    on a non-integer result that is all that is known, on integers ``integer`` says more."""

    def rule(a: AxisAnalysis, op: ew.ElementwiseOp, shape: Shape) -> AxisInfo:
        operands = [a[v] for v in op.operands]
        r = len(shape)
        constancy = tuple(gcd(*(o.constancy[d] for o in operands)) for d in range(r))
        if not is_int(op.results[0].type):
            return AxisInfo((1,) * r, (1,) * r, constancy, 1)
        return integer(op, operands, constancy)

    return rule


@AXIS_RULES.register(ew.ElementwiseOp)
@_elementwise
def _any_elementwise(
    op: ew.ElementwiseOp, operands: list[AxisInfo], constancy: tuple[int, ...]
) -> AxisInfo:
    r = len(constancy)
    if r == 0:
        return scalar(1)
    return AxisInfo((1,) * r, (1,) * r, constancy, 1)


@AXIS_RULES.register(ew.CastOp)
def _cast(a: AxisAnalysis, op: ew.CastOp, shape: Shape) -> AxisInfo:
    if _widening_int_cast(op):
        return a[op.operands[0]]  # the same integers, wider (Triton's rule for extsi/extui)
    return _any_elementwise(a, op, shape)


@AXIS_RULES.register(ew.AddOp)
@_elementwise
def _add_int(op: ew.AddOp, operands: list[AxisInfo], constancy: tuple[int, ...]) -> AxisInfo:
    return _add(operands[0], operands[1])


@AXIS_RULES.register(ew.SubOp)
@_elementwise
def _sub_int(op: ew.SubOp, operands: list[AxisInfo], constancy: tuple[int, ...]) -> AxisInfo:
    a, b = operands
    if len(constancy) == 0:
        return scalar(gcd(a.scalar_divisibility, b.scalar_divisibility))
    contiguity = tuple(map(min, a.contiguity, b.constancy))
    divisibility = tuple(map(gcd, a.divisibility, b.divisibility))
    return AxisInfo(contiguity, divisibility, constancy, 1)


@AXIS_RULES.register(ew.MulOp)
@_elementwise
def _mul_int(op: ew.MulOp, operands: list[AxisInfo], constancy: tuple[int, ...]) -> AxisInfo:
    a, b = operands
    r = len(constancy)
    if r == 0:
        return scalar(a.scalar_divisibility * b.scalar_divisibility)
    divisibility = tuple(
        min(a.element_divisibility(d) * b.element_divisibility(d), MAX_DIVISIBILITY)
        for d in range(r)
    )
    return AxisInfo((1,) * r, divisibility, constancy, 1)


@AXIS_RULES.register(ew.RemOp)
@_elementwise
def _rem_int(op: ew.RemOp, operands: list[AxisInfo], constancy: tuple[int, ...]) -> AxisInfo:
    r = len(constancy)
    if r == 0:
        return scalar(1)
    a, b = operands
    # x % m keeps runs of x that do not cross a multiple of m
    contiguity = tuple(
        min(a.contiguity[d], b.element_divisibility(d)) if b.constancy[d] > 1 else 1
        for d in range(r)
    )
    divisibility = tuple(gcd(a.divisibility[d], b.element_divisibility(d)) for d in range(r))
    return AxisInfo(contiguity, divisibility, constancy, 1)


@AXIS_RULES.register(ew.CmpOp)
@_elementwise
def _compare(op: ew.CmpOp, operands: list[AxisInfo], constancy: tuple[int, ...]) -> AxisInfo:
    """``x < n`` with ``x`` contiguous from aligned starts and ``n`` a constant multiple of
    ``g`` only changes value at multiples of ``g``: the mask is constant over ``g``."""
    r = len(constancy)
    if r == 0:
        return scalar(1)
    pred = op.predicate.data.value
    a, b = operands
    if pred in ("lt", "ge"):
        runs, bound = a, b
    elif pred in ("gt", "le"):
        runs, bound = b, a
    else:
        return AxisInfo((1,) * r, (1,) * r, constancy, 1)
    out = []
    for d, k in enumerate(constancy):
        if bound.constancy[d] >= runs.contiguity[d]:
            g = min(runs.contiguity[d], runs.divisibility[d], bound.element_divisibility(d))
            k = max(k, g)
        out.append(k)
    return AxisInfo((1,) * r, (1,) * r, tuple(out), 1)


@AXIS_RULES.register(ew.SelectOp)
@_elementwise
def _select(op: ew.SelectOp, operands: list[AxisInfo], constancy: tuple[int, ...]) -> AxisInfo:
    r = len(constancy)
    if r == 0:
        return scalar(1)
    c, a, b = operands
    contiguity = tuple(min(a.contiguity[d], b.contiguity[d], c.constancy[d]) for d in range(r))
    divisibility = tuple(map(gcd, a.divisibility, b.divisibility))
    return AxisInfo(contiguity, divisibility, constancy, 1)


def _widening_int_cast(op: ew.CastOp) -> bool:
    src, dst = element_type(op.src.type), element_type(op.result.type)
    return (
        isinstance(src, IntegerType)
        and isinstance(dst, IntegerType)
        and 1 < src.width.data <= dst.width.data
    )


def _scaled(div: int, scale: int) -> int:
    return min(div * scale, MAX_DIVISIBILITY)
