// RUN: mytriton-opt %s --split-input-file --parsing-diagnostics --verify-diagnostics | filecheck %s

func.func @axis_out_of_range(%a: tensor<16x32xf32>) {
  %r = tt.reduce sum %a {axis = 2 : i32} : tensor<16x32xf32> -> tensor<16xf32>
  func.return
}
// CHECK: Operation does not verify: tt.reduce: axis 2 out of range for a rank-2 block

// -----

func.func @negative_axis(%a: tensor<16xf32>) {
  %r = tt.reduce sum %a {axis = -1 : i32} : tensor<16xf32> -> f32
  func.return
}
// CHECK: Operation does not verify: tt.reduce: axis -1 out of range for a rank-1 block

// -----

func.func @wrong_result(%a: tensor<16x32xf32>) {
  %r = tt.reduce max %a {axis = 0 : i32} : tensor<16x32xf32> -> tensor<16xf32>
  func.return
}
// CHECK: Operation does not verify: tt.reduce: result type must be tensor<32xf32>

// -----

func.func @rank1_gives_scalar(%a: tensor<16xf32>) {
  %r = tt.reduce sum %a {axis = 0 : i32} : tensor<16xf32> -> tensor<1xf32>
  func.return
}
// CHECK: Operation does not verify: tt.reduce: result type must be f32

// -----

func.func @booleans(%a: tensor<16xi1>) {
  %r = tt.reduce sum %a {axis = 0 : i32} : tensor<16xi1> -> i1
  func.return
}
// CHECK: Operation does not verify: tt.reduce: operand must hold integers or floats, got tensor<16xi1>

// -----

func.func @pointers(%a: tensor<16x!tt.ptr<f32>>) {
  %r = tt.reduce max %a {axis = 0 : i32} : tensor<16x!tt.ptr<f32>> -> !tt.ptr<f32>
  func.return
}
// CHECK: Operation does not verify: tt.reduce: operand must hold integers or floats, got tensor<16x!tt.ptr<f32>>

// -----

func.func @scalar_operand(%a: f32) {
  %r = "tt.reduce"(%a) <{kind = #tt<reduce_kind sum>, axis = 0 : i32}> : (f32) -> f32
  func.return
}
// CHECK: Operation does not verify: operand 'src' at position 0 does not verify:
// CHECK-NEXT: f32 should be of base attribute tensor

// -----

func.func @unknown_kind(%a: tensor<16xf32>) {
  %r = tt.reduce prod %a {axis = 0 : i32} : tensor<16xf32> -> f32
  func.return
}
// CHECK: Expected `sum`, `max`, or `min`.
