"""gpusim's TMA tile stores (``rules_tma_store``, ``bulk_stores``): the box leaves shared memory
unswizzled as the GPU reads it and lands in the tensor, the elements outside the tensor not
written (negative coordinates included) but for the rest of a row's last 16-byte chunk (the
copy engine writes whole chunks, as the H100 does); the mistakes a lowering can make (no barrier before
the store, a write to the tile or a missing commit or wait before its reads are done) fail,
naming the op."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from mytriton.backends.gpusim import SimulationError, run_lowered
from mytriton.backends.gpusim.tensor_maps import encode_gpusim_tensor_map
from tests.tma_samples import ELEMENT_BYTES, NUMPY, tma_reference
from tests.tma_store_samples import tma_store_module

ROWS, COLUMNS, PITCH = 40, 100, 104  # the tensor: 40 x 100 elements of rows 104 apart
BOX_ROWS = 16
SENTINEL = -7


def _run(
    element: str, inner: int, swizzle: int, x0: int, x1: int, **flags: Any
) -> tuple[np.ndarray, np.ndarray]:
    """Store a box of distinct values at (x0, x1); returns (the array after, the box)."""
    dtype = NUMPY[element]
    eb = ELEMENT_BYTES[element]
    box = (np.arange(BOX_ROWS * inner) % 1999 + 1).astype(dtype).reshape(BOX_ROWS, inner)
    tile = tma_reference(box, 0, 0, inner, BOX_ROWS, swizzle)  # as it lies in shared memory
    full = np.full((ROWS, PITCH), SENTINEL, dtype)
    tmap = encode_gpusim_tensor_map(
        0, 0, eb, [COLUMNS, ROWS], [eb, PITCH * eb], [inner, BOX_ROWS], swizzle
    )
    module = tma_store_module(element, BOX_ROWS * inner, **flags)
    run_lowered(module, (1, 1, 1), [full, tmap, tile, x0, x1])
    return full, box


def _expected(box: np.ndarray, x0: int, x1: int) -> np.ndarray:
    """The array after the store, written only inside the tensor (its first COLUMNS columns),
    but in whole 16-byte chunks of a row, as the GPU writes (f16: columns 100 to 103 too)."""
    out = np.full((ROWS, PITCH), SENTINEL, box.dtype)
    size = box.dtype.itemsize
    written = -(-COLUMNS * size // 16) * 16 // size
    for r in range(box.shape[0]):
        for c in range(box.shape[1]):
            y, x = x1 + r, x0 + c
            if 0 <= y < ROWS and 0 <= x < written:
                out[y, x] = box[r, c]
    return out


CASES = [("f16", 128, 64), ("f32", 128, 32), ("f16", 64, 32), ("f16", 0, 64), ("f32", 0, 8)]
PLACES = {"inside": (8, 4), "past_the_end": (56, 30), "negative": (-8, -5), "outside": (200, 100)}


@pytest.mark.parametrize("place", PLACES)
@pytest.mark.parametrize(("element", "swizzle", "inner"), CASES)
def test_box_lands_unswizzled_and_clipped(
    element: str, swizzle: int, inner: int, place: str
) -> None:
    x0, x1 = PLACES[place]
    if place == "negative" and element == "f32":
        x0 = -4
    full, box = _run(element, inner, swizzle, x0, x1)
    np.testing.assert_array_equal(full, _expected(box, x0, x1))
    assert (full != SENTINEL).any() == (place != "outside")


def test_full_wait_completes_reads_too() -> None:
    full, box = _run("f16", 64, 128, 8, 4, read=False)
    np.testing.assert_array_equal(full, _expected(box, 8, 4))


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        ({"barrier": False}, "data race: a TMA store reads"),
        ({"write_after": True}, "while a TMA store reading it"),
        ({"wait": False}, "not completed by an nvvm.cp.async.bulk.wait_group"),
        ({"commit": False}, "never committed"),
    ],
)
def test_mistakes_fail(flags: dict[str, Any], message: str) -> None:
    with pytest.raises(SimulationError, match=message) as e:
        _run("f16", 64, 128, 8, 4, **flags)
    assert "nvvm.cp.async.bulk.tensor.global.shared.cta" in str(e.value) or "memref.store" in str(
        e.value
    )


def test_unaligned_innermost_coordinate_fails() -> None:
    with pytest.raises(SimulationError, match="not a multiple of 16"):
        _run("f16", 64, 128, 4, 0)
