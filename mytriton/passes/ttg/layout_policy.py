"""Default distributions of blocks over ``num_warps`` warps.

``default_blocked``: row-major and coalesced. Lanes then warps fill the fastest dimensions
first and each thread owns one element per tile, so every warp-wide memory access touches
consecutive addresses; a block larger than the tile wraps around (every thread then holds
several registers, strided by the tile), a smaller one is replicated over threads.

A load or store whose addresses the axis analysis proves contiguous, aligned and uniformly
masked gets ``vector`` elements per thread (up to 16 bytes), which the lowering then moves with
one vector access; its layout's order puts the dimension along which its addresses are
contiguous first (a column-major access is laid out column-major, as Triton's coalescing does).

``dot_layout``: the accumulator of ``tt.dot``. Each thread owns a contiguous ``tm x tn`` register
tile (as square as possible, at most 8x8), so one K step reads ``tm + tn`` staged operand values
for ``tm * tn`` FMAs.
"""

from __future__ import annotations

from collections.abc import Sequence

from mytriton.dialects.ttg.layouts import WARP_SIZE, BlockedLayoutAttr

MAX_TILE = 8


def _distribute(groups: list[int], order: Sequence[int], total: int) -> list[int]:
    """Spread ``total`` threads over dimensions with ``groups[d]`` positions, fastest first;
    threads left over replicate along the fastest dimension. Updates ``groups`` in place."""
    counts = [1] * len(groups)
    left = total
    for d in order:
        take = min(left, max(1, groups[d]))
        counts[d] = take
        groups[d] = max(1, groups[d] // take)
        left //= take
    counts[order[0]] *= left
    return counts


def _blocked(
    shape: Sequence[int], spt: list[int], num_warps: int, order: Sequence[int] | None = None
) -> BlockedLayoutAttr:
    if order is None:
        order = list(range(len(shape) - 1, -1, -1))
    groups = [max(1, shape[d] // spt[d]) for d in range(len(shape))]
    tpw = _distribute(groups, order, WARP_SIZE)
    wpc = _distribute(groups, order, num_warps)
    return BlockedLayoutAttr(spt, tpw, wpc, order)


def default_blocked(
    shape: Sequence[int], num_warps: int, vector: int = 1, order: Sequence[int] | None = None
) -> BlockedLayoutAttr:
    """Coalesced: ``vector`` consecutive elements of the fastest dimension (``order[0]``; by
    default the last) per thread, so a thread's share of a tile can move as one access, then
    as many threads as fit along the dimensions in ``order``."""
    spt = [1] * len(shape)
    if shape:
        fastest = order[0] if order is not None else len(shape) - 1
        numel = 1
        for d in shape:
            numel *= d
        per_thread = max(1, numel // (WARP_SIZE * num_warps))
        spt[fastest] = max(1, min(vector, shape[fastest], per_thread))
    return _blocked(shape, spt, num_warps, order)


def dot_layout(shape: Sequence[int], num_warps: int) -> BlockedLayoutAttr:
    """The register-tile layout of a ``[M, N]`` dot accumulator (``[B, M, N]`` batched: one
    batch element per thread along B)."""
    *batch, m, n = shape
    per_thread = max(1, (m * n) // (WARP_SIZE * num_warps))
    tm = tn = 1
    while tm * tn < per_thread:
        if tn <= tm and tn < min(n, MAX_TILE):
            tn *= 2
        elif tm < min(m, MAX_TILE):
            tm *= 2
        elif tn < min(n, MAX_TILE):
            tn *= 2
        else:
            break
    return _blocked(shape, [*(1 for _ in batch), tm, tn], num_warps)
