"""``Geometry.replica_bits`` against a brute-force map of which thread holds which elements:
the threads with all replica bits 0 own every element exactly once, and every other thread
holds exactly the elements of the owner it differs from only in replica bits."""

from __future__ import annotations

import itertools

import pytest
from xdsl.ir import Attribute

from mytriton.dialects.ttg.geometry import Geometry
from mytriton.dialects.ttg.layouts import WARP_SIZE, BlockedLayoutAttr, SliceLayoutAttr


def held(g: Geometry, tid: int) -> frozenset[tuple[int, ...]]:
    """The block coordinates thread ``tid`` holds, from the layout's definition."""
    r = g.root
    lane, warp = tid % WARP_SIZE, tid // WARP_SIZE
    out = set()
    for reg in g.registers:
        coords = []
        for d in range(r.rank):
            lane_d = (lane // g.lane_strides[d]) % r.tpw[d]
            warp_d = (warp // g.warp_strides[d]) % r.wpc[d]
            base = ((warp_d * r.tpw[d] + lane_d) * r.spt[d]) % g.full_shape[d]
            coords.append(base + reg[d])
        out.add(tuple(coords[d] for d in g.kept))
    return frozenset(out)


def check(g: Geometry) -> None:
    threads = {t: held(g, t) for t in range(g.num_threads)}
    owners = [t for t in threads if t & g.replica_bits == 0]
    owned = [e for t in owners for e in threads[t]]
    every = set(itertools.product(*(range(g.full_shape[d]) for d in g.kept)))
    assert sorted(owned) == sorted(every)  # each element by exactly one owner
    for t, elements in threads.items():
        assert elements == threads[t & ~g.replica_bits], t


BLOCKED_1D = BlockedLayoutAttr([1], [32], [4], [0])
BLOCKED_2D = BlockedLayoutAttr([1, 4], [4, 8], [2, 2], [1, 0])
COLUMN_MAJOR = BlockedLayoutAttr([2, 1], [8, 4], [1, 4], [0, 1])


@pytest.mark.parametrize("n", [1, 2, 16, 32, 64, 128, 256])
def test_blocked_1d(n: int) -> None:
    check(Geometry.of(BLOCKED_1D, (n,)))


def test_no_replicas_when_the_block_covers_all_threads() -> None:
    assert Geometry.of(BLOCKED_1D, (128,)).replica_bits == 0
    assert Geometry.of(BLOCKED_1D, (32,)).replica_bits == 0b11 << 5  # the 4 warps


@pytest.mark.parametrize("layout", [BLOCKED_2D, COLUMN_MAJOR], ids=["row-major", "col-major"])
@pytest.mark.parametrize("shape", [(1, 1), (4, 4), (2, 64), (64, 2), (16, 32), (32, 64)])
def test_blocked_2d(layout: BlockedLayoutAttr, shape: tuple[int, int]) -> None:
    check(Geometry.of(layout, shape))


@pytest.mark.parametrize("layout", [BLOCKED_2D, COLUMN_MAJOR], ids=["row-major", "col-major"])
@pytest.mark.parametrize("dim", [0, 1])
@pytest.mark.parametrize("n", [1, 4, 64])
def test_slices(layout: BlockedLayoutAttr, dim: int, n: int) -> None:
    sliced: Attribute = SliceLayoutAttr(dim, layout)
    check(Geometry.of(sliced, (n,)))


def test_slice_of_a_slice() -> None:
    layout = BlockedLayoutAttr([1, 2, 1], [2, 4, 4], [2, 1, 2], [2, 1, 0])
    check(Geometry.of(SliceLayoutAttr(0, SliceLayoutAttr(1, layout)), (8,)))
    check(Geometry.of(layout, (2, 8, 4)))
