"""``#ttg.nvmma_shared``'s element offsets: the 128-byte swizzle verified on the H200 (a wgmma
reading tiles filled by this formula matched NumPy), and the row rotation that lets the blocked
tensor-core accumulator layout hold a warpgroup MMA's result."""

from __future__ import annotations

import pytest

from mytriton.dialects.ttg.nvmma import NvmmaSharedLayoutAttr, rotate_rows


def _hardware_offset(r: int, c: int, rows: int, size: int) -> int:
    """The offset formula the H200 probe filled its tiles with (``r`` a row, ``c`` along the
    contiguous dimension): 128-byte atom columns of all rows, 16-byte chunks XORed by r % 8."""
    e, v = 128 // size, 16 // size
    return (c // e) * (rows * e) + r * e + (((c % e) // v) ^ (r % 8)) * v + c % v


@pytest.mark.parametrize("size", [1, 2, 4])
@pytest.mark.parametrize("shape", [(64, 64), (128, 256), (64, 128)])
def test_unrotated_offsets_are_the_hardware_layout(shape: tuple[int, int], size: int) -> None:
    rows, cols = shape
    cols = cols * 2 // size  # whole atoms for every element size
    a = NvmmaSharedLayoutAttr([1, 0])  # rows along dim 0, contiguous dim 1
    b = NvmmaSharedLayoutAttr([0, 1])  # the same tile stored transposed
    seen = set()
    for r in range(rows):
        for c in range(cols):
            want = _hardware_offset(r, c, rows, size)
            assert a.offset((r, c), (rows, cols), size) == want
            assert b.offset((c, r), (cols, rows), size) == want
            seen.add(want)
    assert seen == set(range(rows * cols))  # a permutation of the tile


@pytest.mark.parametrize("wm", [4, 8, 16])
def test_rotation_puts_accumulator_rows_where_wgmma_computes_them(wm: int) -> None:
    """The blocked accumulator gives warp w (warpgroup G = w // 4) rows 8 w + g + 8 wm (2 i + h);
    instruction i of warpgroup G computes stored rows 64 (i wm / 4 + G) + 16 (w % 4) + 8 h + g."""
    span = 2 * wm
    m = 16 * wm * 2  # two instructions per warpgroup
    groups = wm // 4
    for w in range(wm):
        for g in range(8):
            for i in range(m // (16 * wm)):
                for h in (0, 1):
                    logical = 8 * w + g + 8 * wm * (2 * i + h)
                    stored = 64 * (i * groups + w // 4) + 16 * (w % 4) + 8 * h + g
                    assert rotate_rows(logical, span) == stored
    assert sorted(rotate_rows(r, span) for r in range(m)) == list(range(m))


def test_no_rotation_keeps_rows() -> None:
    assert [rotate_rows(r, 0) for r in range(64)] == list(range(64))
