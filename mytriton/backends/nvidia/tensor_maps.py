"""What a kernel's TMA copies read: a tensor map of one host descriptor, in the form the
backend's kernels read it (``Backend.tensor_map``).

The compiled kernel says which of its tensor-map arguments it reads and with which box and
swizzle (``kernel.metadata["tensor_maps"]``, from ``ttg_tma``); the runtime asks the backend
for each, at a launch, from the descriptor's base array, shape and strides.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mytriton.backends.arrays import ArrayInfo
from mytriton.dialects.ttg.nvmma import ATOM_ROWS


@dataclass(frozen=True)
class TensorMapRequest:
    """A tensor map to make: the tensor (elements, outermost dimension first; the last stride
    is 1) whose base is kernel parameter ``base_param``, copied in ``box``es (outermost first)
    into tiles swizzled over ``swizzle`` bytes (0: none). Where ``span`` (a 2-d tensor whose
    tiles rotate their 8-row groups over ``span`` groups, ``ttg_tma``), a second map follows
    the first, ``ttg_tma.SPAN_MAP_OFFSET`` bytes on: ``span_view``'s."""

    base: Any
    info: ArrayInfo
    base_param: int
    shape: tuple[int, ...]
    strides: tuple[int, ...]
    box: tuple[int, ...]
    swizzle: int
    span: int = 0

    @property
    def element_bytes(self) -> int:
        return max(1, self.info.dtype.primitive_bitwidth // 8)

    def key(self) -> tuple[Any, ...]:
        """Everything the map's bytes depend on (a map of one is a map of the other)."""
        i = self.info
        return map_key(
            i,
            i.address,
            self.base_param,
            self.shape,
            self.strides,
            self.box,
            self.swizzle,
            self.span,
        )

    def span_view(self) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
        """The span map's tensor (shape, strides in elements, box; outermost first): the 2-d
        tensor's rows as (first row, ``l``, ``h``, row in group) over its columns, so that one
        box of a span (``8 span`` rows from a first row, ``span / 2`` groups per ``h``) lands
        with source group ``h span/2 + l`` at ``2 l + h``, where ``ttg_nvmma.rotate_rows``
        puts it. Only spans inside the tensor's rows are copied through it (the first rows
        ``0 .. rows - 8 span``)."""
        assert self.span > 2 and len(self.shape) == 2, "a 2-d tensor with rotated rows"
        rows, cols = self.shape
        row, _ = self.strides
        half = self.span // 2
        firsts = max(rows - ATOM_ROWS * self.span + 1, 1)
        shape = (firsts, half, 2, ATOM_ROWS, cols)
        strides = (row, ATOM_ROWS * row, ATOM_ROWS * half * row, row, 1)
        box = (1, half, 2, ATOM_ROWS, self.box[-1])
        return shape, strides, box


def map_key(
    info: ArrayInfo,
    address: int,
    base_param: int,
    shape: tuple[int, ...],
    strides: tuple[int, ...],
    box: tuple[int, ...],
    swizzle: int,
    span: int,
) -> tuple[Any, ...]:
    """``TensorMapRequest.key`` of a request for a base at ``address`` described otherwise by
    ``info`` (its framework, device and element type), before any request is made."""
    return (
        info.framework,
        info.device,
        address,
        info.dtype.name,
        base_param,
        shape,
        strides,
        box,
        swizzle,
        span,
    )
