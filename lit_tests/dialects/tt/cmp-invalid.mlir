// RUN: mytriton-opt %s --split-input-file --parsing-diagnostics --verify-diagnostics | filecheck %s

func.func @result_not_bool(%a: tensor<16xi32>) {
  %r = "tt.cmp"(%a, %a) <{predicate = #tt<cmp_predicate lt>}> : (tensor<16xi32>, tensor<16xi32>) -> tensor<16xi32>
  func.return
}
// CHECK: Operation does not verify: tt.cmp: result type must be tensor<16xi1>

// -----

func.func @result_shape(%a: tensor<16xi32>) {
  %r = "tt.cmp"(%a, %a) <{predicate = #tt<cmp_predicate lt>}> : (tensor<16xi32>, tensor<16xi32>) -> i1
  func.return
}
// CHECK: Operation does not verify: tt.cmp: result type must be tensor<16xi1>

// -----

func.func @operand_types_differ(%a: i32, %b: f32) {
  %r = "tt.cmp"(%a, %b) <{predicate = #tt<cmp_predicate eq>}> : (i32, f32) -> i1
  func.return
}
// CHECK: Operation does not verify: operand 'rhs' at position 1 does not verify:
// CHECK-NEXT: attribute i32 expected from variable 'T', but got f32

// -----

func.func @unknown_predicate(%a: i32) {
  %r = tt.cmp ult, %a, %a : i32
  func.return
}
// CHECK: unknown predicate 'ult', expected lt, le, gt, ge, eq or ne

// -----

func.func @index_operands(%a: index) {
  %r = tt.cmp lt, %a, %a : index
  func.return
}
// CHECK: Operation does not verify: tt.cmp: cannot compare values of type index
