"""The lowering's op builders make the very ops xDSL's constructors make (same generic text,
same verification), sharing their constant attributes."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from xdsl.dialects import llvm, vector
from xdsl.dialects.builtin import IntAttr, IntegerType, ModuleOp, VectorType, f16, f32, i32
from xdsl.ir import Block, Operation, Region

from mytriton.dialects.printing import print_generic
from mytriton.passes.gpu_lowering import op_builders as ob

PTR = llvm.LLVMPointerType(IntAttr(1))
STRUCT = llvm.LLVMStructType.from_type_list([f32, f32, f32])
PAIR = VectorType(f16, [2])
#: the arguments: a pointer, an index, a struct, an f32, a vector of two f16, an f16
ARGS = (PTR, i32, STRUCT, f32, PAIR, f16)

Build = Callable[[Block], Operation]

CASES: list[tuple[str, Build, Build]] = [
    (
        "gep, an SSA index",
        lambda b: llvm.GEPOp(b.args[0], [llvm.GEP_USE_SSA_VAL], f32, [b.args[1]], PTR),
        lambda b: ob.gep(b.args[0], b.args[1], f32, PTR),
    ),
    (
        "gep, a constant index",
        lambda b: llvm.GEPOp(b.args[0], [96], IntegerType(8), result_type=PTR),
        lambda b: ob.gep(b.args[0], 96, IntegerType(8), PTR),
    ),
    (
        "extractvalue",
        lambda b: llvm.ExtractValueOp(ob.position(2), b.args[2], f32),
        lambda b: ob.extract_value(b.args[2], 2, f32),
    ),
    (
        "insertvalue",
        lambda b: llvm.InsertValueOp(ob.position(1), b.args[2], b.args[3]),
        lambda b: ob.insert_value(b.args[2], b.args[3], 1),
    ),
    (
        "vector.extract",
        lambda b: vector.ExtractOp(b.args[4], [1], f16),
        lambda b: ob.vector_extract(b.args[4], 1, f16),
    ),
    (
        "vector.insert",
        lambda b: vector.InsertOp(b.args[5], b.args[4], [0]),
        lambda b: ob.vector_insert(b.args[5], b.args[4], 0),
    ),
    (
        "vector.insert with its type",
        lambda b: vector.InsertOp(b.args[5], b.args[4], [1], PAIR),
        lambda b: ob.vector_insert(b.args[5], b.args[4], 1, PAIR),
    ),
]


def _module(build: Build) -> ModuleOp:
    block = Block(arg_types=ARGS)
    block.add_ops([build(block), llvm.ReturnOp.create()])
    wrapper = llvm.FuncOp("f", llvm.LLVMFunctionType(list(ARGS)), body=Region(block))
    return ModuleOp([wrapper])


@pytest.mark.parametrize(("name", "xdsl_op", "built"), CASES, ids=[c[0] for c in CASES])
def test_the_builder_makes_xdsl_s_op(name: str, xdsl_op: Build, built: Build) -> None:
    theirs, ours = _module(xdsl_op), _module(built)
    assert print_generic(ours) == print_generic(theirs)
    op = ours.body.block.first_op.body.block.first_op  # type: ignore[union-attr]
    assert op is not None
    op.verify()
    assert type(op) is type(theirs.body.block.first_op.body.block.first_op)  # type: ignore[union-attr]


def test_constant_attributes_are_made_once() -> None:
    block = Block(arg_types=ARGS)
    one, two = (ob.gep(block.args[0], block.args[1], f32, PTR) for _ in range(2))
    assert one.properties["rawConstantIndices"] is two.properties["rawConstantIndices"]
    assert ob.position(3) is ob.position(3)
