// RUN: mytriton-opt %s -p canonicalize | filecheck %s

// broadcast/expand_dims of a splat is a splat of the new shape; a broadcast to the same type
// is a no-op; two broadcasts in a row are one.

func.func @broadcast_splat(%a: f32) -> tensor<8x16xf32> {
  %s = tt.splat %a : f32 -> tensor<1x16xf32>
  %b = tt.broadcast %s : tensor<1x16xf32> -> tensor<8x16xf32>
  func.return %b : tensor<8x16xf32>
}
// CHECK-LABEL: func.func @broadcast_splat(%a: f32)
// CHECK-NEXT:    %[[S:.*]] = tt.splat %a : f32 -> tensor<8x16xf32>
// CHECK-NEXT:    func.return %[[S]] : tensor<8x16xf32>

func.func @expand_dims_splat(%a: i32) -> tensor<16x1xi32> {
  %s = tt.splat %a : i32 -> tensor<16xi32>
  %e = tt.expand_dims %s {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  func.return %e : tensor<16x1xi32>
}
// CHECK-LABEL: func.func @expand_dims_splat(%a: i32)
// CHECK-NEXT:    %[[S:.*]] = tt.splat %a : i32 -> tensor<16x1xi32>
// CHECK-NEXT:    func.return %[[S]] : tensor<16x1xi32>

func.func @expand_then_broadcast_splat(%a: i32) -> tensor<4x16xi32> {
  %s = tt.splat %a : i32 -> tensor<16xi32>
  %e = tt.expand_dims %s {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
  %b = tt.broadcast %e : tensor<1x16xi32> -> tensor<4x16xi32>
  func.return %b : tensor<4x16xi32>
}
// CHECK-LABEL: func.func @expand_then_broadcast_splat(%a: i32)
// CHECK-NEXT:    %[[S:.*]] = tt.splat %a : i32 -> tensor<4x16xi32>
// CHECK-NEXT:    func.return %[[S]] : tensor<4x16xi32>

func.func @broadcast_same_type(%x: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %b = tt.broadcast %x : tensor<4x16xf32> -> tensor<4x16xf32>
  func.return %b : tensor<4x16xf32>
}
// CHECK-LABEL: func.func @broadcast_same_type(%x: tensor<4x16xf32>)
// CHECK-NEXT:    func.return %x : tensor<4x16xf32>

func.func @broadcast_twice(%x: tensor<1x1xf32>) -> tensor<8x16xf32> {
  %b1 = tt.broadcast %x : tensor<1x1xf32> -> tensor<1x16xf32>
  %b2 = tt.broadcast %b1 : tensor<1x16xf32> -> tensor<8x16xf32>
  func.return %b2 : tensor<8x16xf32>
}
// CHECK-LABEL: func.func @broadcast_twice(%x: tensor<1x1xf32>)
// CHECK-NEXT:    %[[B:.*]] = tt.broadcast %x : tensor<1x1xf32> -> tensor<8x16xf32>
// CHECK-NEXT:    func.return %[[B]] : tensor<8x16xf32>

// A real broadcast of a non-splat block stays.
func.func @broadcast_kept(%x: tensor<16x1xf32>) -> tensor<16x4xf32> {
  %b = tt.broadcast %x : tensor<16x1xf32> -> tensor<16x4xf32>
  func.return %b : tensor<16x4xf32>
}
// CHECK-LABEL: func.func @broadcast_kept(%x: tensor<16x1xf32>)
// CHECK-NEXT:    %[[B:.*]] = tt.broadcast %x : tensor<16x1xf32> -> tensor<16x4xf32>
// CHECK-NEXT:    func.return %[[B]] : tensor<16x4xf32>
