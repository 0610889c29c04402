// RUN: mytriton-opt %s -p canonicalize | filecheck %s

// select with a constant (scalar or splat) condition picks an operand; with equal operands
// it is that operand.

func.func @select_true(%a: tensor<16xf32>, %b: tensor<16xf32>) -> tensor<16xf32> {
  %t = arith.constant true
  %st = tt.splat %t : i1 -> tensor<16xi1>
  %r = tt.select %st, %a, %b : tensor<16xf32>
  func.return %r : tensor<16xf32>
}
// CHECK-LABEL: func.func @select_true(%a: tensor<16xf32>, %b: tensor<16xf32>)
// CHECK-NEXT:    func.return %a : tensor<16xf32>

func.func @select_false(%a: tensor<16xf32>, %b: tensor<16xf32>) -> tensor<16xf32> {
  %f = arith.constant false
  %sf = tt.splat %f : i1 -> tensor<16xi1>
  %r = tt.select %sf, %a, %b : tensor<16xf32>
  func.return %r : tensor<16xf32>
}
// CHECK-LABEL: func.func @select_false(%a: tensor<16xf32>, %b: tensor<16xf32>)
// CHECK-NEXT:    func.return %b : tensor<16xf32>

func.func @select_scalar(%a: i32, %b: i32) -> i32 {
  %t = arith.constant true
  %r = tt.select %t, %a, %b : i32
  func.return %r : i32
}
// CHECK-LABEL: func.func @select_scalar(%a: i32, %b: i32)
// CHECK-NEXT:    func.return %a : i32

func.func @select_same(%m: tensor<16xi1>, %a: tensor<16xf32>) -> tensor<16xf32> {
  %r = tt.select %m, %a, %a : tensor<16xf32>
  func.return %r : tensor<16xf32>
}
// CHECK-LABEL: func.func @select_same(%m: tensor<16xi1>, %a: tensor<16xf32>)
// CHECK-NEXT:    func.return %a : tensor<16xf32>

// A condition computed from constants folds first, then the select goes.
func.func @select_folded_cond(%a: i32, %b: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %lt = tt.cmp gt, %c1, %c2 : i32
  %r = tt.select %lt, %a, %b : i32
  func.return %r : i32
}
// CHECK-LABEL: func.func @select_folded_cond(%a: i32, %b: i32)
// CHECK-NEXT:    func.return %b : i32

// An unknown condition keeps the select.
func.func @select_kept(%m: tensor<16xi1>, %a: tensor<16xf32>, %b: tensor<16xf32>) -> tensor<16xf32> {
  %r = tt.select %m, %a, %b : tensor<16xf32>
  func.return %r : tensor<16xf32>
}
// CHECK-LABEL: func.func @select_kept(%m: tensor<16xi1>, %a: tensor<16xf32>, %b: tensor<16xf32>)
// CHECK-NEXT:    %[[R:.*]] = tt.select %m, %a, %b : tensor<16xf32>
// CHECK-NEXT:    func.return %[[R]] : tensor<16xf32>
