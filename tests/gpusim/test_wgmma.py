"""gpusim's ``nvvm.wgmma.mma_async`` and its fence, commit and wait ops: the descriptors'
addressing and 128-byte swizzle, the accumulator fragment, tf32 truncation and s8 wrapping, as
an H200 ran them (``tests/wgmma_samples.py``); and the mistakes a lowering can make with them.

The kernels write their tiles with the swizzled-layout formula (``swizzled_offset``) and give
the descriptors of the hardware-verified cases, while the rule computes each element's address
from the descriptor alone: a result equal to NumPy's ``A @ B + C`` means the two agree.
"""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects import arith, llvm
from xdsl.dialects.builtin import DenseArrayBase, FloatAttr, f32, i64

from mytriton.backends.gpusim import SimulationError, run_lowered
from mytriton.backends.gpusim.rules_wgmma import (
    a_addresses,
    accumulator_positions,
    b_addresses,
    swizzle,
)
from mytriton.backends.gpusim.shared_memory import SharedBuffer, SharedMemory
from mytriton.dialects.nvgpu.wgmma import WGMMA_FORMS, WgmmaWaitGroupSyncAlignedOp
from mytriton.dialects.ttg.nvmma import NvmmaSharedLayoutAttr
from tests.wgmma_samples import (
    HARDWARE_CASES,
    WgmmaCase,
    WgmmaOptions,
    descriptor_offsets,
    swizzled_offset,
    wgmma_inputs,
    wgmma_module,
    wgmma_reference,
)

F16 = WgmmaCase("f16", 64, 64, True)


def simulate(
    case: WgmmaCase, options: WgmmaOptions | None = None, programs: int = 1, seed: int = 0
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Run the kernel on random tiles: (A, B, C, D)."""
    a, b, c = wgmma_inputs(case, programs, np.random.default_rng(seed))
    d = np.zeros_like(c)
    run_lowered(wgmma_module(case, options), (programs, 1, 1), [a, b, c, d])
    return a, b, c, d


def check(case: WgmmaCase, a: np.ndarray, b: np.ndarray, c: np.ndarray, d: np.ndarray) -> None:
    expected = wgmma_reference(a, b, c, tf32_inputs=case.operand == "tf32")
    if case.operand == "s8":
        np.testing.assert_array_equal(d, expected)
    else:  # one f32 rounding per K step here, one in the reference
        np.testing.assert_allclose(d, expected, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("case", HARDWARE_CASES, ids=[c.id for c in HARDWARE_CASES])
def test_wgmma_matches_numpy(case: WgmmaCase) -> None:
    """Two programs (two warpgroups of the batch), each on its own tiles."""
    check(case, *simulate(case, programs=2))


def test_pipelined_groups_match_numpy() -> None:
    """Each K step its own group, ``wait 1`` after it: the chained accumulator is in flight
    when the next wgmma takes it, which is allowed."""
    check(F16, *simulate(F16, WgmmaOptions(pipelined=True)))


def test_tf32_operands_are_truncated_to_19_bits() -> None:
    case = HARDWARE_CASES[4]
    assert case.operand == "tf32"
    a, b, c, d = simulate(case, seed=3)
    check(case, a, b, c, d)
    untruncated = wgmma_reference(a, b, c, tf32_inputs=False)
    assert np.abs(d - untruncated).max() > 1e-4


def test_s8_sums_wrap_like_the_hardware() -> None:
    case = HARDWARE_CASES[6]
    assert case.operand == "s8"
    a, b, c, d = simulate(case, seed=5)
    exact = a.astype(np.int64) @ b.astype(np.int64) + c.astype(np.int64)
    assert (exact > np.iinfo(np.int32).max).any()
    np.testing.assert_array_equal(d, exact.astype(np.int32))


@pytest.mark.parametrize("case", HARDWARE_CASES, ids=[c.id for c in HARDWARE_CASES])
def test_descriptor_addresses_are_the_swizzled_layout(case: WgmmaCase) -> None:
    """For every K step, the rule's address of each element (from the descriptor's start, LBO
    and SBO) is the element's place in the swizzled tile, on its own (no kernel)."""
    form = WGMMA_FORMS[case.operand]
    eb = form.element_bytes
    base = np.array([4096], np.int64)  # a 1024-aligned buffer
    k = np.arange(form.k)
    for k0 in range(0, case.k, form.k):
        off_a, off_b, lbo, sbo = descriptor_offsets(case, k0)
        row = np.array([128])
        got_a = a_addresses(form, base + off_a, np.array([1024]), row)[0]
        rows, cols = np.arange(64)[:, None], k0 + k[None, :]
        expected_a = base[0] + swizzled_offset(rows, cols, 64, eb) * eb
        np.testing.assert_array_equal(got_a, expected_a)
        got_b = b_addresses(
            form, case.n, case.b_mn_major, base + off_b, np.array([lbo]), np.array([sbo]), row
        )[0]
        kk, nn = (k0 + k)[:, None], np.arange(case.n)[None, :]
        if case.b_mn_major:  # K rows of N
            expected_b = base[0] + swizzled_offset(kk, nn, case.k, eb) * eb
        else:  # N rows of K
            expected_b = base[0] + swizzled_offset(nn, kk, case.n, eb) * eb
        np.testing.assert_array_equal(got_b, expected_b)


def test_swizzle_xors_the_chunk_with_the_row() -> None:
    addresses = np.array([0, 16, 128, 128 + 16, 7 * 128 + 3 * 16 + 5])
    assert swizzle(addresses, 128).tolist() == [0, 16, 128 + 16, 128, 7 * 128 + 4 * 16 + 5]


def test_64_byte_swizzle_xors_two_chunk_bits_with_row_pairs() -> None:
    """Rows of 64 bytes: bits 4-5 XOR bits 7-8, so rows 2r and 2r + 1 share a pattern."""
    addresses = np.array([0, 64 + 16, 128, 128 + 64 + 48, 7 * 64 + 2 * 16 + 5])
    assert swizzle(addresses, 64).tolist() == [0, 64 + 16, 128 + 16, 128 + 64 + 32, 7 * 64 + 16 + 5]


@pytest.mark.parametrize("b_mn_major", [False, True], ids=["b_k_major", "b_mn_major"])
def test_64_byte_descriptors_address_the_lowering_tiles(b_mn_major: bool) -> None:
    """The addresses the rule reads through mode-2 descriptors (64-byte rows, SBO 512) are the
    places ``#ttg.nvmma_shared<{swizzle = 64}>`` gives the elements of the lowering's tiles: A
    64 x 32 f16 (K-major), B 32 x 64 K- or N-major (N-major B keeps 128-byte rows)."""
    form = WGMMA_FORMS["f16"]
    base = np.array([4096], np.int64)
    a_tile = NvmmaSharedLayoutAttr([1, 0], swizzle=64)
    b_tile = (
        NvmmaSharedLayoutAttr([1, 0]) if b_mn_major else NvmmaSharedLayoutAttr([0, 1], swizzle=64)
    )
    b_row = np.array([b_tile.row_bytes])
    for k0 in (0, 16):
        got_a = a_addresses(form, base + k0 * 2, np.array([512]), np.array([64]))[0]
        for r, c in ((0, 0), (1, 9), (2, 8), (5, 3), (63, 15)):
            expected = base[0] + a_tile.offset((r, k0 + c), (64, 32), 2) * 2
            assert got_a[r, c] == expected, (k0, r, c)
        lbo, sbo = (32 * 128, 1024) if b_mn_major else (16, 512)
        start = base + (k0 * 128 if b_mn_major else k0 * 2)
        got_b = b_addresses(form, 64, b_mn_major, start, np.array([lbo]), np.array([sbo]), b_row)[0]
        for kk, n in ((0, 0), (3, 17), (8, 40), (15, 63)):
            expected = base[0] + b_tile.offset((k0 + kk, n), (32, 64), 2) * 2
            assert got_b[kk, n] == expected, (k0, kk, n)


def test_accumulator_fragment_layout() -> None:
    """Thread 37 (warp 1, g = 1, q = 1): field 4j + 2h + e is D[16 + 1 + 8h][8j + 2 + e]."""
    rows, cols = accumulator_positions(64)
    assert list(zip(rows[37, :8].tolist(), cols[37, :8].tolist(), strict=True)) == [
        (17, 2),
        (17, 3),
        (25, 2),
        (25, 3),
        (17, 10),
        (17, 11),
        (25, 10),
        (25, 11),
    ]
    seen = np.zeros((64, 64), int)
    np.add.at(seen, (rows, cols), 1)
    assert (seen == 1).all()


def test_aligned_buffers_get_their_alignment() -> None:
    """Shared buffers asking for 1024 bytes get it; the dynamic region starts 1024-aligned."""
    small = SharedBuffer("small", np.dtype(np.float32), (10,), 1)
    tile = SharedBuffer("tile", np.dtype(np.float16), (4096,), 1)
    view = SharedBuffer("view", np.dtype(np.float16), (64,), 1)
    shared = SharedMemory({"small": small, "tile": tile, "view": view}, {"view": 0}, {"tile": 1024})
    assert shared.base == {"small": 0, "tile": 1024, "view": 1024 + 8192}


def _fails(match: str, options: WgmmaOptions, case: WgmmaCase = F16) -> None:
    with pytest.raises(SimulationError, match=match):
        simulate(case, options)


def test_start_outside_the_first_row_of_an_atom_is_an_error() -> None:
    """A start 128 bytes into the atom has bit 7 set; 32 to 96 bytes (the K steps) are fine."""
    _fails(
        r"descriptor A .*the start address 128 is 128 bytes into its 1024-byte swizzle atom",
        WgmmaOptions(skew_a=128),
    )
    check(F16, *simulate(F16, WgmmaOptions(skew_a=0)))


def test_descriptors_must_be_uniform_across_the_warpgroup() -> None:
    _fails(
        r"descriptor B differs between threads of a warpgroup .* in thread 0\): a wgmma needs "
        r"it uniform.*thread 64\]",
        WgmmaOptions(skew_b_upper=1024),
    )


def test_other_swizzle_modes_are_unsupported() -> None:
    _fails(r"swizzle mode 3 \(bits 62-63\) is unsupported", WgmmaOptions(swizzle=3 << 62))


def test_result_read_before_the_wait_is_an_error() -> None:
    _fails(
        r"read before wgmma.wait_group: .*group \(committed, 1 group\(s\) ago\).*"
        r"\[llvm.extractvalue",
        WgmmaOptions(read_before_wait=True),
    )


def test_wgmma_without_a_fence_is_an_error() -> None:
    _fails(r"without an nvvm.wgmma.fence.aligned since", WgmmaOptions(fence=False))


def test_tile_written_while_a_wgmma_reads_it_is_an_error() -> None:
    _fails(
        r"writes a_tile\[0\] while an nvvm.wgmma.mma_async reading it is in flight",
        WgmmaOptions(overwrite_in_flight=True),
    )


def test_tile_overwritten_after_the_wait_without_a_barrier_is_a_race() -> None:
    """A wait retires its own warp's groups only: until a barrier, the tile counts as read by
    every thread of the warpgroup, so even the thread whose lane read the element may not
    overwrite it (a pipelined loop's copies into the tile the previous dot read)."""
    _fails(
        r"data race: overwrites a_tile\[0\] .* after another thread read or wrote it since "
        r"the last barrier",
        WgmmaOptions(overwrite_after_wait=True),
    )


def test_tile_overwritten_after_the_wait_and_a_barrier_is_fine() -> None:
    check(
        F16, *simulate(F16, WgmmaOptions(overwrite_after_wait=True, barrier_before_overwrite=True))
    )


def test_kernel_ending_with_a_wgmma_in_flight_is_an_error() -> None:
    _fails(
        r"ends before an nvvm.wgmma.wait.group.sync.aligned retired this",
        WgmmaOptions(wait=False),
    )


def test_kernel_ending_with_a_wgmma_never_committed_is_an_error() -> None:
    _fails(
        r"ends with an nvvm.wgmma.mma_async never committed", WgmmaOptions(commit=False, wait=False)
    )


def test_block_of_partial_warpgroups_is_rejected() -> None:
    _fails(
        r"needs a block of whole warpgroups \(a multiple of 128 threads\), not 64",
        WgmmaOptions(block=64),
    )


def test_partial_warpgroup_is_rejected() -> None:
    _fails(
        r"nvvm.wgmma.fence.aligned is executed by only 96 of the 128 threads of a warpgroup",
        WgmmaOptions(active=96),
    )


def test_insertvalue_into_an_in_flight_result_is_an_error() -> None:
    """Rewriting a field of an in-flight accumulator reads it too."""
    module = wgmma_module(F16)
    wait = next(op for op in module.walk() if isinstance(op, WgmmaWaitGroupSyncAlignedOp))
    extract = next(op for op in module.walk() if isinstance(op, llvm.ExtractValueOp))
    one = arith.ConstantOp(FloatAttr(1.0, f32))
    insert = llvm.InsertValueOp(DenseArrayBase.from_list(i64, [0]), extract.container, one.result)
    block = wait.parent_block()
    assert block is not None
    block.insert_ops_before([one, insert], wait)
    a, b, c = wgmma_inputs(F16, 1, np.random.default_rng(0))
    with pytest.raises(SimulationError, match=r"read before wgmma.wait_group.*llvm.insertvalue"):
        run_lowered(module, (1, 1, 1), [a, b, c, np.zeros_like(c)])
