"""``gpu`` ops: ids, barriers (checked, since lockstep makes them no-ops) and warp shuffles."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from xdsl.dialects import gpu
from xdsl.ir import Operation

from mytriton.backends.gpusim.compiler import Compiler
from mytriton.backends.gpusim.machine import WARP_SIZE, Machine, Step
from mytriton.backends.gpusim.registry import rule
from mytriton.dialects.nvgpu.upstream import ShuffleMode, ShuffleOp

_DIM = {gpu.DimensionEnum.X: 0, gpu.DimensionEnum.Y: 1, gpu.DimensionEnum.Z: 2}


def _dimension(op: Operation) -> int:
    attr = op.properties["dimension"]
    assert isinstance(attr, gpu.DimensionAttr)
    return _DIM[attr.data]


def _id_rule(pick: Callable[[Machine, int], np.ndarray]) -> Callable[[Operation, Compiler], Step]:
    def factory(op: Operation, c: Compiler) -> Step:
        d = _dimension(op)
        out = op.results[0]

        def step(m: Machine) -> None:
            m.env[out] = pick(m, d)

        return step

    return factory


rule("gpu.thread_id")(_id_rule(lambda m, d: m.thread_id[d]))
rule("gpu.block_id")(_id_rule(lambda m, d: m.block_id[d]))
rule("gpu.grid_dim")(_id_rule(lambda m, d: np.full(m.lanes, m.grid[d], np.int64)))
rule("gpu.block_dim")(_id_rule(lambda m, d: np.full(m.lanes, m.block_size[d], np.int64)))


@rule("gpu.lane_id")
def _lane_id(op: Operation, c: Compiler) -> Step:
    out = op.results[0]

    def step(m: Machine) -> None:
        m.env[out] = m.tid % WARP_SIZE

    return step


@rule("gpu.barrier")
def _barrier(op: Operation, c: Compiler) -> Step:
    def step(m: Machine) -> None:
        passed = m.check_whole_programs(op, "gpu.barrier")
        m.shared.barrier(passed)
        if m.memory.log is not None:  # it orders the block's global accesses too
            m.memory.log.next_interval()

    return step


@rule("gpu.shuffle")
def _shuffle(op: Operation, c: Compiler) -> Step:
    """PTX ``shfl.sync``: within ``width``-lane segments, lane ``l`` reads lane ``l ^ offset``
    (``bfly``, xor), ``l - offset`` (up), ``l + offset`` (down) or ``offset`` (idx, within its
    segment); a source outside the segment leaves the lane its own value and ``valid`` false."""
    assert isinstance(op, ShuffleOp)
    mode = op.mode.data
    value, offset, width = op.operands
    out, valid = op.results

    def step(m: Machine) -> None:
        m.check_whole_warps(op, "gpu.shuffle")
        env = m.env
        v, off, w = env[value], env[offset], env[width]
        assert isinstance(v, np.ndarray) and isinstance(off, np.ndarray)
        assert isinstance(w, np.ndarray)
        lane = m.tid % WARP_SIZE
        w64 = w.astype(np.int64)
        bad_width = m.mask & ((w64 < 1) | (w64 > WARP_SIZE) | ((w64 & (w64 - 1)) != 0))
        if bad_width.any():
            m.fail(op, "gpu.shuffle width must be a power of two from 1 to 32", bad_width)
        segment_start = lane & ~(w64 - 1)
        segment_top = segment_start | (w64 - 1)
        delta = off.astype(np.int64) & 0xFFFFFFFF  # the offset is a u32
        if mode is ShuffleMode.XOR:
            src = lane ^ delta
        elif mode is ShuffleMode.UP:
            src = lane - delta
        elif mode is ShuffleMode.DOWN:
            src = lane + delta
        else:
            src = segment_start + (delta & (w64 - 1))
        ok = (src >= segment_start) & (src <= segment_top)
        lanes = np.arange(m.lanes) - lane + np.where(ok, src, lane)
        env[out] = v[lanes]
        env[valid] = ok

    return step
