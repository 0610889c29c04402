"""gpusim's rule for ``llvm.call_intrinsic`` (``rules_intrinsics.py``): each NVVM intrinsic the
lowering calls computes its ``nvvm_intrinsics`` semantics; any other is an error, not a guess."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects import llvm
from xdsl.dialects.builtin import f32
from xdsl.ir import Block

import mytriton.backends.gpusim.launch  # noqa: F401  (registers the rules)
from mytriton.backends.gpusim import SimulationError
from mytriton.backends.gpusim.compiler import Compiler
from mytriton.backends.gpusim.registry import RULES
from mytriton.dialects.nvgpu.nvvm_intrinsics import EX2_APPROX_FTZ, flush_subnormals


def _rule(name: str) -> tuple[llvm.CallIntrinsicOp, object]:
    block = Block(arg_types=[f32])
    op = llvm.CallIntrinsicOp(name, [block.args[0]], [f32])
    factory = RULES.get(op)
    assert factory is not None
    return op, factory


def test_unknown_intrinsics_are_unsupported() -> None:
    op, factory = _rule("llvm.nvvm.sin.approx.f")
    with pytest.raises(
        SimulationError, match=r"llvm\.nvvm\.sin\.approx\.f is not one gpusim knows"
    ):
        factory(op, Compiler(set(), check_races=False))  # type: ignore[operator]


def test_ex2_approx_ftz_flushes_subnormal_results() -> None:
    x = np.array([-126.0, -126.5, -149.0, -1e30, 0.0, -0.0, 3.0, np.inf, np.nan], np.float32)
    got = EX2_APPROX_FTZ.semantics(x)
    tiny = np.finfo(np.float32).tiny
    np.testing.assert_array_equal(got, [tiny, 0.0, 0.0, 0.0, 1.0, 1.0, 8.0, np.inf, np.nan])
    assert got.dtype == np.float32
    np.testing.assert_array_equal(
        flush_subnormals(np.array([-tiny / 2, tiny / 2, -tiny], np.float32)), [-0.0, 0.0, -tiny]
    )
    assert np.signbit(flush_subnormals(np.array([-tiny / 2], np.float32)))[0]


def test_ex2_approx_keeps_subnormal_results() -> None:
    """``ex2.approx.f32`` (``enable_reflect_ftz=False``): subnormal inputs and results kept."""
    from mytriton.dialects.nvgpu.nvvm_intrinsics import EX2_APPROX, INTRINSICS

    x = np.array([-127.0, -149.0, -126.0, 0.0, 3.0, -150.0], np.float32)
    got = EX2_APPROX.semantics(x)
    assert got.dtype == np.float32
    np.testing.assert_array_equal(
        got, np.array([2.0**-127, 2.0**-149, 2.0**-126, 1.0, 8.0, 0.0], np.float32)
    )
    assert INTRINSICS["llvm.nvvm.ex2.approx.f32"] is EX2_APPROX
    assert EX2_APPROX.ptx == "ex2.approx.f32"


def test_div_full_is_the_f32_quotient_over_the_whole_range() -> None:
    """``div.full.f32`` (f32 ``/``): gpusim gives the correctly rounded f32 quotient, which is
    within the instruction's 2 ulp; a divisor above 2**126 still divides (``div.approx.f32``
    would give 0), and IEEE's special cases hold."""
    from mytriton.dialects.nvgpu.nvvm_intrinsics import DIV_FULL, INTRINSICS

    big = np.float32(2.0**127)
    a = np.array(
        [1.0, 4.6875, 2.0**100, 1.0, 0.0, -0.0, 1.0, np.inf, np.inf, 0.0, 1e-45], np.float32
    )
    b = np.array([3.0, 0.9375, big, 0.0, 0.0, 5.0, -np.inf, big, np.inf, -2.0, 2.0], np.float32)
    got = DIV_FULL.semantics(a, b)
    assert got.dtype == np.float32
    want = [1 / 3, 5.0, 2.0**-27, np.inf, np.nan, -0.0, -0.0, np.inf, np.nan, -0.0, 0.0]
    np.testing.assert_array_equal(got, np.array(want, np.float32))
    numbers = ~np.isnan(got)
    assert np.array_equal(np.signbit(got[numbers]), np.signbit(np.array(want, np.float32)[numbers]))
    assert INTRINSICS["llvm.nvvm.div.full"] is DIV_FULL
    assert (DIV_FULL.ptx, DIV_FULL.operands, DIV_FULL.result) == ("div.full.f32", (f32, f32), f32)


def test_fp8_pair_conversions_put_the_second_operand_in_the_low_byte() -> None:
    """``cvt.rn.satfinite.e4m3x2.f32 d, a, b``: ``a`` in the high byte, ``b`` in the low one
    (PTX), saturated (448, 57344; an infinity too), NaN the format's 0x7f; ``cvt.rn.f16x2.
    e4m3x2 d, a``: the low byte's value is element 0 (LLVM's ``<2 x half>``), exact; the
    ``.f16x2`` form: element 0 in the low byte."""
    from mytriton.dialects.nvgpu.nvvm_intrinsics import (
        FROM_E4M3X2,
        FROM_E5M2X2,
        HALVES_TO_E4M3X2,
        INTRINSICS,
        TO_E4M3X2,
        TO_E5M2X2,
    )

    a = np.array([1.0, 500.0, np.nan, -np.inf], np.float32)
    b = np.array([0.5, -1e-9, np.inf, 0.3125], np.float32)
    e4m3 = TO_E4M3X2.semantics(a, b)
    assert e4m3.dtype == np.int16
    assert [hex(v) for v in e4m3.view(np.uint16)] == ["0x3830", "0x7e80", "0x7f7e", "0xfe2a"]
    e5m2 = TO_E5M2X2.semantics(a, b)
    assert [hex(v) for v in e5m2.view(np.uint16)] == ["0x3c38", "0x6080", "0x7f7b", "0xfb35"]
    halves = FROM_E4M3X2.semantics(e4m3)
    assert halves.dtype == np.float16 and halves.shape == (4, 2)
    np.testing.assert_array_equal(
        halves, [[0.5, 1.0], [-0.0, 448.0], [448.0, np.nan], [0.3125, -448.0]]
    )
    assert np.signbit(halves[1, 0])
    infinities = FROM_E5M2X2.semantics(np.array([0x7C7B, 0xFE01], np.uint16).view(np.int16))
    np.testing.assert_array_equal(infinities, [[57344.0, np.inf], [2.0**-16, np.nan]])
    for fn in (TO_E4M3X2, TO_E5M2X2, FROM_E4M3X2, FROM_E5M2X2):
        assert INTRINSICS[fn.name] is fn
    halves = np.array([[1.0, 0.5], [np.inf, -np.nan], [2.0**-24, -500.0]], np.float16)
    from_halves = HALVES_TO_E4M3X2.semantics(halves)  # element 0 in the low byte
    assert [hex(v) for v in from_halves.view(np.uint16)] == ["0x3038", "0x7f7e", "0xfe00"]
    assert INTRINSICS["llvm.nvvm.f16x2.to.e4m3x2.rn"] is HALVES_TO_E4M3X2
    assert (TO_E4M3X2.name, TO_E4M3X2.ptx) == (
        "llvm.nvvm.ff.to.e4m3x2.rn",
        "cvt.rn.satfinite.e4m3x2.f32",
    )
    assert (FROM_E5M2X2.name, FROM_E5M2X2.ptx) == (
        "llvm.nvvm.e5m2x2.to.f16x2.rn",
        "cvt.rn.f16x2.e5m2x2",
    )


def test_sqrt_and_rsqrt_approx_flush_subnormal_inputs() -> None:
    """``sqrt.approx.ftz.f32`` / ``rsqrt.approx.ftz.f32`` (``tl.sqrt``, ``tl.rsqrt``): a
    subnormal input is a zero of its sign (``sqrt(-0) = -0``, ``rsqrt(-0) = -inf``); without
    ``.ftz`` it is kept. gpusim's roots are the correctly rounded ones (within the 1 and 2 ulp
    of the instructions); a negative number gives NaN."""
    from mytriton.dialects.nvgpu.nvvm_intrinsics import (
        INTRINSICS,
        RSQRT_APPROX,
        RSQRT_APPROX_FTZ,
        SQRT_APPROX,
        SQRT_APPROX_FTZ,
        SQRT_RN,
    )

    sub = 2.0**-140
    x = np.array([4.0, 2.0, sub, -sub, 0.0, -0.0, np.inf, -1.0, np.nan], np.float32)
    sqrt2 = np.float32(np.sqrt(2.0))
    want_sqrt = [2.0, sqrt2, 2.0**-70, np.nan, 0.0, -0.0, np.inf, np.nan, np.nan]
    got = SQRT_APPROX.semantics(x)
    np.testing.assert_array_equal(got, np.array(want_sqrt, np.float32))
    np.testing.assert_array_equal(got, SQRT_RN.semantics(x))
    want_ftz = [2.0, sqrt2, 0.0, -0.0, 0.0, -0.0, np.inf, np.nan, np.nan]
    got_ftz = SQRT_APPROX_FTZ.semantics(x)
    np.testing.assert_array_equal(got_ftz, np.array(want_ftz, np.float32))
    assert list(np.signbit(got_ftz[2:6])) == [False, True, False, True]
    inv_sqrt2 = np.float32(1 / np.sqrt(2.0))
    want_r = [0.5, inv_sqrt2, 2.0**70, np.nan, np.inf, -np.inf, 0.0, np.nan, np.nan]
    np.testing.assert_array_equal(RSQRT_APPROX.semantics(x), np.array(want_r, np.float32))
    want_r_ftz = [0.5, inv_sqrt2, np.inf, -np.inf, np.inf, -np.inf, 0.0, np.nan, np.nan]
    np.testing.assert_array_equal(RSQRT_APPROX_FTZ.semantics(x), np.array(want_r_ftz, np.float32))
    for fn in (SQRT_APPROX, SQRT_APPROX_FTZ, SQRT_RN, RSQRT_APPROX, RSQRT_APPROX_FTZ):
        assert INTRINSICS[fn.name] is fn and fn.semantics(x).dtype == np.float32
    assert [f.ptx for f in (SQRT_APPROX_FTZ, RSQRT_APPROX_FTZ, SQRT_RN)] == [
        "sqrt.approx.ftz.f32",
        "rsqrt.approx.ftz.f32",
        "sqrt.rn.f32",
    ]


def test_exp_multiplier_is_triton_log2e() -> None:
    """``tl.exp`` multiplies by log2(e) rounded to f32: the PTX constant 0f3FB8AA3B."""
    from mytriton.dialects.nvgpu.nvvm_intrinsics import LOG2E

    assert np.float32(LOG2E).view(np.uint32) == 0x3FB8AA3B
    assert float(np.float32(LOG2E)) == LOG2E
