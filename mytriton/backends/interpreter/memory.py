"""The kernel's memory: the pointer arguments' arrays, and bounds-checked gathers and scatters.

Each pointer argument becomes a ``Buffer``: a flat view of the memory block the caller's array
points into (for a view, its whole base array), so stores land in the caller's data and a view's
pointer, at its first element, may move over the whole block as on a GPU. Arguments that share
memory (the same array passed twice, views of one array) are placed in one *region* with element
offsets, so the batching logic can see that a store through one and a load through the other
touch the same element.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from mytriton.backends.arrays import host_memory, overlapping_groups
from mytriton.backends.host_addresses import HostBlock

Array = np.ndarray


@dataclass(frozen=True)
class Buffer:
    """One pointer argument's memory block, flat in the argument's element type: ``origin`` is
    the index of the array's first element (where its pointer starts), ``start`` the index of
    ``flat[0]`` in its region."""

    name: str
    flat: Array
    region: int
    start: int
    origin: int = 0

    @property
    def size(self) -> int:
        return int(self.flat.shape[0])


class BadOffset(Exception):
    """An active lane addressed outside its buffer; ``index`` is its flat position."""

    def __init__(self, index: int):
        super().__init__(index)
        self.index = index


@dataclass
class Memory:
    """All buffers of one launch; ``region_spans`` gives each region's size in elements.

    ``blocks`` are the host memory blocks the buffers view, by address: a pointer made from an
    integer (``tt.int_to_ptr``) gets a buffer viewing the block its address falls in, as its
    own element type (``view_of``), added to ``buffers`` while the kernel runs.
    """

    buffers: list[Buffer]
    region_spans: dict[int, int]
    # False when arguments alias with mismatched element sizes or misaligned starts: the batching
    # conflict check cannot reason about them, so programs then run one at a time.
    batchable: bool = True
    blocks: list[HostBlock] = field(default_factory=list)
    _views: dict[tuple[int, np.dtype], int] = field(default_factory=dict)

    def state(self) -> list[Array]:
        """A copy of everything a program can change: the host blocks' bytes (a stalled loop
        is one whose iteration leaves them as they were: ``backends/cooperative.py``)."""
        return [block.raw.copy() for block in self.blocks]

    def view_of(self, block: HostBlock, dtype: np.dtype) -> int:
        """The index of the buffer viewing ``block`` as ``dtype`` elements (made once)."""
        key = (block.address, dtype)
        found = self._views.get(key)
        if found is None:
            usable = block.raw.size - block.raw.size % dtype.itemsize
            region = len(self.region_spans)
            self.region_spans[region] = usable // dtype.itemsize
            self.buffers.append(Buffer(block.name, block.raw[:usable].view(dtype), region, 0))
            found = self._views[key] = len(self.buffers) - 1
        return found

    @staticmethod
    def from_arrays(names: list[str], arrays: list[Array]) -> Memory:
        """Flatten the arrays' memory blocks and group the ones that share memory into regions."""
        flats, origins = [], []
        for a in arrays:
            memory = host_memory(a)
            usable = memory.raw.size - memory.raw.size % a.dtype.itemsize
            flats.append(memory.raw[:usable].view(a.dtype))
            origins.append(memory.origin // a.dtype.itemsize)
        spans = [_byte_span(f) for f in flats]
        groups = overlapping_groups(spans)
        region_of: dict[int, tuple[int, int]] = {}
        region_spans: dict[int, int] = {}
        batchable = True
        for region, members in enumerate(groups):
            itemsizes = {flats[i].dtype.itemsize for i in members}
            base = min(spans[i][0] for i in members)
            end = max(spans[i][1] for i in members)
            itemsize = itemsizes.pop()
            if itemsizes or any((spans[i][0] - base) % itemsize for i in members):
                batchable = False
            for i in members:
                region_of[i] = (region, (spans[i][0] - base) // itemsize)
            region_spans[region] = -(-(end - base) // itemsize)
        buffers = [
            Buffer(name, flat, *region_of[i], origins[i])
            for i, (name, flat) in enumerate(zip(names, flats, strict=True))
        ]
        blocks = [HostBlock(n, host_memory(a).raw) for n, a in zip(names, arrays, strict=True)]
        return Memory(buffers, region_spans, batchable, blocks)


def _byte_span(a: Array) -> tuple[int, int]:
    lo = int(a.__array_interface__["data"][0])
    return lo, lo + a.nbytes


def check_bounds(buf: Buffer, offsets: Array, active: Array | None) -> None:
    """Raise ``BadOffset`` for the first active lane (C order) outside ``buf``.

    ``offsets`` and ``active`` must already have the same shape.
    """
    if offsets.size == 0:
        return
    if offsets.min() >= 0 and offsets.max() < buf.size:
        return  # common case: no lane, active or not, is out of range
    bad = (offsets < 0) | (offsets >= buf.size)
    if active is not None:
        bad &= active
    if bad.any():
        raise BadOffset(int(np.argmax(bad)))


def gather(buf: Buffer, offsets: Array, active: Array | None, fill: Array) -> Array:
    """``buf[offsets]`` where ``active`` (all lanes when None), ``fill`` elsewhere.

    Inactive lanes are never read: their offsets may lie anywhere. Bounds must be checked first.
    """
    if active is None:
        return buf.flat[offsets]
    if buf.size == 0 or not active.any():
        return np.broadcast_to(fill, offsets.shape).astype(buf.flat.dtype)
    safe = np.where(active, offsets, 0)
    return np.where(active, buf.flat[safe], fill)


def scatter_indices(offsets: Array, values: Array, active: Array | None) -> tuple[Array, Array]:
    """Flat element indices and values an (already bounds-checked) store writes, in C order."""
    if active is None:
        return offsets.reshape(-1), values.reshape(-1)
    return offsets[active], values[active]
