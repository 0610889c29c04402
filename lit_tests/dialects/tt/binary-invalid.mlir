// RUN: mytriton-opt %s --split-input-file --parsing-diagnostics --verify-diagnostics | filecheck %s

// Arithmetic needs numbers: not booleans...
func.func @add_bool(%a: i1, %b: i1) {
  %r = tt.add %a, %b : i1
  func.return
}
// CHECK: Operation does not verify: tt.add: operands must be integers or floats, got i1

// -----

// ... and not pointers (pointer arithmetic is tt.addptr).
func.func @add_pointers(%a: !tt.ptr<f32>) {
  %r = tt.add %a, %a : !tt.ptr<f32>
  func.return
}
// CHECK: Operation does not verify: tt.add: operands must be integers or floats, got !tt.ptr<f32>

// -----


// Bitwise ops need integers or booleans.
func.func @and_float(%a: f32, %b: f32) {
  %r = tt.and %a, %b : f32
  func.return
}
// CHECK: Operation does not verify: tt.and: operands must be integers or booleans, got f32

// -----

func.func @xor_float_block(%a: tensor<16xf16>) {
  %r = tt.xor %a, %a : tensor<16xf16>
  func.return
}
// CHECK: Operation does not verify: tt.xor: operands must be integers or booleans, got tensor<16xf16>

// -----

// Both operands and the result have one type (the frontend inserts casts and splats).
func.func @mixed_types(%a: i32, %b: i64) {
  %r = "tt.mul"(%a, %b) : (i32, i64) -> i32
  func.return
}
// CHECK: Operation does not verify: operand 'rhs' at position 1 does not verify:
// CHECK-NEXT: attribute i32 expected from variable 'T', but got i64

// -----

func.func @scalar_and_block(%a: f32, %b: tensor<16xf32>) {
  %r = "tt.sub"(%a, %b) : (f32, tensor<16xf32>) -> tensor<16xf32>
  func.return
}
// CHECK: Operation does not verify: operand 'rhs' at position 1 does not verify:
// CHECK-NEXT: attribute f32 expected from variable 'T', but got tensor<16xf32>
