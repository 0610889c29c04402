// RUN: mytriton-opt %s | mytriton-opt | filecheck %s
// RUN: mytriton-opt %s --print-op-generic | mytriton-opt | filecheck %s
// RUN: mytriton-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

func.func @dots(%a: tensor<16x32xf32>, %b: tensor<32x64xf32>, %c: tensor<16x64xf32>, %x: tensor<1x1xf32>) {
  %d = tt.dot %a, %b, %c : tensor<16x32xf32> * tensor<32x64xf32> -> tensor<16x64xf32>
  %e = tt.dot %x, %x, %x : tensor<1x1xf32> * tensor<1x1xf32> -> tensor<1x1xf32>
  func.return
}
// CHECK-LABEL: func.func @dots(
// CHECK-NEXT:    %d = tt.dot %a, %b, %c : tensor<16x32xf32> * tensor<32x64xf32> -> tensor<16x64xf32>
// CHECK-NEXT:    %e = tt.dot %x, %x, %x : tensor<1x1xf32> * tensor<1x1xf32> -> tensor<1x1xf32>
// CHECK-NEXT:    func.return

// GENERIC: %d = "tt.dot"(%a, %b, %c) : (tensor<16x32xf32>, tensor<32x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
