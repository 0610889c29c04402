"""Triton's type rules in the `tt` the frontend emits: weak typing of Python scalars, promotion,
integer/float division, boolean promotion, casts, and NumPy-style broadcasting."""

from __future__ import annotations

import re

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from tests.frontend.util import XI, X, Y, op_lines, ops, tt

I_VAL, J_VAL, F_VAL = 7, 3, 2.5  # runtime scalars: i32, i32, f32


def scalar_ir(body):
    """IR of ``body(x, out, i, j, f, BLOCK)`` compiled for (f32*, f32*, i32, i32, f32, 16)."""
    return tt(body, X, Y, I_VAL, J_VAL, F_VAL, BLOCK=16)


# ------------------------------------------------------------------ weak typing of Python scalars


def test_block_times_python_int_stays_f32():
    @triton.jit
    def k(x, out, i, j, f, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        v = tl.load(x + offs)
        tl.store(out + offs, v * 2)

    ir = scalar_ir(k)
    muls = op_lines(ir, "tt.mul")
    assert len(muls) == 1 and muls[0].endswith(": tensor<16xf32>")
    assert "arith.constant 2.000000e+00 : f32" in ir
    assert "tt.cast" not in ir


def test_int_scalar_plus_python_float_is_f32():
    @triton.jit
    def k(x, out, i, j, f, BLOCK: tl.constexpr):
        tl.store(out, i + 0.5)

    ir = scalar_ir(k)
    assert "tt.cast %i : i32 -> f32" in ir
    assert "arith.constant 5.000000e-01 : f32" in ir
    assert [ln.split(" : ")[-1] for ln in op_lines(ir, "tt.add")] == ["f32"]


def test_int_scalar_times_python_int_stays_i32():
    @triton.jit
    def k(x, out, i, j, f, BLOCK: tl.constexpr):
        tl.store(out, (i * 3).to(tl.float32))

    ir = scalar_ir(k)
    assert "arith.constant 3 : i32" in ir
    assert op_lines(ir, "tt.mul")[0].endswith(": i32")


def test_float_scalar_times_python_int_is_f32_constant():
    @triton.jit
    def k(x, out, i, j, f, BLOCK: tl.constexpr):
        tl.store(out, f * 2)

    ir = scalar_ir(k)
    assert "arith.constant 2.000000e+00 : f32" in ir
    assert op_lines(ir, "tt.mul")[0].endswith(": f32")


def test_python_bool_with_bool_value_stays_i1():
    @triton.jit
    def k(x, out, i, j, f, BLOCK: tl.constexpr):
        m = (i < j) & True
        tl.store(out, 1.0, mask=m)

    ir = scalar_ir(k)
    assert "arith.constant true" in ir
    assert op_lines(ir, "tt.and")[0].endswith(": i1")


def test_int_divided_by_int_is_f32():
    @triton.jit
    def k(x, out, i, j, f, BLOCK: tl.constexpr):
        tl.store(out, i / j)

    ir = scalar_ir(k)
    assert "tt.cast %i : i32 -> f32" in ir
    assert "tt.cast %j : i32 -> f32" in ir
    assert op_lines(ir, "tt.div")[0].endswith(": f32")


def test_floordiv_and_mod_on_ints_stay_i32():
    @triton.jit
    def k(x, out, i, j, f, BLOCK: tl.constexpr):
        q = i // j
        r = i % j
        tl.store(out, (q + r).to(tl.float32))

    ir = scalar_ir(k)
    assert "%q = tt.div %i, %j : i32" in ir
    assert "%r = tt.rem %i, %j : i32" in ir
    assert "-> f32" in ir and ir.count("tt.cast") == 1


def test_float_mod_is_rem_on_f32():
    @triton.jit
    def k(x, out, i, j, f, BLOCK: tl.constexpr):
        tl.store(out, f % 2.0)

    ir = scalar_ir(k)
    assert op_lines(ir, "tt.rem")[0].endswith(": f32")


def test_bool_arithmetic_promotes_to_i32():
    @triton.jit
    def k(x, out, i, j, f, BLOCK: tl.constexpr):
        g = (i < 3) + (j < 4)
        h = -(i < 3)
        tl.store(out, (g + h).to(tl.float32))

    ir = scalar_ir(k)
    assert ir.count("tt.cast") >= 3
    assert all(ln.endswith(": i1 -> i32") for ln in op_lines(ir, "tt.cast")[:3])
    assert "%g = tt.add" in ir and op_lines(ir, "tt.add")[0].endswith(": i32")
    assert op_lines(ir, "tt.neg")[0].endswith(": i32")


def test_bool_plus_float_promotes_to_f32():
    @triton.jit
    def k(x, out, i, j, f, BLOCK: tl.constexpr):
        tl.store(out, (i < j) + f)

    ir = scalar_ir(k)
    assert any(ln.endswith(": i1 -> f32") for ln in op_lines(ir, "tt.cast"))


def test_bool_ordering_comparison_promotes_but_equality_does_not():
    @triton.jit
    def k(x, out, i, j, f, BLOCK: tl.constexpr):
        a = (i < j) < (j < i)
        b = (i < j) == (j < i)
        tl.store(out, 1.0, mask=a & b)

    ir = scalar_ir(k)
    cmps = op_lines(ir, "tt.cmp")
    assert any(ln.startswith("%a = tt.cmp lt") and ln.endswith(": i32") for ln in cmps)
    assert any(ln.startswith("%b = tt.cmp eq") and ln.endswith(": i1") for ln in cmps)


def test_int_block_plus_float_scalar_promotes_block():
    @triton.jit
    def k(x, out, i, j, f, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        tl.store(out + offs, offs + f)

    ir = scalar_ir(k)
    assert "tt.cast %offs : tensor<16xi32> -> tensor<16xf32>" in ir
    assert "tt.splat %f : f32 -> tensor<16xf32>" in ir


def test_int32_array_values_promote_against_f32():
    @triton.jit
    def k(x, out, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        v = tl.load(x + offs)
        tl.store(out + offs, v * 0.5)

    ir = tt(k, XI, Y, BLOCK=16)
    assert "%x: !tt.ptr<i32>" in ir
    assert re.search(r"%v = tt\.load %\w+ : tensor<16x!tt\.ptr<i32>>", ir)
    assert "tt.cast %v : tensor<16xi32> -> tensor<16xf32>" in ir


def test_store_converts_value_to_pointee_type():
    @triton.jit
    def k(x, out, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        tl.store(x + offs, offs * 1.5)

    ir = tt(k, XI, Y, BLOCK=16)
    assert "tensor<16xf32> -> tensor<16xi32>" in ir


@pytest.mark.parametrize(
    ("sym", "pred"),
    [("<", "lt"), ("<=", "le"), (">", "gt"), (">=", "ge"), ("==", "eq"), ("!=", "ne")],
)
def test_comparisons(sym, pred, tmp_path):
    src = f"""
import mytriton as triton
import mytriton.language as tl

@triton.jit
def k(x, out, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    m = offs {sym} n
    tl.store(out + offs, 1.0, mask=m)
"""
    path = tmp_path / f"cmp_{pred}.py"
    path.write_text(src)
    import importlib.util

    spec = importlib.util.spec_from_file_location(f"cmp_{pred}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    ir = tt(mod.k, X, Y, 4, BLOCK=16)
    assert f"%m = tt.cmp {pred}, %offs, %0 : tensor<16xi32>" in ir
    # the comparison's value is an i1 block used as the store mask
    assert "tt.store" in ir and ", %m : tensor<16x!tt.ptr<f32>>" in ir


def test_float_comparison_with_python_int_compares_f32():
    @triton.jit
    def k(x, out, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        v = tl.load(x + offs)
        tl.store(out + offs, v, mask=v > 0)

    # as in Triton, the comparison makes 0 an int32 first (to_tensor), then converts it
    ir = tt(k, X, Y, BLOCK=16)
    assert "arith.constant 0 : i32" in ir and "tt.cast" in ir
    assert op_lines(ir, "tt.cmp")[0].endswith(": tensor<16xf32>")
    # and the optimizer folds the conversion into an f32 constant
    opt = tt(k, X, Y, BLOCK=16, stage="tt-opt")
    assert "arith.constant 0.000000e+00 : f32" in opt and "tt.cast" not in opt


def test_unary_operators():
    @triton.jit
    def k(x, out, i, j, f, BLOCK: tl.constexpr):
        a = -f
        b = +f
        c = ~i
        d = not (i < j)
        e = -(0 - i)
        tl.store(out, a + b + c + e, mask=d)

    ir = scalar_ir(k)
    # Triton's -x of a float is 0 - x (so -(+0.0) is +0.0); of an integer the same as tt.neg
    assert "%0 = arith.constant 0.000000e+00 : f32" in ir and "%a = tt.sub %0, %f : f32" in ir
    assert "%c = tt.xor %i, %" in ir and "arith.constant -1 : i32" in ir
    assert "arith.constant true" in ir and "%d = tt.xor" in ir
    assert ops(ir).count("tt.neg") == 1  # -(0 - i); unary + emits nothing


def test_bitwise_or_xor_on_ints_and_bools():
    @triton.jit
    def k(x, out, i, j, f, BLOCK: tl.constexpr):
        a = i | j
        b = i ^ j
        c = i & j
        m = (i < 1) | (j < 1)
        tl.store(out, (a + b + c).to(tl.float32), mask=m ^ (i < 0))

    ir = scalar_ir(k)
    assert "%a = tt.or %i, %j : i32" in ir
    assert "%b = tt.xor %i, %j : i32" in ir
    assert "%c = tt.and %i, %j : i32" in ir
    assert any(ln.startswith("%m = tt.or") and ln.endswith(": i1") for ln in op_lines(ir, "tt.or"))


def test_logical_and_or_on_runtime_values():
    @triton.jit
    def k(x, out, n, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        m = (offs < n) and (offs > 2)
        m2 = (offs < 4) or m
        tl.store(out + offs, 1.0, mask=m2)

    ir = tt(k, X, Y, 10, BLOCK=16)
    assert op_lines(ir, "tt.and")[0].endswith(": tensor<16xi1>")
    assert op_lines(ir, "tt.or")[0].endswith(": tensor<16xi1>")


def test_logical_and_of_ints_tests_nonzero():
    @triton.jit
    def k(x, out, i, j, f, BLOCK: tl.constexpr):
        tl.store(out, 1.0, mask=i and j)

    ir = scalar_ir(k)
    assert ir.count("tt.cmp ne") == 2


# ------------------------------------------------------------------ Triton's computation dtypes

H = np.zeros(64, dtype=np.float16)


def test_int_divided_by_half_converts_the_int_straight_to_f32():
    """``/`` and ``%`` of a half compute in f32, each operand converted once (PTX has no
    f16 division): the int never passes through f16, where 100000 is inf."""

    @triton.jit
    def k(h, out, i, BLOCK: tl.constexpr):
        v = tl.load(h + tl.arange(0, BLOCK))
        tl.store(out + tl.arange(0, BLOCK), i / v + i % v)

    ir = tt(k, H, Y, I_VAL, BLOCK=16)
    assert "tt.cast %i : i32 -> f32" in ir and "-> f16" not in ir and "-> tensor<16xf16>" not in ir
    assert op_lines(ir, "tt.div")[0].endswith(": tensor<16xf32>")
    assert op_lines(ir, "tt.rem")[0].endswith(": tensor<16xf32>")


def test_half_divided_by_python_float_uses_an_f32_constant():
    @triton.jit
    def k(h, out, BLOCK: tl.constexpr):
        v = tl.load(h + tl.arange(0, BLOCK))
        tl.store(out + tl.arange(0, BLOCK), v / 0.1 + v % 0.1)

    ir = tt(k, H, Y, BLOCK=16)
    assert ir.count("arith.constant 1.000000e-01 : f32") == 2 and ": f16" not in ir


def test_two_fp8_formats_divide_in_f16():
    """Triton's one exception: different fp8s promote to f16, and ``/`` stays there."""
    import ml_dtypes

    @triton.jit
    def k(a, b, out, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        tl.store(out + offs, (tl.load(a + offs) / tl.load(b + offs)).to(tl.float32))

    e5 = np.zeros(64, ml_dtypes.float8_e5m2)
    e4 = np.zeros(64, ml_dtypes.float8_e4m3fn)
    ir = tt(k, e5, e4, Y, BLOCK=16)
    assert op_lines(ir, "tt.div")[0].endswith(": tensor<16xf16>")


def test_maximum_types_python_scalars_as_their_own_tensors():
    """``tl.maximum``/``minimum``/``clamp``: a Python scalar is int32/float32... of its own
    (no weak typing), bf16 becomes f32, two booleans stay i1."""

    @triton.jit
    def k(h, x8, out, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        v = tl.load(h + offs)
        c = tl.load(x8 + offs)
        a = tl.maximum(v, 0.1)
        b = tl.maximum(c, 1000)
        m = tl.minimum(offs < 3, offs > 5)
        z = tl.clamp(v, 0.1, 2)
        w = tl.maximum(v.to(tl.bfloat16), v.to(tl.bfloat16))
        tl.store(out + offs, a + b + z + w, mask=m)

    ir = tt(k, H, np.zeros(64, np.int8), Y, BLOCK=16)
    assert "arith.constant 1.000000e-01 : f32" in ir and "arith.constant 1000 : i32" in ir
    assert "1.000000e-01 : f16" not in ir
    hi, lo = op_lines(ir, "tt.maximum"), op_lines(ir, "tt.minimum")
    assert [ln.rsplit(": ", 1)[1] for ln in hi] == ["tensor<16xf32>", "tensor<16xi32>"] + [
        "tensor<16xf32>"
    ] * 2
    assert [ln.rsplit(": ", 1)[1] for ln in lo] == ["tensor<16xi1>", "tensor<16xf32>"]
    assert "tt.cast %c : tensor<16xi8> -> tensor<16xi32>" in ir


def test_negative_zero_constants_are_positive_zero():
    """Triton emits the dtype's zero for any scalar equal to 0: ``-0.0`` is +0.0."""

    @triton.jit
    def k(x, out, C: tl.constexpr, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        v = tl.load(x + offs) * -0.0 + C
        tl.store(out + offs, v + tl.full((BLOCK,), -0.0, tl.float32))

    ir = tt(k, X, Y, -0.0, BLOCK=16)
    assert "-0.0" not in ir and ir.count("arith.constant 0.000000e+00 : f32") == 3


# ------------------------------------------------------------------ casts


def test_to_float32_from_int_block():
    @triton.jit
    def k(x, out, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        tl.store(out + offs, offs.to(tl.float32))

    ir = tt(k, X, Y, BLOCK=16)
    assert "tt.cast %offs : tensor<16xi32> -> tensor<16xf32>" in ir


def test_to_same_dtype_is_free_and_tl_cast_works():
    @triton.jit
    def k(x, out, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        v = tl.load(x + offs).to(tl.float32)
        w = tl.cast(v, tl.int32)
        z = tl.cast(w, dtype=tl.int1)
        tl.store(out + offs, v, mask=z)

    ir = tt(k, X, Y, BLOCK=16)
    casts = op_lines(ir, "tt.cast")
    assert len(casts) == 2
    assert casts[0].endswith("tensor<16xf32> -> tensor<16xi32>")
    assert casts[1].endswith("tensor<16xi32> -> tensor<16xi1>")


def test_python_int_float_bool_of_runtime_values_cast():
    @triton.jit
    def k(x, out, i, j, f, BLOCK: tl.constexpr):
        a = int(f)
        b = float(i)
        c = bool(j)
        tl.store(out, b + a, mask=c)

    ir = scalar_ir(k)
    assert "%a = tt.cast %f : f32 -> i32" in ir
    assert "%b = tt.cast %i : i32 -> f32" in ir
    assert "%c = tt.cast %j : i32 -> i1" in ir


def test_bool_argument_is_i1_and_float_argument_f32():
    @triton.jit
    def k(x, out, flag, f, n):
        tl.store(out, f, mask=flag)

    ir = tt(k, X, Y, True, 1.0, np.int32(3))
    assert (
        "func.func @k(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %flag: i1, %f: f32, %n: i32)"
        in ir
    )


# ------------------------------------------------------------------ broadcasting and shapes


def test_outer_sum_broadcasts_both_operands():
    @triton.jit
    def k(x, out, BM: tl.constexpr, BN: tl.constexpr):
        rows = tl.arange(0, BM)[:, None]
        cols = tl.arange(0, BN)[None, :]
        tl.store(out + rows * BN + cols, (rows + cols).to(tl.float32))

    ir = tt(k, X, Y, BM=16, BN=8)
    assert "%rows = tt.expand_dims %0 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>" in ir
    assert "tt.expand_dims %1 {axis = 0 : i32} : tensor<8xi32> -> tensor<1x8xi32>" in ir
    assert "tt.broadcast %rows : tensor<16x1xi32> -> tensor<16x8xi32>" in ir
    assert "tt.broadcast %cols : tensor<1x8xi32> -> tensor<16x8xi32>" in ir
    assert any(ln.endswith(": tensor<16x8xi32>") for ln in op_lines(ir, "tt.add"))
    assert "tt.store" in ir and ir.rstrip().count("tensor<16x8x!tt.ptr<f32>>") >= 2


def test_lower_rank_operand_gets_leading_dimension():
    @triton.jit
    def k(x, out, BLOCK: tl.constexpr):
        z = tl.zeros((4, BLOCK), tl.float32)
        v = tl.load(x + tl.arange(0, BLOCK))
        w = z + v
        tl.store(out + tl.arange(0, 4)[:, None] * BLOCK + tl.arange(0, BLOCK)[None, :], w)

    ir = tt(k, X, Y, BLOCK=16)
    assert "tt.expand_dims %v {axis = 0 : i32} : tensor<16xf32> -> tensor<1x16xf32>" in ir
    assert "tensor<1x16xf32> -> tensor<4x16xf32>" in ir
    assert "%w = tt.add %z, %" in ir


def test_scalar_operand_is_splatted():
    @triton.jit
    def k(x, out, n, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        tl.store(out + offs, (offs * n).to(tl.float32))

    ir = tt(k, X, Y, 3, BLOCK=16)
    assert "tt.splat %n : i32 -> tensor<16xi32>" in ir
    assert "tt.splat %out : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>" in ir


def test_expand_dims_and_broadcast_to_builtins():
    @triton.jit
    def k(x, out, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        a = tl.expand_dims(offs, 0)
        b = tl.expand_dims(offs, axis=-1)
        c = tl.broadcast_to(a, (4, BLOCK))
        d, e = tl.broadcast(b, a)
        tl.static_assert(c.shape == (4, BLOCK))
        tl.static_assert(d.shape == (BLOCK, BLOCK) and e.shape == (BLOCK, BLOCK))

    ir = tt(k, X, Y, BLOCK=16)
    assert "tt.expand_dims %offs {axis = 0 : i32}" in ir
    assert "tt.expand_dims %offs {axis = 1 : i32}" in ir
    assert "tensor<1x16xi32> -> tensor<4x16xi32>" in ir


def test_none_index_without_slices_and_double_expand():
    @triton.jit
    def k(x, out, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        a = offs[None]
        b = offs[:, None, None]
        tl.static_assert(a.shape == (1, BLOCK))
        tl.static_assert(b.shape == (BLOCK, 1, 1))

    ir = tt(k, X, Y, BLOCK=16)
    assert "tensor<16xi32> -> tensor<1x16xi32>" in ir
    assert "tensor<16x1xi32> -> tensor<16x1x1xi32>" in ir


def test_shape_and_dtype_attributes_are_compile_time():
    @triton.jit
    def k(x, out, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        v = tl.load(x + offs)
        if v.dtype == tl.float32:  # noqa: SIM108
            v = v * 2.0
        else:
            v = v + 1
        n: tl.constexpr = v.shape[0]
        tl.store(out + tl.arange(0, n), v)

    f32 = tt(k, X, Y, BLOCK=16)
    i32 = tt(k, XI, XI, BLOCK=16)
    assert ops(f32).count("tt.mul") == 1 and "tt.add" not in ops(f32)
    assert ops(i32).count("tt.add") == 1 and "tt.mul" not in ops(i32)
    assert f32.count("tt.make_range {start = 0 : i32, end = 16 : i32}") == 2


def test_pointer_dtype_attribute():
    @triton.jit
    def k(x, out, BLOCK: tl.constexpr):
        tl.static_assert(x.dtype.element_ty == tl.int32)
        tl.store(out, 1.0)

    tt(k, XI, Y, BLOCK=16)
    with pytest.raises(triton.CompilationError):
        tt(k, X, Y, BLOCK=16)
