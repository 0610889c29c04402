// RUN: mytriton-opt %s | mytriton-opt | filecheck %s
// RUN: mytriton-opt %s --print-op-generic | mytriton-opt | filecheck %s
// RUN: mytriton-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

func.func @zeros() {
  %a = tt.zeros : tensor<4x8xf32>
  %b = tt.zeros : tensor<128xi32>
  %c = tt.zeros : tensor<2x2x2xi1>
  %d = tt.zeros : tensor<64xbf16>
  func.return
}
// CHECK-LABEL: func.func @zeros()
// CHECK-NEXT:    %a = tt.zeros : tensor<4x8xf32>
// CHECK-NEXT:    %b = tt.zeros : tensor<128xi32>
// CHECK-NEXT:    %c = tt.zeros : tensor<2x2x2xi1>
// CHECK-NEXT:    %d = tt.zeros : tensor<64xbf16>
// CHECK-NEXT:    func.return

// GENERIC: %a = "tt.zeros"() : () -> tensor<4x8xf32>
// GENERIC: %c = "tt.zeros"() : () -> tensor<2x2x2xi1>
