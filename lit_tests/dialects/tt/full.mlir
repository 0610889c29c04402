// RUN: mytriton-opt %s | mytriton-opt | filecheck %s
// RUN: mytriton-opt %s --print-op-generic | mytriton-opt | filecheck %s
// RUN: mytriton-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

func.func @full(%f: f32, %i: i32, %b: i1, %h: f16) {
  %a = tt.full %f : f32 -> tensor<8x4xf32>
  %c = tt.full %i : i32 -> tensor<32xi32>
  %d = tt.full %b : i1 -> tensor<2x2xi1>
  %e = tt.full %h : f16 -> tensor<16xf16>
  func.return
}
// CHECK-LABEL: func.func @full(%f: f32, %i: i32, %b: i1, %h: f16)
// CHECK-NEXT:    %a = tt.full %f : f32 -> tensor<8x4xf32>
// CHECK-NEXT:    %c = tt.full %i : i32 -> tensor<32xi32>
// CHECK-NEXT:    %d = tt.full %b : i1 -> tensor<2x2xi1>
// CHECK-NEXT:    %e = tt.full %h : f16 -> tensor<16xf16>
// CHECK-NEXT:    func.return

// GENERIC: %a = "tt.full"(%f) : (f32) -> tensor<8x4xf32>
// GENERIC: %d = "tt.full"(%b) : (i1) -> tensor<2x2xi1>
