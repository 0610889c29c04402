// RUN: mytriton-opt %s -p canonicalize | filecheck %s

// Adding a zero offset (scalar, splat or folded) is the pointer itself.

func.func @scalar_zero(%p: !tt.ptr<f32>) -> !tt.ptr<f32> {
  %c0 = arith.constant 0 : i32
  %q = tt.addptr %p, %c0 : !tt.ptr<f32>, i32
  func.return %q : !tt.ptr<f32>
}
// CHECK-LABEL: func.func @scalar_zero(%p: !tt.ptr<f32>)
// CHECK-NEXT:    func.return %p : !tt.ptr<f32>

func.func @splat_zero(%p: tensor<64x!tt.ptr<f32>>) -> tensor<64x!tt.ptr<f32>> {
  %c0 = arith.constant 0 : i64
  %z = tt.splat %c0 : i64 -> tensor<64xi64>
  %q = tt.addptr %p, %z : tensor<64x!tt.ptr<f32>>, tensor<64xi64>
  func.return %q : tensor<64x!tt.ptr<f32>>
}
// CHECK-LABEL: func.func @splat_zero(%p: tensor<64x!tt.ptr<f32>>)
// CHECK-NEXT:    func.return %p : tensor<64x!tt.ptr<f32>>

func.func @folded_zero(%p: !tt.ptr<f32>) -> !tt.ptr<f32> {
  %c5 = arith.constant 5 : i32
  %d = tt.sub %c5, %c5 : i32
  %q = tt.addptr %p, %d : !tt.ptr<f32>, i32
  func.return %q : !tt.ptr<f32>
}
// CHECK-LABEL: func.func @folded_zero(%p: !tt.ptr<f32>)
// CHECK-NEXT:    func.return %p : !tt.ptr<f32>

// A non-zero constant offset stays.
func.func @nonzero(%p: !tt.ptr<f32>) -> !tt.ptr<f32> {
  %c4 = arith.constant 4 : i32
  %q = tt.addptr %p, %c4 : !tt.ptr<f32>, i32
  func.return %q : !tt.ptr<f32>
}
// CHECK-LABEL: func.func @nonzero(%p: !tt.ptr<f32>)
// CHECK-NEXT:    %[[C:.*]] = arith.constant 4 : i32
// CHECK-NEXT:    %[[Q:.*]] = tt.addptr %p, %[[C]] : !tt.ptr<f32>, i32
// CHECK-NEXT:    func.return %[[Q]] : !tt.ptr<f32>
