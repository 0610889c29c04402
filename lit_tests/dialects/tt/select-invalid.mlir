// RUN: mytriton-opt %s --split-input-file --parsing-diagnostics --verify-diagnostics | filecheck %s

func.func @condition_shape(%m: i1, %a: tensor<16xf32>) {
  %r = "tt.select"(%m, %a, %a) : (i1, tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  func.return
}
// CHECK: Operation does not verify: tt.select: condition must be tensor<16xi1>, got i1

// -----

func.func @condition_not_bool(%m: tensor<16xi32>, %a: tensor<16xf32>) {
  %r = "tt.select"(%m, %a, %a) : (tensor<16xi32>, tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  func.return
}
// CHECK: Operation does not verify: tt.select: condition must be tensor<16xi1>, got tensor<16xi32>

// -----

func.func @operand_types_differ(%m: i1, %a: f32, %b: f16) {
  %r = "tt.select"(%m, %a, %b) : (i1, f32, f16) -> f32
  func.return
}
// CHECK: Operation does not verify: operand 'rhs' at position 2 does not verify:
// CHECK-NEXT: attribute f32 expected from variable 'T', but got f16
