// RUN: mytriton-opt %s | mytriton-opt | filecheck %s
// RUN: mytriton-opt %s --print-op-generic | mytriton-opt | filecheck %s
// RUN: mytriton-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// tt.reduce and tt.scan carry a combine region, as Triton's: 2N scalar arguments (the values
// combined so far, then the next ones) and a terminator returning N scalars.

func.func @reductions(%a: tensor<16x32xf32>, %b: tensor<64xi32>, %c: tensor<2x4x8xf16>) {
  %s0 = tt.reduce %a {axis = 0 : i32} : tensor<16x32xf32> -> tensor<32xf32> {
  ^bb0(%x: f32, %y: f32):
    %r = tt.add %x, %y : f32
    tt.reduce.return %r : f32
  }
  %s1 = tt.reduce %b {axis = 0 : i32} : tensor<64xi32> -> i32 {
  ^bb0(%x1: i32, %y1: i32):
    %r1 = tt.maximum %x1, %y1 : i32
    tt.reduce.return %r1 : i32
  }
  %s2 = tt.reduce %c {axis = 2 : i32} : tensor<2x4x8xf16> -> tensor<2x4xf16> {
  ^bb0(%x2: f16, %y2: f16):
    %r2 = tt.mul %x2, %y2 : f16
    tt.reduce.return %r2 : f16
  }
  func.return
}
// CHECK-LABEL: func.func @reductions(
// CHECK-NEXT:    %s0 = tt.reduce %a {axis = 0 : i32} : tensor<16x32xf32> -> tensor<32xf32> {
// CHECK-NEXT:    ^bb0(%x: f32, %y: f32):
// CHECK-NEXT:      %r = tt.add %x, %y : f32
// CHECK-NEXT:      tt.reduce.return %r : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    %s1 = tt.reduce %b {axis = 0 : i32} : tensor<64xi32> -> i32 {
// CHECK:           tt.maximum
// CHECK:         %s2 = tt.reduce %c {axis = 2 : i32} : tensor<2x4x8xf16> -> tensor<2x4xf16> {
// CHECK:         func.return

// GENERIC:      %s0 = "tt.reduce"(%a) <{axis = 0 : i32}> ({
// GENERIC-NEXT: ^bb0(%x: f32, %y: f32):
// GENERIC-NEXT:   %r = "tt.add"(%x, %y) : (f32, f32) -> f32
// GENERIC-NEXT:   "tt.reduce.return"(%r) : (f32) -> ()
// GENERIC-NEXT: }) : (tensor<16x32xf32>) -> tensor<32xf32>

// A tuple reduction: argmax over (value, index) pairs, the first index of the largest value.
func.func @argmax(%v: tensor<8x64xf32>, %i: tensor<8x64xi32>) {
  %m, %k = tt.reduce %v, %i {axis = 1 : i32} : tensor<8x64xf32>, tensor<8x64xi32> -> tensor<8xf32>, tensor<8xi32> {
  ^bb0(%v1: f32, %i1: i32, %v2: f32, %i2: i32):
    %gt = tt.cmp gt, %v1, %v2 : f32
    %eq = tt.cmp eq, %v1, %v2 : f32
    %lt = tt.cmp lt, %i1, %i2 : i32
    %tie = tt.and %eq, %lt : i1
    %pick = tt.or %gt, %tie : i1
    %vr = tt.select %pick, %v1, %v2 : f32
    %ir = tt.select %pick, %i1, %i2 : i32
    tt.reduce.return %vr, %ir : f32, i32
  }
  func.return
}
// CHECK-LABEL: func.func @argmax(
// CHECK-NEXT:    %m, %k = tt.reduce %v, %i {axis = 1 : i32} : tensor<8x64xf32>, tensor<8x64xi32> -> tensor<8xf32>, tensor<8xi32> {
// CHECK-NEXT:    ^bb0(%v1: f32, %i1: i32, %v2: f32, %i2: i32):
// CHECK:           tt.reduce.return %vr, %ir : f32, i32
// CHECK-NEXT:    }

// GENERIC: %m, %k = "tt.reduce"(%v, %i) <{axis = 1 : i32}> ({
// GENERIC: }) : (tensor<8x64xf32>, tensor<8x64xi32>) -> (tensor<8xf32>, tensor<8xi32>)

// tt.scan keeps the shape; `reverse` scans from the last element.
func.func @scans(%a: tensor<4x16xi32>) {
  %f = tt.scan %a {axis = 1 : i32, reverse = false} : tensor<4x16xi32> -> tensor<4x16xi32> {
  ^bb0(%x: i32, %y: i32):
    %r = tt.add %x, %y : i32
    tt.scan.return %r : i32
  }
  %b = tt.scan %a {axis = 0 : i32, reverse = true} : tensor<4x16xi32> -> tensor<4x16xi32> {
  ^bb0(%x3: i32, %y3: i32):
    %r3 = tt.mul %x3, %y3 : i32
    tt.scan.return %r3 : i32
  }
  func.return
}
// CHECK-LABEL: func.func @scans(
// CHECK-NEXT:    %f = tt.scan %a {axis = 1 : i32, reverse = false} : tensor<4x16xi32> -> tensor<4x16xi32> {
// CHECK-NEXT:    ^bb0(%x: i32, %y: i32):
// CHECK-NEXT:      %r = tt.add %x, %y : i32
// CHECK-NEXT:      tt.scan.return %r : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    %b = tt.scan %a {axis = 0 : i32, reverse = true} : tensor<4x16xi32> -> tensor<4x16xi32> {

// GENERIC: %f = "tt.scan"(%a) <{axis = 1 : i32, reverse = false}> ({
// GENERIC: %b = "tt.scan"(%a) <{axis = 0 : i32, reverse = true}> ({
