// RUN: mytriton-opt %s -p canonicalize | filecheck %s

// Integer folding follows the GPU: i32 wraps, division truncates toward zero and the
// remainder takes the dividend's sign (C, not Python). Unused constants disappear.

func.func @i32_wrap() -> (i32, i32, i32, i32) {
  %max = arith.constant 2147483647 : i32
  %min = arith.constant -2147483648 : i32
  %one = arith.constant 1 : i32
  %a = tt.add %max, %one : i32
  %b = tt.sub %min, %one : i32
  %c = tt.mul %max, %max : i32
  %d = tt.neg %min : i32
  func.return %a, %b, %c, %d : i32, i32, i32, i32
}
// CHECK-LABEL: func.func @i32_wrap()
// CHECK-NEXT:    %[[A:.*]] = arith.constant -2147483648 : i32
// CHECK-NEXT:    %[[B:.*]] = arith.constant 2147483647 : i32
// CHECK-NEXT:    %[[C:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    %[[D:.*]] = arith.constant -2147483648 : i32
// CHECK-NEXT:    func.return %[[A]], %[[B]], %[[C]], %[[D]] : i32, i32, i32, i32

func.func @int_div() -> (i32, i32, i32, i32) {
  %m7 = arith.constant -7 : i32
  %two = arith.constant 2 : i32
  %m2 = arith.constant -2 : i32
  %a = tt.div %m7, %two : i32
  %b = tt.rem %m7, %two : i32
  %c = tt.div %m7, %m2 : i32
  %d = tt.rem %m7, %m2 : i32
  func.return %a, %b, %c, %d : i32, i32, i32, i32
}
// CHECK-LABEL: func.func @int_div()
// CHECK-NEXT:    %[[A:.*]] = arith.constant -3 : i32
// CHECK-NEXT:    %[[B:.*]] = arith.constant -1 : i32
// CHECK-NEXT:    %[[C:.*]] = arith.constant 3 : i32
// CHECK-NEXT:    %[[D:.*]] = arith.constant -1 : i32
// CHECK-NEXT:    func.return %[[A]], %[[B]], %[[C]], %[[D]] : i32, i32, i32, i32

func.func @bits_and_compare() -> (i32, i1, i1, i32, i32) {
  %m1 = arith.constant -1 : i32
  %x = arith.constant 12 : i32
  %y = arith.constant 10 : i32
  %t = arith.constant true
  %and = tt.and %x, %y : i32
  %xor = tt.xor %t, %t : i1
  %lt = tt.cmp lt, %m1, %x : i32
  %max = tt.maximum %x, %y : i32
  %or = tt.or %x, %y : i32
  func.return %and, %xor, %lt, %max, %or : i32, i1, i1, i32, i32
}
// CHECK-LABEL: func.func @bits_and_compare()
// CHECK-NEXT:    %[[AND:.*]] = arith.constant 8 : i32
// CHECK-NEXT:    %[[XOR:.*]] = arith.constant false
// CHECK-NEXT:    %[[LT:.*]] = arith.constant true
// CHECK-NEXT:    %[[MAX:.*]] = arith.constant 12 : i32
// CHECK-NEXT:    %[[OR:.*]] = arith.constant 14 : i32
// CHECK-NEXT:    func.return %[[AND]], %[[XOR]], %[[LT]], %[[MAX]], %[[OR]]

// Splats of constants fold as blocks: the wrapped scalar is splatted.
func.func @block_wrap() -> tensor<16xi32> {
  %max = arith.constant 2147483647 : i32
  %one = arith.constant 1 : i32
  %s1 = tt.splat %max : i32 -> tensor<16xi32>
  %s2 = tt.splat %one : i32 -> tensor<16xi32>
  %r = tt.add %s1, %s2 : tensor<16xi32>
  func.return %r : tensor<16xi32>
}
// CHECK-LABEL: func.func @block_wrap()
// CHECK-NEXT:    %[[C:.*]] = arith.constant -2147483648 : i32
// CHECK-NEXT:    %[[S:.*]] = tt.splat %[[C]] : i32 -> tensor<16xi32>
// CHECK-NEXT:    func.return %[[S]] : tensor<16xi32>

// Float -> int casts truncate toward zero.
func.func @cast_trunc() -> (i32, i32) {
  %a = arith.constant -2.7 : f32
  %b = arith.constant 2.7 : f32
  %ca = tt.cast %a : f32 -> i32
  %cb = tt.cast %b : f32 -> i32
  func.return %ca, %cb : i32, i32
}
// CHECK-LABEL: func.func @cast_trunc()
// CHECK-NEXT:    %[[A:.*]] = arith.constant -2 : i32
// CHECK-NEXT:    %[[B:.*]] = arith.constant 2 : i32
// CHECK-NEXT:    func.return %[[A]], %[[B]] : i32, i32
