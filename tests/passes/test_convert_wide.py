"""``convert_wide.plan_wide`` against a simulation of what its code does: every thread stores its
16-byte chunks at ``thread part XOR register part``, then every warp's ``ldmatrix.x4`` (lane
``8m + r`` gives row ``r`` of matrix ``m``; lane ``4r + i`` receives 4 bytes ``i`` of that row
in register ``m``) must hand each thread exactly the elements of its result registers, and no
quarter warp's stores nor any ``ldmatrix`` phase may hit a 16-byte bank group twice."""

from __future__ import annotations

import pytest

from mytriton.dialects.ttg.geometry import Geometry
from mytriton.dialects.ttg.layouts import WARP_SIZE, BlockedLayoutAttr, SliceLayoutAttr
from mytriton.passes.gpu_lowering.convert_wide import WidePlan, plan_wide
from mytriton.passes.gpu_lowering.redistribute import thread_coords


def _blocked(spt: list[int], tpw: list[int], wpc: list[int]) -> BlockedLayoutAttr:
    return BlockedLayoutAttr(spt, tpw, wpc, list(reversed(range(len(spt)))))


def _at(contrib: tuple[int, ...], t: int) -> int:
    x = 0
    for b, c in enumerate(contrib):
        if t >> b & 1:
            x ^= c
    return x


def simulate(plan: WidePlan, src: Geometry, dst: Geometry) -> None:
    """Run the plan's stores and loads on a model of shared memory and check the result."""
    eb = plan.elem_bytes
    memory: dict[int, tuple[int, ...]] = {}  # element address -> the coordinates stored there
    for t in range(src.num_threads):
        coords = thread_coords(src, t)
        phase = []
        for offset, run in plan.stores:
            at = _at(plan.store_thread, t) ^ offset
            assert at * eb % 16 == 0
            phase.append(at * eb // 16 % 8)
            for e, k in enumerate(run):
                assert at + e not in memory, "two stores to one address"
                memory[at + e] = coords[k]
    per_unit = 4 // eb
    for w in range(dst.num_threads // WARP_SIZE):
        for g, offset in enumerate(plan.loads):
            rows = [_at(plan.load_thread, w * WARP_SIZE + lane) ^ offset for lane in range(32)]
            for m in range(4):  # one 8-lane phase per matrix: 8 distinct bank groups
                assert len({r * eb // 16 % 8 for r in rows[8 * m : 8 * m + 8]}) == 8
            for lane in range(WARP_SIZE):
                t = w * WARP_SIZE + lane
                want = thread_coords(dst, t)
                for m in range(4):
                    row = rows[8 * m + lane // 4]
                    for e in range(per_unit):
                        k = (4 * g + m) * per_unit + e
                        assert memory[row + (lane % 4) * per_unit + e] == want[k], (t, k)


def _store_conflicts(plan: WidePlan, threads: int) -> int:
    """The most stores of one quarter warp to one 16-byte bank group, over all stores."""
    worst = 1
    for q in range(0, threads, 8):
        for offset, _ in plan.stores:
            groups = [
                (_at(plan.store_thread, t) ^ offset) * plan.elem_bytes // 16 % 8
                for t in range(q, q + 8)
            ]
            worst = max(worst, max(groups.count(x) for x in groups))
    return worst


# (shape, source [spt, tpw, wpc], result [spt, tpw, wpc], element bytes): mma accumulators
# (an mma.sync or wgmma tile's [1, 2] / [8, 4] pairs) to store layouts of 1 to 8 warps, and
# whole rows a thread
CASES = [
    ((16, 32), ([1, 2], [8, 4], [1, 1]), ([1, 8], [8, 4], [1, 1]), 2),
    ((64, 64), ([1, 2], [8, 4], [4, 1]), ([1, 8], [4, 8], [4, 1]), 2),
    ((128, 256), ([1, 2], [8, 4], [8, 1]), ([1, 8], [1, 32], [8, 1]), 2),
    ((128, 128), ([1, 2], [8, 4], [8, 1]), ([1, 8], [2, 16], [8, 1]), 2),
    ((32, 32), ([1, 1], [32, 1], [1, 1]), ([1, 8], [8, 4], [1, 1]), 2),  # a row a thread
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}-{c[1][2]}-{c[3]}B")
def test_plans_move_every_element(case: tuple) -> None:
    shape, s, d, eb = case
    src, dst = Geometry.of(_blocked(*s), shape), Geometry.of(_blocked(*d), shape)
    plan = plan_wide(src, dst, eb, shape[0] * shape[1])
    assert plan is not None
    simulate(plan, src, dst)
    assert _store_conflicts(plan, src.num_threads) == 1


def test_replicated_result_has_no_plan() -> None:
    """A result layout whose tile is wider than the block holds elements twice: no plan."""
    shape = (16, 32)
    src = Geometry.of(_blocked([1, 2], [8, 4], [1, 1]), shape)
    dst = Geometry.of(_blocked([1, 8], [4, 8], [1, 1]), shape)  # 64 columns a tile
    assert plan_wide(src, dst, 2, 512) is None


def test_partial_chunks_have_no_plan() -> None:
    """Source threads that hold one element of each 16-byte result chunk cannot store it whole:
    a column a thread, or f32 pairs where a chunk takes 4 columns 4 apart (lanes ``4r..4r+3``
    of a ``[1, 4]`` result: no wide plan for f32 accumulators yet)."""
    shape = (32, 32)
    src = Geometry.of(_blocked([1, 1], [1, 32], [1, 1]), shape)  # a column a thread
    dst = Geometry.of(_blocked([1, 8], [8, 4], [1, 1]), shape)
    assert plan_wide(src, dst, 2, 1024) is None
    src = Geometry.of(_blocked([1, 2], [8, 4], [2, 1]), (32, 64))
    dst = Geometry.of(_blocked([1, 4], [2, 16], [2, 1]), (32, 64))
    assert plan_wide(src, dst, 4, 2048) is None


def test_pairs_16_columns_apart_have_no_plan() -> None:
    """An accumulator over 2 x 2 warps: a thread's pairs lie 16 columns apart, a result chunk's
    8 apart (lanes ``4r..4r+3`` of ``ldmatrix``), so no thread holds a whole chunk."""
    shape = (64, 64)
    src = Geometry.of(_blocked([1, 2], [8, 4], [2, 2]), shape)
    dst = Geometry.of(_blocked([1, 8], [4, 8], [4, 1]), shape)
    assert plan_wide(src, dst, 2, 4096) is None


def test_slices_have_no_plan() -> None:
    parent = _blocked([1, 2], [8, 4], [1, 1])
    src = Geometry.of(SliceLayoutAttr(0, parent), (256,))
    dst = Geometry.of(_blocked([8], [32], [1]), (256,))
    assert plan_wide(src, dst, 2, 256) is None
