"""Buffers sharing bytes: the checks that make reuse of shared memory safe to simulate.

The lowering may place buffers that are never live at once at overlapping offsets of dynamic
shared memory (``passes/gpu_lowering/shared_alloc.py``). gpusim keeps each view a buffer of its
own (its data, race trackers and copies in flight), and an ``Alias`` links two views sharing
bytes. Every access to one is checked against the other's elements over the same bytes, as if
it were an access to them:

* reading or writing bytes a copy (``cp.async``, TMA) to the other view has in flight, or
  writing bytes an in-flight wgmma of the other reads, fails;
* reading bytes another thread wrote through the other view since the last barrier, or
  writing bytes another thread read or wrote through it, is a data race (a barrier is missing
  between the last use of one buffer and the first of the next);
* a write *clobbers* the other's elements over those bytes: they read as never written, so a
  later read through the other view (a buffer still in use whose bytes were reused) fails.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from xdsl.ir import Operation

if TYPE_CHECKING:
    from mytriton.backends.gpusim.machine import Machine
    from mytriton.backends.gpusim.shared_memory import SharedBuffer


@dataclass
class Alias:
    """``other``, a view whose bytes overlap the view that holds this link; ``shift``: the
    other's base minus this view's, in bytes."""

    other: SharedBuffer
    shift: int

    def elements(
        self, itemsize: int, rows: np.ndarray, cols: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """For elements ``cols`` (of this view, ``itemsize`` bytes each) in programs ``rows``:
        the other's elements over the same bytes, as (which of the given elements, rows,
        the other's columns)."""
        size = self.other.data.dtype.itemsize
        per = max(1, itemsize // size)
        start = cols.astype(np.int64) * itemsize - self.shift
        which, out_rows, out_cols = [], [], []
        for k in range(per):
            col = (start + k * size) // size
            ok = (col >= 0) & (col < self.other.data.shape[1])
            which.append(np.flatnonzero(ok))
            out_rows.append(rows[ok])
            out_cols.append(col[ok])
        return np.concatenate(which), np.concatenate(out_rows), np.concatenate(out_cols)


def check_aliases(
    buf: SharedBuffer,
    m: Machine,
    op: Operation,
    verb: str,
    rows: np.ndarray,
    cols: np.ndarray,
    active: np.ndarray,
    writing: bool,
    check_races: bool,
) -> None:
    """Check an access of ``buf``'s elements ``cols`` (programs ``rows``, by lanes ``active``)
    against every view sharing their bytes (module doc)."""
    tids = m.tid[active].astype(np.int32)
    for alias in buf.aliases:
        o = alias.other
        which, r, c = alias.elements(buf.data.dtype.itemsize, rows, cols)
        if which.size == 0:
            continue
        busy = (o.pending[r, c] > 0) | (o.tma_pending[r, c] > 0)
        if writing:
            busy |= (o.wgmma_reads[r, c] > 0) | (o.tma_reads[r, c] > 0)
        if busy.any():
            i = int(np.argmax(busy))
            m.fail(
                op,
                f"{verb} {buf.name}[{int(cols[which[i]])}], whose bytes {o.name}[{int(c[i])}] "
                "shares, while an asynchronous copy to it or a wgmma or TMA store reading it is in "
                "flight",
                m.lane_mask(int(active[which[i]])),
            )
        if not check_races:
            continue
        t = tids[which]
        lo_hi = [(o.writer_lo, o.writer_hi)]
        if writing:
            lo_hi.append((o.reader_lo, o.reader_hi))
        for lo, hi in lo_hi:
            low, high = lo[r, c], hi[r, c]
            other = (high >= 0) & ((low != t) | (high != t))
            if other.any():
                i = int(np.argmax(other))
                m.fail(
                    op,
                    f"data race: {verb} {buf.name}[{int(cols[which[i]])}], whose bytes "
                    f"{o.name}[{int(c[i])}] shares, after another thread accessed those since "
                    "the last barrier (a barrier is missing where the buffers reuse bytes)",
                    m.lane_mask(int(active[which[i]])),
                )


def clobber(buf: SharedBuffer, rows: np.ndarray, cols: np.ndarray) -> None:
    """A write to ``buf``'s elements ``cols`` (programs ``rows``): the views sharing their
    bytes no longer hold what was written through them."""
    for alias in buf.aliases:
        _, r, c = alias.elements(buf.data.dtype.itemsize, rows, cols)
        alias.other.written[r, c] = False


def link(a: SharedBuffer, base_a: int, b: SharedBuffer, base_b: int) -> None:
    """Link ``a`` and ``b`` if their bytes overlap."""
    if a.nbytes and b.nbytes and base_a < base_b + b.nbytes and base_b < base_a + a.nbytes:
        a.aliases.append(Alias(b, base_b - base_a))
        b.aliases.append(Alias(a, base_a - base_b))
