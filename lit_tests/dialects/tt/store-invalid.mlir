// RUN: mytriton-opt %s --split-input-file --parsing-diagnostics --verify-diagnostics | filecheck %s

func.func @not_a_pointer(%x: tensor<16xi32>, %v: tensor<16xi32>) {
  "tt.store"(%x, %v) <{operandSegmentSizes = array<i32: 1, 1, 0, 0, 0>}> : (tensor<16xi32>, tensor<16xi32>) -> ()
  func.return
}
// CHECK: Operation does not verify: tt.store: expected pointer(s), got tensor<16xi32>

// -----

func.func @value_type(%p: tensor<16x!tt.ptr<f32>>, %v: tensor<16xf16>) {
  "tt.store"(%p, %v) <{operandSegmentSizes = array<i32: 1, 1, 0, 0, 0>}> : (tensor<16x!tt.ptr<f32>>, tensor<16xf16>) -> ()
  func.return
}
// CHECK: Operation does not verify: tt.store: stored value must be tensor<16xf32>, got tensor<16xf16>

// -----

func.func @value_shape(%p: tensor<16x!tt.ptr<f32>>, %v: f32) {
  "tt.store"(%p, %v) <{operandSegmentSizes = array<i32: 1, 1, 0, 0, 0>}> : (tensor<16x!tt.ptr<f32>>, f32) -> ()
  func.return
}
// CHECK: Operation does not verify: tt.store: stored value must be tensor<16xf32>, got f32

// -----

func.func @mask_shape(%p: tensor<16x!tt.ptr<f32>>, %v: tensor<16xf32>, %m: i1) {
  "tt.store"(%p, %v, %m) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>}> : (tensor<16x!tt.ptr<f32>>, tensor<16xf32>, i1) -> ()
  func.return
}
// CHECK: Operation does not verify: tt.store: mask must be tensor<16xi1> to match the pointers, got i1

// -----

func.func @custom_missing_value(%p: !tt.ptr<f32>) {
  tt.store %p : !tt.ptr<f32>
  func.return
}
// CHECK: tt.store %p : !tt.ptr<f32>
// CHECK: expected 'tt.store %ptr, %value[, %mask] : <pointer type>'

// -----

func.func @coordinates_without_a_map(%p: tensor<16x!tt.ptr<f32>>, %v: tensor<16xf32>, %c: i32) {
  "tt.store"(%p, %v, %c) <{operandSegmentSizes = array<i32: 1, 1, 0, 0, 1>}> : (tensor<16x!tt.ptr<f32>>, tensor<16xf32>, i32) -> ()
  func.return
}
// CHECK: tt.store: coordinates need a tensor map

// -----

func.func @a_coordinate_per_dimension(%p: tensor<16x16x!tt.ptr<f32>>, %v: tensor<16x16xf32>, %map: !tt.ptr<i8>, %c: i32) {
  tt.store %p, %v tensor_map %map[%c] : tensor<16x16x!tt.ptr<f32>>
  func.return
}
// CHECK: tt.store: a 2-d block needs as many coordinates
