"""The custom assembly of every `tt` op: printed IR parses back to the same text, and malformed
text is rejected with a message naming the expected form."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import f32, i32
from xdsl.parser import Parser
from xdsl.utils.exceptions import ParseError, VerifyException

from mytriton.dialects import make_context

EVERY_OP = """\
builtin.module {
  func.func @k(%x: !tt.ptr<f32>, %n: i32, %f: f32, %p: !tt.ptr<i32, 3>) {
    %0 = tt.get_program_id x : i32
    %1 = tt.get_num_programs z : i32
    %2 = tt.make_range {start = 0 : i32, end = 16 : i32} : tensor<16xi32>
    %3 = tt.splat %n : i32 -> tensor<16xi32>
    %4 = tt.expand_dims %2 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %5 = tt.broadcast %4 : tensor<16x1xi32> -> tensor<16x8xi32>
    %6 = tt.splat %x : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
    %7 = tt.addptr %6, %2 : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
    %8 = tt.cmp lt, %2, %3 : tensor<16xi32>
    %9 = tt.load %7 : tensor<16x!tt.ptr<f32>>
    %10 = tt.load %7, %8 : tensor<16x!tt.ptr<f32>>
    %11 = tt.load %7, %8, %9 : tensor<16x!tt.ptr<f32>>
    %12 = tt.load %x : !tt.ptr<f32>
    tt.store %7, %11, %8 : tensor<16x!tt.ptr<f32>>
    tt.store %x, %12 : !tt.ptr<f32>
    %13 = tt.add %9, %10 : tensor<16xf32>
    %14 = tt.sub %n, %0 : i32
    %15 = tt.mul %13, %13 : tensor<16xf32>
    %16 = tt.div %n, %1 : i32
    %17 = tt.rem %f, %f : f32
    %18 = tt.and %8, %8 : tensor<16xi1>
    %19 = tt.or %n, %14 : i32
    %20 = tt.xor %n, %16 : i32
    %21 = tt.maximum %13, %15 : tensor<16xf32>
    %22 = tt.minimum %f, %17 : f32
    %23 = tt.select %18, %21, %13 : tensor<16xf32>
    %24 = tt.cmp ne, %f, %22 : f32
    %25 = tt.select %24, %n, %19 : i32
    %26 = tt.neg %23 : tensor<16xf32>
    %27 = tt.abs %20 : i32
    %28 = tt.exp %26 : tensor<16xf32>
    %29 = tt.exp2 %f : f32
    %30 = tt.log %f : f32
    %31 = tt.log2 %f : f32
    %32 = tt.sqrt %f : f32
    %33 = tt.rsqrt %f : f32
    %34 = tt.sin %f : f32
    %35 = tt.cos %f : f32
    %36 = tt.floor %f : f32
    %37 = tt.ceil %f : f32
    %38 = tt.cast %2 : tensor<16xi32> -> tensor<16xf32>
    %39 = tt.cast %f : f32 -> i1
    %40 = tt.reduce %28 {axis = 0 : i32} : tensor<16xf32> -> f32 {
    ^bb0(%a: f32, %b: f32):
      %r = tt.add %a, %b : f32
      tt.reduce.return %r : f32
    }
    %41, %42 = tt.reduce %5, %5 {axis = 1 : i32} : tensor<16x8xi32>, tensor<16x8xi32> -> tensor<16xi32>, tensor<16xi32> {
    ^bb0(%c: i32, %d: i32, %e: i32, %g: i32):
      %h = tt.maximum %c, %e : i32
      tt.reduce.return %h, %g : i32, i32
    }
    %sc = tt.scan %5 {axis = 0 : i32, reverse = true} : tensor<16x8xi32> -> tensor<16x8xi32> {
    ^bb0(%k: i32, %l: i32):
      %m = tt.mul %k, %l : i32
      tt.scan.return %m : i32
    }
    %43 = tt.zeros : tensor<16x8xf32>
    %44 = tt.full %f : f32 -> tensor<8x32xf32>
    %45 = tt.empty : tensor<32xi1>
    %46 = tt.zeros : tensor<16x32xf32>
    %47 = tt.dot %43, %44, %46 : tensor<16x8xf32> * tensor<8x32xf32> -> tensor<16x32xf32>
    %48 = tt.load %p : !tt.ptr<i32, 3>
    func.return
  }
}"""


def parse(text: str):
    return Parser(make_context(), text).parse_module()


def test_every_op_round_trips():
    module = parse(EVERY_OP)
    module.verify()
    assert str(module) == EVERY_OP


def test_generic_form_round_trips():
    from io import StringIO

    from xdsl.printer import Printer

    module = parse(
        "func.func @k(%x: !tt.ptr<f32>) {\n"
        "  %0 = tt.make_range {start = 0 : i32, end = 4 : i32} : tensor<4xi32>\n"
        "  %1 = tt.splat %x : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>\n"
        "  %2 = tt.addptr %1, %0 : tensor<4x!tt.ptr<f32>>, tensor<4xi32>\n"
        "  %3 = tt.cmp gt, %0, %0 : tensor<4xi32>\n"
        "  %4 = tt.load %2, %3 : tensor<4x!tt.ptr<f32>>\n"
        "  tt.store %2, %4, %3 : tensor<4x!tt.ptr<f32>>\n"
        "  func.return\n"
        "}"
    )
    out = StringIO()
    Printer(stream=out, print_generic_format=True).print_op(module)
    generic = out.getvalue()
    assert '"tt.load"' in generic and "operandSegmentSizes" in generic
    assert parse(generic).is_structurally_equivalent(module)


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("%1 = tt.load %x, %x, %x, %x : !tt.ptr<f32>", "expected 'tt.load %ptr[, %mask[, %other]]"),
        ("%1 = tt.load %n : i32", "expected 'tt.load %ptr[, %mask[, %other]]"),
        ("tt.store %x : !tt.ptr<f32>", "expected 'tt.store %ptr, %value[, %mask]"),
        ("%1 = tt.cmp foo, %n, %n : i32", "unknown predicate 'foo'"),
        ("%1 = tt.get_program_id w : i32", "w"),
        ("%1 = tt.reduce prod %n {axis = 0 : i32} : i32 -> i32", "prod"),  # no kind: a region
    ],
)
def test_malformed_text(body, message):
    text = f"func.func @k(%x: !tt.ptr<f32>, %n: i32) {{\n  {body}\n  func.return\n}}"
    with pytest.raises(ParseError) as info:
        parse(text)
    assert message in str(info.value)


def test_parsed_ir_is_verified_by_op_rules():
    text = (
        "func.func @k(%n: i32) {\n"
        "  %0 = tt.make_range {start = 0 : i32, end = 12 : i32} : tensor<12xi32>\n"
        "  func.return\n"
        "}"
    )
    module = parse(text)
    with pytest.raises(VerifyException, match="must be a power of two"):
        module.verify()


def test_pointer_type_syntax():
    from mytriton.dialects.tt.types import PointerType

    module = parse("func.func @k(%a: !tt.ptr<f32>, %b: !tt.ptr<i32, 3>) {\n  func.return\n}")
    a, b = module.body.block.ops.first.body.block.args
    assert a.type == PointerType(f32) and a.type.address_space.data == 1
    assert b.type == PointerType(i32, 3)
    assert "!tt.ptr<i32, 3>" in str(module) and "!tt.ptr<f32>" in str(module)
