// RUN: mytriton-opt %s --split-input-file --parsing-diagnostics --verify-diagnostics | filecheck %s

func.func @axis_out_of_range(%a: tensor<16xf32>) {
  %r = tt.expand_dims %a {axis = 2 : i32} : tensor<16xf32> -> tensor<16x1xf32>
  func.return
}
// CHECK: Operation does not verify: tt.expand_dims: axis 2 out of range for a rank-1 block

// -----

func.func @negative_axis(%a: tensor<16xf32>) {
  %r = tt.expand_dims %a {axis = -1 : i32} : tensor<16xf32> -> tensor<16x1xf32>
  func.return
}
// CHECK: Operation does not verify: tt.expand_dims: axis -1 out of range for a rank-1 block

// -----

func.func @wrong_shape(%a: tensor<16xf32>) {
  %r = tt.expand_dims %a {axis = 0 : i32} : tensor<16xf32> -> tensor<16x1xf32>
  func.return
}
// CHECK: Operation does not verify: tt.expand_dims: result shape must be [1, 16]

// -----

func.func @element_type_differs(%a: tensor<16xf32>) {
  %r = tt.expand_dims %a {axis = 0 : i32} : tensor<16xf32> -> tensor<1x16xi32>
  func.return
}
// CHECK: Operation does not verify: tt.expand_dims: operand and result element types differ

// -----

func.func @missing_axis(%a: tensor<16xf32>) {
  %r = tt.expand_dims %a : tensor<16xf32> -> tensor<1x16xf32>
  func.return
}
// CHECK: Operation does not verify: property 'axis' expected in operation 'tt.expand_dims'
