"""Where a register's element goes in a shared tile, for both tile encodings: the padded
``#ttg.shared`` (strides: ``LoweringContext.linear_offset``) and the swizzled
``#ttg.nvmma_shared`` (``ttg_nvmma``'s formula).

The swizzled offset is a bitwise map of the element's coordinates: each of its terms moves or
XORs coordinate bits (tile extents are powers of two). A thread's coordinates are its base (lane
and warp bits) plus a register's constant offset, and the two never share a bit in a
power-of-two layout, so the offset is ``f(base) ^ f(offset)``: ``f(base)`` computed once at the
kernel entry, one XOR with a constant where the element is accessed. Where the bits could
overlap the whole formula is computed from the coordinates instead.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

from xdsl.dialects import arith
from xdsl.ir import Attribute, Operation, SSAValue

from mytriton.dialects.tt.types import byte_size
from mytriton.dialects.ttg.geometry import Geometry, log2
from mytriton.dialects.ttg.layouts import WARP_SIZE, SharedLayoutAttr
from mytriton.dialects.ttg.nvmma import ATOM_ROWS, CHUNK_BYTES, NvmmaSharedLayoutAttr
from mytriton.dialects.ttg.shared import SharedEncoding
from mytriton.passes.gpu_lowering.context import LoweringContext


def tile_offset(
    ctx: LoweringContext,
    layout: SharedEncoding,
    shape: Sequence[int],
    element: Attribute,
    g: Geometry,
    reg: tuple[int, ...],
) -> SSAValue:
    """The i32 element offset, in a tile of ``shape``, of register ``reg``'s element."""
    if isinstance(layout, SharedLayoutAttr):
        return ctx.linear_offset(g, reg, layout.strides(shape))
    size = byte_size(element)
    if _disjoint(g, reg) and all(n & (n - 1) == 0 for n in shape):
        key = ("nvmma_base", layout, tuple(shape), size, g.root, g.full_shape)
        if key not in ctx._derived:
            bases = ctx.bases(g)
            ctx._derived[key] = _emit_offset(ctx.at_entry, ctx, layout, shape, size, bases)
        base = ctx._derived[key]
        const = layout.offset(reg, shape, size)
        return base if const == 0 else ctx.value(arith.XOrIOp(base, ctx.i32(const)))
    coords = [ctx.coordinate(g, d, reg[d]) for d in range(len(shape))]
    return _emit_offset(ctx.value, ctx, layout, shape, size, coords)


def contiguous_run(
    layout: SharedEncoding,
    shape: Sequence[int],
    element: Attribute,
    run: int,
    dim: int,
) -> int:
    """How many of ``run`` consecutive elements along ``dim`` (aligned to ``run``) stay
    consecutive in the tile: ``run`` itself where they do, else 1. In a swizzled tile a 16-byte
    chunk of the contiguous dimension stays together."""
    if run <= 1:
        return 1
    if isinstance(layout, SharedLayoutAttr):
        return strided_run(layout.strides(shape), run, dim)
    if layout.dim_order[0] != dim:
        return 1
    chunk = CHUNK_BYTES // byte_size(element)
    return run if chunk % run == 0 else 1


def strided_run(strides: Sequence[int], run: int, dim: int) -> int:
    """``run`` where elements ``run`` apart along ``dim`` start aligned runs that are
    contiguous under ``strides`` (``dim``'s 1, every other a multiple of ``run``), else 1."""
    others = [s for e, s in enumerate(strides) if e != dim]
    if strides[dim] != 1 or any(s % run for s in others):
        return 1
    return run


def _disjoint(g: Geometry, reg: tuple[int, ...]) -> bool:
    """Whether no thread's base coordinate shares a bit with ``reg``'s offsets."""
    used = _base_bits(g)
    return all(r & u == 0 for r, u in zip(reg, used, strict=True))


@functools.cache
def _base_bits(g: Geometry) -> tuple[int, ...]:
    """Per root dimension, the OR of every thread's base coordinate (``context.bases``)."""
    r = g.root
    out = []
    for d in range(r.rank):
        n = g.full_shape[d]
        bits = 0
        if n > 1:
            lane_shift = log2(g.lane_strides[d])
            warp_shift = log2(WARP_SIZE) + log2(g.warp_strides[d])
            for t in range(WARP_SIZE * r.num_warps):
                lane = (t >> lane_shift) & (r.tpw[d] - 1)
                warp = (t >> warp_shift) & (r.wpc[d] - 1)
                v = (warp * r.tpw[d] + lane) * r.spt[d]
                bits |= v & (n - 1) if g.tile(d) > n else v
        out.append(bits)
    return tuple(out)


def _emit_offset(
    emit: Callable[[Operation], SSAValue],
    ctx: LoweringContext,
    layout: NvmmaSharedLayoutAttr,
    shape: Sequence[int],
    size: int,
    coords: Sequence[SSAValue],
) -> SSAValue:
    """``ttg_nvmma``'s offset formula of the i32 coordinates ``coords``, each op by ``emit``."""
    c_dim, r_dim = layout.dim_order
    rows, _ = layout.rows_cols(shape)
    e = layout.atom_elements(size)
    v = CHUNK_BYTES // size
    r, c = coords[r_dim], coords[c_dim]

    def op(kind: Callable[[SSAValue, SSAValue], Operation], a: SSAValue, b: int) -> SSAValue:
        return emit(kind(a, ctx.i32(b)))

    def add(a: SSAValue, b: SSAValue) -> SSAValue:
        return emit(arith.AddiOp(a, b))

    p = r
    span = layout.span
    if span > 1:  # rotate the 8-row group index left by one bit within `span` groups
        bits = log2(span)
        group = op(arith.AndIOp, op(arith.ShRUIOp, r, 3), span - 1)
        up = op(arith.AndIOp, op(arith.ShLIOp, group, 1), span - 1)
        rotated = emit(arith.OrIOp(up, op(arith.ShRUIOp, group, bits - 1)))
        kept = op(arith.AndIOp, r, ~((span << 3) - 1))
        low = op(arith.AndIOp, r, ATOM_ROWS - 1)
        p = emit(arith.OrIOp(emit(arith.OrIOp(kept, op(arith.ShLIOp, rotated, 3))), low))
    atom_col = op(arith.MuliOp, op(arith.DivUIOp, c, e), rows * e)
    row = op(arith.MuliOp, p, e)
    chunk = op(arith.DivUIOp, op(arith.RemUIOp, c, e), v)
    pattern = op(arith.AndIOp, p, ATOM_ROWS - 1)
    if layout.xor_shift:
        pattern = op(arith.ShRUIOp, pattern, layout.xor_shift)
    swizzled = op(arith.MuliOp, emit(arith.XOrIOp(chunk, pattern)), v)
    within = op(arith.RemUIOp, c, v)
    return add(add(atom_col, row), add(swizzled, within))
