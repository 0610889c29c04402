"""Which thread owns which element of a block: the arithmetic behind `ttg` layouts.

A thread's element coordinates along each dimension are ``base_d(thread) + offset_d(register)``:
the *base* depends on the lane and warp, the *offsets* are compile-time constants. With
power-of-two shapes, ``base_d = ((warp_d * threadsPerWarp_d + lane_d) * sizePerThread_d) mod
shape_d`` covers both a block larger than the layout's tile (offsets step over repetitions) and a
smaller one (threads beyond the shape replicate elements).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cached_property

from xdsl.ir import Attribute

from mytriton.dialects.ttg.layouts import WARP_SIZE, BlockedLayoutAttr, SliceLayoutAttr


def log2(n: int) -> int:
    assert n > 0 and n & (n - 1) == 0, n
    return n.bit_length() - 1


def _bit_range(lo: int, hi: int) -> int:
    """The mask of bits ``lo`` to ``hi - 1``."""
    return (1 << hi) - (1 << lo)


@dataclass(frozen=True)
class Geometry:
    """The distribution of a block of ``shape`` under ``layout`` (blocked, or slices of one)."""

    root: BlockedLayoutAttr
    full_shape: tuple[int, ...]  # the root's rank; sliced-away dimensions have size 1
    kept: tuple[int, ...]  # root dimensions that are the block's own dimensions, in order

    @staticmethod
    def of(layout: Attribute, shape: tuple[int, ...]) -> Geometry:
        removed: list[int] = []
        lay = layout
        while isinstance(lay, SliceLayoutAttr):
            removed.append(lay.dim.data)
            lay = lay.parent
        assert isinstance(lay, BlockedLayoutAttr), layout
        # slices nest outside-in: map each removed dim back to a root dimension index
        root_dims: list[int] = []
        for d in reversed(removed):
            for r in sorted(root_dims):
                if r <= d:
                    d += 1
            root_dims.append(d)
        kept = tuple(d for d in range(lay.rank) if d not in root_dims)
        assert len(kept) == len(shape), (layout, shape)
        full = [1] * lay.rank
        for d, n in zip(kept, shape, strict=True):
            full[d] = n
        return Geometry(lay, tuple(full), kept)

    # ---- per-dimension facts ----

    def tile(self, d: int) -> int:
        r = self.root
        return r.spt[d] * r.tpw[d] * r.wpc[d]

    def offsets(self, d: int) -> list[int]:
        """Compile-time offsets (added to the thread's base) of the elements a thread owns."""
        n = self.full_shape[d]
        per = min(self.root.spt[d], n)
        reps = max(1, n // self.tile(d))
        return [rep * self.tile(d) + i for rep in range(reps) for i in range(per)]

    @cached_property
    def lane_strides(self) -> tuple[int, ...]:
        return self._strides(self.root.tpw)

    @cached_property
    def warp_strides(self) -> tuple[int, ...]:
        return self._strides(self.root.wpc)

    def _strides(self, counts: tuple[int, ...]) -> tuple[int, ...]:
        strides = [0] * self.root.rank
        s = 1
        for d in self.root.dim_order:
            strides[d] = s
            s *= counts[d]
        return tuple(strides)

    def distinct_lanes(self, d: int) -> int:
        """Lanes along ``d`` that own different elements (the rest replicate them)."""
        return min(self.root.tpw[d], max(1, self.full_shape[d] // self.root.spt[d]))

    def distinct_warps(self, d: int) -> int:
        covered = self.root.spt[d] * self.root.tpw[d]
        return min(self.root.wpc[d], max(1, self.full_shape[d] // covered))

    @cached_property
    def replica_bits(self) -> int:
        """The thread-id bits that only tell replicas apart: threads differing only in them
        hold the same elements. Along each dimension, lanes (warps) at or beyond the distinct
        ones wrap around onto the same elements, so the bits of those high coordinates are
        replica bits; the thread with all of them 0 is the elements' one owner (what Triton
        lets store)."""
        bits = 0
        for d in range(self.root.rank):
            lane_shift = log2(self.lane_strides[d])
            bits |= _bit_range(
                lane_shift + log2(self.distinct_lanes(d)), lane_shift + log2(self.root.tpw[d])
            )
            warp_shift = log2(WARP_SIZE) + log2(self.warp_strides[d])
            bits |= _bit_range(
                warp_shift + log2(self.distinct_warps(d)), warp_shift + log2(self.root.wpc[d])
            )
        return bits

    def shuffle_offsets(self, d: int) -> list[int]:
        """Lane xor-offsets that combine all distinct lanes along ``d`` (a butterfly)."""
        return [self.lane_strides[d] << b for b in range(log2(self.distinct_lanes(d)))]

    # ---- registers ----

    @cached_property
    def registers(self) -> list[tuple[int, ...]]:
        """Per register, the root-rank offsets of its element (dimension 0 outermost)."""
        return list(itertools.product(*(self.offsets(d) for d in range(self.root.rank))))

    def register_runs(self, d: int, width: int) -> list[list[int]]:
        """The registers in groups of ``width`` elements consecutive along ``d`` (indices into
        ``registers``, each group in element order): the runs a vector access moves.
        ``width`` divides the thread's consecutive elements along ``d``."""
        n = len(self.registers)
        if width == 1:
            return [[i] for i in range(n)]
        stride = 1  # index distance of registers one element apart along d
        for e in range(d + 1, self.root.rank):
            stride *= len(self.offsets(e))
        count = len(self.offsets(d))
        assert min(self.root.spt[d], self.full_shape[d]) % width == 0, (d, width)
        return [
            [i + j * stride for j in range(width)]
            for i in range(n)
            if (i // stride) % count % width == 0
        ]

    def value_coords(self, reg: tuple[int, ...]) -> tuple[int, ...]:
        """A register's offsets restricted to the block's own dimensions."""
        return tuple(reg[d] for d in self.kept)

    @property
    def num_registers(self) -> int:
        return len(self.registers)

    @property
    def num_threads(self) -> int:
        return WARP_SIZE * self.root.num_warps
