// RUN: mytriton-opt %s | mytriton-opt | filecheck %s
// RUN: mytriton-opt %s --print-op-generic | mytriton-opt | filecheck %s
// RUN: mytriton-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

func.func @broadcasts(%a: tensor<1x16xf32>, %b: tensor<16x1xi32>, %c: tensor<1x1x!tt.ptr<f32>>) {
  %x = tt.broadcast %a : tensor<1x16xf32> -> tensor<8x16xf32>
  %y = tt.broadcast %b : tensor<16x1xi32> -> tensor<16x32xi32>
  %z = tt.broadcast %c : tensor<1x1x!tt.ptr<f32>> -> tensor<4x2x!tt.ptr<f32>>
  %same = tt.broadcast %a : tensor<1x16xf32> -> tensor<1x16xf32>
  func.return
}
// CHECK-LABEL: func.func @broadcasts(
// CHECK-NEXT:    %x = tt.broadcast %a : tensor<1x16xf32> -> tensor<8x16xf32>
// CHECK-NEXT:    %y = tt.broadcast %b : tensor<16x1xi32> -> tensor<16x32xi32>
// CHECK-NEXT:    %z = tt.broadcast %c : tensor<1x1x!tt.ptr<f32>> -> tensor<4x2x!tt.ptr<f32>>
// CHECK-NEXT:    %same = tt.broadcast %a : tensor<1x16xf32> -> tensor<1x16xf32>
// CHECK-NEXT:    func.return

// GENERIC: %x = "tt.broadcast"(%a) : (tensor<1x16xf32>) -> tensor<8x16xf32>
