// RUN: mytriton-opt %s --split-input-file --parsing-diagnostics --verify-diagnostics | filecheck %s

func.func @strides(%b: !tt.ptr<f16>, %r: i32, %c: i32, %s: i64) {
  %m = tt.make_tensor_map %b, [%r, %c], [%s] : !tt.ptr<f16>
  func.return
}
// CHECK: tt.make_tensor_map: 2 dims need 2 strides, not 1

// -----

func.func @rank(%b: !tt.ptr<f16>, %r: i32, %s: i64) {
  %m = tt.make_tensor_map %b, [%r, %r, %r, %r, %r, %r], [%s, %s, %s, %s, %s, %s] : !tt.ptr<f16>
  func.return
}
// CHECK: tt.make_tensor_map: a tensor has 1 to 5 dims, not 6

// -----

func.func @partial_record(%b: !tt.ptr<f16>, %r: i32, %s: i64) {
  %m = tt.make_tensor_map %b, [%r, %r], [%s, %s] {box = array<i64: 8, 64>} : !tt.ptr<f16>
  func.return
}
// CHECK: tt.make_tensor_map: box, swizzle, span and slot go together

// -----

func.func @box(%b: !tt.ptr<f16>, %r: i32, %s: i64) {
  %m = tt.make_tensor_map %b, [%r, %r], [%s, %s] {box = array<i64: 8, 512>, swizzle = 128 : i64, span = 0 : i64, slot = 0 : i64} : !tt.ptr<f16>
  func.return
}
// CHECK: tt.make_tensor_map: the box needs 2 dims of 1 to 256, not [8, 512]

// -----

func.func @swizzle(%b: !tt.ptr<f16>, %r: i32, %s: i64) {
  %m = tt.make_tensor_map %b, [%r, %r], [%s, %s] {box = array<i64: 8, 64>, swizzle = 16 : i64, span = 0 : i64, slot = 0 : i64} : !tt.ptr<f16>
  func.return
}
// CHECK: tt.make_tensor_map: the swizzle must be one of (0, 32, 64, 128) bytes

// -----

func.func @span_of_3d(%b: !tt.ptr<f16>, %r: i32, %s: i64) {
  %m = tt.make_tensor_map %b, [%r, %r, %r], [%s, %s, %s] {box = array<i64: 1, 8, 64>, swizzle = 128 : i64, span = 8 : i64, slot = 0 : i64} : !tt.ptr<f16>
  func.return
}
// CHECK: tt.make_tensor_map: only a 2-d map has a span map, not 3-d

// -----

func.func @pointer_of_pointers(%b: !tt.ptr<!tt.ptr<f16>>, %r: i32, %s: i64) {
  %m = tt.make_tensor_map %b, [%r, %r], [%s, %s] : !tt.ptr<!tt.ptr<f16>>
  func.return
}
// CHECK: tt.make_tensor_map: the base must point to scalars, not !tt.ptr<!tt.ptr<f16>>

// -----

func.func @negative_slot(%b: !tt.ptr<f16>, %r: i32, %s: i64) {
  %m = tt.make_tensor_map %b, [%r, %r], [%s, %s] {box = array<i64: 8, 64>, swizzle = 128 : i64, span = 0 : i64, slot = -1 : i64} : !tt.ptr<f16>
  func.return
}
// CHECK: tt.make_tensor_map: span and slot must not be negative
