"""Each `tt` op verifier rule, on ops built with the Python API, and how ``verify_module``
reports a failure at the op's Python source location."""

from __future__ import annotations

import inspect

import pytest
from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import (
    FileLineColLoc,
    Float8E4M3FNType,
    IndexType,
    IntAttr,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    TensorType,
    f16,
    f32,
    f64,
    i1,
    i8,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.utils.exceptions import VerifyException

from mytriton.dialects.tt import core as tt
from mytriton.dialects.tt import elementwise as ew
from mytriton.dialects.tt.types import PointerType
from mytriton.dialects.verify import source_location, verify_module
from mytriton.errors import IRVerificationError

PF32 = PointerType(f32)


def T(elem: Attribute, *shape: int) -> TensorType:
    return TensorType(elem, list(shape))


def args(*types: Attribute) -> tuple[SSAValue, ...]:
    """Fresh SSA values of these types (arguments of a detached block)."""
    return tuple(Block(arg_types=types).args)


def error_of(op) -> str:
    with pytest.raises(VerifyException) as info:
        op.verify()
    return str(info.value)


def ok(op) -> None:
    op.verify()


def with_result(op, result_type: Attribute):
    """A copy of ``op`` whose result has another type (constructors compute the right one)."""
    return type(op).create(
        operands=list(op.operands),
        result_types=[result_type],
        properties=dict(op.properties),
        attributes=dict(op.attributes),
    )


# ------------------------------------------------------------------ program model


def test_program_id_axes():
    for axis, name in enumerate("xyz"):
        op = tt.GetProgramIdOp(axis)
        ok(op)
        assert op.axis.data.value == name and op.axis.index == axis
    ok(tt.GetNumProgramsOp(2))


# ------------------------------------------------------------------ make_range


@pytest.mark.parametrize(
    ("start", "end", "message"),
    [
        (-4, 4, "tt.make_range: start must be non-negative, got -4"),
        (8, 8, "tt.make_range: end (8) must be greater than start (8)"),
        (8, 4, "end (4) must be greater than start (8)"),
        (0, 12, "range size end - start = 12 must be a power of two"),
    ],
)
def test_make_range_rules(start, end, message):
    op = tt.MakeRangeOp.create(
        properties={"start": IntegerAttr(start, i32), "end": IntegerAttr(end, i32)},
        result_types=[T(i32, 16)],
    )
    assert message in error_of(op)


def test_make_range_result_type():
    ok(tt.MakeRangeOp(16, 48))
    bad = tt.MakeRangeOp.create(
        properties={"start": IntegerAttr(0, i32), "end": IntegerAttr(16, i32)},
        result_types=[T(i32, 8)],
    )
    assert "result type must be tensor<16xi32>" in error_of(bad)
    bad = tt.MakeRangeOp.create(
        properties={"start": IntegerAttr(0, i32), "end": IntegerAttr(16, i32)},
        result_types=[T(f32, 16)],
    )
    assert "result type must be tensor<16xi32>" in error_of(bad)


# ------------------------------------------------------------------ splat / broadcast / expand_dims


def test_splat_rules():
    (s, blk) = args(f32, T(f32, 16))
    ok(tt.SplatOp(s, T(f32, 4, 16)))
    assert "tt.splat: operand must be a scalar, got tensor<16xf32>" in error_of(
        tt.SplatOp(blk, T(f32, 4, 16))
    )
    assert "f32 should be of base attribute tensor" in error_of(tt.SplatOp(s, f32))
    assert "must be a power of two (got 12)" in error_of(tt.SplatOp(s, T(f32, 12)))
    assert "result element type i32 differs from operand type f32" in error_of(
        tt.SplatOp(s, T(i32, 16))
    )


def test_splat_of_pointer():
    (p,) = args(PF32)
    ok(tt.SplatOp(p, T(PF32, 16)))


def test_block_size_limit():
    (s,) = args(f32)
    assert "numel (2097152) exceeds triton maximum tensor numel (1048576)" in error_of(
        tt.SplatOp(s, T(f32, 2048, 1024))
    )


def test_broadcast_rules():
    (a,) = args(T(f32, 16, 1))
    ok(tt.BroadcastOp(a, T(f32, 16, 8)))
    assert "tt.broadcast: operand and result element types differ" in error_of(
        tt.BroadcastOp(a, T(i32, 16, 8))
    )
    assert "rank changes from 2 to 3; use expand_dims first" in error_of(
        tt.BroadcastOp(a, T(f32, 2, 16, 8))
    )
    assert "dimension 0 of size 16 cannot broadcast to 32" in error_of(
        tt.BroadcastOp(a, T(f32, 32, 8))
    )
    assert "power of two" in error_of(tt.BroadcastOp(a, T(f32, 16, 3)))


def test_expand_dims_rules():
    (a,) = args(T(f32, 16))
    ok(tt.ExpandDimsOp(a, 0))
    ok(tt.ExpandDimsOp(a, 1))
    bad_axis = tt.ExpandDimsOp.create(
        operands=[a], properties={"axis": IntegerAttr(2, i32)}, result_types=[T(f32, 16, 1)]
    )
    assert "tt.expand_dims: axis 2 out of range for a rank-1 block" in error_of(bad_axis)
    bad_shape = tt.ExpandDimsOp.create(
        operands=[a], properties={"axis": IntegerAttr(0, i32)}, result_types=[T(f32, 16, 1)]
    )
    assert "result shape must be [1, 16]" in error_of(bad_shape)
    bad_elem = tt.ExpandDimsOp.create(
        operands=[a], properties={"axis": IntegerAttr(0, i32)}, result_types=[T(i32, 1, 16)]
    )
    assert "operand and result element types differ" in error_of(bad_elem)


# ------------------------------------------------------------------ pointers and memory


def test_addptr_rules():
    p, off, pb, offb, f, b, offs8 = args(PF32, i32, T(PF32, 16), T(i32, 16), f32, i1, T(i32, 8))
    ok(tt.AddPtrOp(p, off))
    ok(tt.AddPtrOp(pb, offb))
    (fp,) = args(f32)
    assert "tt.addptr: expected pointer(s), got f32" in error_of(tt.AddPtrOp(fp, off))
    assert "offset must be an integer, got f32" in error_of(tt.AddPtrOp(p, f))
    assert "offset must be an integer, got i1" in error_of(tt.AddPtrOp(p, b))
    assert "offset shape [8] differs from pointer shape [16]" in error_of(tt.AddPtrOp(pb, offs8))
    assert "offset shape [16] differs from pointer shape []" in error_of(tt.AddPtrOp(p, offb))


def test_load_rules():
    pb, m, other, m8, other_i, p = args(
        T(PF32, 16), T(i1, 16), T(f32, 16), T(i1, 8), T(i32, 16), PF32
    )
    ok(tt.LoadOp(pb))
    ok(tt.LoadOp(pb, m))
    ok(tt.LoadOp(pb, m, other))
    ok(tt.LoadOp(p))
    (not_ptr,) = args(T(f32, 16))
    bad = with_result(tt.LoadOp(pb), T(f32, 16))
    bad.operands = [not_ptr]
    assert "tt.load: expected pointer(s), got tensor<16xf32>" in error_of(bad)
    wrong_result = with_result(tt.LoadOp(pb), T(i32, 16))
    assert "tt.load: result type must be tensor<16xf32>" in error_of(wrong_result)
    assert "mask must be tensor<16xi1> to match the pointers, got tensor<8xi1>" in error_of(
        tt.LoadOp(pb, m8)
    )
    assert "'other' requires a mask" in error_of(tt.LoadOp(pb, None, other))
    assert "'other' must be tensor<16xf32>, got tensor<16xi32>" in error_of(
        tt.LoadOp(pb, m, other_i)
    )


def test_store_rules():
    pb, v, m, vi, m8, p, s = args(
        T(PF32, 16), T(f32, 16), T(i1, 16), T(i32, 16), T(i1, 8), PF32, f32
    )
    ok(tt.StoreOp(pb, v))
    ok(tt.StoreOp(pb, v, m))
    ok(tt.StoreOp(p, s))
    assert "tt.store: stored value must be tensor<16xf32>, got tensor<16xi32>" in error_of(
        tt.StoreOp(pb, vi)
    )
    assert "stored value must be f32, got tensor<16xf32>" in error_of(tt.StoreOp(p, v))
    assert "mask must be tensor<16xi1>" in error_of(tt.StoreOp(pb, v, m8))
    assert "tt.store: expected pointer(s), got tensor<16xf32>" in error_of(tt.StoreOp(v, v))


def test_memory_effects_and_purity():
    from xdsl.traits import MemoryReadEffect, MemoryWriteEffect, Pure

    assert tt.LoadOp.has_trait(MemoryReadEffect) and not tt.LoadOp.has_trait(Pure)
    assert tt.StoreOp.has_trait(MemoryWriteEffect)
    for op in (tt.MakeRangeOp, tt.SplatOp, tt.AddPtrOp, tt.DotOp, tt.ReduceOp, ew.AddOp, ew.CmpOp):
        assert op.has_trait(Pure), op.name


# ------------------------------------------------------------------ reduce


def _sum(srcs: tuple[SSAValue, ...], axis: int, scan: bool = False):
    """``tt.reduce`` (``tt.scan``) of ``srcs`` whose region adds the first pair and passes on
    the rest."""
    from mytriton.dialects.tt.reduce import combine_block

    block = combine_block([v.type for v in srcs])
    n = len(srcs)
    add = ew.AddOp(block.args[0], block.args[n])
    ret = tt.ScanReturnOp if scan else tt.ReduceReturnOp
    block.add_ops([add, ret(add.result, *block.args[n + 1 :])])
    if scan:
        return tt.ScanOp(list(srcs), axis, False, block)
    return tt.ReduceOp(list(srcs), axis, block)


def test_reduce_rules():
    a, p = args(T(f32, 4, 8), T(PF32, 8))
    ok(_sum((a,), 0))
    ok(_sum((a,), 1))
    assert _sum((a,), 1).results[0].type == T(f32, 4)
    bad_axis = _sum((a,), 0)
    bad_axis.properties["axis"] = IntegerAttr(2, i32)
    assert "tt.reduce: axis 2 out of range for a rank-2 block" in error_of(bad_axis)
    assert "integers or floats, got !tt.ptr<f32>" in error_of(_sum((p,), 0))
    wrong = _sum((a,), 0)
    wrong = type(wrong).create(
        operands=list(wrong.operands),
        result_types=[T(f32, 4)],
        properties=dict(wrong.properties),
        regions=[wrong.combine_op.clone()],
    )
    assert "result 0 must be tensor<8xf32>" in error_of(wrong)


def test_rank1_reduce_gives_scalar():
    (a,) = args(T(i32, 8))
    op = _sum((a,), 0)
    ok(op)
    assert op.results[0].type == i32


def test_tuple_reduce_and_scan_rules():
    a, i, c = args(T(f32, 4, 8), T(i32, 4, 8), T(i32, 8, 4))
    op = _sum((a, i), 1)
    ok(op)
    assert [r.type for r in op.results] == [T(f32, 4), T(i32, 4)]
    assert "operands must have one shape, got [4, 8] and [8, 4]" in error_of(_sum((a, c), 0))
    scan = _sum((a, i), 0, scan=True)
    ok(scan)
    assert [r.type for r in scan.results] == [T(f32, 4, 8), T(i32, 4, 8)]
    from xdsl.traits import Pure

    assert tt.ScanOp.has_trait(Pure)


# ------------------------------------------------------------------ factories


@pytest.mark.parametrize("cls", [tt.ZerosOp, tt.EmptyOp])
def test_shape_only_factory_rules(cls):
    ok(cls(T(f32, 4, 8)))
    ok(cls(T(i1, 4)))
    assert "f32 should be of base attribute tensor" in error_of(cls(f32))
    assert "a block needs at least one dimension" in error_of(cls(T(f32)))
    assert "dimension 1 of shape [4, 6] must be a power of two (got 6)" in error_of(
        cls(T(f32, 4, 6))
    )
    ok(cls(T(i64, 4)))
    assert "element type must be an integer or a float, got index" in error_of(
        cls(T(IndexType(), 4))
    )


def test_full_rules():
    s, si, blk = args(f32, i32, T(f32, 8))
    ok(tt.FullOp(s, T(f32, 8)))
    ok(tt.FullOp(si, T(i32, 2, 8)))
    assert "fill value type i32 differs from element type f32" in error_of(tt.FullOp(si, T(f32, 8)))
    assert "tt.full: the fill value must be a scalar, not a block" in error_of(
        tt.FullOp(blk, T(f32, 8))
    )
    assert "power of two" in error_of(tt.FullOp(s, T(f32, 5)))


def test_f16_factories_are_float_like():
    ok(tt.ZerosOp(T(f16, 8)))


# ------------------------------------------------------------------ dot


def test_dot_rules():
    a, b, c = args(T(f32, 16, 8), T(f32, 8, 32), T(f32, 16, 32))
    ok(tt.DotOp(a, b, c))
    (v,) = args(T(f32, 8))
    assert (
        "tt.dot: operands must be rank-2 blocks (rank-3 for a batched dot), got ranks 1 and 2"
        in error_of(tt.DotOp(v, b, c))
    )
    (b2,) = args(T(f32, 16, 32))
    assert "inner dimensions differ: [16, 8] x [16, 32]" in error_of(tt.DotOp(a, b2, c))
    ai, bi, ci = args(T(i32, 16, 8), T(i32, 8, 32), T(i32, 16, 32))
    assert "one element type, got tensor<16x8xi32> and tensor<8x32xf32>" in error_of(
        tt.DotOp(ai, b, c)
    )
    assert "one element type, got tensor<16x8xf32> and tensor<8x32xi32>" in error_of(
        tt.DotOp(a, bi, c)
    )
    assert "unsupported operand type tensor<16x8xi32>" in error_of(tt.DotOp(ai, bi, ci))
    h, hb, h16, i8a, i8b, i32c = args(
        T(f16, 16, 8), T(f16, 8, 32), T(f16, 16, 32), T(i8, 16, 8), T(i8, 8, 32), T(i32, 16, 32)
    )
    ok(tt.DotOp(h, hb, c))
    ok(tt.DotOp(h, hb, h16))
    ok(tt.DotOp(i8a, i8b, i32c))
    assert "accumulator of i8 operands must hold i32, got tensor<16x32xf32>" in error_of(
        tt.DotOp(i8a, i8b, c)
    )
    assert "accumulator of f32 operands must hold f32, got tensor<16x32xf16>" in error_of(
        tt.DotOp(a, b, h16)
    )
    d, db = args(T(f64, 16, 8), T(f64, 8, 32))
    assert "accumulator of f64 operands must hold f64, got tensor<16x32xf32>" in error_of(
        tt.DotOp(d, db, c)
    )
    (c2,) = args(T(f32, 16, 16))
    assert "accumulator must be [16, 32], got [16, 16]" in error_of(tt.DotOp(a, b, c2))
    mismatch = tt.DotOp.create(operands=[a, b, c], result_types=[T(f32, 32, 16)])
    with pytest.raises(VerifyException, match="expected from variable 'R'"):
        mismatch.verify()


# ------------------------------------------------------------------ elementwise


def test_binary_operand_kinds():
    i, f, b, p = args(i32, f32, i1, PF32)
    ok(ew.AddOp(i, i))
    ok(ew.DivOp(f, f))
    ok(ew.AndOp(b, b))
    ok(ew.XorOp(i, i))
    assert "tt.add: operands must be integers or floats, got i1" in error_of(ew.AddOp(b, b))
    assert (
        "tt.maximum: operands must be integers, floats or booleans, got !tt.ptr<f32>"
        in error_of(ew.MaximumOp(p, p))
    )
    assert "tt.and: operands must be integers or booleans, got f32" in error_of(ew.AndOp(f, f))
    assert "tt.or: operands must be integers or booleans" in error_of(ew.OrOp(f, f))
    with pytest.raises(VerifyException, match="expected from variable 'T'"):
        ew.MulOp.create(operands=[i, f], result_types=[i32]).verify()


def test_cmp_rules():
    i, f, p, blk = args(i32, f32, PF32, T(f32, 16))
    ok(ew.CmpOp("lt", i, i))
    ok(ew.CmpOp("ne", f, f))
    ok(ew.CmpOp("eq", p, p))
    op = ew.CmpOp("lt", blk, blk)
    ok(op)
    assert op.result.type == T(i1, 16)
    wrong = with_result(ew.CmpOp("lt", blk, blk), i1)
    assert "tt.cmp: result type must be tensor<16xi1>" in error_of(wrong)
    (h,) = args(f16)
    ok(ew.CmpOp("ge", h, h))  # any float width compares


def test_cmp_of_non_numbers():
    from xdsl.dialects.builtin import IndexType

    (x,) = args(IndexType())
    assert "tt.cmp: cannot compare values of type index" in error_of(ew.CmpOp("lt", x, x))


def test_select_rules():
    c, a, cb, ab, ci = args(i1, f32, T(i1, 16), T(f32, 16), i32)
    ok(ew.SelectOp(c, a, a))
    ok(ew.SelectOp(cb, ab, ab))
    assert "tt.select: condition must be tensor<16xi1>, got i1" in error_of(ew.SelectOp(c, ab, ab))
    assert "condition must be i1, got i32" in error_of(ew.SelectOp(ci, a, a))


def test_unary_rules():
    i, f, b = args(i32, f32, i1)
    for cls in ew.UNARY_OPS:
        if cls in (ew.NegOp, ew.AbsOp):
            ok(cls(i))
            ok(cls(f))
            assert f"{cls.name}: operand must be an integer or a float, got i1" in error_of(cls(b))
        else:
            ok(cls(f))
            assert f"{cls.name}: operand must be a float, got i32" in error_of(cls(i))


def test_cast_rules():
    i, f, b, p, blk = args(i32, f32, i1, PF32, T(i32, 16))
    ok(ew.CastOp(i, f32))
    ok(ew.CastOp(f, i1))
    ok(ew.CastOp(b, f32))
    ok(ew.CastOp(blk, T(f32, 16)))
    assert "tt.cast: cannot convert !tt.ptr<f32> to i32" in error_of(ew.CastOp(p, i32))
    assert "cannot convert i32 to !tt.ptr<f32>" in error_of(ew.CastOp(i, PF32))
    assert "operand and result shapes differ" in error_of(ew.CastOp(blk, T(f32, 8)))
    assert "operand and result shapes differ" in error_of(ew.CastOp(blk, f32))
    assert "conversion of i32 to itself" in error_of(ew.CastOp(i, i32))


# ------------------------------------------------------------------ verify_module


def located(op, file: str, line: int, col: int):
    op.location = FileLineColLoc(StringAttr(file), IntAttr(line), IntAttr(col))
    return op


def kernel_module(*ops, arg_types=()) -> ModuleOp:
    block = Block(arg_types=list(arg_types))
    for op in ops:
        block.add_op(op)
    block.add_op(func.ReturnOp())
    return ModuleOp([func.FuncOp("k", (list(arg_types), []), Region(block))])


def test_verify_module_names_the_failing_ops_location():
    this_file = inspect.getsourcefile(test_verify_module_names_the_failing_ops_location)
    line = inspect.currentframe().f_lineno  # this very line is the "kernel source"
    bad = located(
        tt.MakeRangeOp.create(
            properties={"start": IntegerAttr(0, i32), "end": IntegerAttr(12, i32)},
            result_types=[T(i32, 12)],
        ),
        this_file,
        line,
        5,
    )
    module = kernel_module(located(tt.GetProgramIdOp(0), this_file, 1, 1), bad)
    with pytest.raises(IRVerificationError) as info:
        verify_module(module)
    err = info.value
    assert err.loc is not None and (err.loc.file, err.loc.line, err.loc.col) == (this_file, line, 5)
    report = str(err).splitlines()
    assert report[0] == (
        f"{this_file}:{line}:5: error: tt.make_range: range size end - start = 12 must be a "
        "power of two"
    )
    assert "inspect.currentframe().f_lineno" in report[1]
    assert report[2] == "    " + " " * 4 + "^"


def test_verify_module_error_inside_a_loop_body():
    lb, ub, st = (arith.ConstantOp(IntegerAttr(v, i32), i32) for v in (0, 4, 1))
    body = Block(arg_types=[i32])
    body.add_op(located(tt.SplatOp(body.args[0], T(f32, 16)), "kern.py", 7, 9))
    body.add_op(scf.YieldOp())
    loop = scf.ForOp(lb.result, ub.result, st.result, [], body)
    with pytest.raises(IRVerificationError) as info:
        verify_module(kernel_module(lb, ub, st, loop))
    assert str(info.value).startswith(
        "kern.py:7:9: error: tt.splat: result element type f32 differs from operand type i32"
    )


@pytest.mark.parametrize("step", [0, -2])
def test_verify_module_rejects_non_positive_loop_step(step):
    lb, ub, st = (arith.ConstantOp(IntegerAttr(v, i32), i32) for v in (0, 4, step))
    body = Block(arg_types=[i32])
    body.add_op(scf.YieldOp())
    loop = located(scf.ForOp(lb.result, ub.result, st.result, [], body), "kern.py", 3, 5)
    with pytest.raises(IRVerificationError) as info:
        verify_module(kernel_module(lb, ub, st, loop))
    assert "kern.py:3:5: error: scf.for: the step of a kernel loop must be a positive constant" in (
        str(info.value)
    )


def test_verify_module_rejects_runtime_loop_step():
    body = Block(arg_types=[i32])
    body.add_op(scf.YieldOp())
    outer = Block(arg_types=[i32, i32, i32])
    outer.add_op(scf.ForOp(outer.args[0], outer.args[1], outer.args[2], [], body))
    outer.add_op(func.ReturnOp())
    module = ModuleOp([func.FuncOp("k", ([i32, i32, i32], []), Region(outer))])
    with pytest.raises(IRVerificationError, match="positive constant"):
        verify_module(module)


def test_verify_module_passes_good_ir_and_source_location_of_unlocated_op():
    module = kernel_module(tt.GetProgramIdOp(0))
    verify_module(module)
    assert source_location(tt.GetProgramIdOp(1)) is None


def test_unlocated_failure_has_no_location():
    bad = tt.MakeRangeOp.create(
        properties={"start": IntegerAttr(0, i32), "end": IntegerAttr(12, i32)},
        result_types=[T(i32, 12)],
    )
    with pytest.raises(IRVerificationError) as info:
        verify_module(kernel_module(bad))
    assert info.value.loc is None
    assert str(info.value) == "tt.make_range: range size end - start = 12 must be a power of two"


def test_dot_max_num_imprecise_acc():
    """Only fp8 operands into f32 take it, from 1 to K."""
    e4 = Float8E4M3FNType()
    a, b, c = args(T(e4, 64, 64), T(e4, 64, 64), T(f32, 64, 64))
    ok(tt.DotOp(a, b, c, max_num_imprecise_acc=32))
    ok(tt.DotOp(a, b, c, max_num_imprecise_acc=64))
    assert "max_num_imprecise_acc must be 1 to K (64), got 65" in error_of(
        tt.DotOp(a, b, c, max_num_imprecise_acc=65)
    )
    assert "must be 1 to K (64), got 0" in error_of(tt.DotOp(a, b, c, max_num_imprecise_acc=0))
    h, hb, hc = args(T(f16, 64, 64), T(f16, 64, 64), T(f32, 64, 64))
    assert "max_num_imprecise_acc is for fp8 operands into an f32 accumulator" in error_of(
        tt.DotOp(h, hb, hc, max_num_imprecise_acc=32)
    )
    (h16,) = args(T(f16, 64, 64))
    assert "for fp8 operands into an f32 accumulator" in error_of(
        tt.DotOp(a, b, h16, max_num_imprecise_acc=32)
    )
