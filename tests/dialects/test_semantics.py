"""What elementwise ops compute (``evaluate``, shared by the folder and the interpreter) and
what the folders produce: i32 wrap-around, C division, f32 rounding, NaN and tie rules."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import FloatAttr, IntegerAttr, ModuleOp, TensorType, f32, i1, i32
from xdsl.ir import Block, Region

from mytriton.dialects.tt import core as tt
from mytriton.dialects.tt import elementwise as ew
from mytriton.dialects.tt import semantics as sem
from mytriton.dialects.tt.constants import (
    constant_attr,
    make_constant,
    scalar_constant,
    uniform_constant,
)
from mytriton.passes.pipeline import run_pipeline

NAN = np.float32("nan")


def vals(*types):
    return tuple(Block(arg_types=list(types)).args)


def const(value, t):
    return make_constant(value, t)


def fold(cls, *values_and_types, **kw):
    """The folded attribute of ``cls`` applied to scalar constants."""
    consts = [const(v, t) for v, t in values_and_types]
    op = cls(*kw.get("pre", ()), *(c.result for c in consts))
    folded = op.fold()
    assert folded is not None and len(folded) == 1
    return folded[0]


def value_of(attr):
    """The Python value of a folded attribute (i1 as 0/1: xDSL stores true as -1)."""
    assert isinstance(attr, (IntegerAttr, FloatAttr))
    if attr.type == i1:
        return int(attr.value.data != 0)
    return attr.value.data


# ------------------------------------------------------------------ integer folding


def test_i32_add_wraps():
    attr = fold(ew.AddOp, (2**31 - 1, i32), (1, i32))
    assert attr.type == i32 and value_of(attr) == -(2**31)


def test_i32_sub_and_mul_wrap():
    assert value_of(fold(ew.SubOp, (-(2**31), i32), (1, i32))) == 2**31 - 1
    assert value_of(fold(ew.MulOp, (65536, i32), (65536, i32))) == 0
    assert value_of(fold(ew.MulOp, (65537, i32), (65537, i32))) == 131073


@pytest.mark.parametrize(
    ("a", "b", "q", "r"),
    [(7, 2, 3, 1), (-7, 2, -3, -1), (7, -2, -3, 1), (-7, -2, 3, -1), (6, 3, 2, 0)],
)
def test_integer_division_is_c_division(a, b, q, r):
    """Quotient truncates toward zero; the remainder has the dividend's sign (not Python's)."""
    assert value_of(fold(ew.DivOp, (a, i32), (b, i32))) == q
    assert value_of(fold(ew.RemOp, (a, i32), (b, i32))) == r


def test_integer_division_edge_cases():
    assert value_of(fold(ew.DivOp, (-(2**31), i32), (-1, i32))) == -(2**31)  # wraps
    assert value_of(fold(ew.DivOp, (5, i32), (0, i32))) == -1  # defined, not a crash
    assert value_of(fold(ew.RemOp, (5, i32), (0, i32))) == 5


def test_bitwise_and_bool_folding():
    assert value_of(fold(ew.AndOp, (12, i32), (10, i32))) == 8
    assert value_of(fold(ew.OrOp, (12, i32), (10, i32))) == 14
    assert value_of(fold(ew.XorOp, (12, i32), (-1, i32))) == -13
    t = fold(ew.XorOp, (True, i1), (True, i1))
    assert t.type == i1 and value_of(t) == 0
    assert value_of(fold(ew.OrOp, (False, i1), (True, i1))) == 1


# ------------------------------------------------------------------ float folding


def test_f32_addition_rounds_to_f32():
    attr = fold(ew.AddOp, (0.1, f32), (0.2, f32))
    expected = float(np.float32(0.1) + np.float32(0.2))
    assert attr.type == f32 and value_of(attr) == expected
    assert expected != 0.1 + 0.2  # the f64 result would differ
    assert value_of(fold(ew.AddOp, (16777216.0, f32), (1.0, f32))) == 16777216.0


def test_f32_constants_are_rounded():
    c = const(0.1, f32)
    assert value_of(c.value) == float(np.float32(0.1))
    assert scalar_constant(c.result).dtype == np.float32


def test_f32_division_and_overflow():
    assert value_of(fold(ew.DivOp, (1.0, f32), (3.0, f32))) == float(np.float32(1) / np.float32(3))
    assert value_of(fold(ew.MulOp, (3e38, f32), (10.0, f32))) == float("inf")
    assert value_of(fold(ew.DivOp, (1.0, f32), (0.0, f32))) == float("inf")
    assert np.isnan(value_of(fold(ew.DivOp, (0.0, f32), (0.0, f32))))


def test_float_rem_follows_dividend_sign():
    assert value_of(fold(ew.RemOp, (-7.5, f32), (2.0, f32))) == -1.5
    assert value_of(fold(ew.RemOp, (7.5, f32), (-2.0, f32))) == 1.5


def test_unary_folding():
    assert value_of(fold(ew.NegOp, (-(2**31), i32))) == -(2**31)  # wraps
    assert value_of(fold(ew.AbsOp, (-3.5, f32))) == 3.5
    assert value_of(fold(ew.ExpOp, (0.0, f32))) == 1.0
    assert value_of(fold(ew.SqrtOp, (2.0, f32))) == float(np.sqrt(np.float32(2)))
    assert value_of(fold(ew.FloorOp, (-1.5, f32))) == -2.0
    assert value_of(fold(ew.RsqrtOp, (4.0, f32))) == 0.5


def test_cmp_and_select_folding():
    (a, b) = vals(f32, f32)
    assert value_of(fold(ew.CmpOp, (1, i32), (2, i32), pre=("lt",))) == 1
    assert value_of(fold(ew.CmpOp, (NAN, f32), (NAN, f32), pre=("ne",))) == 1
    assert value_of(fold(ew.CmpOp, (NAN, f32), (NAN, f32), pre=("eq",))) == 0
    assert value_of(fold(ew.CmpOp, (NAN, f32), (1.0, f32), pre=("lt",))) == 0
    c = const(True, i1)
    assert ew.SelectOp(c.result, a, b).fold() == (a,)
    c = const(False, i1)
    assert ew.SelectOp(c.result, a, b).fold() == (b,)


@pytest.mark.parametrize(
    ("value", "src", "dst", "expected"),
    [
        (3.7, f32, i32, 3),
        (-3.7, f32, i32, -3),
        (1e10, f32, i32, 2**31 - 1),
        (-1e10, f32, i32, -(2**31)),
        (float("nan"), f32, i32, 0),
        (5, i32, i1, 1),
        (0, i32, i1, 0),
        (0.5, f32, i1, 1),
        (True, i1, i32, 1),
        (True, i1, f32, 1.0),
        (16777217, i32, f32, 16777216.0),
    ],
)
def test_cast_folding(value, src, dst, expected):
    c = const(value, src)
    folded = ew.CastOp(c.result, dst).fold()
    assert folded is not None and folded[0].type == dst
    assert value_of(folded[0]) == expected


# ------------------------------------------------------------------ identities


def test_identities():
    (x, f, b) = vals(i32, f32, i1)
    zero, one = const(0, i32), const(1, i32)
    assert ew.AddOp(x, zero.result).fold() == (x,)
    assert ew.AddOp(zero.result, x).fold() == (x,)
    assert ew.SubOp(x, zero.result).fold() == (x,)
    assert ew.MulOp(one.result, x).fold() == (x,)
    assert ew.DivOp(x, one.result).fold() == (x,)
    assert ew.AndOp(x, x).fold() == (x,)
    assert ew.OrOp(x, zero.result).fold() == (x,)
    assert ew.XorOp(x, zero.result).fold() == (x,)
    assert ew.MaximumOp(f, f).fold() == (f,)
    assert ew.MinimumOp(x, x).fold() == (x,)
    t = const(True, i1)
    assert ew.AndOp(b, t.result).fold() == (b,)


def test_float_plus_zero_is_not_folded():
    """-0.0 + 0.0 is +0.0, so x + 0.0 is not x for floats."""
    (f,) = vals(f32)
    assert ew.AddOp(f, const(0.0, f32).result).fold() is None
    assert ew.SubOp(f, const(0.0, f32).result).fold() is None
    assert ew.AddOp(f, f).fold() is None


def test_identities_see_through_splats():
    (blk,) = vals(TensorType(i32, [16]))
    zero = const(0, i32)
    splat = tt.SplatOp(zero.result, TensorType(i32, [16]))
    assert ew.AddOp(blk, splat.result).fold() == (blk,)
    assert uniform_constant(splat.result) == 0
    bcast = tt.BroadcastOp(
        tt.SplatOp(const(3, i32).result, TensorType(i32, [1, 8])).result, TensorType(i32, [4, 8])
    )
    assert uniform_constant(bcast.result) == 3
    assert uniform_constant(tt.ZerosOp(TensorType(f32, [4])).result) == 0.0
    assert uniform_constant(blk) is None


def test_constant_helpers():
    assert value_of(constant_attr(np.array(True), i1)) == 1
    assert value_of(constant_attr(np.array(False), i1)) == 0
    assert constant_attr(np.array(-5, np.int32), i32) == IntegerAttr(-5, i32)
    assert constant_attr(np.array(2.5, np.float32), f32) == FloatAttr(2.5, f32)
    assert scalar_constant(const(True, i1).result).dtype == np.bool_
    assert scalar_constant(vals(i32)[0]) is None


def test_canonicalize_folds_a_kernel_body():
    block = Block(arg_types=[i32])
    a = const(2**31 - 1, i32)
    b = const(1, i32)
    add = ew.AddOp(a.result, b.result)
    div = ew.DivOp(add.result, const(-7, i32).result)
    for op in (a, b, add, div.operands[1].owner, div):
        block.add_op(op)
    block.add_op(func.ReturnOp(div.result))
    module = ModuleOp([func.FuncOp("k", ([i32], [i32]), Region(block))])
    run_pipeline(module, "canonicalize")
    text = str(module)
    assert "tt.add" not in text and "tt.div" not in text
    # (-2**31) / -7 = 306783378 (truncated)
    assert "arith.constant 306783378 : i32" in text
    assert isinstance(block.ops.first, arith.ConstantOp)


# ------------------------------------------------------------------ evaluate (interpreter rules)


def binary(cls, a, b, propagate_nan=ew.PropagateNan.NONE):
    t = f32 if np.asarray(a).dtype == np.float32 else i32
    x, y = vals(t, t)
    op = cls(x, y) if cls not in (ew.MaximumOp, ew.MinimumOp) else cls(x, y, propagate_nan)
    return op.evaluate(np.asarray(a), np.asarray(b))


def test_maximum_minimum_ignore_nan_by_default():
    """Triton's default (PropagateNan.NONE): maxnum/minnum, NaN only if both are NaN."""
    a = np.array([NAN, 1.0, 2.0, NAN], np.float32)
    b = np.array([1.0, NAN, 1.0, NAN], np.float32)
    mx, mn = binary(ew.MaximumOp, a, b), binary(ew.MinimumOp, a, b)
    assert mx[:3].tolist() == [1.0, 1.0, 2.0] and np.isnan(mx[3])
    assert mn[:3].tolist() == [1.0, 1.0, 1.0] and np.isnan(mn[3])
    assert mx.dtype == np.float32 and mn.dtype == np.float32


def test_maximum_minimum_propagate_nan_all_in_either_position():
    a = np.array([NAN, 1.0, 2.0, NAN], np.float32)
    b = np.array([1.0, NAN, 1.0, NAN], np.float32)
    mx = binary(ew.MaximumOp, a, b, ew.PropagateNan.ALL)
    mn = binary(ew.MinimumOp, a, b, ew.PropagateNan.ALL)
    assert np.isnan(mx[[0, 1, 3]]).all() and mx[2] == 2.0
    assert np.isnan(mn[[0, 1, 3]]).all() and mn[2] == 1.0


@pytest.mark.parametrize("mode", list(ew.PropagateNan))
def test_maximum_minimum_order_negative_zero_below_positive_zero(mode):
    """PTX max/min: +0.0 > -0.0 whichever operand holds it (not "the right operand")."""
    pz, nz = np.float32(0.0), np.float32(-0.0)
    for a, b in ((pz, nz), (nz, pz)):
        assert not np.signbit(binary(ew.MaximumOp, a, b, mode))
        assert np.signbit(binary(ew.MinimumOp, a, b, mode))
    assert np.signbit(binary(ew.MaximumOp, nz, nz, mode))
    assert not np.signbit(binary(ew.MinimumOp, pz, pz, mode))


def test_extremum_rebuild_keeps_propagate_nan():
    x, y = vals(f32, f32)
    op = ew.MaximumOp(x, y, ew.PropagateNan.ALL)
    assert op.rebuild([y, x]).propagate_nan.data is ew.PropagateNan.ALL
    assert ew.MinimumOp(x, y).propagate_nan.data is ew.PropagateNan.NONE


def test_reduce_max_min_ignore_nan_and_order_zeros():
    x = np.array(
        [[NAN, 2.0, -1.0], [NAN, NAN, NAN], [-0.0, 0.0, -0.0], [-0.0, NAN, -0.0]], np.float32
    )
    mx, mn = sem.reduce_max(x, 1), sem.reduce_min(x, 1)
    assert mx[0] == 2.0 and np.isnan(mx[1]) and mn[0] == -1.0 and np.isnan(mn[1])
    assert not np.signbit(mx[2]) and np.signbit(mn[2])
    assert np.signbit(mx[3]) and np.signbit(mn[3])


def test_maximum_minimum_on_ints():
    a = np.array([1, -5, 7], np.int32)
    b = np.array([2, -6, 7], np.int32)
    assert binary(ew.MaximumOp, a, b).tolist() == [2, -5, 7]
    assert binary(ew.MinimumOp, a, b).tolist() == [1, -6, 7]


def test_float_ne_is_unordered_others_ordered():
    x, y = vals(f32, f32)
    a = np.array([NAN, 1.0, NAN], np.float32)
    b = np.array([NAN, NAN, 2.0], np.float32)
    assert ew.CmpOp("ne", x, y).evaluate(a, b).tolist() == [True, True, True]
    for pred in ("eq", "lt", "le", "gt", "ge"):
        assert ew.CmpOp(pred, x, y).evaluate(a, b).tolist() == [False] * 3, pred


def test_integer_comparisons_are_signed():
    x, y = vals(i32, i32)
    a, b = np.array([-1], np.int32), np.array([1], np.int32)
    assert ew.CmpOp("lt", x, y).evaluate(a, b).tolist() == [True]


def test_select_and_cast_evaluate():
    c, x, y = vals(i1, f32, f32)
    r = ew.SelectOp(c, x, y).evaluate(
        np.array([True, False]), np.array([1, 2], np.float32), np.array([3, 4], np.float32)
    )
    assert r.tolist() == [1.0, 4.0] and r.dtype == np.float32
    blk = vals(TensorType(f32, [4]))[0]
    cast = ew.CastOp(blk, TensorType(i32, [4]))
    out = cast.evaluate(np.array([1.9, -1.9, NAN, 3e9], np.float32))
    assert out.tolist() == [1, -1, 0, 2**31 - 1] and out.dtype == np.int32


def test_evaluate_keeps_f32_and_wraps_without_warnings():
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r = binary(ew.AddOp, np.array([2**31 - 1], np.int32), np.array([1], np.int32))
        e = vals(f32)[0]
        big = ew.ExpOp(e).evaluate(np.array([100.0], np.float32))
    assert r.tolist() == [-(2**31)]
    assert big.dtype == np.float32 and np.isinf(big[0])


# ------------------------------------------------------------------ f32 -> bf16 without ml_dtypes

_BF16_EDGES = [
    0x00000000, 0x80000000, 0x7F800000, 0xFF800000,  # zeros, infinities
    0x7F7FFFFF, 0xFF7FFFFF, 0x7F7F8000, 0x7F7F7FFF,  # past the largest bf16, a tie, just below
    0x00008000, 0x00018000, 0x00000001, 0x807FFFFF,  # subnormal ties (even, odd), tiny, largest
    0x3F808000, 0x3F818000, 0x3F808001, 0x3F807FFF,  # normal ties to even, just above, below
]  # fmt: skip


def test_float32_to_bfloat16_is_ml_dtypes_rounding() -> None:
    ml_dtypes = pytest.importorskip("ml_dtypes")
    random = np.random.default_rng(0).integers(0, 2**32, 20000, dtype=np.uint64)
    bits = np.concatenate([np.array(_BF16_EDGES, np.uint32), random.astype(np.uint32)])
    values = bits.view(np.float32)
    values = values[~np.isnan(values)]
    expected = values.astype(ml_dtypes.bfloat16).astype(np.float32)
    got = np.array([sem.float32_to_bfloat16(v) for v in values], np.float32)
    assert np.array_equal(got.view(np.uint32), expected.view(np.uint32))


@pytest.mark.parametrize("value", [-float("inf"), 0.1, -0.0, 3.3961e38, 1e-40, 65504.0])
def test_f32_to_bf16_cast_folds_as_the_general_fold(value: float) -> None:
    from xdsl.dialects.builtin import bf16

    from mytriton.dialects.tt.elementwise_base import ElementwiseOp

    op = ew.CastOp(const(value, f32).result, bf16)
    (fast,) = op.fold()
    (general,) = ElementwiseOp.fold(op)  # through NumPy and ml_dtypes
    assert fast == general and np.signbit(value_of(fast)) == np.signbit(value_of(general))


def test_f32_nan_to_bf16_cast_takes_the_general_fold() -> None:
    from xdsl.dialects.builtin import bf16

    (folded,) = ew.CastOp(const(float("nan"), f32).result, bf16).fold()
    assert folded.type == bf16 and np.isnan(value_of(folded))


_BF16_CONSTANTS = [0.0, -0.0, 1.0, -float("inf"), float("inf"), float(np.float32(0.1)), 0.1,
                   1e-40, 3.4e38, 1e300, -1e-45, float("nan")]  # fmt: skip


@pytest.mark.parametrize("value", _BF16_CONSTANTS)
def test_bf16_uniform_constant_is_the_bf16_value(value: float) -> None:
    """A bf16 splat's value compares as the bf16 number ml_dtypes rounds the attribute to
    (float32-exact attributes come without ml_dtypes, as float32; the rest through it)."""
    ml_dtypes = pytest.importorskip("ml_dtypes")
    from xdsl.dialects.builtin import bf16

    c = arith.ConstantOp(FloatAttr(value, bf16), bf16)
    got = uniform_constant(tt.SplatOp(c.result, TensorType(bf16, [16])).result)
    with np.errstate(over="ignore"):
        expected = np.array(value, np.float64).astype(ml_dtypes.bfloat16).astype(np.float64)
    assert got is not None and got.shape == ()
    if np.isnan(expected):
        assert np.isnan(got)
    else:
        assert float(got) == float(expected) and np.signbit(got) == np.signbit(expected)
    assert uniform_constant(tt.ZerosOp(TensorType(bf16, [4])).result) == 0.0


@pytest.mark.parametrize("value", [0.0, -0.0, 1.5])
def test_f32_to_fp8_cast_folds_as_the_general_fold(value: float) -> None:
    """+0.0 (a load's ``other=0.0``) folds without ml_dtypes; the rest takes the general fold."""
    pytest.importorskip("ml_dtypes")
    from mytriton.dialects.tt import fp8 as tt_fp8
    from mytriton.dialects.tt.elementwise_base import ElementwiseOp

    for fp8_type, fmt in tt_fp8.FORMATS.items():
        op = ew.CastOp(const(value, f32).result, fp8_type())
        folded, general = op.fold(), ElementwiseOp.fold(op)
        assert folded == general, fmt.name
        if folded is not None and isinstance(folded[0], FloatAttr):
            assert np.signbit(value_of(folded[0])) == np.signbit(value_of(general[0]))
