// RUN: mytriton-opt %s -p canonicalize | filecheck %s

// `sum(x[:, :, None] * y[None, :, :], axis=1)` of f32 blocks with K >= 16 is `dot(x, y)` (ieee,
// zero accumulator), and `acc + dot` then folds into the dot. Other reductions, axes, element
// types, a K under 16 and combine functions other than `a + b` stay as they are.

func.func @sum_of_product(%x: tensor<32x16xf32>, %y: tensor<16x8xf32>, %acc: tensor<32x8xf32>) -> tensor<32x8xf32> {
  %xe = tt.expand_dims %x {axis = 2 : i32} : tensor<32x16xf32> -> tensor<32x16x1xf32>
  %ye = tt.expand_dims %y {axis = 0 : i32} : tensor<16x8xf32> -> tensor<1x16x8xf32>
  %xb = tt.broadcast %xe : tensor<32x16x1xf32> -> tensor<32x16x8xf32>
  %yb = tt.broadcast %ye : tensor<1x16x8xf32> -> tensor<32x16x8xf32>
  %p = tt.mul %yb, %xb : tensor<32x16x8xf32>
  %t = tt.reduce %p {axis = 1 : i32} : tensor<32x16x8xf32> -> tensor<32x8xf32> {
  ^bb0(%a: f32, %b: f32):
    %s = tt.add %b, %a : f32
    tt.reduce.return %s : f32
  }
  %r = tt.add %t, %acc : tensor<32x8xf32>
  func.return %r : tensor<32x8xf32>
}
// CHECK-LABEL: func.func @sum_of_product(
// CHECK-NEXT:    %r = tt.dot %x, %y, %acc {input_precision = "ieee"} : tensor<32x16xf32> * tensor<16x8xf32> -> tensor<32x8xf32>
// CHECK-NEXT:    func.return %r

func.func @max_of_product(%x: tensor<32x16xf32>, %y: tensor<16x8xf32>) -> tensor<32x8xf32> {
  %xe = tt.expand_dims %x {axis = 2 : i32} : tensor<32x16xf32> -> tensor<32x16x1xf32>
  %ye = tt.expand_dims %y {axis = 0 : i32} : tensor<16x8xf32> -> tensor<1x16x8xf32>
  %xb = tt.broadcast %xe : tensor<32x16x1xf32> -> tensor<32x16x8xf32>
  %yb = tt.broadcast %ye : tensor<1x16x8xf32> -> tensor<32x16x8xf32>
  %p = tt.mul %xb, %yb : tensor<32x16x8xf32>
  %t = tt.reduce %p {axis = 1 : i32} : tensor<32x16x8xf32> -> tensor<32x8xf32> {
  ^bb0(%a: f32, %b: f32):
    %s = tt.maximum %a, %b : f32
    tt.reduce.return %s : f32
  }
  func.return %t : tensor<32x8xf32>
}
// CHECK-LABEL: func.func @max_of_product(
// CHECK:         tt.reduce
// CHECK-NOT:     tt.dot

func.func @small_k(%x: tensor<32x8xf32>, %y: tensor<8x8xf32>) -> tensor<32x8xf32> {
  %xe = tt.expand_dims %x {axis = 2 : i32} : tensor<32x8xf32> -> tensor<32x8x1xf32>
  %ye = tt.expand_dims %y {axis = 0 : i32} : tensor<8x8xf32> -> tensor<1x8x8xf32>
  %xb = tt.broadcast %xe : tensor<32x8x1xf32> -> tensor<32x8x8xf32>
  %yb = tt.broadcast %ye : tensor<1x8x8xf32> -> tensor<32x8x8xf32>
  %p = tt.mul %xb, %yb : tensor<32x8x8xf32>
  %t = tt.reduce %p {axis = 1 : i32} : tensor<32x8x8xf32> -> tensor<32x8xf32> {
  ^bb0(%a: f32, %b: f32):
    %s = tt.add %a, %b : f32
    tt.reduce.return %s : f32
  }
  func.return %t : tensor<32x8xf32>
}
// CHECK-LABEL: func.func @small_k(
// CHECK:         tt.reduce
// CHECK-NOT:     tt.dot

func.func @f16_product(%x: tensor<32x16xf16>, %y: tensor<16x8xf16>) -> tensor<32x8xf16> {
  %xe = tt.expand_dims %x {axis = 2 : i32} : tensor<32x16xf16> -> tensor<32x16x1xf16>
  %ye = tt.expand_dims %y {axis = 0 : i32} : tensor<16x8xf16> -> tensor<1x16x8xf16>
  %xb = tt.broadcast %xe : tensor<32x16x1xf16> -> tensor<32x16x8xf16>
  %yb = tt.broadcast %ye : tensor<1x16x8xf16> -> tensor<32x16x8xf16>
  %p = tt.mul %xb, %yb : tensor<32x16x8xf16>
  %t = tt.reduce %p {axis = 1 : i32} : tensor<32x16x8xf16> -> tensor<32x8xf16> {
  ^bb0(%a: f16, %b: f16):
    %s = tt.add %a, %b : f16
    tt.reduce.return %s : f16
  }
  func.return %t : tensor<32x8xf16>
}
// CHECK-LABEL: func.func @f16_product(
// CHECK:         tt.reduce
// CHECK-NOT:     tt.dot
// CHECK:         func.return
