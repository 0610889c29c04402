// RUN: mytriton-opt %s | mytriton-opt | filecheck %s
// RUN: mytriton-opt %s --print-op-generic | mytriton-opt | filecheck %s
// RUN: mytriton-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

func.func @casts(%i: tensor<16xi32>, %f: f32, %b: tensor<16xi1>, %h: tensor<2x2xf16>) {
  %itof = tt.cast %i : tensor<16xi32> -> tensor<16xf32>
  %ftoi = tt.cast %f : f32 -> i32
  %ftob = tt.cast %f : f32 -> i1
  %btoi = tt.cast %b : tensor<16xi1> -> tensor<16xi32>
  %htof = tt.cast %h : tensor<2x2xf16> -> tensor<2x2xf32>
  %itol = tt.cast %i : tensor<16xi32> -> tensor<16xi64>
  func.return
}
// CHECK-LABEL: func.func @casts(
// CHECK-NEXT:    %itof = tt.cast %i : tensor<16xi32> -> tensor<16xf32>
// CHECK-NEXT:    %ftoi = tt.cast %f : f32 -> i32
// CHECK-NEXT:    %ftob = tt.cast %f : f32 -> i1
// CHECK-NEXT:    %btoi = tt.cast %b : tensor<16xi1> -> tensor<16xi32>
// CHECK-NEXT:    %htof = tt.cast %h : tensor<2x2xf16> -> tensor<2x2xf32>
// CHECK-NEXT:    %itol = tt.cast %i : tensor<16xi32> -> tensor<16xi64>
// CHECK-NEXT:    func.return

// GENERIC: %itof = "tt.cast"(%i) : (tensor<16xi32>) -> tensor<16xf32>
// GENERIC: %ftob = "tt.cast"(%f) : (f32) -> i1

// -----

// CHECK-LABEL: func.func @bitcasts
func.func @bitcasts(%a: tensor<16xf32>, %h: f16) {
  // CHECK: tt.bitcast %a : tensor<16xf32> -> tensor<16xi32>
  %0 = tt.bitcast %a : tensor<16xf32> -> tensor<16xi32>
  // CHECK: tt.bitcast %h : f16 -> i16
  %1 = tt.bitcast %h : f16 -> i16
  func.return
}
