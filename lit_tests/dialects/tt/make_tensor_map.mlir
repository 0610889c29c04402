// RUN: mytriton-opt %s | mytriton-opt | filecheck %s
// RUN: mytriton-opt %s --print-op-generic | mytriton-opt | filecheck %s

// The tensor map of a descriptor made in the kernel: the base, shape (i32) and strides (i64),
// outermost first; the pipeline's record of how copies read it (box, swizzle, span, slot).
func.func @maps(%b: !tt.ptr<f16>, %r: i32, %c: i32, %s: i64) {
  %one = arith.constant 1 : i64
  %m = tt.make_tensor_map %b, [%r, %c], [%s, %one] : !tt.ptr<f16>
  %n = tt.make_tensor_map %b, [%r, %c], [%s, %one] {box = array<i64: 8, 64>, swizzle = 128 : i64, span = 8 : i64, slot = 1 : i64} : !tt.ptr<f16>
  func.return
}
// CHECK-LABEL: func.func @maps
// CHECK: %m = tt.make_tensor_map %b, [%r, %c], [%s, %one] : !tt.ptr<f16>
// CHECK: %n = tt.make_tensor_map %b, [%r, %c], [%s, %one] {box = array<i64: 8, 64>, swizzle = 128 : i64, span = 8 : i64, slot = 1 : i64} : !tt.ptr<f16>
