// RUN: mytriton-opt %s | mytriton-opt | filecheck %s
// RUN: mytriton-opt %s --print-op-generic | mytriton-opt | filecheck %s
// RUN: mytriton-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

func.func @reductions(%a: tensor<16x32xf32>, %b: tensor<64xi32>, %c: tensor<2x4x8xf16>) {
  %s0 = tt.reduce sum %a {axis = 0 : i32} : tensor<16x32xf32> -> tensor<32xf32>
  %s1 = tt.reduce max %a {axis = 1 : i32} : tensor<16x32xf32> -> tensor<16xf32>
  %s2 = tt.reduce min %b {axis = 0 : i32} : tensor<64xi32> -> i32
  %s3 = tt.reduce sum %c {axis = 2 : i32} : tensor<2x4x8xf16> -> tensor<2x4xf16>
  func.return
}
// CHECK-LABEL: func.func @reductions(
// CHECK-NEXT:    %s0 = tt.reduce sum %a {axis = 0 : i32} : tensor<16x32xf32> -> tensor<32xf32>
// CHECK-NEXT:    %s1 = tt.reduce max %a {axis = 1 : i32} : tensor<16x32xf32> -> tensor<16xf32>
// CHECK-NEXT:    %s2 = tt.reduce min %b {axis = 0 : i32} : tensor<64xi32> -> i32
// CHECK-NEXT:    %s3 = tt.reduce sum %c {axis = 2 : i32} : tensor<2x4x8xf16> -> tensor<2x4xf16>
// CHECK-NEXT:    func.return

// GENERIC: %s0 = "tt.reduce"(%a) <{kind = #tt<reduce_kind sum>, axis = 0 : i32}> : (tensor<16x32xf32>) -> tensor<32xf32>
// GENERIC: %s1 = "tt.reduce"(%a) <{kind = #tt<reduce_kind max>, axis = 1 : i32}> : (tensor<16x32xf32>) -> tensor<16xf32>
// GENERIC: %s2 = "tt.reduce"(%b) <{kind = #tt<reduce_kind min>, axis = 0 : i32}> : (tensor<64xi32>) -> i32
