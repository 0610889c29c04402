// RUN: mytriton-opt %s --split-input-file --parsing-diagnostics --verify-diagnostics | filecheck %s

func.func @not_a_pointer(%x: i32, %i: i32) {
  %r = tt.addptr %x, %i : i32, i32
  func.return
}
// CHECK: Operation does not verify: tt.addptr: expected pointer(s), got i32

// -----

func.func @float_offset(%p: !tt.ptr<f32>, %f: f32) {
  %r = tt.addptr %p, %f : !tt.ptr<f32>, f32
  func.return
}
// CHECK: Operation does not verify: tt.addptr: offset must be an integer, got f32

// -----

func.func @bool_offset(%p: !tt.ptr<f32>, %b: i1) {
  %r = tt.addptr %p, %b : !tt.ptr<f32>, i1
  func.return
}
// CHECK: Operation does not verify: tt.addptr: offset must be an integer, got i1

// -----

func.func @shape_mismatch(%p: tensor<16x!tt.ptr<f32>>, %o: tensor<32xi32>) {
  %r = tt.addptr %p, %o : tensor<16x!tt.ptr<f32>>, tensor<32xi32>
  func.return
}
// CHECK: Operation does not verify: tt.addptr: offset shape [32] differs from pointer shape [16]

// -----

func.func @scalar_ptr_block_offset(%p: !tt.ptr<f32>, %o: tensor<16xi32>) {
  %r = tt.addptr %p, %o : !tt.ptr<f32>, tensor<16xi32>
  func.return
}
// CHECK: Operation does not verify: tt.addptr: offset shape [16] differs from pointer shape []

// -----

func.func @result_type_differs(%p: !tt.ptr<f32>, %i: i32) {
  %r = "tt.addptr"(%p, %i) : (!tt.ptr<f32>, i32) -> !tt.ptr<f16>
  func.return
}
// CHECK: Operation does not verify: result 'result' at position 0 does not verify:
// CHECK-NEXT: attribute !tt.ptr<f32> expected from variable 'T', but got !tt.ptr<f16>
