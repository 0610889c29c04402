"""``tt-legalize-fp8-dots``: widen the operands of the fp8 dots no fp8 MMA runs to f16.

The frontend keeps a ``tt.dot`` of fp8e4nv or fp8e5 blocks (either each) in fp8, as Triton does:
where fp8 MMAs run it (its ``ttg.mma``, from ``ttg-accelerate-matmul``, reads 8-bit operands:
``mma_policy.dot_instruction``: warpgroup MMAs on sm_90a, warp ones, ``ptx.mma.sync``, from
sm_89 on; a tile they take, an f32 accumulator), the tensor cores read the bytes themselves, at
twice the f16 rate. Everywhere else (an older chip, a tile of the wrong shape, an f16
accumulator in hand-written ``tt``, no tensor cores: a ``ttg.mma`` of f16 operands, or none)
the operands become f16 first: exact (every fp8e4nv and fp8e5 value is an f16), and the f16 dot
runs as its ``ttg.mma`` says. Layout assignment then meets only fp8 dots it lays out for fp8
MMAs.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, f16
from xdsl.ir import SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from mytriton.dialects.tt import core as tt
from mytriton.dialects.tt.elementwise import CastOp
from mytriton.dialects.tt.fp8 import is_fp8
from mytriton.dialects.tt.types import block_type, shape_of
from mytriton.dialects.ttg.mma import dot_mma, set_dot_mma

FP8_BITS = 8


@dataclass(frozen=True)
class LegalizeFp8DotsPass(ModulePass):
    """Cast the operands of every fp8 ``tt.dot`` whose instruction (``ttg.mma``) does not read
    fp8 to f16, at the dot's source location."""

    name = "tt-legalize-fp8-dots"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for dot in [d for d in op.walk() if isinstance(d, tt.DotOp) and is_fp8(d.a.type)]:
            mma = dot_mma(dot)
            if mma is not None and mma.operand_bits == FP8_BITS:
                continue
            a, b = (_widened(dot, v) for v in (dot.a, dot.b))
            new = tt.DotOp(a, b, dot.acc, dot.precision_setting)
            set_dot_mma(new, mma)
            new.location = dot.location
            Rewriter.replace_op(dot, new)


def _widened(dot: tt.DotOp, v: SSAValue) -> SSAValue:
    """``v`` (fp8) cast to f16 just before ``dot``."""
    cast = CastOp(v, block_type(f16, shape_of(v.type)))
    cast.location = dot.location
    Rewriter.insert_op(cast, InsertPoint.before(dot))
    return cast.result
