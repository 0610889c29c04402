"""``#ttg.nvidia_mma`` (a dot's tensor-core instruction) and the ``ttg`` attributes of ``tt.dot``:
the attribute's own rules, its text form, and how a dot's verifier checks the decision against
its types, tile, accumulator layout and operand staging."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest
from xdsl.dialects.builtin import (
    Float8E4M3FNType,
    StringAttr,
    TensorType,
    UnitAttr,
    f16,
    f32,
    i8,
    i32,
)
from xdsl.ir import Attribute, Block
from xdsl.parser import Parser
from xdsl.utils.exceptions import ParseError, VerifyException

from mytriton.dialects import make_context
from mytriton.dialects.tt import core as tt
from mytriton.dialects.ttg.layouts import BlockedLayoutAttr, SharedLayoutAttr
from mytriton.dialects.ttg.mma import (
    ASYNC_ATTR,
    LHS_SHARED_ATTR,
    MMA_ATTR,
    RHS_SHARED_ATTR,
    NvidiaMmaEncodingAttr,
    dot_mma,
)
from mytriton.dialects.ttg.nvmma import NvmmaSharedLayoutAttr

E4M3 = Float8E4M3FNType()
WGMMA_STAGING = {
    LHS_SHARED_ATTR: NvmmaSharedLayoutAttr([1, 0], rotate=8),
    RHS_SHARED_ATTR: NvmmaSharedLayoutAttr([1, 0]),
}
MMA_STAGING = {
    LHS_SHARED_ATTR: SharedLayoutAttr([1, 0], pad=8),
    RHS_SHARED_ATTR: SharedLayoutAttr([1, 0], pad=8),
}


def mma(version: int, warps: Sequence[int], instr: Sequence[int]) -> NvidiaMmaEncodingAttr:
    return NvidiaMmaEncodingAttr(version, warps, instr)


def dot(
    m: int,
    n: int,
    k: int,
    attributes: dict[str, Attribute],
    operand: Attribute = f16,
    acc: Attribute = f32,
    precision: str | None = None,
    acc_layout: Attribute | None = None,
) -> tt.DotOp:
    """A detached ``tt.dot`` of ``[m, k] x [k, n]`` carrying ``attributes``."""
    c = TensorType(acc, [m, n], acc_layout) if acc_layout else TensorType(acc, [m, n])
    a, b, acc_v = Block(
        arg_types=[TensorType(operand, [m, k]), TensorType(operand, [k, n]), c]
    ).args
    op = tt.DotOp(a, b, acc_v, precision)
    op.attributes.update(attributes)
    return op


def error_of(op: tt.DotOp) -> str:
    with pytest.raises(VerifyException) as info:
        op.verify()
    return str(info.value)


# ---- the attribute ----


@pytest.mark.parametrize(
    ("version", "warps", "instr", "message"),
    [
        (1, (2, 2), (16, 8, 16), "versionMajor must be 2 (mma.sync) or 3 (wgmma)"),
        (4, (4, 1), (16, 64, 16), "versionMajor must be 2 (mma.sync) or 3 (wgmma)"),
        (2, (4,), (16, 8, 16), "warpsPerCTA must be two powers of two"),
        (2, (3, 1), (16, 8, 16), "warpsPerCTA must be two powers of two"),
        (2, (2, 2, 1), (16, 8, 16), "warpsPerCTA must be two powers of two"),
        (3, (2, 2), (16, 64, 16), "wgmma needs whole warpgroups along M"),
        (2, (2, 2), (16, 8), "instrShape must be [m, n, k]"),
        (2, (2, 2), (8, 8, 16), "instrShape must be [16, n, k] with k in [8, 16, 32]"),
        (2, (2, 2), (16, 8, 64), "instrShape must be [16, n, k] with k in [8, 16, 32]"),
        (2, (2, 2), (16, 16, 16), "mma.sync's instrShape n is 8"),
        (3, (4, 1), (16, 60, 16), "wgmma's instrShape n must be a multiple of 8 up to 256"),
        (3, (4, 1), (16, 512, 16), "wgmma's instrShape n must be a multiple of 8 up to 256"),
    ],
)
def test_attribute_rejects_instructions_that_do_not_exist(
    version: int, warps: tuple[int, ...], instr: tuple[int, ...], message: str
) -> None:
    with pytest.raises(VerifyException) as info:
        mma(version, warps, instr)
    assert f"#ttg.nvidia_mma: {message}" in str(info.value)


def test_version_minor_is_zero() -> None:
    text = "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 1, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]}>"
    with pytest.raises(VerifyException, match="versionMinor must be 0"):
        parse(text)


def test_geometry_of_the_decision() -> None:
    wgmma = mma(3, (8, 1), (16, 128, 16))
    assert wgmma.is_wgmma and wgmma.warps == (8, 1) and wgmma.operand_bits == 16
    assert wgmma.accumulator_layout() == BlockedLayoutAttr((1, 2), (8, 4), (8, 1), (1, 0))
    assert mma(2, (2, 2), (16, 8, 8)).operand_bits == 32  # tf32
    assert mma(2, (1, 4), (16, 8, 32)).operand_bits == 8  # int8, fp8


def parse(text: str) -> Attribute:
    return Parser(make_context(), text).parse_attribute()


def test_text_form_round_trips_in_triton_spelling() -> None:
    text = (
        "#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], "
        "instrShape = [16, 256, 16]}>"
    )
    attr = parse(text)
    assert attr == mma(3, (4, 1), (16, 256, 16))
    assert str(attr) == text
    short = "#ttg.nvidia_mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]}>"
    assert parse(short) == mma(2, (2, 2), (16, 8, 16))  # versionMinor defaults to 0


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("#ttg.nvidia_mma<{versionMajor = 2, warps = [2, 2]}>", "unknown parameter 'warps'"),
        ("#ttg.nvidia_mma<{versionMajor = 2, warpsPerCTA = [2, 2]}>", "missing instrShape"),
        (
            "#ttg.nvidia_mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 12]}>",
            "k in [8, 16, 32]",
        ),
    ],
)
def test_bad_text_is_a_parse_error(text: str, message: str) -> None:
    with pytest.raises((ParseError, VerifyException), match=message.replace("[", r"\[")):
        parse(text)


# ---- the dot's ttg attributes ----


def test_a_consistent_decision_verifies() -> None:
    acc = BlockedLayoutAttr((1, 2), (8, 4), (4, 1), (1, 0))
    wgmma = {MMA_ATTR: mma(3, (4, 1), (16, 128, 16)), **WGMMA_STAGING, ASYNC_ATTR: UnitAttr()}
    op = dot(128, 128, 64, wgmma, acc_layout=acc)
    op.verify()
    assert dot_mma(op) == wgmma[MMA_ATTR]
    dot(64, 64, 32, {MMA_ATTR: mma(2, (2, 2), (16, 8, 16)), **MMA_STAGING}).verify()
    dot(64, 64, 32, {MMA_ATTR: mma(2, (2, 2), (16, 8, 8))}, f32, precision="tf32").verify()
    dot(64, 64, 64, {MMA_ATTR: mma(2, (2, 2), (16, 8, 32))}, i8, i32).verify()
    dot(64, 64, 64, {}, f32).verify()  # no decision: the FMA loop


def test_pending_rewrites_verify() -> None:
    """Between ``ttg-accelerate-matmul`` and the legalizations: an fp8 dot decided as the f16
    dot it becomes, a tf32x3 dot as its tf32 dots."""
    dot(64, 64, 32, {MMA_ATTR: mma(3, (4, 1), (16, 64, 16))}, E4M3).verify()
    dot(64, 64, 128, {MMA_ATTR: mma(3, (4, 1), (16, 64, 32))}, E4M3).verify()
    tf32 = mma(3, (4, 1), (16, 64, 8))
    dot(64, 64, 32, {MMA_ATTR: tf32}, f32, precision="tf32x3").verify()


@pytest.mark.parametrize(
    ("op", "message"),
    [
        (
            lambda: dot(64, 64, 32, {"ttg.mma_version": StringAttr("2")}),
            "unknown attribute ttg.mma_version",
        ),
        (
            lambda: dot(64, 64, 32, {MMA_ATTR: SharedLayoutAttr([1, 0])}),
            "ttg.mma must be a #ttg.nvidia_mma",
        ),
        (
            lambda: dot(64, 64, 32, {MMA_ATTR: mma(2, (2, 2), (16, 8, 16))}, f16, f16),
            "needs an f32 accumulator (i32 for int8 operands)",
        ),
        (
            lambda: dot(64, 64, 32, {MMA_ATTR: mma(2, (2, 2), (16, 8, 8))}, f32),
            'reads f32 operands as tf32 only (input_precision = "tf32")',
        ),
        (
            lambda: dot(64, 64, 32, {MMA_ATTR: mma(2, (2, 2), (16, 8, 32))}),
            "instrShape k = 32 reads 8-bit operands, not f16",
        ),
        (
            lambda: dot(64, 64, 32, {MMA_ATTR: mma(2, (2, 2), (16, 8, 8))}, E4M3),
            "instrShape k = 8 reads 32-bit operands",
        ),
        (
            lambda: dot(32, 64, 32, {MMA_ATTR: mma(2, (4, 1), (16, 8, 16))}),
            "a [32, 64, 32] tile is no whole number of instructions [16, 8, 16]",
        ),
        (
            lambda: dot(128, 128, 64, {MMA_ATTR: mma(3, (4, 2), (16, 64, 16))}),
            "warpgroup MMAs put every warp along M",
        ),
        (
            lambda: dot(128, 128, 64, {MMA_ATTR: mma(3, (4, 1), (16, 64, 16))}),
            "one instruction spans N (instrShape n = 128)",
        ),
        (
            lambda: dot(
                64,
                64,
                32,
                {MMA_ATTR: mma(2, (2, 2), (16, 8, 16))},
                acc_layout=BlockedLayoutAttr((1, 2), (8, 4), (4, 1), (1, 0)),
            ),
            "the accumulator of ttg.mma must be laid out as #ttg.blocked",
        ),
        (
            lambda: dot(64, 64, 32, {LHS_SHARED_ATTR: SharedLayoutAttr([0, 1], pad=4)}),
            "ttg.lhs_shared and ttg.rhs_shared go together",
        ),
        (
            lambda: dot(64, 64, 64, {MMA_ATTR: mma(3, (4, 1), (16, 64, 16)), **MMA_STAGING}),
            "ttg.lhs_shared must be a #ttg.nvmma_shared (warpgroup MMAs read swizzled tiles)",
        ),
        (
            lambda: dot(64, 64, 64, {MMA_ATTR: mma(2, (2, 2), (16, 8, 16)), **WGMMA_STAGING}),
            "ttg.lhs_shared must be a #ttg.shared",
        ),
        (
            lambda: dot(
                64,
                64,
                64,
                {MMA_ATTR: mma(3, (4, 1), (16, 64, 16))},
                acc_layout=BlockedLayoutAttr((1, 2), (8, 4), (4, 1), (1, 0)),
            ),
            "a laid-out dot of warpgroup MMAs needs ttg.lhs_shared and ttg.rhs_shared",
        ),
        (
            lambda: dot(
                64, 64, 32, {MMA_ATTR: mma(2, (2, 2), (16, 8, 16)), ASYNC_ATTR: UnitAttr()}
            ),
            "ttg.async is for warpgroup MMAs (versionMajor = 3)",
        ),
        (lambda: dot(64, 64, 32, {ASYNC_ATTR: UnitAttr()}), "ttg.async is for warpgroup MMAs"),
    ],
)
def test_dot_rejects_an_inconsistent_decision(op: Callable[[], tt.DotOp], message: str) -> None:
    assert message in error_of(op())


def test_rank3_dots_have_no_instruction() -> None:
    a, b, c = Block(
        arg_types=[
            TensorType(f16, [2, 64, 32]),
            TensorType(f16, [2, 32, 64]),
            TensorType(f32, [2, 64, 64]),
        ]
    ).args
    op = tt.DotOp(a, b, c)
    op.attributes[MMA_ATTR] = mma(2, (2, 2), (16, 8, 16))
    assert "ttg.mma is for rank-2 dots, got rank 3" in error_of(op)
