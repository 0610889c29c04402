"""Span maps (``ttg_tma``): the 5-d view of a 2-d tensor through which one TMA copy fills a whole
span of a tile whose 8-row groups rotate. Its box, read in the copy engine's order, must put
every row where ``ttg_nvmma.rotate_rows`` puts it; gpusim's map of such a descriptor holds it
``SPAN_MAP_OFFSET`` bytes after the 2-d map, as the GPU's does."""

from __future__ import annotations

import numpy as np
import pytest

from mytriton.backends.arrays import describe_array
from mytriton.backends.gpusim.backend import GpuSimBackend
from mytriton.backends.gpusim.tensor_maps import MAP_WORDS, decode_gpusim_tensor_map
from mytriton.backends.nvidia.tensor_maps import TensorMapRequest
from mytriton.dialects.ttg.nvmma import rotate_rows
from mytriton.dialects.ttg.tma import SPAN_MAP_OFFSET


def _request(rows: int, cols: int, row_stride: int, span: int) -> TensorMapRequest:
    base = np.zeros((rows, row_stride), np.float16)
    info = describe_array(base, "a")
    return TensorMapRequest(base, info, 0, (rows, cols), (row_stride, 1), (8, 64), 128, span)


@pytest.mark.parametrize("span", [4, 8, 16])
def test_span_box_lands_rows_where_the_rotation_puts_them(span: int) -> None:
    """Box element (first, l, h, r, c) is written to shared row ``(2 l + h) 8 + r`` (the copy
    engine writes the box innermost dimension first); it must read the tensor's row that
    ``rotate_rows`` stores there."""
    request = _request(1000, 64, 72, span)
    _, strides, box = request.span_view()
    assert box[0] == 1 and box[-1] == 64 and np.prod(box[1:-1]) == 8 * span
    first = 40
    for index in np.ndindex(*box[1:-1]):
        group, half, r = index  # l, h and the row in the group
        stored_at = (group * 2 + half) * 8 + r
        at = first * strides[0] + group * strides[1] + half * strides[2] + r * strides[3]
        read_row = at // 72
        assert rotate_rows(read_row - first, span) == stored_at, (index, read_row)


def test_span_view_covers_the_first_rows_of_spans_inside_the_tensor() -> None:
    shape, strides, box = _request(200, 64, 72, 16).span_view()
    assert shape == (200 - 128 + 1, 8, 2, 8, 64)
    assert strides == (72, 8 * 72, 64 * 72, 72, 1)
    assert box == (1, 8, 2, 8, 64)
    # fewer rows than a span: no copy goes through it, but the map must still encode
    assert _request(100, 64, 72, 16).span_view()[0][0] == 1


def test_gpusim_map_holds_the_span_map_after_the_tensor_map() -> None:
    request = _request(200, 64, 72, 16)
    words = GpuSimBackend().tensor_map(request)
    plain = decode_gpusim_tensor_map(words[:MAP_WORDS])
    assert plain.dims == (64, 200) and plain.box == (64, 8)
    after = SPAN_MAP_OFFSET // 8
    spans = decode_gpusim_tensor_map(words[after:])
    shape, strides, box = request.span_view()
    assert spans.dims == tuple(reversed(shape))
    assert spans.strides == tuple(2 * s for s in reversed(strides))
    assert spans.box == tuple(reversed(box))
    assert after == MAP_WORDS and words.size == 2 * MAP_WORDS


def test_gpusim_map_without_span_is_one_map() -> None:
    words = GpuSimBackend().tensor_map(_request(200, 64, 72, 0))
    assert words.size == MAP_WORDS
