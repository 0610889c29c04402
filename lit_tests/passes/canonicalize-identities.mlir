// RUN: mytriton-opt %s -p canonicalize | filecheck %s

// Algebraic identities with a constant operand (scalar or splat) return the other operand.

func.func @int_identities(%x: tensor<16xi32>) -> (tensor<16xi32>, tensor<16xi32>, tensor<16xi32>, tensor<16xi32>, tensor<16xi32>, tensor<16xi32>, tensor<16xi32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %z = tt.splat %c0 : i32 -> tensor<16xi32>
  %o = tt.splat %c1 : i32 -> tensor<16xi32>
  %a = tt.add %x, %z : tensor<16xi32>
  %b = tt.add %z, %x : tensor<16xi32>
  %c = tt.sub %x, %z : tensor<16xi32>
  %d = tt.mul %o, %x : tensor<16xi32>
  %e = tt.div %x, %o : tensor<16xi32>
  %f = tt.or %x, %z : tensor<16xi32>
  %g = tt.xor %x, %z : tensor<16xi32>
  func.return %a, %b, %c, %d, %e, %f, %g : tensor<16xi32>, tensor<16xi32>, tensor<16xi32>, tensor<16xi32>, tensor<16xi32>, tensor<16xi32>, tensor<16xi32>
}
// CHECK-LABEL: func.func @int_identities(%x: tensor<16xi32>)
// CHECK-NEXT:    func.return %x, %x, %x, %x, %x, %x, %x :

func.func @zeros_op_is_zero(%x: tensor<4x4xi32>) -> tensor<4x4xi32> {
  %z = tt.zeros : tensor<4x4xi32>
  %a = tt.add %x, %z : tensor<4x4xi32>
  func.return %a : tensor<4x4xi32>
}
// CHECK-LABEL: func.func @zeros_op_is_zero(%x: tensor<4x4xi32>)
// CHECK-NEXT:    func.return %x : tensor<4x4xi32>

func.func @same_operands(%x: tensor<16xi32>, %f: tensor<16xf32>) -> (tensor<16xi32>, tensor<16xi32>, tensor<16xf32>, tensor<16xf32>) {
  %a = tt.and %x, %x : tensor<16xi32>
  %b = tt.or %x, %x : tensor<16xi32>
  %c = tt.maximum %f, %f : tensor<16xf32>
  %d = tt.minimum %f, %f : tensor<16xf32>
  func.return %a, %b, %c, %d : tensor<16xi32>, tensor<16xi32>, tensor<16xf32>, tensor<16xf32>
}
// CHECK-LABEL: func.func @same_operands(%x: tensor<16xi32>, %f: tensor<16xf32>)
// CHECK-NEXT:    func.return %x, %x, %f, %f :

func.func @bool_and_true(%m: tensor<16xi1>) -> tensor<16xi1> {
  %t = arith.constant true
  %st = tt.splat %t : i1 -> tensor<16xi1>
  %a = tt.and %st, %m : tensor<16xi1>
  func.return %a : tensor<16xi1>
}
// CHECK-LABEL: func.func @bool_and_true(%m: tensor<16xi1>)
// CHECK-NEXT:    func.return %m : tensor<16xi1>

// x * 1.0 and x / 1.0 are exact for floats.
func.func @float_mul_one(%f: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %c1 = arith.constant 1.0 : f32
  %o = tt.splat %c1 : f32 -> tensor<16xf32>
  %a = tt.mul %f, %o : tensor<16xf32>
  %b = tt.div %f, %o : tensor<16xf32>
  func.return %a, %b : tensor<16xf32>, tensor<16xf32>
}
// CHECK-LABEL: func.func @float_mul_one(%f: tensor<16xf32>)
// CHECK-NEXT:    func.return %f, %f :

// Not identities: -0.0 + 0.0 is +0.0, so float x + 0 stays; x - y and x & 1 (i32) stay.
func.func @not_identities(%f: f32, %x: i32, %y: i32) -> (f32, i32, i32) {
  %z = arith.constant 0.0 : f32
  %one = arith.constant 1 : i32
  %a = tt.add %f, %z : f32
  %b = tt.sub %x, %y : i32
  %c = tt.and %x, %one : i32
  func.return %a, %b, %c : f32, i32, i32
}
// CHECK-LABEL: func.func @not_identities(%f: f32, %x: i32, %y: i32)
// CHECK:         %[[A:.*]] = tt.add %f, %{{.*}} : f32
// CHECK:         %[[B:.*]] = tt.sub %x, %y : i32
// CHECK:         %[[C:.*]] = tt.and %x, %{{.*}} : i32
// CHECK:         func.return %[[A]], %[[B]], %[[C]] : f32, i32, i32
