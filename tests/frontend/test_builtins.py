"""The `tt` ops each ``tl.*`` builtin emits, with their types."""

# ruff: noqa: F841
from __future__ import annotations

import pytest

import mytriton as triton
import mytriton.language as tl
from tests.frontend.util import XI, X, Y, op_lines, ops, tt


def test_program_id_and_num_programs_axes():
    @triton.jit
    def k(x, out):
        a = tl.program_id(0) + tl.program_id(1) + tl.program_id(2)
        b = tl.num_programs(0) + tl.num_programs(axis=2)
        tl.store(out + a + b, 1.0)

    ir = tt(k, X, Y)
    for axis in ("x", "y", "z"):
        assert f"tt.get_program_id {axis} : i32" in ir
    assert "tt.get_num_programs x : i32" in ir and "tt.get_num_programs z : i32" in ir


def test_arange_with_nonzero_start():
    @triton.jit
    def k(x, out):
        r = tl.arange(16, 48)
        tl.store(out + r, 1.0)

    assert "tt.make_range {start = 16 : i32, end = 48 : i32} : tensor<32xi32>" in tt(k, X, Y)


def test_factories():
    ir = tt(__import__("tests.kernels").kernels.factories_kernel, Y, 3.0, BLOCK=16)
    assert "tt.zeros : tensor<16xf32>" in ir
    full = op_lines(ir, "tt.full")
    assert len(full) == 2 and all(ln.endswith(": f32 -> tensor<16xf32>") for ln in full)
    assert "tt.full %fill : f32 -> tensor<16xf32>" in ir
    assert "arith.constant 2.500000e+00 : f32" in ir


def test_factory_dtypes_shapes_and_conversions():
    @triton.jit
    def k(x, out, n, f):
        a = tl.zeros((4, 8), dtype=tl.int32)
        b = tl.full((2, 4, 8), 3, tl.float32)
        c = tl.full([8], n, tl.float32)
        d = tl.full((8,), f, tl.int32)
        e = tl.full((8,), True, tl.int1)
        g = tl.empty(16, tl.float32)
        h = tl.zeros_like(c)
        s = tl.zeros_like(n)

    ir = tt(k, X, Y, 2, 1.5)
    assert "tt.zeros : tensor<4x8xi32>" in ir
    assert "arith.constant 3.000000e+00 : f32" in ir and "f32 -> tensor<2x4x8xf32>" in ir
    assert "tt.cast %n : i32 -> f32" in ir
    assert "tt.cast %f : f32 -> i32" in ir
    assert "arith.constant true" in ir and "i1 -> tensor<8xi1>" in ir
    assert "tt.empty : tensor<16xf32>" in ir
    assert "%h = tt.zeros : tensor<8xf32>" in ir
    assert "%s = arith.constant 0 : i32" in ir


def test_load_and_store_forms():
    @triton.jit
    def k(x, out, n, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        m = offs < n
        a = tl.load(x + offs)
        b = tl.load(x + offs, mask=m)
        c = tl.load(x + offs, m, 1.0)
        s = tl.load(x)
        tl.store(out + offs, a + b + c + s)
        tl.store(out + offs, 2.0, mask=m)
        tl.store(out, s)

    ir = tt(k, X, Y, 10, BLOCK=16)
    loads = op_lines(ir, "tt.load")
    assert loads[0].endswith(" : tensor<16x!tt.ptr<f32>>") and loads[0].count("%") == 2
    assert ", %m, %" in loads[1]  # mask and the default other (0.0)
    assert ", %m, %" in loads[2]
    assert "%s = tt.load %x : !tt.ptr<f32>" in ir
    stores = op_lines(ir, "tt.store")
    assert len(stores) == 3
    assert stores[1].endswith(", %m : tensor<16x!tt.ptr<f32>>")
    assert stores[2] == "tt.store %out, %s : !tt.ptr<f32>"


def test_load_2d_with_broadcast_mask_and_block_other():
    @triton.jit
    def k(x, out, n, BM: tl.constexpr, BN: tl.constexpr):
        rows = tl.arange(0, BM)[:, None]
        cols = tl.arange(0, BN)[None, :]
        other = tl.full((BM, BN), -1.0, tl.float32)
        v = tl.load(x + rows * BN + cols, mask=rows < n, other=other)
        tl.store(out + rows * BN + cols, v, mask=cols < n)

    ir = tt(k, X, Y, 3, BM=4, BN=8)
    assert "tensor<4x1xi1> -> tensor<4x8xi1>" in ir
    assert "tensor<1x8xi1> -> tensor<4x8xi1>" in ir
    assert "%v = tt.load" in ir and "%other : tensor<4x8x!tt.ptr<f32>>" in ir


def test_pointer_arithmetic_forms():
    @triton.jit
    def k(x, out, n, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        p = offs + x
        q = x - 1
        r = p + n
        tl.store(r, tl.load(q))

    ir = tt(k, X, Y, 2, BLOCK=16)
    assert "%p = tt.addptr %0, %offs : tensor<16x!tt.ptr<f32>>, tensor<16xi32>" in ir
    assert "tt.neg" in ir and "%q = tt.addptr %x, %" in ir


def test_where_maximum_minimum_clamp():
    @triton.jit
    def k(x, out, lo, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        v = tl.load(x + offs)
        a = tl.where(v > 0, v, 0.0)
        b = tl.maximum(v, lo)
        c = tl.minimum(v, 1)
        d = tl.clamp(v, lo, 2.0)
        e = tl.where(offs < 4, offs, 7)
        tl.store(out + offs, a + b + c + d + e)

    ir = tt(k, X, Y, 0.5, BLOCK=16)
    assert any(ln.startswith("%a = tt.select") for ln in op_lines(ir, "tt.select"))
    assert op_lines(ir, "tt.select")[0].endswith(": tensor<16xf32>")
    assert "%e = tt.select" in ir and op_lines(ir, "tt.select")[1].endswith(": tensor<16xi32>")
    assert ops(ir).count("tt.maximum") == 2 and ops(ir).count("tt.minimum") == 2


def test_propagate_nan_reaches_the_ops():
    """``tl.PropagateNan.ALL`` (keyword, positional or a constexpr parameter) becomes
    ``propagate_nan = all``; the default and Python's ``max`` leave ``none`` (not printed)."""

    @triton.jit
    def k(x, out, MODE: tl.constexpr, BLOCK: tl.constexpr):
        v = tl.load(x + tl.arange(0, BLOCK))
        a = tl.maximum(v, 0.0, propagate_nan=tl.PropagateNan.ALL)
        b = tl.minimum(v, 1.0, tl.PropagateNan.ALL)
        c = tl.maximum(v, 2.0, propagate_nan=MODE)
        d = tl.clamp(v, 0.0, 1.0, propagate_nan=tl.PropagateNan.ALL)
        e = max(v, 3.0)
        f = tl.minimum(v, 4.0)
        tl.store(x + tl.arange(0, BLOCK), a + b + c + d + e + f)

    ir = tt(k, X, Y, MODE=tl.PropagateNan.ALL, BLOCK=16)
    lines = op_lines(ir, "tt.maximum") + op_lines(ir, "tt.minimum")
    assert len(lines) == 7 and sum("propagate_nan = all" in ln for ln in lines) == 5, lines
    assert tt(k, X, Y, MODE=tl.PropagateNan.NONE, BLOCK=16).count("propagate_nan = all") == 4


@pytest.mark.parametrize(
    "fn", ["exp", "exp2", "log", "log2", "sqrt", "rsqrt", "sin", "cos", "floor", "ceil", "abs"]
)
def test_unary_math(fn):
    f = getattr(tl, fn)  # a closure value: builtins are found by identity

    @triton.jit
    def k(x, out, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        v = tl.load(x + offs)
        tl.store(out + offs, f(v))

    ir = tt(k, X, Y, BLOCK=16)
    assert f"tt.{fn} %v : tensor<16xf32>" in ir


def test_abs_of_int_and_bool():
    @triton.jit
    def k(x, out, n):
        a = tl.abs(n)
        b = tl.abs(n > 0)
        tl.store(out + a, 1.0, mask=b)

    ir = tt(k, X, Y, -3)
    assert "%a = tt.abs %n : i32" in ir and ops(ir).count("tt.abs") == 1


def test_sigmoid_and_fdiv():
    @triton.jit
    def k(x, out, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        v = tl.load(x + offs)
        tl.store(out + offs, tl.fdiv(tl.sigmoid(v), v))

    names = ops(tt(k, X, Y, BLOCK=16))
    math_ops = [n for n in names if n in ("tt.sub", "tt.exp", "tt.add", "tt.div")]
    assert math_ops == ["tt.sub", "tt.exp", "tt.add", "tt.div", "tt.div"]  # -x is 0 - x
    assert names.count("tt.div") == 2


@pytest.mark.parametrize("ieee", [False, True])
def test_division_rounding_choice(ieee: bool):
    """``/``, ``tl.fdiv`` and ``tl.softmax`` are ``tt.div`` (f32: PTX ``div.full.f32``), with
    ``ieee_rounding=True`` (and ``tl.div_rn`` always) ``tt.precise_divf`` (IEEE)."""

    @triton.jit
    def k(x, out, IEEE: tl.constexpr, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        v = tl.load(x + offs)
        w = tl.fdiv(v, v + 1.0, ieee_rounding=IEEE) + tl.softmax(v, ieee_rounding=IEEE)
        tl.store(out + offs, w + tl.div_rn(v, 3.0) + v / 7.0)

    names = ops(tt(k, X, Y, IEEE=ieee, BLOCK=16))
    assert names.count("tt.precise_divf") == (3 if ieee else 1)
    assert names.count("tt.div") == (1 if ieee else 3)


def test_sqrt_rn_is_precise_sqrt():
    """``tl.sqrt_rn`` (and ``libdevice.sqrt_rn``) are ``tt.precise_sqrt`` (IEEE ``sqrt.rn``),
    ``tl.sqrt`` and ``libdevice.sqrt`` ``tt.sqrt`` (f32: PTX ``sqrt.approx.ftz.f32``)."""
    from mytriton.language.extra.cuda import libdevice

    @triton.jit
    def k(x, out, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        v = tl.load(x + offs)
        w = tl.sqrt_rn(v) + libdevice.sqrt_rn(v + 1.0) + tl.sqrt(v + 2.0)
        tl.store(out + offs, w + libdevice.sqrt(v + 3.0))

    names = ops(tt(k, X, Y, BLOCK=16))
    assert names.count("tt.precise_sqrt") == 2
    assert names.count("tt.sqrt") == 2


def test_seed_sigmoid_kernel_ops():
    from tests.kernels import sigmoid_kernel

    ir = tt(sigmoid_kernel, X, Y, 10, BLOCK=16)
    assert "tt.neg" not in ir and any(
        ln.endswith(", %v : tensor<16xf32>") for ln in op_lines(ir, "tt.sub")
    )
    assert "tt.exp" in ir and op_lines(ir, "tt.div")[0].endswith(": tensor<16xf32>")


def test_reductions_1d():
    @triton.jit
    def k(x, out, BLOCK: tl.constexpr):
        v = tl.load(x + tl.arange(0, BLOCK))
        s = tl.sum(v, axis=0)
        m = tl.max(v, 0)
        n = tl.min(v)
        tl.store(out, s + m + n)

    ir = tt(k, X, Y, BLOCK=16)
    # each a tt.reduce whose combine region is one tt.add / tt.maximum / tt.minimum
    assert "%s = tt.reduce %v {axis = 0 : i32} : tensor<16xf32> -> f32 {" in ir
    assert "%m = tt.reduce %v {axis = 0 : i32} : tensor<16xf32> -> f32 {" in ir
    assert "%n = tt.reduce %v {axis = 0 : i32} : tensor<16xf32> -> f32 {" in ir
    assert ops(ir).count("tt.reduce.return") == 3
    for name in ("tt.add", "tt.maximum", "tt.minimum"):
        assert op_lines(ir, name)[0].endswith(": f32"), name


def test_reductions_2d_axes_and_keep_dims():
    @triton.jit
    def k(x, out, BM: tl.constexpr, BN: tl.constexpr):
        a = tl.zeros((BM, BN), tl.float32)
        rows = tl.sum(a, axis=1)
        cols = tl.max(a, axis=0, keep_dims=True)
        last = tl.min(a, axis=-1)
        total = tl.sum(a)
        tl.static_assert(rows.shape == (BM,) and cols.shape == (1, BN))
        tl.store(out, total)

    ir = tt(k, X, Y, BM=4, BN=8)
    assert "%rows = tt.reduce %a {axis = 1 : i32} : tensor<4x8xf32> -> tensor<4xf32>" in ir
    assert "tt.reduce %a {axis = 0 : i32} : tensor<4x8xf32> -> tensor<8xf32>" in ir
    assert "tensor<8xf32> -> tensor<1x8xf32>" in ir
    assert "%last = tt.reduce %a {axis = 1 : i32}" in ir
    # axis=None reduces the last axis first, then the rest, to a scalar
    assert "tt.reduce %a {axis = 1 : i32}" in ir and "tensor<4xf32> -> f32 {" in ir


def test_sum_of_bools_is_u32_of_ints_i32():
    @triton.jit
    def k(x, out, n, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        count = tl.sum(offs < n, axis=0)
        total = tl.sum(offs, axis=0)
        f = tl.sum(offs, axis=0, dtype=tl.float32)
        tl.store(out + count + total, f)

    ir = tt(k, X, Y, 3, BLOCK=16)
    # Triton 3.6: booleans count as unsigned (int1 is among its unsigned dtypes)
    assert "tensor<16xi1> -> tensor<16xui32>" in ir
    assert "%count = tt.reduce %" in ir and "tensor<16xui32> -> ui32 {" in ir
    assert "tt.cast %offs : tensor<16xi32> -> tensor<16xf32>" in ir
    reduces = [ln for ln in op_lines(ir, "tt.reduce") if " = tt.reduce " in ln]
    assert reduces[-1].startswith("%f = tt.reduce") and reduces[-1].endswith("-> f32 {")


def test_dot_types_with_and_without_acc():
    @triton.jit
    def k(x, out):
        a = tl.zeros((16, 16), tl.float32)
        b = tl.full((16, 32), 1.0, tl.float32)
        c = tl.dot(a, b)
        d = tl.dot(a, b, c)
        e = tl.dot(a, b, acc=d, allow_tf32=False)

    ir = tt(k, X, Y)
    dots = op_lines(ir, "tt.dot")
    assert len(dots) == 3
    assert all(
        ln.endswith(": tensor<16x16xf32> * tensor<16x32xf32> -> tensor<16x32xf32>") for ln in dots
    )
    assert "tt.zeros : tensor<16x32xf32>" in ir  # the implicit zero accumulator
    assert dots[1].startswith("%d = tt.dot %a, %b, %c")


def test_int32_pointer_load_store():
    @triton.jit
    def k(x, out, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        v = tl.load(x + offs, mask=offs < 4)
        tl.store(out + offs, v + 1)

    ir = tt(k, XI, XI, BLOCK=16)
    assert (
        "func.func @k(%x: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<i32> {tt.divisibility = 16 : i32})"
        in ir
    )
    assert "arith.constant 0 : i32" in ir  # default `other` of an i32 load
    assert op_lines(ir, "tt.add")[-1].endswith(": tensor<16xi32>")
