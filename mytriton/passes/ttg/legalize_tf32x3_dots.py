"""``tt-legalize-tf32x3-dots``: an f32 dot at ``input_precision="tf32x3"`` as three tf32 dots.

Each f32 operand is split into ``big``, its upper 19 bits (exactly what a tensor core reads of
an f32: sign, exponent, 10 mantissa bits), and ``small = x - big`` (exact in f32), whose own
upper 19 bits the tensor core reads in turn; then ``a @ b`` is ``small_a @ big_b + big_a @
small_b + big_a @ big_b`` (Triton's ``tf32x3``, the small terms added first), all tf32 MMAs,
which lose only ``small_a @ small_b`` and the bits of ``small`` below its own 11 significant
ones: about 2**-21 of each product, close to f32's 2**-24. Infinities and NaNs become NaNs
(``inf - inf``), as in Triton.

Only dots whose tf32 form runs on tensor cores (``ttg-accelerate-matmul`` gave them a
``ttg.mma``, which the three dots keep) are split: elsewhere ``tf32x3`` stays one IEEE f32 dot
on CUDA cores, which is exact to f32 and faster there than three.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, f32, i32
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from mytriton.dialects.tt import core as tt
from mytriton.dialects.tt.constants import make_constant
from mytriton.dialects.tt.elementwise import AndOp, BitcastOp, SubOp
from mytriton.dialects.tt.types import block_type, element_type, shape_of
from mytriton.dialects.ttg.mma import NvidiaMmaEncodingAttr, dot_mma, set_dot_mma

TF32_BITS = int(np.uint32(0xFFFFE000).view(np.int32))  # sign, exponent, 10 mantissa bits


@dataclass(frozen=True)
class LegalizeTf32x3DotsPass(ModulePass):
    """Split every ``tf32x3`` f32 ``tt.dot`` that has a ``ttg.mma`` (its tf32 form runs on
    tensor cores) into three tf32 dots (see the module doc), at the dot's source location."""

    name = "tt-legalize-tf32x3-dots"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for dot in [d for d in op.walk() if isinstance(d, tt.DotOp) and _tf32x3(d)]:
            mma = dot_mma(dot)
            if mma is not None:
                _split(dot, mma)


def _tf32x3(dot: tt.DotOp) -> bool:
    return dot.precision == "tf32x3" and element_type(dot.a.type) == f32


def _split(dot: tt.DotOp, mma: NvidiaMmaEncodingAttr) -> None:
    """Replace ``dot`` with its three tf32 dots, each of instruction ``mma``."""
    new: list[Operation] = []

    def add(op: Operation) -> SSAValue:
        op.location = dot.location
        if isinstance(op, tt.DotOp):
            set_dot_mma(op, mma)
        new.append(op)
        return op.results[0]

    def halves(x: SSAValue) -> tuple[SSAValue, SSAValue]:
        shape = shape_of(x.type)
        mask = add(tt.SplatOp(add(make_constant(TF32_BITS, i32)), block_type(i32, shape)))
        bits = add(BitcastOp(x, block_type(i32, shape)))
        big = add(BitcastOp(add(AndOp(bits, mask)), x.type))
        return big, add(SubOp(x, big))

    big_a, small_a = halves(dot.a)
    big_b, small_b = halves(dot.b)
    acc = add(tt.DotOp(small_a, big_b, dot.acc, "tf32"))
    acc = add(tt.DotOp(big_a, small_b, acc, "tf32"))
    add(tt.DotOp(big_a, big_b, acc, "tf32"))
    Rewriter.insert_op(new, InsertPoint.before(dot))
    Rewriter.replace_op(dot, [], [new[-1].results[0]])
