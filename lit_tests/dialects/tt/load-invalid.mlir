// RUN: mytriton-opt %s --split-input-file --parsing-diagnostics --verify-diagnostics | filecheck %s

func.func @not_a_pointer(%x: tensor<16xf32>) {
  %r = "tt.load"(%x) <{operandSegmentSizes = array<i32: 1, 0, 0, 0, 0>}> : (tensor<16xf32>) -> tensor<16xf32>
  func.return
}
// CHECK: Operation does not verify: tt.load: expected pointer(s), got tensor<16xf32>

// -----

func.func @wrong_result(%p: tensor<16x!tt.ptr<f32>>) {
  %r = "tt.load"(%p) <{operandSegmentSizes = array<i32: 1, 0, 0, 0, 0>}> : (tensor<16x!tt.ptr<f32>>) -> tensor<16xf16>
  func.return
}
// CHECK: Operation does not verify: tt.load: result type must be tensor<16xf32>

// -----

func.func @mask_shape(%p: tensor<16x!tt.ptr<f32>>, %m: tensor<32xi1>) {
  %r = "tt.load"(%p, %m) <{operandSegmentSizes = array<i32: 1, 1, 0, 0, 0>}> : (tensor<16x!tt.ptr<f32>>, tensor<32xi1>) -> tensor<16xf32>
  func.return
}
// CHECK: Operation does not verify: tt.load: mask must be tensor<16xi1> to match the pointers, got tensor<32xi1>

// -----

func.func @mask_not_bool(%p: tensor<16x!tt.ptr<f32>>, %m: tensor<16xi32>) {
  %r = "tt.load"(%p, %m) <{operandSegmentSizes = array<i32: 1, 1, 0, 0, 0>}> : (tensor<16x!tt.ptr<f32>>, tensor<16xi32>) -> tensor<16xf32>
  func.return
}
// CHECK: Operation does not verify: tt.load: mask must be tensor<16xi1> to match the pointers, got tensor<16xi32>

// -----

func.func @other_without_mask(%p: tensor<16x!tt.ptr<f32>>, %o: tensor<16xf32>) {
  %r = "tt.load"(%p, %o) <{operandSegmentSizes = array<i32: 1, 0, 1, 0, 0>}> : (tensor<16x!tt.ptr<f32>>, tensor<16xf32>) -> tensor<16xf32>
  func.return
}
// CHECK: Operation does not verify: tt.load: 'other' requires a mask

// -----

func.func @other_type(%p: tensor<16x!tt.ptr<f32>>, %m: tensor<16xi1>, %o: tensor<16xf16>) {
  %r = "tt.load"(%p, %m, %o) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>}> : (tensor<16x!tt.ptr<f32>>, tensor<16xi1>, tensor<16xf16>) -> tensor<16xf32>
  func.return
}
// CHECK: Operation does not verify: tt.load: 'other' must be tensor<16xf32>, got tensor<16xf16>

// -----

// The custom syntax names the pointer type; anything else is rejected while parsing.
func.func @custom_not_pointer(%x: tensor<16xf32>) {
  %r = tt.load %x : tensor<16xf32>
  func.return
}
// CHECK: %r = tt.load %x : tensor<16xf32>
// CHECK: expected 'tt.load %ptr[, %mask[, %other]] : <pointer type>'

// -----

func.func @custom_too_many(%p: !tt.ptr<f32>, %c: i1, %d: f32) {
  %r = tt.load %p, %c, %d, %d : !tt.ptr<f32>
  func.return
}
// CHECK: %r = tt.load %p, %c, %d, %d : !tt.ptr<f32>
// CHECK: expected 'tt.load %ptr[, %mask[, %other]] : <pointer type>'

// -----

func.func @coordinates_without_a_map(%p: tensor<16x!tt.ptr<f32>>, %c: i32) {
  %r = "tt.load"(%p, %c) <{operandSegmentSizes = array<i32: 1, 0, 0, 0, 1>}> : (tensor<16x!tt.ptr<f32>>, i32) -> tensor<16xf32>
  func.return
}
// CHECK: tt.load: coordinates need a tensor map

// -----

func.func @a_coordinate_per_dimension(%p: tensor<16x16x!tt.ptr<f32>>, %map: !tt.ptr<i8>, %c: i32) {
  %r = tt.load %p tensor_map %map[%c] : tensor<16x16x!tt.ptr<f32>>
  func.return
}
// CHECK: tt.load: a 2-d block needs as many coordinates
