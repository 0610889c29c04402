// RUN: mytriton-opt %s --split-input-file --parsing-diagnostics --verify-diagnostics | filecheck %s

func.func @narrow_address(%x: i32) {
  %p = tt.int_to_ptr %x : i32 -> !tt.ptr<f32>
  func.return
}
// CHECK: Operation does not verify: tt.int_to_ptr: converts a 64-bit integer to a global pointer, not i32 to !tt.ptr<f32>

// -----

func.func @signed_address(%x: si64) {
  %p = tt.int_to_ptr %x : si64 -> !tt.ptr<f32>
  func.return
}
// CHECK: Operation does not verify: tt.int_to_ptr: converts a 64-bit integer to a global pointer, not si64 to !tt.ptr<f32>

// -----

func.func @shared_pointer(%x: i64) {
  %p = tt.int_to_ptr %x : i64 -> !tt.ptr<f32, 3>
  func.return
}
// CHECK: Operation does not verify: tt.int_to_ptr: converts a 64-bit integer to a global pointer, not i64 to !tt.ptr<f32, 3>

// -----

func.func @shapes(%x: tensor<4xi64>) {
  %p = tt.int_to_ptr %x : tensor<4xi64> -> tensor<8x!tt.ptr<f32>>
  func.return
}
// CHECK: Operation does not verify: tt.int_to_ptr: operand and result shapes differ

// -----

func.func @to_i32(%p: !tt.ptr<f32>) {
  %x = tt.ptr_to_int %p : !tt.ptr<f32> -> i32
  func.return
}
// CHECK: Operation does not verify: tt.ptr_to_int: converts a global pointer to i64, not !tt.ptr<f32> to i32

// -----

func.func @to_unsigned(%p: !tt.ptr<f32>) {
  %x = tt.ptr_to_int %p : !tt.ptr<f32> -> ui64
  func.return
}
// CHECK: Operation does not verify: tt.ptr_to_int: converts a global pointer to i64, not !tt.ptr<f32> to ui64
