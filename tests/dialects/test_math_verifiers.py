"""Verifiers of the math-library `tt` ops (``tt_math``): floats only; ``tt.umulhi`` i32/i64."""

from __future__ import annotations

from xdsl.dialects.builtin import f16, f32, i1, i16, i32, i64

from mytriton.dialects.tt import math as tm
from tests.dialects.test_verifiers import args, error_of, ok


def test_float_math_ops_take_floats_only() -> None:
    i, f, h = args(i32, f32, f16)
    for cls in tm.MATH_UNARY_OPS:
        ok(cls(f))
        ok(cls(h))
        assert f"{cls.name}: operand must be a float, got i32" in error_of(cls(i))
    for bcls in (tm.PowOp, tm.Atan2Op, tm.CopySignOp, tm.PreciseDivOp):
        ok(bcls(f, f))
        assert f"{bcls.name}: operands must be floats, got i32" in error_of(bcls(i, i))
    ok(tm.FmaOp(f, f, f))
    assert "tt.fma: operands must be floats, got i32" in error_of(tm.FmaOp(i, i, i))


def test_umulhi_takes_i32_and_i64() -> None:
    a, b, c, d, f = args(i32, i64, i16, i1, f32)
    ok(tm.UmulhiOp(a, a))
    ok(tm.UmulhiOp(b, b))
    for v, name in ((c, "i16"), (d, "i1"), (f, "f32")):
        assert f"tt.umulhi: operands must be i32 or i64, got {name}" in error_of(tm.UmulhiOp(v, v))
