"""gpusim's TMA tile loads and mbarriers (``rules_tma``): a 2-d box lands in shared memory as the
GPU lays it out (rows contiguous, 16-byte chunks swizzled on the shared address, zeros outside
the tensor, negative coordinates included) when the threads wait on its mbarrier, and not
before; the mistakes a lowering can make (an uninitialised barrier, a wait no arrival or copy
completes, a missing wait, a read before it, a bad tensor map) fail, naming the op."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest

from mytriton.backends.gpusim import SimulationError, run_lowered
from mytriton.backends.gpusim.tensor_maps import (
    MAGIC,
    MAP_WORDS,
    decode_gpusim_tensor_map,
    encode_gpusim_tensor_map,
    fields_of,
    swizzle_addresses,
)
from tests.tma_samples import ELEMENT_BYTES, NUMPY, tma_module, tma_reference

ROWS, COLUMNS, PITCH = 40, 100, 104  # the tensor: 40 x 100 elements of rows 104 apart
BOX_ROWS = 16


def _array(element: str) -> np.ndarray:
    """A ROWS x PITCH array of distinct values (the tensor is its first COLUMNS columns)."""
    return (np.arange(ROWS * PITCH) % 1999 + 1).astype(NUMPY[element]).reshape(ROWS, PITCH)


def _map(element: str, inner: int, swizzle: int, rows: int = BOX_ROWS) -> np.ndarray:
    eb = ELEMENT_BYTES[element]
    return encode_gpusim_tensor_map(
        0, 0, eb, [COLUMNS, ROWS], [eb, PITCH * eb], [inner, rows], swizzle
    )


def _run(
    element: str,
    inner: int,
    tmap: np.ndarray,
    x0: int,
    x1: int,
    grid: tuple[int, int, int] = (1, 1, 1),
    **flags: Any,
) -> tuple[np.ndarray, np.ndarray]:
    """Run the sample kernel; returns (the full array, the tile as it lay in shared memory)."""
    full = _array(element)
    out = np.zeros(inner * BOX_ROWS, full.dtype)
    run_lowered(tma_module(element, inner, BOX_ROWS, **flags), grid, [full, tmap, out, x0, x1])
    return full, out


def _unswizzle(tile: np.ndarray, swizzle: int) -> np.ndarray:
    """The box's bytes in order: byte ``a`` (from the 1024-aligned tile's start) lies at the
    address with bits [4:6] ^= [7:9] (128), [4:5] ^= [7:8] (64), 4 ^= 7 (32)."""
    raw = tile.view(np.uint8)
    a = np.arange(raw.size)
    bits = {0: 0, 32: 1, 64: 2, 128: 3}[swizzle]
    moved = a ^ (((a >> 7) & ((1 << bits) - 1)) << 4)
    return raw[moved].view(tile.dtype)


def _box(full: np.ndarray, x0: int, x1: int, inner: int) -> np.ndarray:
    """The box of the tensor (the first COLUMNS columns) at (x0, x1), zeros outside."""
    box = np.zeros((BOX_ROWS, inner), full.dtype)
    for r in range(BOX_ROWS):
        for c in range(inner):
            y, x = x1 + r, x0 + c
            if 0 <= y < ROWS and 0 <= x < COLUMNS:
                box[r, c] = full[y, x]
    return box


CASES = [  # (element, swizzle, inner elements: the box's 16-byte multiple, within the span)
    ("f16", 128, 64),
    ("f32", 128, 32),
    ("f16", 64, 32),
    ("f16", 32, 16),
    ("f16", 0, 64),
    ("f32", 0, 8),
]
PLACES = {  # box origin (x0 innermost, a multiple of 16 bytes; x1) -> what it covers
    "inside": (8, 4),
    "past_the_end": (56, 30),  # columns 56..119 and rows 30..45: partly outside
    "negative": (-8, -5),
    "outside": (200, 100),
}


@pytest.mark.parametrize("place", PLACES)
@pytest.mark.parametrize(("element", "swizzle", "inner"), CASES)
def test_tile_lands_swizzled(element: str, swizzle: int, inner: int, place: str) -> None:
    x0, x1 = PLACES[place]
    if place == "negative" and element == "f32":
        x0 = -4  # 16 bytes before the rows (an 8-column box at -8 would miss the tensor)
    full, out = _run(element, inner, _map(element, inner, swizzle), x0, x1)
    box = _box(full, x0, x1, inner)
    tensor = np.ascontiguousarray(full[:, :COLUMNS])
    expected = tma_reference(tensor, x0, x1, inner, BOX_ROWS, swizzle)
    np.testing.assert_array_equal(out.view(np.uint8), expected.view(np.uint8))
    np.testing.assert_array_equal(_unswizzle(out, swizzle).reshape(BOX_ROWS, inner), box)
    if place == "outside":
        assert not out.any()
    else:
        assert out.any()
    if swizzle and place == "inside":
        assert not np.array_equal(out, box.reshape(-1))  # the swizzle moved chunks


def test_every_program_loads_its_own_tile() -> None:
    """Per-program barriers and shared memory: three programs, one copy each."""
    full, out = _run("f16", 64, _map("f16", 64, 128), 8, 4, grid=(3, 1, 1))
    np.testing.assert_array_equal(_unswizzle(out, 128).reshape(BOX_ROWS, 64), _box(full, 8, 4, 64))


def test_swizzle_addresses_match_the_bit_definitions() -> None:
    a = np.arange(4096)
    assert (swizzle_addresses(a, 0) == a).all()
    for swizzle, bits in ((32, 1), (64, 2), (128, 3)):
        mask = (1 << bits) - 1
        expected = (a & ~(mask << 4)) | ((((a >> 4) ^ (a >> 7)) & mask) << 4)
        assert (swizzle_addresses(a, swizzle) == expected).all()
        # a permutation of each 1024-byte block
        assert sorted(swizzle_addresses(a[:1024], swizzle).tolist()) == list(range(1024))


@pytest.mark.parametrize(("element", "x0"), [("f16", 60), ("f16", -3), ("f32", 2)])
def test_unaligned_innermost_coordinate_fails(element: str, x0: int) -> None:
    """The H200 stops a copy whose innermost coordinate is not a multiple of 16 bytes with an
    illegal instruction (checked with the cuda printer's kernel, ``CUtensorMap`` from the
    driver): so does gpusim."""
    inner = 64 if element == "f16" else 32
    with pytest.raises(SimulationError, match=r"not a multiple of 16: the H200 stops"):
        _run(element, inner, _map(element, inner, 128), x0, 4)


def test_uninitialised_barrier_fails() -> None:
    with pytest.raises(SimulationError, match=r"which no nvvm.mbarrier.init of the program") as e:
        _run("f16", 64, _map("f16", 64, 128), 0, 0, init=False)
    assert e.value.op_name == "nvvm.mbarrier.arrive.expect_tx"
    assert e.value.thread == 0


def test_wait_without_arrival_or_copy_deadlocks() -> None:
    with pytest.raises(SimulationError, match=r"deadlock: waits on an mbarrier phase") as e:
        _run("f16", 64, _map("f16", 64, 128), 0, 0, expect=False, copy=False)
    assert e.value.op_name == "nvvm.mbarrier.try_wait.parity"
    assert "1 of 1 arrivals" in str(e.value)


def test_wait_for_bytes_no_copy_delivers_deadlocks() -> None:
    """expect_tx announces more bytes than the copy brings: the phase never completes."""
    with pytest.raises(SimulationError, match=r"deadlock: .*2048 transaction bytes outstanding"):
        _run("f16", 64, _map("f16", 64, 128), 0, 0, tx_bytes=4096)
    with pytest.raises(SimulationError, match=r"deadlock: .*2048 transaction bytes outstanding"):
        _run("f16", 64, _map("f16", 64, 128), 0, 0, copy=False)


def test_copy_without_expect_tx_fails() -> None:
    with pytest.raises(SimulationError, match=r"completed 2048 bytes more than") as e:
        _run("f16", 64, _map("f16", 64, 128), 0, 0, expect=False)
    assert e.value.op_name == "nvvm.mbarrier.try_wait.parity"


@pytest.mark.parametrize("flags", [{"wait": False}, {"read_before_wait": True}])
def test_reading_the_tile_before_the_wait_fails(flags: dict[str, Any]) -> None:
    with pytest.raises(SimulationError, match=r"reads tile\[\d+\] while a TMA copy to it") as e:
        _run("f16", 64, _map("f16", 64, 128), 0, 0, **flags)
    assert e.value.op_name == "memref.load"


def test_bad_magic_fails() -> None:
    tmap = _map("f16", 64, 128)
    tmap[0] = 1234
    with pytest.raises(SimulationError, match=r"bad tensor map at byte 0 of `map`: not a gpusim"):
        _run("f16", 64, tmap, 0, 0)


def test_map_breaking_cuda_limits_fails() -> None:
    """A map the encoder would refuse (box dim over 256), written by hand."""
    tmap = _map("f16", 64, 128)
    fields_of(tmap.view(np.uint8))["box_dim"][1] = 300  # the box's outer dim
    with pytest.raises(SimulationError, match=r"bad tensor map .*box dim 1 must be 1 to 256"):
        _run("f16", 64, tmap, 0, 0)


def test_map_of_another_rank_fails() -> None:
    eb = 2
    tmap = encode_gpusim_tensor_map(0, 0, eb, [COLUMNS * ROWS], [eb], [64], 128)
    with pytest.raises(SimulationError, match=r"a copy of 2 coordinates through a rank-1"):
        _run("f16", 64, tmap, 0, 0)


def test_tensor_past_the_array_fails() -> None:
    tmap = encode_gpusim_tensor_map(0, 0, 2, [COLUMNS, ROWS + 1], [2, PITCH * 2], [64, 16], 128)
    with pytest.raises(SimulationError, match=r"the tensor the map describes .* runs past"):
        _run("f16", 64, tmap, 0, 0)


def test_round_trip_of_the_map() -> None:
    words = encode_gpusim_tensor_map(3, 32, 4, [5, 6, 7], [4, 32, 192], [4, 2, 1], 0)
    assert words.dtype == np.int64 and words.size == MAP_WORDS
    assert words.view(np.uint32)[0] == MAGIC
    tm = decode_gpusim_tensor_map(words)
    assert (tm.base_param, tm.base_offset, tm.element_bytes) == (3, 32, 4)
    assert (tm.dims, tm.strides, tm.box, tm.swizzle) == ((5, 6, 7), (4, 32, 192), (4, 2, 1), 0)
    assert tm.box_bytes == 32 and tm.box_inner_bytes == 16


BAD_MAPS = [  # encode arguments after base_param -> the message
    ((0, 2, [64, 8], [2, 128], [64, 8], 64), "must not exceed the 64-byte swizzle span"),
    ((0, 2, [64, 8], [2, 120], [64, 8], 0), "stride 1 must be a positive multiple of 16"),
    ((0, 2, [64, 8], [4, 128], [64, 8], 0), "the innermost stride must be the element size"),
    ((0, 2, [64, 8], [2, 128], [4, 8], 0), "must be a multiple of 16 bytes"),
    ((0, 2, [64, 8], [2, 128], [64, 257], 0), "box dim 1 must be 1 to 256"),
    ((0, 2, [64, 8], [2, 128], [64, 0], 0), "box dim 1 must be 1 to 256"),
    ((8, 2, [64, 8], [2, 128], [64, 8], 0), "must be 16-byte aligned"),
    ((0, 3, [64, 8], [3, 192], [64, 8], 0), "the element size must be one of"),
    ((0, 2, [64, 8], [2, 128], [64, 8], 16), "the swizzle must be one of"),
    ((0, 2, [1] * 6, [2] + [16] * 5, [8] * 6, 0), "rank 1 to 5"),
    ((0, 2, [64, 8], [2, 128], [64], 0), "needs 2 strides and 2 box dims"),
    ((0, 2, [0, 8], [2, 128], [64, 8], 0), "dim 0 must be 1 to 2^32"),
]


@pytest.mark.parametrize(("args", "message"), BAD_MAPS, ids=[m for _, m in BAD_MAPS])
def test_encoder_refuses_what_cuda_refuses(args: tuple, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        encode_gpusim_tensor_map(0, *args)
