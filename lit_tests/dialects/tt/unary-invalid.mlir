// RUN: mytriton-opt %s --split-input-file --parsing-diagnostics --verify-diagnostics | filecheck %s

// Math functions need floats (the frontend casts integers first).
func.func @exp_int(%x: i32) {
  %r = tt.exp %x : i32
  func.return
}
// CHECK: Operation does not verify: tt.exp: operand must be a float, got i32

// -----

func.func @sqrt_int_block(%x: tensor<16xi32>) {
  %r = tt.sqrt %x : tensor<16xi32>
  func.return
}
// CHECK: Operation does not verify: tt.sqrt: operand must be a float, got tensor<16xi32>

// -----

func.func @floor_bool(%x: i1) {
  %r = tt.floor %x : i1
  func.return
}
// CHECK: Operation does not verify: tt.floor: operand must be a float, got i1

// -----

// neg and abs take numbers, not booleans or pointers.
func.func @neg_bool(%x: tensor<16xi1>) {
  %r = tt.neg %x : tensor<16xi1>
  func.return
}
// CHECK: Operation does not verify: tt.neg: operand must be an integer or a float, got tensor<16xi1>

// -----

func.func @abs_pointer(%x: !tt.ptr<f32>) {
  %r = tt.abs %x : !tt.ptr<f32>
  func.return
}
// CHECK: Operation does not verify: tt.abs: operand must be an integer or a float, got !tt.ptr<f32>

// -----

// The result has the operand's type.
func.func @result_type(%x: f32) {
  %r = "tt.sin"(%x) : (f32) -> f16
  func.return
}
// CHECK: Operation does not verify: result 'result' at position 0 does not verify:
// CHECK-NEXT: attribute f32 expected from variable 'T', but got f16
