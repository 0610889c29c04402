"""gpusim's ``nvvm.mma.sync``: the PTX ISA's fragment layouts, tf32 truncation, whole warps.

The kernels (``tests/mma_samples.py``) load each lane's registers with the fragment index
formulas, so a result equal to NumPy's ``A @ B + C`` means the kernel's formulas and the rule's
layouts agree; the spot checks of ``_fragments`` pin the layouts to the PTX ISA's tables on
their own (an H200 running the printed kernels agreed with gpusim to about 1e-6).
"""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects import llvm
from xdsl.dialects.builtin import DenseArrayBase, VectorType, f16, f32, i32, i64
from xdsl.ir import Block

from mytriton.backends.gpusim import SimulationError, run_lowered
from mytriton.backends.gpusim.compiler import Compiler
from mytriton.backends.gpusim.registry import RULES
from mytriton.backends.gpusim.rules_nvvm import _elements, _fragments
from mytriton.dialects.nvgpu.nvvm import MMA_FORMS
from mytriton.dialects.nvgpu.ptx_mma import FP8_MMA_FORMS
from mytriton.passes.gpu_lowering.abi import find_kernel
from tests.mma_samples import (
    ALL_FORMS,
    FP8_KINDS,
    M,
    N,
    depth,
    mma_inputs,
    mma_module,
    mma_reference,
    operand_kinds,
    unwritten,
)

KINDS = [*MMA_FORMS, *FP8_KINDS]


def simulate(
    kind: str, warps: int, programs: int, seed: int = 0, **options: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Run the mma kernel over random tiles: (A, B, C, D), D NaN where nothing was stored."""
    a, b, c = mma_inputs(kind, warps * programs, np.random.default_rng(seed))
    d = unwritten(c)
    run_lowered(mma_module(kind, warps, **options), (programs, 1, 1), [a, b, c, d])
    return a, b, c, d


@pytest.mark.parametrize("warps, programs", [(1, 1), (2, 3), (4, 1)])
@pytest.mark.parametrize("kind", KINDS)
def test_mma_matches_numpy(kind: str, warps: int, programs: int) -> None:
    """Every warp of every program multiplies its own tile (lanes // 32 is the warp)."""
    a, b, c, d = simulate(kind, warps, programs)
    expected = mma_reference(a, b, c, truncate=kind == "tf32")
    np.testing.assert_allclose(d, expected, rtol=1e-5, atol=1e-6)


def test_tf32_operands_are_truncated_to_19_bits() -> None:
    """The untruncated product differs (the inputs use all 23 mantissa bits), so a rule reading
    whole f32 operands fails here."""
    a, b, c, d = simulate("tf32", 2, 2, seed=3)
    np.testing.assert_allclose(d, mma_reference(a, b, c, truncate=True), rtol=1e-5, atol=1e-6)
    untruncated = mma_reference(a, b, c, truncate=False)
    assert np.abs(d - untruncated).max() > 1e-4


def test_a_warp_skipping_the_mma_is_fine() -> None:
    """A warp-uniform branch: warp 0 multiplies, warp 1 (inactive) leaves its tile alone."""
    a, b, c, d = simulate("f16", 2, 1, active=32)
    np.testing.assert_allclose(d[0], mma_reference(a, b, c, truncate=False)[0], rtol=1e-5)
    assert np.isnan(d[1]).all()


@pytest.mark.parametrize("kind", KINDS)
def test_partial_warp_is_rejected(kind: str) -> None:
    op = "ptx.mma.sync" if kind in FP8_KINDS else "nvvm.mma.sync"
    with pytest.raises(SimulationError, match=rf"{op} with a full lane mask .* 16 lanes"):
        simulate(kind, 1, 1, active=16)


def test_block_of_partial_warps_is_rejected() -> None:
    module = mma_module("f16")
    find_kernel(module).attributes["known_block_size"] = DenseArrayBase.from_list(i32, [16, 1, 1])
    a, b, c = mma_inputs("f16", 1, np.random.default_rng(0))
    with pytest.raises(SimulationError, match="needs a block of whole warps, not 16 threads"):
        run_lowered(module, (1, 1, 1), [a, b, c, np.zeros_like(c)])


def _at(positions: tuple[np.ndarray, np.ndarray], lane: int, register: int) -> list[tuple]:
    rows, cols = positions
    return [
        (int(r), int(c)) for r, c in zip(rows[lane, register], cols[lane, register], strict=True)
    ]


def test_fragment_positions_follow_the_ptx_isa() -> None:
    """Lane 13 (g = 3, q = 1) against the PTX ISA's tables: (row, column) per register slot."""
    a, b, d = _fragments(MMA_FORMS["f16"])
    assert [_at(a, 13, r) for r in range(4)] == [
        [(3, 2), (3, 3)],
        [(11, 2), (11, 3)],
        [(3, 10), (3, 11)],
        [(11, 10), (11, 11)],
    ]
    assert [_at(b, 13, r) for r in range(2)] == [[(2, 3), (3, 3)], [(10, 3), (11, 3)]]
    assert [_at(d, 13, r) for r in range(4)] == [[(3, 2)], [(3, 3)], [(11, 2)], [(11, 3)]]
    assert _fragments(MMA_FORMS["bf16"])[0][0].tolist() == a[0].tolist()
    a, b, _ = _fragments(MMA_FORMS["tf32"])
    assert [_at(a, 13, r) for r in range(4)] == [[(3, 1)], [(11, 1)], [(3, 5)], [(11, 5)]]
    assert [_at(b, 13, r) for r in range(2)] == [[(1, 3)], [(5, 3)]]
    # s8 (m16n8k32): four k per register, the second register pair 16 k further
    a, b, _ = _fragments(MMA_FORMS["s8"])
    assert _at(a, 13, 0) == [(3, 4), (3, 5), (3, 6), (3, 7)]
    assert _at(a, 13, 3) == [(11, 20), (11, 21), (11, 22), (11, 23)]
    assert _at(b, 13, 1) == [(20, 3), (21, 3), (22, 3), (23, 3)]


def test_s8_sums_wrap_like_the_hardware() -> None:
    """C near the top of int32: the exact sums overflow, and the rule wraps them (a rule
    saturating or computing in float fails)."""
    a, b, c, d = simulate("s8", 2, 1, seed=5)
    exact = a.astype(np.int64) @ b.astype(np.int64) + c.astype(np.int64)
    assert (exact > np.iinfo(np.int32).max).any()
    np.testing.assert_array_equal(d, exact.astype(np.int32))


def test_register_elements_lower_k_first() -> None:
    """Element 0 of a register is its low half (the lower k index). A product cannot tell: the
    same swap in A and B permutes k alike, so the order is checked here."""
    pair = np.array([[0x3F80_4000]], np.uint32).view(np.int32)  # bf16 2.0 low, 1.0 high
    assert _elements(MMA_FORMS["bf16"], [pair[0]]).tolist() == [[[2.0, 1.0]]]
    halves = np.array([[1.5, -3.0]], np.float16)  # vector<2xf16>: (lanes, 2)
    assert _elements(MMA_FORMS["f16"], [halves]).tolist() == [[[1.5, -3.0]]]
    # tf32: the low 13 mantissa bits are dropped (truncated, not rounded)
    bits = np.array([0x3F80_0001, 0x3F80_1FFF, 0x3F80_2000], np.uint32).view(np.int32)
    assert _elements(MMA_FORMS["tf32"], [bits]).tolist() == [[[1.0]], [[1.0]], [[1.0 + 2.0**-10]]]
    quad = np.array([0x80FF_0201], np.uint32).view(np.int32)  # bytes 1, 2, -1, -128
    assert _elements(MMA_FORMS["s8"], [quad]).tolist() == [[[1, 2, -1, -128]]]
    # fp8: each byte decoded (e4m3 0x38 = 1.0, 0xC0 = -2.0; e5m2 0x3C = 1.0, 0x7C = inf)
    e4m3 = np.array([0xC038_0100], np.uint32).view(np.int32)
    assert _elements(FP8_MMA_FORMS["e4m3"], [e4m3]).tolist() == [[[0.0, 2.0**-9, 1.0, -2.0]]]
    e5m2 = np.array([0x7C3C_0000], np.uint32).view(np.int32)
    assert _elements(FP8_MMA_FORMS["e5m2"], [e5m2]).tolist() == [[[0.0, 0.0, 1.0, np.inf]]]


@pytest.mark.parametrize("kind", KINDS)
def test_fragments_cover_each_element_once(kind: str) -> None:
    k = depth(kind)
    for (rows, cols), shape in zip(
        _fragments(ALL_FORMS[operand_kinds(kind)[0]]), [(M, k), (k, N), (M, N)], strict=True
    ):
        seen = np.zeros(shape, int)
        np.add.at(seen, (rows, cols), 1)
        assert (seen == 1).all(), kind


def test_extractvalue_of_an_unmodelled_struct_is_unsupported() -> None:
    """Only structs of scalars are structured arrays; anything else is an error, not a guess."""
    for fields in ([VectorType(f16, [2])], [f32, llvm.LLVMStructType.from_type_list([f32])]):
        block = Block(arg_types=[llvm.LLVMStructType.from_type_list(fields)])
        op = llvm.ExtractValueOp(DenseArrayBase.from_list(i64, [0]), block.args[0], fields[0])
        factory = RULES.get(op)
        assert factory is not None
        with pytest.raises(SimulationError, match="only fields of a struct of scalars"):
            factory(op, Compiler(set(), check_races=False))
