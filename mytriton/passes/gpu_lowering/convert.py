"""Lowering of ``ttg.convert_layout``: every thread writes the elements it owns to shared memory
(row-major), a barrier, every thread reads the elements of the new layout, a barrier; in 16-byte
accesses where the layouts allow (``convert_wide``: an mma accumulator to a store layout)."""

from __future__ import annotations

from xdsl.dialects import arith, gpu, memref
from xdsl.dialects.builtin import i32
from xdsl.ir import Operation

from mytriton.dialects.tt.types import byte_size, element_type, is_bool, is_pointer, shape_of
from mytriton.dialects.ttg.geometry import Geometry
from mytriton.dialects.ttg.layouts import ConvertLayoutOp
from mytriton.errors import BackendError
from mytriton.passes.gpu_lowering.context import LoweringContext
from mytriton.passes.gpu_lowering.convert_wide import (
    LDMATRIX_CAPABILITY,
    lower_wide,
    plan_wide,
    wide_element,
)
from mytriton.passes.gpu_lowering.fp8 import register_type
from mytriton.passes.gpu_lowering.rules import lowers


def _root_strides(g: Geometry, shape: tuple[int, ...]) -> list[int]:
    strides = [0] * g.root.rank
    s = 1
    for i in reversed(range(len(shape))):
        strides[g.kept[i]] = s
        s *= shape[i]
    return strides


@lowers(ConvertLayoutOp)
class LowerConvertLayout:
    def lower(self, ctx: LoweringContext, op: Operation) -> None:
        assert isinstance(op, ConvertLayoutOp)
        t = op.src.type
        if is_pointer(t):
            raise BackendError(
                "internal lowering error: cannot move pointer blocks between layouts"
            )
        shape = shape_of(t)
        numel = 1
        for d in shape:
            numel *= d
        elem = element_type(t)
        stored = i32 if is_bool(t) else register_type(elem)
        buf = ctx.shared_buffer(stored, numel, local=True)
        src_g, dst_g = ctx.geometry(t), ctx.geometry(op.result.type)
        if ctx.capability >= LDMATRIX_CAPABILITY and wide_element(elem):
            plan = plan_wide(src_g, dst_g, byte_size(elem), numel)
            if plan is not None:
                ctx.set(op.result, lower_wide(ctx, plan, buf, ctx.get(op.src), elem))
                return
        src_strides, dst_strides = _root_strides(src_g, shape), _root_strides(dst_g, shape)
        for reg, value in zip(src_g.registers, ctx.get(op.src), strict=True):
            v = ctx.value(arith.ExtUIOp(value, i32)) if is_bool(t) else value
            ctx.emit(memref.StoreOp.get(v, buf, [ctx.linear_index(src_g, reg, src_strides)]))
        ctx.emit(gpu.BarrierOp())
        out = []
        for reg in dst_g.registers:
            v = ctx.value(memref.LoadOp.get(buf, [ctx.linear_index(dst_g, reg, dst_strides)]))
            if is_bool(t):
                v = ctx.value(arith.CmpiOp(v, ctx.i32(0), "ne"))
            out.append(v)
        ctx.emit(gpu.BarrierOp())
        ctx.set(op.result, out)
