// RUN: mytriton-opt %s --split-input-file --parsing-diagnostics --verify-diagnostics | filecheck %s

func.func @not_a_pointer(%x: tensor<16xi32>, %v: tensor<16xi32>) {
  "tt.store"(%x, %v) : (tensor<16xi32>, tensor<16xi32>) -> ()
  func.return
}
// CHECK: Operation does not verify: tt.store: expected pointer(s), got tensor<16xi32>

// -----

func.func @value_type(%p: tensor<16x!tt.ptr<f32>>, %v: tensor<16xf16>) {
  "tt.store"(%p, %v) : (tensor<16x!tt.ptr<f32>>, tensor<16xf16>) -> ()
  func.return
}
// CHECK: Operation does not verify: tt.store: stored value must be tensor<16xf32>, got tensor<16xf16>

// -----

func.func @value_shape(%p: tensor<16x!tt.ptr<f32>>, %v: f32) {
  "tt.store"(%p, %v) : (tensor<16x!tt.ptr<f32>>, f32) -> ()
  func.return
}
// CHECK: Operation does not verify: tt.store: stored value must be tensor<16xf32>, got f32

// -----

func.func @mask_shape(%p: tensor<16x!tt.ptr<f32>>, %v: tensor<16xf32>, %m: i1) {
  "tt.store"(%p, %v, %m) : (tensor<16x!tt.ptr<f32>>, tensor<16xf32>, i1) -> ()
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
