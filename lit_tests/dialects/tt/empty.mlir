// RUN: mytriton-opt %s | mytriton-opt | filecheck %s
// RUN: mytriton-opt %s --print-op-generic | mytriton-opt | filecheck %s
// RUN: mytriton-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

func.func @empty() {
  %a = tt.empty : tensor<4x4xf32>
  %b = tt.empty : tensor<256xi32>
  %c = tt.empty : tensor<8xf64>
  func.return
}
// CHECK-LABEL: func.func @empty()
// CHECK-NEXT:    %a = tt.empty : tensor<4x4xf32>
// CHECK-NEXT:    %b = tt.empty : tensor<256xi32>
// CHECK-NEXT:    %c = tt.empty : tensor<8xf64>
// CHECK-NEXT:    func.return

// GENERIC: %a = "tt.empty"() : () -> tensor<4x4xf32>
// GENERIC: %b = "tt.empty"() : () -> tensor<256xi32>
