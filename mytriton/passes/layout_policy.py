"""The default distribution of a block of a given shape over ``num_warps`` warps.

Row-major and coalesced, like Triton's default: each thread owns up to 4 contiguous elements of
the fastest dimension (16-byte accesses for f32), lanes then warps fill the fastest dimensions
first, and a block larger than the resulting tile wraps around, so every thread holds a register
tile (rows strided by the tile height). A ``tt.dot`` accumulator uses the same layout, which makes
its results directly usable by the elementwise code around it.
"""

from __future__ import annotations

from collections.abc import Sequence

from mytriton.dialects.ttg import WARP_SIZE, BlockedLayoutAttr

MAX_VECTOR = 4


def _pow2_floor(n: int) -> int:
    return 1 << (max(n, 1).bit_length() - 1)


def default_blocked(shape: Sequence[int], num_warps: int) -> BlockedLayoutAttr:
    rank = len(shape)
    order = list(range(rank - 1, -1, -1))
    numel = 1
    for d in shape:
        numel *= d
    threads = WARP_SIZE * num_warps
    spt = [1] * rank
    spt[order[0]] = min(MAX_VECTOR, shape[order[0]], _pow2_floor(max(1, numel // threads)))
    remaining = [shape[d] // spt[d] for d in range(rank)]

    def distribute(total: int) -> list[int]:
        counts = [1] * rank
        left = total
        for d in order:
            take = min(left, max(1, remaining[d]))
            counts[d] = take
            remaining[d] = max(1, remaining[d] // take)
            left //= take
        counts[order[0]] *= left  # more threads than elements: replicate
        return counts

    tpw = distribute(WARP_SIZE)
    wpc = distribute(num_warps)
    return BlockedLayoutAttr(spt, tpw, wpc, order)
