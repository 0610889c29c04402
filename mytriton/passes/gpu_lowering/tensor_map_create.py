"""Lowering of ``tt.make_tensor_map`` (``dialects/tt/tensor_map.py``): thread 0 of each
program writes the tensor map its TMA copies read into the program's slot of the kernel's
global scratch, as Triton writes an in-kernel descriptor's.

The slot of map ``k`` is ``SCRATCH_SLOT_BYTES`` bytes at ``scratch + (program * per_program +
k * SCRATCH_SLOT_BYTES)`` (``program`` the linear program id, x fastest); every thread computes
its address, the op's value. As Triton builds a map:

1. thread 0 zeroes 128 bytes of a shared buffer (``memref.store``) and sets every field there
   with ``ptx.tensormap.replace`` (a replace in shared memory is fast; one in global memory
   is a round trip to it): the 2-d map of the tensor, innermost dimension first, and, where the tile
   rotates its 8-row groups over ``span`` groups, the 5-d span map 128 bytes on
   (``backends/tensor_maps.TensorMapRequest.span_view``'s view, built here from the
   kernel's values);
2. warp 0 copies each to its global slot and releases it to the tensormap proxy
   (``ptx.tensormap.cp_fenceproxy``, a warp-wide instruction);
3. thread 0, which issues the copies through them, acquires each map
   (``nvvm.fence.proxy.acquire``).

Before each copy through the map ahead of a pipelined loop, thread 0 traps where the tensor
is one the copy engine cannot map (a dimension below 1, an outer stride not 16 bytes to 2^40
bytes; ``LoweringContext.tensor_map_checks``): the loads the copies replace would have been
masked off, but a copy through such a map would read wrong memory. It says nothing (a
``printf`` call anywhere in the kernel makes ptxas serialize its warpgroup MMAs, C7510), so
the launch fails as any trap does. The loop's own copies are not checked: the copies of its
first iterations, ahead of it, precede them whenever it runs, and a divergent ``trap`` in the
loop also serializes the MMAs (C7518): either cost two thirds of Triton's speed on the H200.
A kernel that makes such a descriptor and loads none of its blocks (a persistent kernel with
no tile) runs.

A map no copy reads (no box recorded) writes nothing: its value is the tensor's base pointer,
which runtime loops and ``if``s carry as any pointer (a map made in a loop is never read by
copies: only maps made at the kernel's top level are).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

from xdsl.dialects import arith, func, gpu, memref
from xdsl.dialects.builtin import IntegerType, i64
from xdsl.ir import Block, Operation, SSAValue

from mytriton.dialects.nvgpu.nvvm import GLOBAL_POINTER, SHARED_POINTER
from mytriton.dialects.nvgpu.ptx_tensormap import (
    ELEMTYPE_BY_BYTES,
    MAP_BYTES,
    SWIZZLE_MODES,
    TensormapCpFenceproxyOp,
    TensormapReplaceOp,
)
from mytriton.dialects.nvgpu.tensormap import FenceProxyAcquireOp
from mytriton.dialects.nvgpu.tma import GENERIC_POINTER, AddrSpaceCastOp
from mytriton.dialects.nvgpu.upstream import TrapOp
from mytriton.dialects.tt.tensor_map import SCRATCH_SLOT_BYTES, MakeTensorMapOp, global_scratch
from mytriton.dialects.tt.types import byte_size
from mytriton.dialects.ttg.layouts import WARP_SIZE
from mytriton.dialects.ttg.nvmma import ATOM_ROWS
from mytriton.dialects.ttg.tma import SPAN_MAP_OFFSET
from mytriton.passes.analysis.device_tensor_maps import TMA_ALIGNMENT, scratch_argument
from mytriton.passes.gpu_lowering.context import LoweringContext
from mytriton.passes.gpu_lowering.debug import guarded, program_ids
from mytriton.passes.gpu_lowering.dot_mma import memref_pointer
from mytriton.passes.gpu_lowering.op_builders import gep
from mytriton.passes.gpu_lowering.rules import lowers
from mytriton.passes.gpu_lowering.tma import thread_zero

#: the copy engine's bound on a stride (bytes)
MAX_STRIDE = 1 << 40
_DIMS = (gpu.DimensionEnum.X, gpu.DimensionEnum.Y, gpu.DimensionEnum.Z)


@dataclass(frozen=True)
class _Map:
    """One tensor map's fields (innermost dimension first; strides in bytes, of dims 1 on)."""

    dims: Sequence[SSAValue]
    strides: Sequence[SSAValue]
    box: Sequence[int]


@lowers(MakeTensorMapOp)
class LowerMakeTensorMap:
    def lower(self, ctx: LoweringContext, op: Operation) -> None:
        assert isinstance(op, MakeTensorMapOp)
        found = op.copies()
        if found is None:  # no copy reads it: its value is the tensor's base, as in the
            # interpreter, so that a loop or an ``if`` that carries it has a register to carry
            ctx.set(op.result, [ctx.scalar(op.base)])
            return
        box, swizzle, span, slot = found
        kernel = ctx.source
        assert isinstance(kernel, func.FuncOp)
        offset = _slot_offset(ctx, global_scratch(kernel), slot)
        scratch = ctx.scalar(scratch_argument(kernel))
        address = ctx.value(gep(scratch, offset, IntegerType(8), GLOBAL_POINTER))
        ctx.set(op.result, [address])
        size = byte_size(op.element.pointee)
        rows, cols = (ctx.scalar(s) for s in op.shape)
        row = ctx.value(arith.MuliOp(ctx.scalar(op.strides[0]), ctx.const(size, i64)))
        maps = [(address, _Map([cols, rows], [row], box[::-1]))]
        if span:
            maps.append(
                (_byte(ctx, address, SPAN_MAP_OFFSET), _span_map(ctx, rows, cols, row, box, span))
            )
        base = ctx.scalar(op.base)
        bad = _unmappable(ctx, rows, cols, row)
        ctx.tensor_map_checks[op.result] = partial(_stop_if, ctx, bad)
        words = MAP_BYTES // 8
        smem = ctx.shared_buffer(i64, words * len(maps), MAP_BYTES)
        built = Block()  # thread 0 builds the maps in shared memory
        with ctx.inside(built):
            zero = ctx.const(0, i64)
            for k in range(words * len(maps)):
                ctx.emit(memref.StoreOp.get(zero, smem, [ctx.index(k)]))
            for k, (_, fields) in enumerate(maps):
                _replace_all(ctx, _shared_slot(ctx, smem, k), base, fields, size, swizzle)
        guarded(ctx, thread_zero(ctx, None), built)
        copied = Block()  # warp 0 copies them to their global slots, releasing them
        with ctx.inside(copied):
            for k, (at, _) in enumerate(maps):
                ctx.emit(TensormapCpFenceproxyOp(at, _shared_slot(ctx, smem, k)))
        guarded(ctx, ctx.value(arith.CmpiOp(ctx.thread_id, ctx.i32(WARP_SIZE), "ult")), copied)
        acquired = Block()  # thread 0, which copies through them, acquires them
        with ctx.inside(acquired):
            for at, _ in maps:
                generic = ctx.value(AddrSpaceCastOp(at, GENERIC_POINTER))
                ctx.emit(FenceProxyAcquireOp(generic, ctx.i32(MAP_BYTES)))
        guarded(ctx, thread_zero(ctx, None), acquired)


def _shared_slot(ctx: LoweringContext, smem: SSAValue, k: int) -> SSAValue:
    """The ``!llvm.ptr<3>`` of map ``k`` in the shared buffer ``smem``."""
    first = memref_pointer(ctx, smem)
    if not k:
        return first
    return ctx.value(gep(first, k * MAP_BYTES, IntegerType(8), SHARED_POINTER))


def _byte(ctx: LoweringContext, address: SSAValue, by: int) -> SSAValue:
    return ctx.value(gep(address, by, IntegerType(8), GLOBAL_POINTER))


def _slot_offset(ctx: LoweringContext, per_program: int, slot: int) -> SSAValue:
    """Bytes from the scratch's start to this program's slot ``slot`` (i64)."""
    pid = [ctx.value(arith.ExtUIOp(p, i64)) for p in program_ids(ctx)]
    grid = [
        ctx.value(arith.IndexCastOp(ctx.value(gpu.GridDimOp(gpu.DimensionAttr(d))), i64))
        for d in _DIMS
    ]
    linear = ctx.value(arith.MuliOp(pid[2], grid[1]))
    linear = ctx.value(arith.MuliOp(ctx.value(arith.AddiOp(linear, pid[1])), grid[0]))
    linear = ctx.value(arith.AddiOp(linear, pid[0]))
    bytes_ = ctx.value(arith.MuliOp(linear, ctx.const(per_program, i64)))
    return ctx.value(arith.AddiOp(bytes_, ctx.const(slot * SCRATCH_SLOT_BYTES, i64)))


def _span_map(
    ctx: LoweringContext,
    rows: SSAValue,
    cols: SSAValue,
    row: SSAValue,
    box: Sequence[int],
    span: int,
) -> _Map:
    """The span map's fields: ``span_view``'s tensor (first row, ``l``, ``h``, row in group,
    columns), innermost first."""
    half = span // 2
    firsts = ctx.value(arith.AddiOp(rows, ctx.i32(1 - ATOM_ROWS * span)))
    firsts = ctx.value(arith.MaxSIOp(firsts, ctx.i32(1)))
    scaled = [
        ctx.value(arith.MuliOp(row, ctx.const(k, i64))) for k in (ATOM_ROWS * half, ATOM_ROWS)
    ]
    return _Map(
        [cols, ctx.i32(ATOM_ROWS), ctx.i32(2), ctx.i32(half), firsts],
        [row, scaled[0], scaled[1], row],
        [box[-1], ATOM_ROWS, 2, half, 1],
    )


def _unmappable(ctx: LoweringContext, rows: SSAValue, cols: SSAValue, row: SSAValue) -> SSAValue:
    """Whether the copy engine cannot map the tensor (i1): a dimension below 1, or an outer
    stride (bytes) out of 16 to 2^40."""
    bad = ctx.value(arith.CmpiOp(rows, ctx.i32(1), "slt"))
    for cond in (
        arith.CmpiOp(cols, ctx.i32(1), "slt"),
        arith.CmpiOp(row, ctx.const(TMA_ALIGNMENT, i64), "slt"),
        arith.CmpiOp(row, ctx.const(MAX_STRIDE, i64), "sge"),
    ):
        bad = ctx.value(arith.OrIOp(bad, ctx.value(cond)))
    return bad


def _stop_if(ctx: LoweringContext, bad: SSAValue) -> None:
    """Where ``bad``, trap: the loads the copy replaces would have been masked off, but a copy
    through such a map reads wrong memory. No ``printf`` says why: a call anywhere in the
    kernel makes ptxas serialize its warpgroup MMAs (C7510)."""
    failed = Block()
    with ctx.inside(failed):
        ctx.emit(TrapOp())
    guarded(ctx, bad, failed)


def _replace_all(
    ctx: LoweringContext,
    at: SSAValue,
    base: SSAValue,
    fields: _Map,
    size: int,
    swizzle: int,
) -> None:
    """Set every field of the (zeroed) map at ``at``."""
    rank = len(fields.dims)

    def replace(field: str, value: SSAValue, ordinal: int | None = None) -> None:
        ctx.emit(TensormapReplaceOp(at, field, value, ordinal))

    replace("global_address", base)
    replace("rank", ctx.i32(rank - 1))
    for d, b in enumerate(fields.box):
        replace("box_dim", ctx.i32(b), d)
    for d, v in enumerate(fields.dims):
        replace("global_dim", v, d)
    for d, v in enumerate(fields.strides):
        replace("global_stride", v, d)
    for d in range(rank):
        replace("element_stride", ctx.i32(1), d)
    replace("elemtype", ctx.i32(ELEMTYPE_BY_BYTES[size]))
    replace("interleave_layout", ctx.i32(0))
    replace("swizzle_mode", ctx.i32(SWIZZLE_MODES[swizzle]))
    replace("fill_mode", ctx.i32(0))
