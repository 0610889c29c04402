// RUN: mytriton-opt %s | mytriton-opt | filecheck %s
// RUN: mytriton-opt %s --print-op-generic | mytriton-opt | filecheck %s
// RUN: mytriton-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// Every unary elementwise op: math on floats, neg/abs on integers too.
func.func @unary(%x: tensor<32xf32>, %h: f16, %i: tensor<4x4xi32>) {
  %neg = tt.neg %x : tensor<32xf32>
  %abs = tt.abs %x : tensor<32xf32>
  %exp = tt.exp %x : tensor<32xf32>
  %exp2 = tt.exp2 %x : tensor<32xf32>
  %log = tt.log %x : tensor<32xf32>
  %log2 = tt.log2 %x : tensor<32xf32>
  %sqrt = tt.sqrt %x : tensor<32xf32>
  %rsqrt = tt.rsqrt %x : tensor<32xf32>
  %sin = tt.sin %x : tensor<32xf32>
  %cos = tt.cos %x : tensor<32xf32>
  %floor = tt.floor %x : tensor<32xf32>
  %ceil = tt.ceil %x : tensor<32xf32>
  %hexp = tt.exp %h : f16
  %ineg = tt.neg %i : tensor<4x4xi32>
  %iabs = tt.abs %i : tensor<4x4xi32>
  func.return
}
// CHECK-LABEL: func.func @unary(
// CHECK-NEXT:    %neg = tt.neg %x : tensor<32xf32>
// CHECK-NEXT:    %abs = tt.abs %x : tensor<32xf32>
// CHECK-NEXT:    %exp = tt.exp %x : tensor<32xf32>
// CHECK-NEXT:    %exp2 = tt.exp2 %x : tensor<32xf32>
// CHECK-NEXT:    %log = tt.log %x : tensor<32xf32>
// CHECK-NEXT:    %log2 = tt.log2 %x : tensor<32xf32>
// CHECK-NEXT:    %sqrt = tt.sqrt %x : tensor<32xf32>
// CHECK-NEXT:    %rsqrt = tt.rsqrt %x : tensor<32xf32>
// CHECK-NEXT:    %sin = tt.sin %x : tensor<32xf32>
// CHECK-NEXT:    %cos = tt.cos %x : tensor<32xf32>
// CHECK-NEXT:    %floor = tt.floor %x : tensor<32xf32>
// CHECK-NEXT:    %ceil = tt.ceil %x : tensor<32xf32>
// CHECK-NEXT:    %hexp = tt.exp %h : f16
// CHECK-NEXT:    %ineg = tt.neg %i : tensor<4x4xi32>
// CHECK-NEXT:    %iabs = tt.abs %i : tensor<4x4xi32>
// CHECK-NEXT:    func.return

// GENERIC: %neg = "tt.neg"(%x) : (tensor<32xf32>) -> tensor<32xf32>
// GENERIC: %rsqrt = "tt.rsqrt"(%x) : (tensor<32xf32>) -> tensor<32xf32>
// GENERIC: %hexp = "tt.exp"(%h) : (f16) -> f16
