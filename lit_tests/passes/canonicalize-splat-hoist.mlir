// RUN: mytriton-opt %s -p canonicalize | filecheck %s

// Elementwise ops (and addptr) over splats are computed once on the scalars and the
// result is splatted: constant folding of scalars then reaches blocks too.

func.func @binary(%a: i32, %b: i32) -> tensor<64xi32> {
  %sa = tt.splat %a : i32 -> tensor<64xi32>
  %sb = tt.splat %b : i32 -> tensor<64xi32>
  %r = tt.mul %sa, %sb : tensor<64xi32>
  func.return %r : tensor<64xi32>
}
// CHECK-LABEL: func.func @binary(%a: i32, %b: i32)
// CHECK-NEXT:    %[[M:.*]] = tt.mul %a, %b : i32
// CHECK-NEXT:    %[[S:.*]] = tt.splat %[[M]] : i32 -> tensor<64xi32>
// CHECK-NEXT:    func.return %[[S]] : tensor<64xi32>

func.func @unary(%a: f32) -> tensor<8x8xf32> {
  %sa = tt.splat %a : f32 -> tensor<8x8xf32>
  %r = tt.exp %sa : tensor<8x8xf32>
  func.return %r : tensor<8x8xf32>
}
// CHECK-LABEL: func.func @unary(%a: f32)
// CHECK-NEXT:    %[[E:.*]] = tt.exp %a : f32
// CHECK-NEXT:    %[[S:.*]] = tt.splat %[[E]] : f32 -> tensor<8x8xf32>
// CHECK-NEXT:    func.return %[[S]] : tensor<8x8xf32>

func.func @cmp(%a: i32, %b: i32) -> tensor<16xi1> {
  %sa = tt.splat %a : i32 -> tensor<16xi32>
  %sb = tt.splat %b : i32 -> tensor<16xi32>
  %r = tt.cmp le, %sa, %sb : tensor<16xi32>
  func.return %r : tensor<16xi1>
}
// CHECK-LABEL: func.func @cmp(%a: i32, %b: i32)
// CHECK-NEXT:    %[[C:.*]] = tt.cmp le, %a, %b : i32
// CHECK-NEXT:    %[[S:.*]] = tt.splat %[[C]] : i1 -> tensor<16xi1>
// CHECK-NEXT:    func.return %[[S]] : tensor<16xi1>

func.func @cast(%a: i32) -> tensor<16xf32> {
  %sa = tt.splat %a : i32 -> tensor<16xi32>
  %r = tt.cast %sa : tensor<16xi32> -> tensor<16xf32>
  func.return %r : tensor<16xf32>
}
// CHECK-LABEL: func.func @cast(%a: i32)
// CHECK-NEXT:    %[[C:.*]] = tt.cast %a : i32 -> f32
// CHECK-NEXT:    %[[S:.*]] = tt.splat %[[C]] : f32 -> tensor<16xf32>
// CHECK-NEXT:    func.return %[[S]] : tensor<16xf32>

func.func @select(%c: i1, %a: f32, %b: f32) -> tensor<16xf32> {
  %sc = tt.splat %c : i1 -> tensor<16xi1>
  %sa = tt.splat %a : f32 -> tensor<16xf32>
  %sb = tt.splat %b : f32 -> tensor<16xf32>
  %r = tt.select %sc, %sa, %sb : tensor<16xf32>
  func.return %r : tensor<16xf32>
}
// CHECK-LABEL: func.func @select(%c: i1, %a: f32, %b: f32)
// CHECK-NEXT:    %[[R:.*]] = tt.select %c, %a, %b : f32
// CHECK-NEXT:    %[[S:.*]] = tt.splat %[[R]] : f32 -> tensor<16xf32>
// CHECK-NEXT:    func.return %[[S]] : tensor<16xf32>

func.func @addptr(%p: !tt.ptr<f16>, %o: i32) -> tensor<32x!tt.ptr<f16>> {
  %sp = tt.splat %p : !tt.ptr<f16> -> tensor<32x!tt.ptr<f16>>
  %so = tt.splat %o : i32 -> tensor<32xi32>
  %r = tt.addptr %sp, %so : tensor<32x!tt.ptr<f16>>, tensor<32xi32>
  func.return %r : tensor<32x!tt.ptr<f16>>
}
// CHECK-LABEL: func.func @addptr(%p: !tt.ptr<f16>, %o: i32)
// CHECK-NEXT:    %[[P:.*]] = tt.addptr %p, %o : !tt.ptr<f16>, i32
// CHECK-NEXT:    %[[S:.*]] = tt.splat %[[P]] : !tt.ptr<f16> -> tensor<32x!tt.ptr<f16>>
// CHECK-NEXT:    func.return %[[S]] : tensor<32x!tt.ptr<f16>>

// A chain of block ops collapses to a chain of scalar ops and one splat.
func.func @chain(%a: i32) -> tensor<16xi32> {
  %sa = tt.splat %a : i32 -> tensor<16xi32>
  %n = tt.neg %sa : tensor<16xi32>
  %m = tt.mul %n, %sa : tensor<16xi32>
  func.return %m : tensor<16xi32>
}
// CHECK-LABEL: func.func @chain(%a: i32)
// CHECK-NEXT:    %[[N:.*]] = tt.neg %a : i32
// CHECK-NEXT:    %[[M:.*]] = tt.mul %[[N]], %a : i32
// CHECK-NEXT:    %[[S:.*]] = tt.splat %[[M]] : i32 -> tensor<16xi32>
// CHECK-NEXT:    func.return %[[S]] : tensor<16xi32>

// Only one operand is a splat: nothing to hoist.
func.func @mixed(%a: i32, %v: tensor<16xi32>) -> tensor<16xi32> {
  %sa = tt.splat %a : i32 -> tensor<16xi32>
  %r = tt.add %sa, %v : tensor<16xi32>
  func.return %r : tensor<16xi32>
}
// CHECK-LABEL: func.func @mixed(%a: i32, %v: tensor<16xi32>)
// CHECK-NEXT:    %[[S:.*]] = tt.splat %a : i32 -> tensor<16xi32>
// CHECK-NEXT:    %[[R:.*]] = tt.add %[[S]], %v : tensor<16xi32>
// CHECK-NEXT:    func.return %[[R]] : tensor<16xi32>
