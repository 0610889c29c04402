// RUN: mytriton-opt %s | filecheck %s
// RUN: mytriton-opt %s | mytriton-opt | filecheck %s

// tt.int_to_ptr / tt.ptr_to_int, Triton's syntax: a 64-bit address (i64 or ui64) and a global
// pointer, scalars or blocks of one shape.
func.func @casts(%t: !tt.ptr<i64>, %p: !tt.ptr<f32>, %u: ui64, %a: tensor<4xi64>) {
  %addr = tt.load %t : !tt.ptr<i64>
  %q = tt.int_to_ptr %addr : i64 -> !tt.ptr<f16>
  %r = tt.int_to_ptr %u : ui64 -> !tt.ptr<i8>
  %qs = tt.int_to_ptr %a : tensor<4xi64> -> tensor<4x!tt.ptr<f32>>
  %i = tt.ptr_to_int %p : !tt.ptr<f32> -> i64
  %is = tt.ptr_to_int %qs : tensor<4x!tt.ptr<f32>> -> tensor<4xi64>
  func.return
}
// CHECK:      %q = tt.int_to_ptr %addr : i64 -> !tt.ptr<f16>
// CHECK-NEXT: %r = tt.int_to_ptr %u : ui64 -> !tt.ptr<i8>
// CHECK-NEXT: %qs = tt.int_to_ptr %a : tensor<4xi64> -> tensor<4x!tt.ptr<f32>>
// CHECK-NEXT: %i = tt.ptr_to_int %p : !tt.ptr<f32> -> i64
// CHECK-NEXT: %is = tt.ptr_to_int %qs : tensor<4x!tt.ptr<f32>> -> tensor<4xi64>
